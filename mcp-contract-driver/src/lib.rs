//! `mcp-contract-driver`: start an MCP server the way its users do, speak MCP
//! to it over stdio, and turn what it really publishes into the contract.
//!
//! The lockfile must describe the surface a server publishes at run time, not
//! what its source claims. This crate starts the server as a child process
//! ([`process`]), speaks newline-delimited JSON-RPC to it ([`rpc`]), performs
//! the MCP handshake ([`session`]), and on top of that:
//!
//! - [`capture`]: reads every page of `tools/list` and builds a
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
//! # Why no Streamable HTTP (`--url`) yet
//!
//! rmcp's HTTP client (`transport-streamable-http-client-reqwest`) brings
//! reqwest, hyper, rustls and a tokio runtime into every build of the CLI —
//! a large share of the CI budget on two cores — and its typed results drop
//! unmodelled fields exactly as described above, so it could not be used for
//! capture anyway. A raw client needs HTTP/1.1 POST, server-sent-event
//! parsing, `Mcp-Session-Id` handling and TLS, which std does not have. Stdio
//! covers every server started by a command, including the HTTP servers that
//! can also run on stdio.
//!
//! The child is always killed and reaped: on success, on every error, on
//! timeout, and (on Unix) when the driving process is interrupted.

pub mod capture;
pub mod command;
pub mod error;
pub mod process;
pub mod replay;
pub mod rpc;
pub mod session;
#[cfg(unix)]
mod signals;
pub mod verify;

pub use capture::{capture, Capture};
pub use command::ServerCommand;
pub use error::{DriverError, ErrorKind};
pub use session::{Options, Session};
