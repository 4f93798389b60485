//! The HTTP plumbing both HTTP transports share: one blocking `ureq` agent
//! (rustls, no proxy, no automatic redirects, statuses returned rather than
//! turned into errors), the user's headers on every request, redirects
//! followed only within the same origin (so an `Authorization` header never
//! travels to another host), every wait bounded by a deadline, and HTTP
//! failures turned into errors that say what to do. Header values are never
//! part of any message.

use std::time::{Duration, Instant};

use ureq::http::Response;
use ureq::Body;
use url::Url;

use crate::endpoint::{Header, HttpEndpoint};
use crate::error::ErrorKind;

/// Same-origin redirects followed for one request.
const MAX_REDIRECTS: usize = 5;

/// What to send.
pub enum Request<'a> {
    Post(&'a [u8]),
    Get,
    Delete,
}

/// A configured HTTP client for one endpoint.
pub struct Client {
    agent: ureq::Agent,
    headers: Vec<Header>,
    /// The longest wait for one answer.
    pub timeout: Duration,
    /// The endpoint shown in messages (no user info, no query).
    pub shown: String,
}

impl Client {
    pub fn new(endpoint: &HttpEndpoint, timeout: Duration) -> Result<(Client, Url), ErrorKind> {
        let url = Url::parse(&endpoint.url).map_err(|e| ErrorKind::Connect {
            url: endpoint.shown(),
            error: format!("invalid URL: {e}"),
        })?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .proxy(None)
            .build()
            .into();
        Ok((
            Client {
                agent,
                headers: endpoint.headers.clone(),
                timeout,
                shown: endpoint.shown(),
            },
            url,
        ))
    }

