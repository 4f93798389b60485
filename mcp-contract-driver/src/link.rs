//! One JSON-RPC link to a server, whatever the transport: stdio
//! ([`crate::rpc::Connection`]), Streamable HTTP or the legacy HTTP+SSE
//! transport ([`crate::http`]). The session speaks MCP over a `Link` and
//! never sees bytes, headers or processes.

use std::time::Duration;

use serde_json::Value;

use crate::error::{DriverError, ErrorKind};
use crate::rpc::{Connection, Reply};

/// A JSON-RPC link.
pub trait Link {
    /// Sends request `msg` (whose id is `id`) and waits for its reply,
    /// answering the server's own requests meanwhile.
    fn exchange(&mut self, id: i64, method: &str, msg: &Value) -> Result<Reply, DriverError>;
    /// Sends a notification.
    fn notify(&mut self, method: &str, msg: &Value) -> Result<(), DriverError>;
    /// An error of `kind`, with what the link knows (stderr, exit status).
    fn fail(&mut self, kind: ErrorKind) -> DriverError;
    /// The protocol revision agreed on (HTTP sends it as `MCP-Protocol-Version`).
    fn set_protocol_version(&mut self, _version: &str) {}
    /// Extra HTTP headers for the next request only (2026-07-28's
    /// `Mcp-Param-*` mirrors of `x-mcp-header` arguments); stdio ignores them.
    fn next_request_headers(&mut self, _headers: Vec<(String, String)>) {}
    /// Whether the link can still carry a request (a stdio server may exit
    /// on a message it does not understand).
    fn usable(&mut self) -> bool {
        true
    }
    /// The tail of the server's stderr (stdio only).
    fn stderr_tail(&mut self) -> String {
        String::new()
    }
    /// The server's process id (stdio only).
    fn pid(&mut self) -> Option<u32> {
        None
    }
    /// The stdio connection, for requests in flight together (the
    /// `server/discover` probe); `None` over HTTP, where each request is
    /// its own exchange.
    fn pipelined(&mut self) -> Option<&mut Connection> {
        None
    }
    /// The longest wait for one reply.
    fn timeout(&self) -> Duration;
    /// Ends the session (stops the process; HTTP: `DELETE` the session).
    fn close(self: Box<Self>);
}

impl Link for Connection {
    fn exchange(&mut self, id: i64, method: &str, msg: &Value) -> Result<Reply, DriverError> {
        Connection::exchange(self, id, method, msg)
    }

    fn notify(&mut self, method: &str, msg: &Value) -> Result<(), DriverError> {
        self.send_message(msg, method)
    }

    fn fail(&mut self, kind: ErrorKind) -> DriverError {
        self.process_mut().fail(kind)
    }

    fn usable(&mut self) -> bool {
        !self.process_mut().has_exited()
    }

    fn stderr_tail(&mut self) -> String {
        self.process_mut().stderr_tail()
    }

    fn pid(&mut self) -> Option<u32> {
        Some(self.process_mut().id())
    }

    fn pipelined(&mut self) -> Option<&mut Connection> {
        Some(self)
    }

    fn timeout(&self) -> Duration {
        self.timeout_secs()
    }

    fn close(self: Box<Self>) {
        Connection::close(*self)
    }
}
