//! MCP over HTTP: Streamable HTTP ([`streamable`]) and the legacy HTTP+SSE
//! transport ([`legacy`]), on one blocking client ([`client`]).
//!
//! # Why `ureq`
//!
//! The driver needs HTTP/1.1 POST/GET/DELETE with custom headers, streamed
//! bodies (server-sent events) with limits, per-request deadlines, manual
//! redirect control and TLS. `ureq` 3 does exactly that, blocking, with
//! rustls (ring provider, webpki roots) and no async runtime; with default
//! features off (no gzip, brotli, cookies, json, native-tls, platform
//! verifier) it adds `ureq-proto`, `http`, `httparse`, `rustls`, `ring`,
//! `webpki-roots` and a few small crates. An async stack (reqwest, hyper,
//! tokio) would bring a runtime and several times the compile time for a
//! client that sends one request at a time.

pub mod client;
pub mod legacy;
pub mod sse;
pub mod streamable;

use std::time::Duration;

use crate::endpoint::{HttpEndpoint, HttpTransport};
use crate::error::DriverError;
use crate::link::Link;

/// Opens a link to `endpoint` with the transport asked for (`Auto` starts
/// with Streamable HTTP; the session falls back to [`open_legacy`]).
pub fn open(
    endpoint: &HttpEndpoint,
    timeout: Duration,
    limit: u64,
) -> Result<Box<dyn Link>, DriverError> {
    let err = |kind| DriverError {
        kind: Box::new(kind),
        command: endpoint.shown(),
        stderr_tail: String::new(),
        exit_status: None,
    };
    let (client, url) = client::Client::new(endpoint, timeout).map_err(err)?;
    match endpoint.transport {
        HttpTransport::Sse => Ok(Box::new(legacy::Legacy::connect(client, url, limit)?)),
        HttpTransport::Auto | HttpTransport::Streamable => {
            Ok(Box::new(streamable::Streamable::new(client, url, limit)))
        }
    }
}

/// Opens the legacy HTTP+SSE transport at `endpoint`'s URL.
pub fn open_legacy(
    endpoint: &HttpEndpoint,
    timeout: Duration,
    limit: u64,
) -> Result<Box<dyn Link>, DriverError> {
    let mut e = endpoint.clone();
    e.transport = HttpTransport::Sse;
    open(&e, timeout, limit)
}
