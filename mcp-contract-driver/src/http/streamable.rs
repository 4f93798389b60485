//! The Streamable HTTP transport (MCP 2025-03-26 and later): every message
//! is POSTed to one endpoint; a request's answer comes back as a JSON body
//! or as an SSE stream that carries it (possibly after the server's own
//! requests and notifications); notifications get 202. The session id the
//! server assigns in `initialize` (`Mcp-Session-Id`) and the negotiated
//! `MCP-Protocol-Version` go on every later request, and closing `DELETE`s
//! the session. Under 2026-07-28 (stateless) there is no session, and each
//! request also names its method and target in `Mcp-Method` / `Mcp-Name`
//! so intermediaries can route without reading the body.

use std::time::{Duration, Instant};

use serde_json::Value;
use url::Url;

use super::client::{content_type, Client, Request};
use super::sse::{EventReader, ReadError};
use crate::error::{DriverError, ErrorKind};
use crate::link::Link;
use crate::message::{classify, Incoming};
use crate::rpc::Reply;

/// How long closing (`DELETE`) may take.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

pub struct Streamable {
    client: Client,
    url: Url,
    session_id: Option<String>,
    protocol: Option<String>,
    limit: u64,
    /// Headers for the next request only.
    pending: Vec<(String, String)>,
}

impl Streamable {
    pub fn new(client: Client, url: Url, limit: u64) -> Self {
        Streamable {
            client,
            url,
            session_id: None,
            protocol: None,
            limit,
            pending: vec![],
        }
    }

    fn err(&self, kind: ErrorKind) -> DriverError {
        DriverError {
            kind: Box::new(kind),
            command: self.client.shown.clone(),
            stderr_tail: String::new(),
            exit_status: None,
        }
    }

    fn stateless(&self) -> bool {
        self.protocol.as_deref() == Some(crate::session::PROTOCOL_2026)
    }

    fn post(
        &mut self,
        msg: &Value,
        method: &str,
        deadline: Instant,
    ) -> Result<ureq::http::Response<ureq::Body>, ErrorKind> {
        let body = msg.to_string();
        let mut extra: Vec<(&str, &str)> = vec![("accept", "application/json, text/event-stream")];
        if let Some(id) = &self.session_id {
            extra.push(("mcp-session-id", id));
        }
        if let Some(v) = &self.protocol {
            extra.push(("mcp-protocol-version", v));
        }
        let name = msg
            .get("params")
            .and_then(|p| p.get("name").or_else(|| p.get("uri")))
            .and_then(Value::as_str)
            .filter(|n| n.bytes().all(|b| (0x20..0x7f).contains(&b)))
            .map(str::to_string);
        if self.stateless() {
            extra.push(("mcp-method", method));
            if let Some(n) = &name {
                extra.push(("mcp-name", n));
            }
        }
        let pending = std::mem::take(&mut self.pending);
        for (k, v) in &pending {
            extra.push((k, v));
        }
        let mut url = self.url.clone();
        let resp = self.client.send(
            &Request::Post(body.as_bytes()),
            &mut url,
            &extra,
            method,
            deadline,
            false,
        );
        self.url = url;
        resp
    }

