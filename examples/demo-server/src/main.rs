//! `cargo run -p demo-server`: serves the demo tools over stdio (MCP).
//!
//! - `DEMO_SERVER_USAGE_FILE`: write usage evidence ([`demo_server::usage`]),
//!   flushed once more when the client closes the connection;
//! - `DEMO_SERVER_METRICS_ADDR`: serve the same counts on `/metrics`
//!   ([`demo_server::metrics`]);
//! - `DEMO_SERVER_TRACE=1`: print the runtime layer's `tracing` events
//!   (target `mcp_contract::compat`) on stderr.

use std::process::ExitCode;

use rmcp::ServiceExt;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    if std::env::var_os("DEMO_SERVER_TRACE").is_some_and(|v| v == "1") {
        trace_to_stderr();
    }
    let usage = match demo_server::usage::from_env() {
        Ok(u) => u,
        Err(e) => {
            eprintln!("demo-server: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let metrics_addr = std::env::var(demo_server::metrics::METRICS_ADDR_ENV)
        .ok()
        .filter(|a| !a.is_empty());
    let mut server = demo_server::DemoServer::new();
    let mut flusher = None;
    match (&usage, metrics_addr) {
        (None, Some(_)) => {
            eprintln!(
                "demo-server: {} serves the usage recorder's counts: set DEMO_SERVER_USAGE_FILE too",
                demo_server::metrics::METRICS_ADDR_ENV
            );
            return Ok(ExitCode::from(2));
        }
        (Some(u), addr) => {
            if let Some(addr) = addr {
                match demo_server::metrics::serve(&addr, u.recorder.clone()) {
                    Ok(bound) => eprintln!("demo-server: metrics on http://{bound}/metrics"),
                    Err(e) => {
                        eprintln!(
                            "demo-server: {}: cannot listen on {addr}: {e}",
                            demo_server::metrics::METRICS_ADDR_ENV
                        );
                        return Ok(ExitCode::from(2));
                    }
                }
            }
            server = server.with_hook(u.recorder.clone());
            flusher = Some(u.recorder.flush_every(u.interval)?);
        }
        (None, None) => {}
    }
    let service = server.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    // The last flush, here to see its result; then the thread stops (an
    // error it already reported is not said again).
    let last = usage.as_ref().map(|u| u.recorder.flush());
    drop(flusher);
    if let Some(Err(e)) = last {
        eprintln!("demo-server: usage evidence not written: {e}");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The runtime layer's events (and nothing else) as text on stderr; stdout
/// is the MCP connection.
fn trace_to_stderr() {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let only_compat = tracing_subscriber::filter::Targets::new().with_target(
        mcp_contract::runtime::events::TARGET,
        tracing_subscriber::filter::LevelFilter::INFO,
    );
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(false),
        )
        .with(only_compat)
        .init();
}
