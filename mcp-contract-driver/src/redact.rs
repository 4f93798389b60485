//! The one way out of a session for everything a server says: a [`Link`]
//! around the transport's link that scrubs the endpoint's [`Secrets`] from
//! every reply (results, error messages and data: the tools that become the
//! lockfile, the outcomes `replay` prints) and from every error (the
//! server's stderr, its messages, the transport's own words) before the
//! session sees them. The session only ever holds a redacting link
//! ([`crate::session`] opens every link through [`wrap`]), so nothing a
//! server echoes back (an argument in a usage error, a URL path in a 404
//! body) can carry an expanded value out.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::error::{DriverError, ErrorKind};
use crate::link::Link;
use crate::rpc::Reply;
use crate::secret::Secrets;

/// A link whose replies and errors are scrubbed.
pub struct Redacting {
    inner: Box<dyn Link>,
    secrets: Secrets,
}

/// Opens through `open` and wraps the link; the opening error is scrubbed too.
pub fn wrap(
    secrets: &Secrets,
    open: impl FnOnce() -> Result<Box<dyn Link>, DriverError>,
) -> Result<Box<dyn Link>, DriverError> {
    match open() {
        Ok(inner) => Ok(Box::new(Redacting {
            inner,
            secrets: secrets.clone(),
        })),
        Err(e) => Err(secrets.scrub_error(e)),
    }
}

impl Redacting {
    fn reply(&self, reply: Reply) -> Reply {
        match reply {
            Reply::Result(mut v) => {
                self.secrets.scrub_value(&mut v);
                Reply::Result(v)
            }
            Reply::Error {
                code,
                message,
                mut data,
            } => {
                if let Some(d) = data.as_mut() {
                    self.secrets.scrub_value(d);
                }
                Reply::Error {
                    code,
                    message: self.secrets.scrub(&message),
                    data,
                }
            }
        }
    }
}

impl Link for Redacting {
    fn exchange(&mut self, id: i64, method: &str, msg: &Value) -> Result<Reply, DriverError> {
        match self.inner.exchange(id, method, msg) {
            Ok(r) => Ok(self.reply(r)),
            Err(e) => Err(self.secrets.scrub_error(e)),
        }
    }

    fn notify(&mut self, method: &str, msg: &Value) -> Result<(), DriverError> {
        self.inner
            .notify(method, msg)
            .map_err(|e| self.secrets.scrub_error(e))
    }

    fn fail(&mut self, kind: ErrorKind) -> DriverError {
        self.secrets.scrub_error(self.inner.fail(kind))
    }

    fn set_protocol_version(&mut self, version: &str) {
        self.inner.set_protocol_version(version)
    }

    fn next_request_headers(&mut self, headers: Vec<(String, String)>) {
        self.inner.next_request_headers(headers)
    }

    fn usable(&mut self) -> bool {
        self.inner.usable()
    }

    fn stderr_tail(&mut self) -> String {
        self.secrets.scrub(&self.inner.stderr_tail())
    }

    fn pid(&mut self) -> Option<u32> {
        self.inner.pid()
    }

    fn pipelines(&mut self) -> bool {
        self.inner.pipelines()
    }

    fn send_request(&mut self, msg: &Value, method: &str) -> Result<(), DriverError> {
        self.inner
            .send_request(msg, method)
            .map_err(|e| self.secrets.scrub_error(e))
    }

    fn wait_reply(
        &mut self,
        ids: &[i64],
        method: &str,
        deadline: Instant,
    ) -> Result<Option<(i64, Reply)>, DriverError> {
        match self.inner.wait_reply(ids, method, deadline) {
            Ok(got) => Ok(got.map(|(id, r)| (id, self.reply(r)))),
            Err(e) => Err(self.secrets.scrub_error(e)),
        }
    }

    fn timeout(&self) -> Duration {
        self.inner.timeout()
    }

    fn close(self: Box<Self>) {
        self.inner.close()
    }
}
