//! The contract on an rmcp server written with rmcp's own macros (feature
//! `rmcp`): one line makes what the server publishes the locked contract,
//! and what it enforces the same contract.
//!
//! ```text
//! // build.rs: fn main() { mcp_contract_build::snapshot() }
//! let server = mcp_contract::rmcp::Contracted::new(Weather::new(), mcp_contract::rmcp!());
//! server.serve(rmcp::transport::stdio()).await?.waiting().await?;
//! ```
//!
//! - [`Contract`]: what the build step wrote to `OUT_DIR` for this package
//!   (every tool as published, with the migration record's transitions
//!   applied; every tool as rmcp derives it; the compatibility plan),
//!   embedded with [`crate::rmcp!`].
//! - [`Contracted`]: a `ServerHandler` around any `ServerHandler`. It lists
//!   what the inner server lists, each tool replaced by its locked definition;
//!   runs the compatibility layer before the inner `call_tool`; delegates
//!   every other request untouched.
//! - [`assert_locked`]: the same comparison in a test, on a `ToolRouter`,
//!   with no process started.

mod assert;
mod contract;
mod contracted;
mod handler;
mod json_diff;
mod notify;
pub mod probe;

pub use assert::{assert_locked, assert_prompts_locked, locked_differences};
pub use contract::{Contract, Published};
pub use contracted::{Contracted, WithContract};
pub use handler::{AsyncMethod, AsyncMethodFn, RmcpHandler, ToolHandler};
pub use json_diff::{first_differences, Difference};
pub use notify::ListChanged;

/// The [`Contract`] the build step (`mcp-contract-build`, from `build.rs`)
/// generated for this package: `Contracted::new(server, mcp_contract::rmcp!())`.
#[macro_export]
macro_rules! rmcp {
    () => {
        $crate::__rmcp_contract!(::core::env!(
            "OUT_DIR",
            "mcp_contract::rmcp!() embeds what the build step wrote, and this package has no build script: add `mcp-contract-build` to [build-dependencies] and a `build.rs` with `fn main() { mcp_contract_build::snapshot() }`"
        ))
    };
}

/// [`rmcp!`]'s expansion, given `OUT_DIR` once: both files are read from
/// the same tokens, so a package without a build script gets one error.
#[doc(hidden)]
#[macro_export]
macro_rules! __rmcp_contract {
    ($($out_dir:tt)*) => {
        $crate::__private::rmcp_contract(
            ::core::include_str!(::core::concat!($($out_dir)*, "/mcp-contract-rmcp.json")),
            ::core::include_str!(::core::concat!(
                $($out_dir)*,
                "/mcp-contract-compat/plan.json"
            )),
        )
        .in_package(::core::env!("CARGO_PKG_NAME"))
    };
}
