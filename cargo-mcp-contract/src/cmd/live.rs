//! Arguments shared by the commands that drive a live server
//! (`snapshot --server`, `verify --server`, `replay --server`,
//! `check --server`): the server command after `--` and the timeout.

use std::time::Duration;

use mcp_contract_driver::{DriverError, Options, ServerCommand};

use crate::output;

#[derive(clap::Args, Debug, Clone)]
pub struct ServerArgs {
    /// Seconds to wait for each answer from the server (the first includes its start-up)
    #[arg(long, value_name = "SECS", default_value = "30", value_parser = parse_secs)]
    pub timeout: Duration,
    /// The server command and its arguments, after `--` (run directly, not through a shell)
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<String>,
}

impl ServerArgs {
    /// The command to start, or a usage error (exit 2) when none was given.
    pub fn server_command(&self) -> Result<ServerCommand, u8> {
        ServerCommand::from_argv(&self.command).ok_or_else(|| {
            eprintln!("error: no server command given\n  help: put the command that starts the server on stdio after `--`, e.g. `-- npx -y @modelcontextprotocol/server-everything`");
            output::ERROR
        })
    }

    pub fn options(&self) -> Options {
        Options {
            timeout: self.timeout,
        }
    }

    /// The command line again, for help messages.
    pub fn shell_words(&self) -> String {
        ServerCommand::from_argv(&self.command)
            .map(|c| c.to_string())
            .unwrap_or_default()
    }
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
