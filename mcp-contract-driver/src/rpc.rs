//! Newline-delimited JSON-RPC 2.0 over the server's stdio, as MCP's stdio
//! transport defines it: one message per line, no embedded newlines. While it
//! waits for a response, the connection answers the server's own requests
//! and skips notifications ([`crate::message`]), and treats any line that is
//! not a JSON-RPC message as an error.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::error::{DriverError, ErrorKind};
use crate::message::{classify, Incoming};
use crate::process::{ServerProcess, StdoutEvent};

/// JSON-RPC "method not found".
pub const METHOD_NOT_FOUND: i64 = -32601;

/// The answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Result(Value),
    Error {
        code: i64,
        message: String,
        data: Option<Value>,
    },
}

/// A JSON-RPC connection to a running server.
pub struct Connection {
    process: ServerProcess,
    next_id: i64,
    timeout: Duration,
    /// Bytes of stdout read so far (all lines).
    received: u64,
}

impl Connection {
    /// `timeout` bounds the wait for each response.
    pub fn new(process: ServerProcess, timeout: Duration) -> Self {
        Connection {
            process,
            next_id: 1,
            timeout,
            received: 0,
        }
    }

    pub fn process_mut(&mut self) -> &mut ServerProcess {
        &mut self.process
    }

    /// The longest wait for one response.
    pub fn timeout_secs(&self) -> Duration {
        self.timeout
    }

    /// Sends an already built message.
    pub fn send_message(&mut self, msg: &Value, method: &str) -> Result<(), DriverError> {
        self.send(msg, method)
    }

    /// Bytes the server has written to stdout so far.
    pub fn received(&self) -> u64 {
        self.received
    }

    /// Sends a notification (no answer expected).
    pub fn notify(&mut self, method: &str, params: Option<Value>) -> Result<(), DriverError> {
        let mut msg = json!({"jsonrpc": "2.0", "method": method});
        if let Some(p) = params {
            msg["params"] = p;
        }
        self.send(&msg, method)
    }

    /// Sends a request and waits for its response; a JSON-RPC error response
    /// is an [`ErrorKind::JsonRpc`] error.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, DriverError> {
        match self.request(method, params)? {
            Reply::Result(v) => Ok(v),
            Reply::Error { code, message, .. } => Err(self.process.fail(ErrorKind::JsonRpc {
                method: method.to_string(),
                code,
                message,
            })),
        }
    }

    /// Sends a request and waits for its response, error responses included.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Reply, DriverError> {
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.exchange(id, method, &msg)
    }

    /// Sends `msg` (a request with id `id`) and waits for its response.
    pub fn exchange(&mut self, id: i64, method: &str, msg: &Value) -> Result<Reply, DriverError> {
        self.send(msg, method)?;
        let deadline = Instant::now() + self.timeout;
        match self.wait_reply(&[id], method, deadline)? {
            Some((_, reply)) => Ok(reply),
            None => Err(self.process.fail(ErrorKind::Timeout {
                waiting_for: method.to_string(),
                secs: self.timeout.as_secs_f64(),
            })),
        }
    }

    /// Sends request `msg` without waiting for its answer (several requests
    /// may be in flight; see [`Connection::wait_reply`]).
    pub fn send_request(&mut self, msg: &Value, method: &str) -> Result<(), DriverError> {
        self.send(msg, method)
    }

    /// Waits until `deadline` for the answer to any of the requests `ids`
    /// (`None`: no answer by then; the link stays usable). Answers to other
    /// ids are skipped; `method` names the wait in errors.
    pub fn wait_reply(
        &mut self,
        ids: &[i64],
        method: &str,
        deadline: Instant,
    ) -> Result<Option<(i64, Reply)>, DriverError> {
        loop {
            let line = match self.process.recv(deadline) {
                None => return Ok(None),
                Some(StdoutEvent::Eof) => {
                    return Err(self.process.fail(ErrorKind::Exited {
                        during: method.to_string(),
                    }))
                }
                Some(StdoutEvent::Error(error)) => {
                    return Err(self.process.fail(ErrorKind::Io {
                        during: method.to_string(),
                        error,
                    }))
                }
                Some(StdoutEvent::TooLong { start }) => {
                    let shown = String::from_utf8_lossy(&start).into_owned();
                    return Err(self.process.fail(ErrorKind::Protocol {
                        during: method.to_string(),
                        message: format!(
                            "the server wrote more than {} MiB to stdout without a newline (starting {shown:?}); \
                             an MCP stdio message is one line, and this client reads at most {} MiB per message",
                            crate::process::MAX_LINE_BYTES >> 20,
                            crate::process::MAX_LINE_BYTES >> 20,
                        ),
                    }));
                }
                Some(StdoutEvent::Line(line)) => line,
            };
            self.received += line.len() as u64 + 1;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let parsed = std::str::from_utf8(&line)
                .ok()
                .and_then(|text| serde_json::from_str::<Value>(text).ok());
            let Some(value) = parsed else {
                return Err(self.garbage(method, &line));
            };
            let messages = match value {
                Value::Array(batch) => batch,
                single => vec![single],
            };
            for message in messages {
                // the id this message answers, if it is one we wait for
                let id = message
                    .get("id")
                    .and_then(Value::as_i64)
                    .filter(|id| ids.contains(id))
                    .or_else(|| ids.first().copied())
                    .unwrap_or(i64::MIN);
                match classify(&message, id) {
                    Incoming::Reply(reply) => return Ok(Some((id, reply))),
                    // A server that exited shows up as end of stdout on the
                    // next read; one that stopped reading its stdin is an error now.
                    Incoming::Answer(answer) => {
                        if let Err(e) = self.process.send_line(&answer.to_string()) {
                            if e.kind() != std::io::ErrorKind::BrokenPipe {
                                return Err(self.process.fail(ErrorKind::Io {
                                    during: method.to_string(),
                                    error: e.to_string(),
                                }));
                            }
                        }
                    }
                    Incoming::Skip => {}
                    Incoming::NotJsonRpc => return Err(self.garbage(method, &line)),
                    Incoming::MalformedError(error) => {
                        return Err(self.process.fail(ErrorKind::Protocol {
                            during: method.to_string(),
                            message: format!("malformed JSON-RPC error object {error}"),
                        }))
                    }
                }
            }
        }
    }

    fn send(&mut self, msg: &Value, method: &str) -> Result<(), DriverError> {
        if let Err(e) = self.process.send_line(&msg.to_string()) {
            let kind = if self.process.has_exited() {
                ErrorKind::Exited {
                    during: method.to_string(),
                }
            } else {
                ErrorKind::Io {
                    during: method.to_string(),
                    error: e.to_string(),
                }
            };
            return Err(self.process.fail(kind));
        }
        Ok(())
    }

    fn garbage(&mut self, method: &str, line: &[u8]) -> DriverError {
        self.process.fail(ErrorKind::Garbage {
            during: method.to_string(),
            line: crate::message::shown(line),
        })
    }

    /// Stops the server and reaps it.
    pub fn close(mut self) {
        self.process.shutdown();
    }
}
