//! `mcp-contract`: the model, canonical lockfile and compatibility engine behind
//! `cargo mcp-contract`.
//!
//! An MCP server's tool surface (names, descriptions, `inputSchema`,
//! `outputSchema`, annotations) is a contract with every agent, saved prompt
//! and orchestrator that cached it. This crate turns that surface into a
//! deterministic lockfile ([`lockfile`]) and decides, rule by rule
//! ([`rules`]), whether a change between two surfaces breaks the callers that
//! depend on it ([`diff`]). Around that engine: the migration record that
//! acknowledges deliberate breaks ([`migrations`]), the merge gate against git
//! history ([`check`], [`git`], [`history`]), the reports ([`report`]), the
//! contract fixtures ([`fixtures`]) and the runtime compatibility layer a
//! server puts in front of its handlers ([`runtime`]). Binaries and build
//! scripts only parse arguments and print; the logic lives here.

pub mod canonical;
pub mod check;
pub mod diff;
pub mod error;
pub mod fixtures;
pub mod git;
pub mod history;
pub mod json;
pub mod load;
pub mod lockfile;
pub mod migrations;
pub mod model;
pub mod report;
pub mod rules;
pub mod runtime;
pub mod schema;
pub mod segments;
pub mod suggest;
pub mod witness;

#[doc(hidden)]
pub mod __private;

/// `#[mcp_contract::schema(r#"{...}"#)]`: a type's JSON Schema given verbatim
/// to the build step, and `#[mcp_contract(schema = ...)]` allowed on its fields (feature `macros`).
#[cfg(feature = "macros")]
pub use mcp_contract_macros::schema;
/// `#[mcp_contract::tool(...)]`: marks an MCP tool's argument struct (feature `macros`).
#[cfg(feature = "macros")]
pub use mcp_contract_macros::tool;

/// What `#[mcp_contract::tool]` implements: the locked tool definition.
pub use __private::LockedTool;

pub use diff::{diff_surfaces, Change, DiffReport};
pub use error::InputError;
pub use model::{Surface, Tool};
pub use rules::{Rule, Severity, RULES};
