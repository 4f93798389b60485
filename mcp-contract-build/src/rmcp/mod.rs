//! rmcp's own declarations as the source of the contract: a server written
//! with `#[tool_router]` / `#[tool]` (and `#[prompt_router]` / `#[prompt]`)
//! adopts mcp-contract with `build.rs` alone.
//!
//! rmcp's macros decide what a tool publishes from the syntax of the method
//! they annotate (name, doc comment, `Parameters<T>`, `Json<T>` in the
//! return type, `annotations(...)`). This module reads the same syntax the
//! same way (rmcp-macros 3.11: `tool.rs`, `common.rs`, `tool_router.rs`),
//! then derives the schemas with [`crate::derive`], so the lockfile holds
//! exactly what rmcp will publish at run time. What cannot be read from
//! source (an arbitrary expression given to `input_schema = ...`, `icons`,
//! `meta`, a description built by a function call) is a build error that
//! names the construct and the escape hatch: the value given in `build.rs`
//! with [`crate::Builder::tool_field`].
//!
//! - [`attr`]: rmcp's `#[tool(...)]` grammar and its doc-comment rule.
//! - [`discover`]: every `#[tool]` fn, with its router and cargo feature.
//! - [`eval`]: the expressions the build step can evaluate.
//! - [`surface`]: found tools to locked [`mcp_contract::Tool`]s.

pub mod attr;
pub mod discover;
pub mod eval;
pub mod surface;

pub use discover::{find_rmcp_tools, FoundRmcpTool, InputSource, OutputSource};
pub use surface::{add_rmcp_tools, ToolFields};
pub mod link;
pub use link::{check_tool_fields, unapplied_transitions_warning, write_manifest};
pub mod prompts;
pub use prompts::{add_rmcp_prompts, find_rmcp_prompts, FoundRmcpPrompt, PromptFields};
