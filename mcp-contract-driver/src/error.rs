//! Everything that can go wrong while driving a live server. Each error names
//! the command, says what happened, carries the tail of the server's stderr
//! (usually the real reason) and a fix; front ends print it and exit 2.

use std::fmt;

use mcp_contract::InputError;

/// A failure to get an answer out of the server.
#[derive(Debug, Clone, PartialEq)]
pub struct DriverError {
    /// Boxed: errors travel through every `Result` of the driver.
    pub kind: Box<ErrorKind>,
    /// The server command, shell-quoted.
    pub command: String,
    /// The last lines the server wrote to stderr (empty when it wrote none).
    pub stderr_tail: String,
    /// How the server ended, when it had ended by the time of the error.
    pub exit_status: Option<String>,
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorKind {
    /// The program could not be started.
    Spawn { error: String },
    /// No answer within the timeout.
    Timeout { waiting_for: String, secs: f64 },
    /// The server closed stdout (usually: exited) before answering.
    Exited { during: String },
    /// The server wrote something to stdout that is not a JSON-RPC message.
    Garbage { during: String, line: String },
    /// The server answered a request with a JSON-RPC error.
    JsonRpc {
        method: String,
        code: i64,
        message: String,
    },
    /// The answer is JSON-RPC but not what MCP says it must be.
    Protocol { during: String, message: String },
    /// Reading from or writing to the server failed.
    Io { during: String, error: String },
    /// The published tools are not a valid surface.
    Surface(InputError),
    /// No HTTP connection could be made (refused, unknown host, TLS).
    Connect { url: String, error: String },
    /// The server answered with an HTTP status that is not success, or a
    /// response that no MCP HTTP transport allows; `fix` names what to do
    /// (for 401/403: which header to set).
    Http {
        during: String,
        status: u16,
        problem: String,
        fix: String,
    },
    /// An answer larger than the limit.
    TooLarge { during: String, limit: u64 },
}

impl DriverError {
    /// The one-line summary, without stderr and help.
    pub fn summary(&self) -> String {
        match self.kind.as_ref() {
            ErrorKind::Spawn { error } => format!("cannot start the server: {error}"),
            ErrorKind::Timeout { waiting_for, secs } => {
                format!("the server did not answer `{waiting_for}` within {secs} s")
            }
            ErrorKind::Exited { during } => {
                format!("the server closed its stdout (exited) during `{during}`")
            }
            ErrorKind::Garbage { during, line } => format!(
                "the server wrote something that is not a JSON-RPC message to stdout during `{during}`: {line}"
            ),
            ErrorKind::JsonRpc {
                method,
                code,
                message,
            } => format!("the server answered `{method}` with JSON-RPC error {code}: {message}"),
            ErrorKind::Protocol { during, message } => {
                format!("the server's answer to `{during}` breaks the MCP protocol: {message}")
            }
            ErrorKind::Io { during, error } => {
                format!("cannot talk to the server during `{during}`: {error}")
            }
            ErrorKind::Surface(e) => format!("the published tools are not a valid surface: {e}"),
            ErrorKind::Connect { url, error } => format!("cannot connect to {url}: {error}"),
            ErrorKind::Http { during, problem, .. } => {
                format!("HTTP during `{during}`: {problem}")
            }
            ErrorKind::TooLarge { during, limit } => format!(
                "the answer to `{during}` is larger than {limit} bytes (or never ends)"
            ),
        }
    }

    /// What to do about it.
    pub fn fix(&self) -> String {
        match self.kind.as_ref() {
            ErrorKind::Spawn { .. } => "check that the program is installed and on PATH; the command after `--` is run directly, not through a shell".into(),
            ErrorKind::Timeout { waiting_for, .. } if waiting_for == "server/discover" => "raise --timeout if the server starts slowly (over stdio it was sent `initialize` too and answered neither); over HTTP, a server that ignores unknown requests needs --protocol 2025-11-25 (which skips server/discover)".into(),
            ErrorKind::Timeout { .. } if self.command.starts_with("http") => "raise --timeout, or check that the server answers (an event stream that never carries the answer also ends here)".into(),
            ErrorKind::Timeout { .. } => "raise --timeout, or check that the command starts an MCP server on stdio (some servers need an argument such as `stdio`)".into(),
            ErrorKind::Exited { .. } => "run the command by hand to see why it stops: an MCP stdio server keeps running and reads JSON-RPC from stdin".into(),
            ErrorKind::Garbage { .. } => "an MCP stdio server must write only JSON-RPC messages to stdout; send logs and banners to stderr".into(),
            ErrorKind::JsonRpc { .. } => "the server refused the request; its stderr above usually says why".into(),
            ErrorKind::Protocol { .. } => "fix the server so that its answer follows the MCP schema".into(),
            ErrorKind::Io { .. } => "the server probably exited; run the command by hand to see why".into(),
            ErrorKind::Surface(e) => e.fix.clone().unwrap_or_else(|| "fix the server's tool definitions".into()),
            ErrorKind::Connect { .. } => "check that the server is running and listening at that URL (host, port, http or https)".into(),
            ErrorKind::Http { fix, .. } => fix.clone(),
            ErrorKind::TooLarge { .. } => "an MCP answer (one list page) should be far smaller; check that the URL is an MCP endpoint and the server ends its event stream after answering".into(),
        }
    }
}

impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "server `{}`: {}", self.command, self.summary())?;
        if let Some(status) = &self.exit_status {
            write!(f, "\n  server {status}")?;
        }
        let tail = self.stderr_tail.trim_end();
        let remote = self.command.starts_with("http://") || self.command.starts_with("https://");
        if remote {
            // A server reached over HTTP has no stderr of ours to show.
        } else if tail.is_empty() {
            write!(f, "\n  server stderr: (nothing)")?;
        } else {
            write!(f, "\n  server stderr (last lines):")?;
            for line in tail.lines() {
                write!(f, "\n    | {line}")?;
            }
        }
        write!(f, "\n  help: {}", self.fix())
    }
}

impl std::error::Error for DriverError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_carries_command_stderr_and_help() {
        let e = DriverError {
            kind: Box::new(ErrorKind::Timeout {
                waiting_for: "tools/list".into(),
                secs: 2.0,
            }),
            command: "node s.js".into(),
            stderr_tail: "booting\nstuck\n".into(),
            exit_status: None,
        };
        let text = e.to_string();
        assert!(
            text.starts_with(
                "server `node s.js`: the server did not answer `tools/list` within 2 s"
            ),
            "{text}"
        );
        assert!(text.contains("    | stuck"), "{text}");
        assert!(text.contains("help: raise --timeout"), "{text}");
    }
}
