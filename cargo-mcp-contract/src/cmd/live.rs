//! Arguments shared by the commands that drive a live server
//! (`snapshot`, `verify`, `replay`, `check`): where the server is (the
//! command after `--`, `--url` with `--header`s, or `--config FILE --name
//! NAME` from an MCP client configuration), the transport, the protocol
//! revision, the timeout and the answer-size limit.

use std::path::PathBuf;
use std::time::Duration;

use mcp_contract_driver::{
    DriverError, Endpoint, HttpEndpoint, HttpTransport, Options, Protocol, ServerCommand,
};

use crate::output;

#[derive(clap::Args, Debug, Clone)]
pub struct ServerArgs {
    /// Seconds to wait for each answer from the server (the first includes its start-up)
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = parse_secs)]
    pub timeout: Duration,
    /// Connect to a running server over HTTP instead of starting one (Streamable HTTP; legacy SSE detected)
    #[arg(long, value_name = "URL", conflicts_with = "config")]
    pub url: Option<String>,
    /// The HTTP transport: auto (Streamable HTTP, falling back to legacy SSE), streamable-http or sse
    #[arg(long, value_name = "KIND", default_value = "auto", value_parser = parse_transport)]
    pub transport: HttpTransport,
    /// An HTTP header, `NAME: VALUE`; `${VAR}` in the value is read from the environment (repeatable; values are never printed or recorded)
    #[arg(long = "header", short = 'H', value_name = "HEADER")]
    pub headers: Vec<String>,
    /// An MCP client configuration file (`mcpServers`, e.g. .mcp.json) to take the server from
    /// (with --name; `check` and `lock` without --name take every server it names)
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// The server's name in --config
    #[arg(long, value_name = "NAME", requires = "config")]
    pub name: Option<String>,
    /// The protocol revision: auto (2026-07-28 via server/discover where supported, else 2025-11-25), 2025-11-25 or 2026-07-28
    #[arg(long, value_name = "REV", default_value = "auto", value_parser = parse_protocol)]
    pub protocol: Protocol,
    /// The largest answer accepted over HTTP, in bytes
    #[arg(long, value_name = "BYTES", default_value_t = mcp_contract_driver::session::DEFAULT_MAX_RESPONSE)]
    pub max_response: u64,
    /// The server command and its arguments, after `--` (run directly, not through a shell)
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

impl ServerArgs {
    /// Is the server given by `--url` or `--config` (no `--server` needed)?
    pub fn remote(&self) -> bool {
        self.url.is_some() || self.config.is_some()
    }

    /// Where the server is, or a usage error (exit 2).
    pub fn endpoint(&self) -> Result<Endpoint, u8> {
        let env = |name: &str| std::env::var(name).ok();
        let usage = |message: String, help: &str| {
            eprintln!("error: {message}\n  help: {help}");
            output::ERROR
        };
        if self.remote() && !self.command.is_empty() {
            return Err(usage(
                "a server command after `--` and --url/--config both say where the server is"
                    .into(),
                "keep one of them",
            ));
        }
        if let (Some(file), Some(name)) = (&self.config, &self.name) {
            if !self.headers.is_empty() {
                return Err(usage(
                    "--header goes with --url".into(),
                    "put headers in the configuration's `headers`",
                ));
            }
            return mcp_contract_driver::config::read(file, name, &env)
                .map_err(|e| output::input_error(&e));
        }
        if let (Some(file), None) = (&self.config, &self.name) {
            let names = std::fs::read(file)
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok())
                .map(|v| mcp_contract_driver::config::names(&v))
                .unwrap_or_default();
            return Err(usage(
                format!("--config {} needs --name NAME here", file.display()),
                &if names.is_empty() {
                    "name the server to use".to_string()
                } else {
                    format!("servers there: {}", names.join(", "))
                },
            ));
        }
        if let Some(url) = &self.url {
            let mut h = HttpEndpoint::new(url).map_err(|e| usage(e.message, &e.fix))?;
            h.transport = self.transport;
            for spec in &self.headers {
                h.header(spec, &env).map_err(|e| usage(e.message, &e.fix))?;
            }
            return Ok(Endpoint::Http(h));
        }
        if !self.headers.is_empty() {
            return Err(usage(
                "--header needs --url".into(),
                "headers are sent to a server reached over HTTP",
            ));
        }
        ServerCommand::from_argv(&self.command)
            .map(Endpoint::Command)
            .ok_or_else(|| {
                usage(
                    "no server command given (nor --url or --config)".into(),
                    "put the command that starts the server on stdio after `--` (e.g. `-- npx -y @modelcontextprotocol/server-everything`), or give --url URL, or --config .mcp.json --name NAME",
                )
            })
    }

    pub fn options(&self) -> Options {
        Options {
            timeout: self.timeout,
            max_response: self.max_response,
            protocol: self.protocol,
        }
    }

    /// How the server was given, again, for help messages (never header values).
    pub fn shell_words(&self) -> String {
        if let (Some(file), Some(name)) = (&self.config, &self.name) {
            return format!("--config {} --name {name}", file.display());
        }
        if let Some(url) = &self.url {
            let mut s = format!("--url {}", mcp_contract_driver::endpoint::shown_url(url));
            for h in &self.headers {
                let name = h.split(':').next().unwrap_or("").trim();
                s.push_str(&format!(" --header \"{name}: ...\""));
            }
            return s;
        }
        ServerCommand::from_argv(&self.command)
            .map(|c| format!("-- {c}"))
            .unwrap_or_default()
    }
}

fn parse_transport(s: &str) -> Result<HttpTransport, String> {
    HttpTransport::parse(s).ok_or_else(|| {
        format!(
            "`{s}`: the transport is one of {}",
            HttpTransport::NAMES.join(", ")
        )
    })
}

fn parse_protocol(s: &str) -> Result<Protocol, String> {
    Protocol::parse(s).ok_or_else(|| {
        format!(
            "`{s}`: the revision is one of {}",
            Protocol::NAMES.join(", ")
        )
    })
}

fn parse_secs(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if secs.is_finite() && secs > 0.0 && secs <= 86_400.0 {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(format!(
            "`{s}`: give a number of seconds between 0 and 86400"
        ))
    }
}

/// Prints a driver error (it carries the server's stderr tail and a fix); returns exit status 2.
pub fn driver_error(e: &DriverError) -> u8 {
    eprintln!("error: {e}");
    output::ERROR
}
