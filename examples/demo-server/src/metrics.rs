//! `/metrics` for the demo's usage counts: with `DEMO_SERVER_METRICS_ADDR`
//! (`127.0.0.1:9464`, or port `0` for any free one) and
//! `DEMO_SERVER_USAGE_FILE` set, the server answers `GET /metrics` with the
//! recorder's counts as Prometheus text
//! (`mcp_contract_compat_hits_total{tool,path,client}`), so a Prometheus
//! can scrape it; the address bound is printed on stderr as
//! `demo-server: metrics on http://ADDR/metrics`.
//!
//! A few lines of HTTP/1.1 on a std thread, one connection at a time (a
//! scraper, not the public): requests are read up to [`MAX_REQUEST`] bytes
//! with a [`TIMEOUT`], anything but `GET /metrics` is a 404.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use mcp_contract::runtime::UsageRecorder;
use mcp_contract::usage::expose::CONTENT_TYPE;

/// The environment variable naming the address to serve `/metrics` on.
pub const METRICS_ADDR_ENV: &str = "DEMO_SERVER_METRICS_ADDR";
/// The longest request head read.
pub const MAX_REQUEST: usize = 8 * 1024;
/// How long a connection may take to send its request.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// Binds `addr` and serves `/metrics` from a thread; returns the address bound.
pub fn serve(addr: &str, recorder: Arc<UsageRecorder>) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(addr)?;
    let bound = listener.local_addr()?;
    std::thread::Builder::new()
        .name("demo-server-metrics".into())
        .spawn(move || {
            for stream in listener.incoming().flatten() {
                let _ = answer(stream, &recorder);
            }
        })?;
    Ok(bound)
}

fn answer(mut stream: TcpStream, recorder: &UsageRecorder) -> std::io::Result<()> {
    stream.set_read_timeout(Some(TIMEOUT))?;
    stream.set_write_timeout(Some(TIMEOUT))?;
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_REQUEST {
        let n = stream.read(&mut buf)?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let line = head.split(|b| *b == b'\r').next().unwrap_or_default();
    let (status, body) = if line.starts_with(b"GET /metrics ") {
        ("200 OK", recorder.prometheus_text())
    } else {
        ("404 Not Found", "GET /metrics\n".to_string())
    };
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {CONTENT_TYPE}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()
}
