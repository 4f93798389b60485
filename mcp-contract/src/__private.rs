//! Support for the code `#[mcp_contract::tool]` generates. Not a stable API:
//! only [`LockedTool`] (re-exported at the crate root) is meant to be named by
//! users.
//!
//! The build step (`mcp-contract-build`) writes each tool's locked entry,
//! exactly as locked in `contracts/mcp-contract.lock`, to
//! `$OUT_DIR/mcp-contract/<name>.rs`, as one Rust string literal: the
//! published definition plus the contract's `version` when one is declared.
//! The macro embeds that text as [`LockedTool::entry`] and nothing else a
//! tool's name or version could be read from: everything here turns that
//! one text into the tool a server publishes, so the published schema
//! cannot differ from the locked one.
//!
//! Why one function and no constants: every item the macro generates is
//! compiled on every build of the crate, and an associated `const` costs
//! rustc far more than a function returning a literal (its value is
//! evaluated, cached and encoded in the crate's metadata). Measured on the
//! 200-tool benchmark (`mcp-contract-build/benches/snapshot_200.rs`), the
//! `NAME` and `VERSION` constants the macro used to emit cost about 3% of
//! an incremental build; [`LockedTool::name`] and [`LockedTool::version`]
//! read the entry instead, at run time, once.

use crate::model::Tool;

/// A tool argument type annotated with `#[mcp_contract::tool]`.
pub trait LockedTool {
    /// The locked entry: the published tool definition as canonical compact
    /// JSON, plus the contract's `version` when one is declared. A function,
    /// not a const, so the JSON text stays out of the crate's metadata (a
    /// const's value is encoded there for downstream const evaluation).
    fn entry() -> &'static str;
    /// `(deprecated name, Rust field)` for every `#[mcp_contract(alias = "...")]`.
    const ALIASES: &'static [(&'static str, &'static str)] = &[];
    /// Names removed from the contract that must never be accepted again.
    const RESERVED: &'static [&'static str] = &[];
    /// The structured output type (`()` when the tool declares none).
    type Output;

    /// The published tool name (read from [`Self::entry`]).
    fn name() -> &'static str {
        entry_name(Self::entry())
    }

    /// The contract's major version, when declared (read from [`Self::entry`]).
    fn version() -> Option<u64> {
        Self::locked_tool().version
    }

    /// The locked tool as the contract engine models it.
    fn locked_tool() -> Tool {
        locked_tool(Self::entry())
    }

    /// The locked tool as rmcp publishes it in `tools/list`.
    #[cfg(feature = "rmcp")]
    fn rmcp_tool() -> rmcp::model::Tool {
        rmcp_tool(Self::entry())
    }

    /// An rmcp route serving `handler` under the locked definition:
    /// `ToolRouter::new().with_route(SearchArgs::rmcp_route(Self::search))`.
    /// `handler` is written as rmcp users write them: `async fn` or `fn`, on
    /// `&self` or free, taking rmcp extractors (see [`crate::rmcp::ToolHandler`]).
    #[cfg(feature = "rmcp")]
    fn rmcp_route<S, H, M>(handler: H) -> rmcp::handler::server::router::tool::ToolRoute<S>
    where
        S: Send + Sync + 'static,
        H: crate::rmcp::ToolHandler<S, M>,
    {
        handler.into_route(Self::rmcp_tool())
    }

    /// The tool's structured result (`structuredContent`, plus the same JSON
    /// as text for older clients). Typed by [`Self::Output`], so a handler
    /// cannot return another shape than the one the output schema locks.
    #[cfg(feature = "rmcp")]
    fn structured(output: &Self::Output) -> Result<rmcp::model::CallToolResult, rmcp::ErrorData>
    where
        Self::Output: serde::Serialize,
    {
        let value = serde_json::to_value(output).map_err(|e| {
            rmcp::ErrorData::internal_error(format!("cannot serialize the result: {e}"), None)
        })?;
        Ok(rmcp::model::CallToolResult::structured(value))
    }
}

/// Parses an embedded entry. The text was written by the build step from the
/// lockfile's own model, so failing here is a bug in mcp-contract, not bad input.
pub fn locked_tool(entry: &str) -> Tool {
    let value: serde_json::Value =
        serde_json::from_str(entry).expect("mcp-contract: embedded tool entry is not JSON");
    crate::load::tool_from_value(&value, "<embedded tool entry>", "")
        .expect("mcp-contract: embedded tool entry is not a tool")
}

/// The `name` of an embedded entry, borrowed from it (a tool name has no
/// escapes to decode: the macro and the lockfile accept only
/// `[A-Za-z0-9_.-]`).
pub fn entry_name(entry: &'static str) -> &'static str {
    #[derive(serde::Deserialize)]
    struct Named<'a> {
        #[serde(borrow)]
        name: &'a str,
    }
    serde_json::from_str::<Named<'static>>(entry)
        .expect("mcp-contract: embedded tool entry has no name")
        .name
}

/// An embedded entry as an rmcp tool: the published definition (the entry
/// without `version`, which `tools/list` does not carry), in rmcp's types.
#[cfg(feature = "rmcp")]
pub fn rmcp_tool(entry: &str) -> rmcp::model::Tool {
    let mut value: serde_json::Value =
        serde_json::from_str(entry).expect("mcp-contract: embedded tool entry is not JSON");
    if let Some(m) = value.as_object_mut() {
        m.remove("version");
    }
    serde_json::from_value(value).expect("mcp-contract: embedded tool entry is not an MCP tool")
}

/// What `mcp_contract::rmcp!()` expands to: the build step's output, which
/// it wrote itself, so failing here is a bug in mcp-contract or a build
/// script that did not run the build step.
#[cfg(feature = "rmcp")]
pub fn rmcp_contract(manifest: &str, plan: &str) -> crate::rmcp::Contract {
    crate::rmcp::Contract::from_build(manifest, plan).unwrap_or_else(|e| {
        panic!("mcp-contract: the build step's output is unreadable ({e}); run `cargo clean -p <this package>` and rebuild")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUBLISHED: &str = r#"{"annotations":{"readOnlyHint":true},"description":"Find.","inputSchema":{"properties":{"q":{"type":"string"}},"required":["q"],"type":"object"},"name":"search"}"#;

    struct Fixture;
    impl LockedTool for Fixture {
        fn entry() -> &'static str {
            r#"{"annotations":{"readOnlyHint":true},"description":"Find.","inputSchema":{"properties":{"q":{"type":"string"}},"required":["q"],"type":"object"},"name":"search","version":2}"#
        }
        const ALIASES: &'static [(&'static str, &'static str)] = &[];
        const RESERVED: &'static [&'static str] = &[];
        type Output = ();
    }

    #[test]
    fn entry_round_trips_to_the_published_form() {
        let tool = Fixture::locked_tool();
        assert_eq!(tool.name, "search");
        assert_eq!(tool.version, Some(2));
        assert_eq!(Fixture::name(), "search");
        assert_eq!(Fixture::version(), Some(2));
        let published = crate::canonical::to_compact_string(&tool.to_published());
        assert_eq!(published, PUBLISHED);
    }

    #[cfg(feature = "rmcp")]
    #[test]
    fn rmcp_tool_serializes_back_to_the_entry() {
        let tool = Fixture::rmcp_tool();
        let back = serde_json::to_value(&tool).unwrap();
        let back = crate::canonical::to_compact_string(&crate::canonical::canonicalize(&back));
        assert_eq!(back, PUBLISHED);
    }
}
