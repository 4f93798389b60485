//! A small catalog-and-orders MCP server on rmcp. Each tool's argument struct
//! carries `#[mcp_contract::tool]`; `build.rs` locks the derived schemas in
//! `contracts/mcp-contract.lock`, and the routes publish exactly those
//! (`LockedTool::rmcp_route`). To add a tool: a file in `src/tools/`, a line
//! in `tools/mod.rs`, a route in [`server::router`].

pub mod catalog;
pub mod effects;
pub mod metrics;
pub mod revision;
pub mod server;
pub mod telemetry;
pub mod tools;
pub mod usage;

pub use server::DemoServer;
