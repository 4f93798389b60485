//! The legacy HTTP+SSE transport (MCP 2024-11-05), still served by many
//! deployed servers: the client GETs an event stream, whose first event
//! (`endpoint`) names the URL to POST messages to; every answer arrives on
//! the stream as a `message` event. The stream is read by one thread into a
//! bounded channel (each event at most the answer limit, at most two
//! waiting), so memory stays bounded and every wait has a deadline. The
//! POST URL must be on the same origin as the stream.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::Value;
use url::Url;

use super::client::{content_type, Client, Request};
use super::sse::{EventReader, ReadError};
use crate::error::{DriverError, ErrorKind};
use crate::link::Link;
use crate::message::{classify, Incoming};
use crate::rpc::Reply;

enum Item {
    Event(super::sse::Event),
    End(String),
    TooLarge(u64),
}

pub struct Legacy {
    client: Client,
    post_url: Url,
    events: Receiver<Item>,
}

impl Legacy {
    /// Opens the event stream and waits for its `endpoint` event.
    pub fn connect(client: Client, mut url: Url, limit: u64) -> Result<Legacy, DriverError> {
        let err = |client: &Client, kind: ErrorKind| DriverError {
            kind: Box::new(kind),
            command: client.shown.clone(),
            stderr_tail: String::new(),
            exit_status: None,
        };
        let deadline = Instant::now() + client.timeout;
        let during = "GET (open the SSE stream)";
        let mut resp = client
            .send(
                &Request::Get,
                &mut url,
                &[("accept", "text/event-stream")],
                during,
                deadline,
                true,
            )
            .map_err(|k| err(&client, k))?;
        if !resp.status().is_success() {
            let kind = client.status_error(&mut resp, during, false);
            return Err(err(&client, kind));
        }
        if content_type(&resp) != "text/event-stream" {
            return Err(err(
                &client,
                ErrorKind::Http {
                    during: during.into(),
                    status: resp.status().as_u16(),
                    problem: format!(
                        "the legacy SSE transport needs an event stream here, but the answer has Content-Type `{}`",
                        content_type(&resp)
                    ),
                    fix: "give the server's SSE URL (often /sse), or use --transport streamable-http for a /mcp endpoint".into(),
                },
            ));
        }
        let (tx, rx) = mpsc::sync_channel::<Item>(2);
        let reader = resp.into_body().into_reader();
        std::thread::spawn(move || {
            let mut events = EventReader::new(std::io::BufReader::new(reader), limit);
            loop {
                events.reset_count();
                let item = match events.next_event() {
                    Ok(e) => Item::Event(e),
                    Err(ReadError::Eof) => Item::End("the server closed the event stream".into()),
                    Err(ReadError::TooLarge(l)) => Item::TooLarge(l),
                    Err(ReadError::Io(e)) => {
                        Item::End(format!("reading the event stream failed: {e}"))
                    }
                };
                let last = !matches!(item, Item::Event(_));
                if tx.send(item).is_err() || last {
                    return;
                }
            }
        });
        let mut link = Legacy {
            client,
            post_url: url.clone(),
            events: rx,
        };
        let endpoint = loop {
            match link.next(during, deadline) {
                Ok(e) if e.event == "endpoint" => break e.data,
                Ok(_) => continue,
                Err(k) => return Err(link.fail(k)),
            }
        };
        let post = url
            .join(endpoint.trim())
            .ok()
            .filter(|p| p.origin() == url.origin());
        match post {
            Some(p) => link.post_url = p,
            None => {
                return Err(link.fail(ErrorKind::Protocol {
                    during: during.into(),
                    message: "the `endpoint` event names no URL on the stream's origin".into(),
                }))
            }
        }
        Ok(link)
    }

    fn next(&mut self, during: &str, deadline: Instant) -> Result<super::sse::Event, ErrorKind> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(left) {
            Ok(Item::Event(e)) => Ok(e),
            Ok(Item::End(why)) => Err(ErrorKind::Io {
                during: during.to_string(),
                error: why,
            }),
            Ok(Item::TooLarge(limit)) => Err(ErrorKind::TooLarge {
                during: during.to_string(),
                limit,
            }),
            Err(RecvTimeoutError::Timeout) => Err(self.client.timeout(during)),
            Err(RecvTimeoutError::Disconnected) => Err(ErrorKind::Io {
                during: during.to_string(),
                error: "the event stream is gone".into(),
            }),
        }
    }

    fn post(&mut self, msg: &Value, method: &str, deadline: Instant) -> Result<(), ErrorKind> {
        let body = msg.to_string();
        let mut url = self.post_url.clone();
        let mut resp = self.client.send(
            &Request::Post(body.as_bytes()),
            &mut url,
            &[],
            method,
            deadline,
            false,
        )?;
        if !resp.status().is_success() {
            return Err(self.client.status_error(&mut resp, method, true));
        }
        Ok(())
    }
}

impl Link for Legacy {
    fn exchange(&mut self, id: i64, method: &str, msg: &Value) -> Result<Reply, DriverError> {
        let deadline = Instant::now() + self.client.timeout;
        self.post(msg, method, deadline).map_err(|k| self.fail(k))?;
        loop {
            let event = self.next(method, deadline).map_err(|k| self.fail(k))?;
            if event.event != "message" {
                continue;
            }
            let Ok(value) = serde_json::from_str::<Value>(&event.data) else {
                let line = crate::message::shown(event.data.as_bytes());
                return Err(self.fail(ErrorKind::Garbage {
                    during: method.to_string(),
                    line,
                }));
            };
            match classify(&value, id) {
                Incoming::Reply(r) => return Ok(r),
                Incoming::Answer(a) => {
                    let _ = self.post(&a, "response", deadline);
                }
                Incoming::Skip => {}
                Incoming::NotJsonRpc => {
                    let line = crate::message::shown(event.data.as_bytes());
                    return Err(self.fail(ErrorKind::Garbage {
                        during: method.to_string(),
                        line,
                    }));
                }
                Incoming::MalformedError(e) => {
                    return Err(self.fail(ErrorKind::Protocol {
                        during: method.to_string(),
                        message: format!("malformed JSON-RPC error object {e}"),
                    }))
                }
            }
        }
    }

    fn notify(&mut self, method: &str, msg: &Value) -> Result<(), DriverError> {
        let deadline = Instant::now() + self.client.timeout;
        self.post(msg, method, deadline).map_err(|k| self.fail(k))
    }

    fn fail(&mut self, kind: ErrorKind) -> DriverError {
        DriverError {
            kind: Box::new(kind),
            command: self.client.shown.clone(),
            stderr_tail: String::new(),
            exit_status: None,
        }
    }

    fn timeout(&self) -> Duration {
        self.client.timeout
    }

    fn close(self: Box<Self>) {
        // Dropping the receiver ends the reader thread at its next event;
        // the stream's connection closes with the process.
    }
}
