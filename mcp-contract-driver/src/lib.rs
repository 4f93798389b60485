//! `mcp-contract-driver`: start an MCP server the way its users do (or reach
//! a running one over HTTP), speak MCP to it, and turn what it really
//! publishes into the contract.
//!
//! The lockfile must describe the surface a server publishes at run time, not
//! what its source claims. This crate starts the server as a child process
//! ([`process`]), speaks newline-delimited JSON-RPC to it ([`rpc`]), performs
//! the MCP handshake ([`session`]), and on top of that:
//!
//! - [`capture`]: reads every page of `tools/list` (and of the prompt,
//!   resource and template lists the server declares) and builds a
//!   [`mcp_contract::Surface`] from the raw JSON, so fields that typed MCP
//!   clients do not model (`execution`, `icons`, `_meta`, `x-*`) are kept;
//! - [`verify`]: compares a live surface with a committed lockfile;
//! - [`replay`]: sends recorded calls ([`mcp_contract::fixtures`]) and checks
//!   their outcome class and result fields.
//!
//! # Why not rmcp's typed client
//!
//! rmcp's `Tool` has no catch-all field, and every response is deserialized
//! into its typed `ServerResult` union before a caller sees it (a custom
//! `tools/list` request is matched as a `ListToolsResult` too), so keys such
//! as `execution` or `x-*` are dropped. A capture that loses published fields
//! cannot be a contract, so this crate speaks the few messages it needs
//! (`initialize`, `notifications/initialized`, `tools/list`, `tools/call`,
//! answering `ping`) itself, with no async runtime.
//!
//! # Transports and revisions
//!
//! [`endpoint::Endpoint`] is a command (stdio) or a URL: Streamable HTTP,
//! falling back to the legacy HTTP+SSE transport ([`http`], on `ureq`: see
//! there for why). [`config`] reads the `mcpServers` files MCP clients use.
//! [`session`] speaks MCP 2026-07-28 (`server/discover`) where the server
//! does and 2025-11-25 (`initialize`) otherwise, over any [`link::Link`].
//!
//! Secrets (header values, anything `${VAR}` expanded to) never leave the
//! driver: endpoints show words as written, and every link is wrapped in
//! one redacting link ([`redact`], [`secret`]) that scrubs all the server
//! says and every error.
//!
//! The child is always killed and reaped: on success, on every error, on
//! timeout, and (on Unix) when the driving process is interrupted.

pub mod capture;
pub mod command;
pub mod config;
pub mod endpoint;
pub mod error;
pub mod http;
pub mod link;
pub mod message;
pub mod params;
pub mod process;
pub mod redact;
pub mod replay;
pub mod rpc;
pub mod secret;
pub mod session;
#[cfg(unix)]
mod signals;
pub mod verify;

pub use capture::{capture, Capture};
pub use command::ServerCommand;
pub use endpoint::{Endpoint, HttpEndpoint, HttpTransport};
pub use error::{DriverError, ErrorKind};
pub use session::{Options, Protocol, Session};
