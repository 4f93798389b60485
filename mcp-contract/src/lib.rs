//! `mcp-contract`: the model, canonical lockfile and compatibility engine behind
//! `cargo mcp-contract`.
//!
//! An MCP server's tool surface (names, descriptions, `inputSchema`,
//! `outputSchema`, annotations) — and beside it its prompts, resources,
//! resource templates and declared capabilities ([`model`]) — is a contract
//! with every agent, saved prompt and orchestrator that cached it. This crate turns that surface into a
//! deterministic lockfile ([`lockfile`]) and decides, rule by rule
//! ([`rules`]), whether a change between two surfaces breaks the callers that
//! depend on it ([`diff`]). Around that engine: the migration record that
//! acknowledges deliberate breaks ([`migrations`]), the merge gate against git
//! history ([`check`], [`git`], [`history`]), the reports ([`report`]), the
//! contract fixtures ([`fixtures`]) and the runtime compatibility layer a
//! server puts in front of its handlers ([`runtime`]). Binaries and build
//! scripts only parse arguments and print; the logic lives here.
//!
//! # What a server links
//!
//! A server needs the model, the embedded locked tools and the runtime
//! layer, not the gate. Depend on it with
//! `mcp-contract = { version = "0.1", default-features = false, features = ["macros", "rmcp"] }`:
//! without the default feature `gate`, the engine, the migration-record
//! parser (and its TOML dependency), git access, history and the reports
//! are not compiled. The build step and the `cargo mcp-contract` CLI enable
//! `gate` (the default).

pub mod atomic;
#[cfg(feature = "gate")]
pub mod backward;
pub mod canonical;
#[cfg(feature = "gate")]
pub mod changelog;
#[cfg(feature = "gate")]
pub mod check;
pub mod confine;
#[cfg(feature = "gate")]
pub mod consumer;
pub mod date;
#[cfg(feature = "gate")]
pub mod description;
#[cfg(feature = "gate")]
pub mod diff;
pub mod error;
#[cfg(feature = "gate")]
pub mod fixtures;
#[cfg(feature = "gate")]
pub mod git;
#[cfg(feature = "gate")]
pub mod history;
pub mod json;
pub mod limits;
pub mod load;
pub mod lockfile;
#[cfg(feature = "gate")]
pub mod migrations;
pub mod model;
#[cfg(feature = "gate")]
pub mod report;
/// rmcp servers written with rmcp's own macros: the `Contracted` wrapper,
/// `assert_locked`, and the `rmcp!()` contract (feature `rmcp`).
#[cfg(feature = "rmcp")]
pub mod rmcp;
#[cfg(feature = "gate")]
pub mod rules;
pub mod runtime;
pub mod schema;
#[cfg(feature = "gate")]
pub mod segments;
#[cfg(feature = "gate")]
pub mod selftest;
pub mod suggest;
pub mod usage;
#[cfg(feature = "gate")]
pub mod version;
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

#[cfg(feature = "gate")]
pub use diff::{diff_surfaces, Change, DiffReport};
pub use error::InputError;
pub use model::{Surface, Tool};
#[cfg(feature = "gate")]
pub use rules::{Rule, Severity, RULES};
