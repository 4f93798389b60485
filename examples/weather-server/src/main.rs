//! `weather-server`: serves MCP over stdio. The one line that makes the
//! contract real is the `Contracted::new(...)` wrapper: the tools are
//! published as locked and every call goes through the compatibility layer
//! generated from `contracts/migrations.toml`.
//!
//! `WEATHER_SERVER_UNWRAPPED=1` serves the bare rmcp server instead (what a
//! server looks like without the wrapper; the tests show what then fails).

use mcp_contract::rmcp::Contracted;
use rmcp::{transport::stdio, ServiceExt};
use weather_server::Weather;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::var_os("WEATHER_SERVER_UNWRAPPED").is_some() {
        Weather::new().serve(stdio()).await?.waiting().await?;
        return Ok(());
    }
    let server = Contracted::new(Weather::new(), mcp_contract::rmcp!());
    server.serve(stdio()).await?.waiting().await?;
    Ok(())
}
