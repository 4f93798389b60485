//! `cargo run -p demo-server`: serves the demo tools over stdio (MCP).
//! With `DEMO_SERVER_USAGE_FILE` set it writes usage evidence
//! ([`demo_server::usage`]), flushed once more when the client closes the
//! connection.

use std::process::ExitCode;

use rmcp::ServiceExt;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let usage = match demo_server::usage::from_env() {
        Ok(u) => u,
        Err(e) => {
            eprintln!("demo-server: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let mut server = demo_server::DemoServer::new();
    let mut flusher = None;
    if let Some(u) = &usage {
        server = server.with_hook(u.recorder.clone());
        flusher = Some(u.recorder.flush_every(u.interval)?);
    }
    let service = server.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    // The last flush: stop the thread, then flush here to see its result.
    drop(flusher);
    if let Some(u) = usage {
        if let Err(e) = u.recorder.flush() {
            eprintln!("demo-server: usage evidence not written: {e}");
            return Ok(ExitCode::from(1));
        }
    }
    Ok(ExitCode::SUCCESS)
}