    /// Sends `req` to `url` with the user's headers and `extra`, following
    /// same-origin redirects (the final URL is written back to `url`).
    /// Any status is returned; only transport failures are errors.
    pub fn send(
        &self,
        req: &Request<'_>,
        url: &mut Url,
        extra: &[(&str, &str)],
        during: &str,
        deadline: Instant,
        stream: bool,
    ) -> Result<Response<Body>, ErrorKind> {
        for _ in 0..=MAX_REDIRECTS {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(self.timeout(during));
            }
            let resp = self.send_once(req, url, extra, during, left, stream)?;
            if !resp.status().is_redirection() {
                return Ok(resp);
            }
            let location = resp
                .headers()
                .get("location")
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            let next = url.join(location).map_err(|_| ErrorKind::Http {
                during: during.to_string(),
                status: resp.status().as_u16(),
                problem: format!("redirect ({}) without a usable Location", resp.status()),
                fix: "give the final URL of the MCP endpoint with --url".into(),
            })?;
            if next.origin() != url.origin() {
                return Err(ErrorKind::Http {
                    during: during.to_string(),
                    status: resp.status().as_u16(),
                    problem: format!(
                        "the server redirects ({}) to another origin ({}); mcp-contract follows redirects only within the same origin, so headers such as Authorization never reach another host",
                        resp.status(),
                        crate::endpoint::shown_url(next.as_str())
                    ),
                    fix: "give the URL the server redirects to with --url, if you trust it".into(),
                });
            }
            *url = next;
        }
        Err(ErrorKind::Http {
            during: during.to_string(),
            status: 310,
            problem: format!("more than {MAX_REDIRECTS} redirects"),
            fix: "give the final URL of the MCP endpoint with --url".into(),
        })
    }

    fn send_once(
        &self,
        req: &Request<'_>,
        url: &Url,
        extra: &[(&str, &str)],
        during: &str,
        left: Duration,
        stream: bool,
    ) -> Result<Response<Body>, ErrorKind> {
        let u = url.as_str();
        macro_rules! configure {
            ($b:expr) => {{
                let mut b = $b;
                for h in &self.headers {
                    b = b.header(h.name.as_str(), h.value());
                }
                for (k, v) in extra {
                    b = b.header(*k, *v);
                }
                // A stream (the legacy transport's event stream) lives for the
                // session; its reads are bounded by the channel deadline instead.
                let global = if stream { None } else { Some(left) };
                b.config()
                    .timeout_global(global)
                    .timeout_connect(Some(left))
                    .timeout_recv_response(Some(left))
                    .build()
            }};
        }
        let result = match req {
            Request::Post(body) => configure!(self.agent.post(u))
                .content_type("application/json")
                .send(*body),
            Request::Get => configure!(self.agent.get(u)).call(),
            Request::Delete => configure!(self.agent.delete(u)).call(),
        };
        result.map_err(|e| self.transport_error(e, during))
    }

    /// A `ureq` failure as an error kind.
    pub fn transport_error(&self, e: ureq::Error, during: &str) -> ErrorKind {
        match e {
            ureq::Error::Timeout(_) => self.timeout(during),
            ureq::Error::Io(io) if is_timeout(&io) => self.timeout(during),
            ureq::Error::BodyExceedsLimit(limit) => ErrorKind::TooLarge {
                during: during.to_string(),
                limit,
            },
            ureq::Error::ConnectionFailed | ureq::Error::HostNotFound | ureq::Error::Io(_) => {
                ErrorKind::Connect {
                    url: self.shown.clone(),
                    error: e.to_string(),
                }
            }
            other => ErrorKind::Connect {
                url: self.shown.clone(),
                error: other.to_string(),
            },
        }
    }

    pub fn timeout(&self, during: &str) -> ErrorKind {
        ErrorKind::Timeout {
            waiting_for: during.to_string(),
            secs: self.timeout.as_secs_f64(),
        }
    }

    /// The error for a non-success status, naming what to do.
    pub fn status_error(
        &self,
        resp: &mut Response<Body>,
        during: &str,
        in_session: bool,
    ) -> ErrorKind {
        let status = resp.status();
        let code = status.as_u16();
        let given: Vec<&str> = self.headers.iter().map(|h| h.name.as_str()).collect();
        let (problem, fix) = match code {
            401 | 403 => {
                let scheme = resp
                    .headers()
                    .get("www-authenticate")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.split_whitespace().next())
                    .map(str::to_string);
                let problem = format!(
                    "the server refused the request ({status}){}",
                    scheme
                        .as_ref()
                        .map(|s| format!("; it asks for `{s}` authentication (WWW-Authenticate)"))
                        .unwrap_or_default()
                );
                let fix = if given.iter().any(|n| n.eq_ignore_ascii_case("authorization")) {
                    "the `Authorization` header given was refused: check the token it reads (values are never printed)".to_string()
                } else {
                    let scheme = scheme.unwrap_or_else(|| "Bearer".into());
                    format!("set the header the server expects, e.g. --header \"Authorization: {scheme} ${{TOKEN}}\" (the value is read from the environment at run time and never printed or recorded)")
                };
                (problem, fix)
            }
            404 if in_session => (
                format!("the server no longer knows this session ({status})"),
                "the server dropped the session (restarted, or expired it); run the command again".to_string(),
            ),
            404 => (
                format!("no MCP endpoint at this URL ({status})"),
                "check the path: Streamable HTTP servers usually answer at /mcp, legacy SSE servers at /sse (with --transport sse)".to_string(),
            ),
            400..=499 => (
                format!("the server rejected the request ({status}){}", self.snippet(resp)),
                "check that the URL is the server's MCP endpoint and the transport matches (--transport streamable-http or sse)".to_string(),
            ),
            _ => (
                format!("the server failed ({status}){}", self.snippet(resp)),
                "the server's own log says why; retry once it is healthy".to_string(),
            ),
        };
        ErrorKind::Http {
            during: during.to_string(),
            status: code,
            problem,
            fix,
        }
    }

    /// The start of an error body (at most 200 characters), for messages.
    fn snippet(&self, resp: &mut Response<Body>) -> String {
        let bytes = resp
            .body_mut()
            .with_config()
            .limit(4096)
            .read_to_vec()
            .unwrap_or_default();
        if bytes.is_empty() {
            String::new()
        } else {
            format!(": {}", crate::message::shown(&bytes))
        }
    }
}

/// Is this I/O error a deadline (ureq wraps its own timeouts in I/O errors
/// while a body is read)?
fn is_timeout(io: &std::io::Error) -> bool {
    io.kind() == std::io::ErrorKind::TimedOut
        || io
            .get_ref()
            .and_then(|e| e.downcast_ref::<ureq::Error>())
            .is_some_and(|e| matches!(e, ureq::Error::Timeout(_)))
}

/// The media type of a response, lowercased, without parameters.
pub fn content_type(resp: &Response<Body>) -> String {
    resp.headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}