    /// Reads an answer body (JSON or an event stream) until the reply to `id`.
    fn read_reply(
        &mut self,
        mut resp: ureq::http::Response<ureq::Body>,
        id: i64,
        method: &str,
        deadline: Instant,
    ) -> Result<Reply, ErrorKind> {
        let ctype = content_type(&resp);
        match ctype.as_str() {
            "application/json" => {
                let bytes = resp
                    .body_mut()
                    .with_config()
                    .limit(self.limit)
                    .read_to_vec()
                    .map_err(|e| self.client.transport_error(e, method))?;
                let value: Value = serde_json::from_slice(&bytes).map_err(|_| ErrorKind::Garbage {
                    during: method.to_string(),
                    line: crate::message::shown(&bytes),
                })?;
                let messages = match value {
                    Value::Array(batch) => batch,
                    single => vec![single],
                };
                for m in &messages {
                    match self.handle(m, id, method, &bytes, deadline)? {
                        Some(reply) => return Ok(reply),
                        None => continue,
                    }
                }
                Err(ErrorKind::Protocol {
                    during: method.to_string(),
                    message: format!("the JSON body does not answer request {id}"),
                })
            }
            "text/event-stream" => {
                let reader = resp.into_body().into_reader();
                let mut events = EventReader::new(std::io::BufReader::new(reader), self.limit);
                loop {
                    if Instant::now() >= deadline {
                        return Err(self.client.timeout(method));
                    }
                    let event = match events.next_event() {
                        Ok(e) => e,
                        Err(ReadError::Eof) => {
                            return Err(ErrorKind::Protocol {
                                during: method.to_string(),
                                message: format!("the event stream ended without answering request {id}"),
                            })
                        }
                        Err(ReadError::TooLarge(limit)) => {
                            return Err(ErrorKind::TooLarge {
                                during: method.to_string(),
                                limit,
                            })
                        }
                        Err(ReadError::Io(e)) => {
                            return Err(self.client.transport_error(ureq::Error::Io(e), method))
                        }
                    };
                    if event.event != "message" {
                        continue;
                    }
                    let value: Value =
                        serde_json::from_str(&event.data).map_err(|_| ErrorKind::Garbage {
                            during: method.to_string(),
                            line: crate::message::shown(event.data.as_bytes()),
                        })?;
                    if let Some(reply) =
                        self.handle(&value, id, method, event.data.as_bytes(), deadline)?
                    {
                        return Ok(reply);
                    }
                }
            }
            "" if resp.status().as_u16() == 202 || resp.status().as_u16() == 204 => {
                Err(ErrorKind::Protocol {
                    during: method.to_string(),
                    message: format!("the server accepted request {id} ({}) without answering it", resp.status()),
                })
            }
            other => Err(ErrorKind::Http {
                during: method.to_string(),
                status: resp.status().as_u16(),
                problem: format!(
                    "the answer has Content-Type `{}`, not application/json or text/event-stream",
                    if other.is_empty() { "(none)" } else { other }
                ),
                fix: "check that the URL is the server's MCP endpoint (not a web page or a proxy's error page)".into(),
            }),
        }
    }

    /// One message: the reply, or an answer to send back, or nothing.
    fn handle(
        &mut self,
        message: &Value,
        id: i64,
        method: &str,
        raw: &[u8],
        deadline: Instant,
    ) -> Result<Option<Reply>, ErrorKind> {
        match classify(message, id) {
            Incoming::Reply(r) => Ok(Some(r)),
            Incoming::Answer(answer) => {
                // The server asked us something (ping): answer by POST.
                if let Ok(resp) = self.post(&answer, "response", deadline) {
                    drop(resp);
                }
                Ok(None)
            }
            Incoming::Skip => Ok(None),
            Incoming::NotJsonRpc => Err(ErrorKind::Garbage {
                during: method.to_string(),
                line: crate::message::shown(raw),
            }),
            Incoming::MalformedError(e) => Err(ErrorKind::Protocol {
                during: method.to_string(),
                message: format!("malformed JSON-RPC error object {e}"),
            }),
        }
    }
}

impl Link for Streamable {
    fn exchange(&mut self, id: i64, method: &str, msg: &Value) -> Result<Reply, DriverError> {
        let deadline = Instant::now() + self.client.timeout;
        let mut resp = self.post(msg, method, deadline).map_err(|k| self.err(k))?;
        if !resp.status().is_success() {
            let kind = self
                .client
                .status_error(&mut resp, method, self.session_id.is_some());
            return Err(self.err(kind));
        }
        if method == "initialize" {
            self.session_id = resp
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .filter(|v| v.bytes().all(|b| (0x21..0x7f).contains(&b)))
                .map(str::to_string);
        }
        self.read_reply(resp, id, method, deadline)
            .map_err(|k| self.err(k))
    }

    fn notify(&mut self, method: &str, msg: &Value) -> Result<(), DriverError> {
        let deadline = Instant::now() + self.client.timeout;
        let mut resp = self.post(msg, method, deadline).map_err(|k| self.err(k))?;
        if !resp.status().is_success() {
            let kind = self
                .client
                .status_error(&mut resp, method, self.session_id.is_some());
            return Err(self.err(kind));
        }
        Ok(())
    }

    fn fail(&mut self, kind: ErrorKind) -> DriverError {
        self.err(kind)
    }

    fn set_protocol_version(&mut self, version: &str) {
        self.protocol = Some(version.to_string());
    }

    fn next_request_headers(&mut self, headers: Vec<(String, String)>) {
        self.pending = headers;
    }

    fn timeout(&self) -> Duration {
        self.client.timeout
    }

    fn close(self: Box<Self>) {
        let Some(id) = &self.session_id else { return };
        let mut url = self.url.clone();
        let mut extra = vec![("mcp-session-id", id.as_str())];
        if let Some(v) = &self.protocol {
            extra.push(("mcp-protocol-version", v));
        }
        // 405 means the server does not let clients end sessions: fine.
        let _ = self.client.send(
            &Request::Delete,
            &mut url,
            &extra,
            "DELETE (close the session)",
            Instant::now() + CLOSE_WAIT.min(self.client.timeout),
            false,
        );
    }
}
