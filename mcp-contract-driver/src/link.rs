//! One JSON-RPC link to a server, whatever the transport: stdio
//! ([`crate::rpc::Connection`]), Streamable HTTP or the legacy HTTP+SSE
//! transport ([`crate::http`]). The session speaks MCP over a `Link` and
//! never sees bytes, headers or processes.

use std::time::{Duration, Instant};

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
    /// Can several requests be in flight together (the stdio connection,
    /// for the `server/discover` probe)? Not over HTTP, where each request
    /// is its own exchange.
    fn pipelines(&mut self) -> bool {
        false
    }
    /// Sends request `msg` without waiting for its answer (only where
    /// [`Link::pipelines`]).
    fn send_request(&mut self, _msg: &Value, method: &str) -> Result<(), DriverError> {
        Err(self.fail(not_pipelined(method)))
    }
    /// Waits until `deadline` for the answer to any of the requests `ids`
    /// (only where [`Link::pipelines`]); `None`: no answer by then.
    fn wait_reply(
        &mut self,
        _ids: &[i64],
        method: &str,
        _deadline: Instant,
    ) -> Result<Option<(i64, Reply)>, DriverError> {
        Err(self.fail(not_pipelined(method)))
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

    fn pipelines(&mut self) -> bool {
        true
    }

    fn send_request(&mut self, msg: &Value, method: &str) -> Result<(), DriverError> {
        Connection::send_request(self, msg, method)
    }

    fn wait_reply(
        &mut self,
        ids: &[i64],
        method: &str,
        deadline: Instant,
    ) -> Result<Option<(i64, Reply)>, DriverError> {
        Connection::wait_reply(self, ids, method, deadline)
    }

    fn timeout(&self) -> Duration {
        self.timeout_secs()
    }

    fn close(self: Box<Self>) {
        Connection::close(*self)
    }
}

fn not_pipelined(method: &str) -> ErrorKind {
    ErrorKind::Protocol {
        during: method.to_string(),
        message: "this transport sends one request at a time".into(),
    }
}
