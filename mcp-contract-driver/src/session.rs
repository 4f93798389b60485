//! The MCP lifecycle on top of a JSON-RPC connection: `initialize`, then
//! `notifications/initialized`, then requests. The client declares no
//! optional capabilities (no `roots`, `sampling` or `elicitation`: the same
//! as rmcp's `ClientCapabilities::default()`), because a contract tool can
//! neither sample a model nor ask a person; tools that a server publishes only
//! to clients with those capabilities are therefore not part of the capture.

use std::collections::BTreeSet;
use std::time::Duration;

use mcp_contract::fixtures::CallOutcome;
use serde_json::{json, Map, Value};

use crate::command::ServerCommand;
use crate::error::{DriverError, ErrorKind};
use crate::process::ServerProcess;
use crate::rpc::{Connection, Reply};

/// The protocol revision the client asks for; servers answer with the one
/// they speak, and every revision since 2024-11-05 has the messages used here.
pub const PROTOCOL_VERSION: &str = "2025-11-25";

/// The default wait for each response.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// More pages than this is a cursor that never ends.
const MAX_PAGES: usize = 10_000;

/// The most `tools/list` text (all pages together) a surface may take: with
/// [`crate::process::MAX_LINE_BYTES`] per page, what a capture holds stays
/// bounded however many pages a server sends.
pub const MAX_SURFACE_BYTES: u64 = 32 * 1024 * 1024;

/// How to drive the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The longest wait for any one response (`initialize` includes start-up).
    pub timeout: Duration,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

/// What the server said about itself in its `initialize` result.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerInfo {
    /// `serverInfo.name` and `serverInfo.version`, when given.
    pub name: Option<String>,
    pub version: Option<String>,
    /// The protocol revision the server chose.
    pub protocol_version: String,
}

/// Every tool of every `tools/list` page, verbatim.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolPages {
    pub tools: Vec<Value>,
    pub pages: usize,
}

/// An initialized MCP session with a running server.
pub struct Session {
    conn: Connection,
    pub server: ServerInfo,
}

impl Session {
    /// Starts the server and performs the MCP handshake.
    pub fn start(cmd: &ServerCommand, options: &Options) -> Result<Session, DriverError> {
        let process = ServerProcess::spawn(cmd)?;
        let mut conn = Connection::new(process, options.timeout);
        let init = conn.call(
            "initialize",
            json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "mcp-contract", "version": env!("CARGO_PKG_VERSION")},
            }),
        )?;
        let Some(protocol_version) = init.get("protocolVersion").and_then(Value::as_str) else {
            return Err(conn.process_mut().fail(ErrorKind::Protocol {
                during: "initialize".into(),
                message: "the result has no string `protocolVersion`".into(),
            }));
        };
        let info = init.get("serverInfo");
        let text = |key: &str| {
            info.and_then(|i| i.get(key))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let server = ServerInfo {
            name: text("name"),
            version: text("version"),
            protocol_version: protocol_version.to_string(),
        };
        conn.notify("notifications/initialized", None)?;
        Ok(Session { conn, server })
    }

    /// Reads every page of `tools/list`, following `nextCursor`.
    pub fn list_tools(&mut self) -> Result<ToolPages, DriverError> {
        let mut tools = vec![];
        let mut seen = BTreeSet::new();
        let mut cursor: Option<String> = None;
        let start = self.conn.received();
        for pages in 1..=MAX_PAGES {
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let result = self.conn.call("tools/list", params)?;
            let Some(page) = result.get("tools").and_then(Value::as_array) else {
                return Err(self.protocol("tools/list", "the result has no `tools` array"));
            };
            tools.extend(page.iter().cloned());
            if self.conn.received() - start > MAX_SURFACE_BYTES {
                return Err(self.protocol(
                    "tools/list",
                    &format!(
                        "the tools/list pages add up to more than {} MiB after {pages} pages; this client holds at most that much of a surface",
                        MAX_SURFACE_BYTES >> 20
                    ),
                ));
            }
            match result.get("nextCursor") {
                None | Some(Value::Null) => return Ok(ToolPages { tools, pages }),
                Some(Value::String(next)) => {
                    if !seen.insert(next.clone()) {
                        return Err(self.protocol(
                            "tools/list",
                            &format!("`nextCursor` {next:?} was already returned (a paging loop)"),
                        ));
                    }
                    cursor = Some(next.clone());
                }
                Some(other) => {
                    return Err(self.protocol(
                        "tools/list",
                        &format!("`nextCursor` must be a string, not {other}"),
                    ))
                }
            }
        }
        Err(self.protocol(
            "tools/list",
            &format!("more than {MAX_PAGES} pages: `nextCursor` never ends"),
        ))
    }

    /// Calls a tool. A JSON-RPC error is an outcome, not a failure.
    pub fn call_tool(
        &mut self,
        name: &str,
        arguments: &Map<String, Value>,
    ) -> Result<CallOutcome, DriverError> {
        let params = json!({"name": name, "arguments": arguments});
        match self.conn.request("tools/call", params)? {
            Reply::Result(v) if v.is_object() => Ok(CallOutcome::Result(v)),
            Reply::Result(v) => Err(self.protocol(
                "tools/call",
                &format!("the result must be an object, not {v}"),
            )),
            Reply::Error {
                code,
                message,
                data,
            } => Ok(CallOutcome::JsonRpcError {
                code,
                message,
                data,
            }),
        }
    }

    /// The server's process id.
    pub fn server_pid(&mut self) -> u32 {
        self.conn.process_mut().id()
    }

    /// What the server wrote to stderr so far.
    pub fn stderr_tail(&mut self) -> String {
        self.conn.process_mut().stderr_tail()
    }

    /// Stops the server and reaps it (dropping the session does the same).
    pub fn close(self) {
        self.conn.close();
    }

    fn protocol(&mut self, during: &str, message: &str) -> DriverError {
        self.conn.process_mut().fail(ErrorKind::Protocol {
            during: during.into(),
            message: message.into(),
        })
    }
}
