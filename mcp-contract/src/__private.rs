//! Support for the code `#[mcp_contract::tool]` generates. Not a stable API:
//! only [`LockedTool`] (re-exported at the crate root) is meant to be named by
//! users.
//!
//! The build step (`mcp-contract-build`) writes each tool's published
//! definition, exactly as locked in `contracts/mcp-contract.lock`, to
//! `$OUT_DIR/mcp-contract/<name>.json`; the macro embeds that text as
//! [`LockedTool::entry`]. Everything here turns that one text into the
//! tool a server publishes, so the published schema cannot differ from the
//! locked one.

use crate::model::Tool;

/// A tool argument type annotated with `#[mcp_contract::tool]`.
pub trait LockedTool {
    /// The published tool name.
    const NAME: &'static str;
    /// The contract's major version, when declared.
    const VERSION: Option<u64> = None;
    /// The published tool definition (canonical JSON) as locked. A function,
    /// not a const, so the JSON text stays out of the crate's metadata (a
    /// const's value is encoded there for downstream const evaluation).
    fn entry() -> &'static str;
    /// `(deprecated name, Rust field)` for every `#[mcp_contract(alias = "...")]`.
    const ALIASES: &'static [(&'static str, &'static str)] = &[];
    /// Names removed from the contract that must never be accepted again.
    const RESERVED: &'static [&'static str] = &[];
    /// The structured output type (`()` when the tool declares none).
    type Output;

    /// The locked tool as the contract engine models it.
    fn locked_tool() -> Tool {
        locked_tool(Self::entry(), Self::VERSION)
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
pub fn locked_tool(entry: &str, version: Option<u64>) -> Tool {
    let value: serde_json::Value =
        serde_json::from_str(entry).expect("mcp-contract: embedded tool entry is not JSON");
    let mut tool = crate::load::tool_from_value(&value, "<embedded tool entry>", "")
        .expect("mcp-contract: embedded tool entry is not a tool");
    tool.version = version;
    tool
}

/// An embedded entry as an rmcp tool (same JSON, rmcp's types).
#[cfg(feature = "rmcp")]
pub fn rmcp_tool(entry: &str) -> rmcp::model::Tool {
    serde_json::from_str(entry).expect("mcp-contract: embedded tool entry is not an MCP tool")
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

    struct Fixture;
    impl LockedTool for Fixture {
        const NAME: &'static str = "search";
        const VERSION: Option<u64> = Some(2);
        fn entry() -> &'static str {
            r#"{"annotations":{"readOnlyHint":true},"description":"Find.","inputSchema":{"properties":{"q":{"type":"string"}},"required":["q"],"type":"object"},"name":"search"}"#
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
        let published = crate::canonical::to_compact_string(&tool.to_published());
        assert_eq!(published, Fixture::entry());
    }

    #[cfg(feature = "rmcp")]
    #[test]
    fn rmcp_tool_serializes_back_to_the_entry() {
        let tool = Fixture::rmcp_tool();
        let back = serde_json::to_value(&tool).unwrap();
        let back = crate::canonical::to_compact_string(&crate::canonical::canonicalize(&back));
        assert_eq!(back, Fixture::entry());
    }
}
