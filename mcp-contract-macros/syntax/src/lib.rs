//! The grammar of `#[mcp_contract::tool]`, in one place.
//!
//! The attribute is read twice: by the proc macro (`mcp-contract-macros`),
//! which expands it, and by the build step (`mcp-contract-build`), which reads
//! the package's sources before compilation to derive and lock the schemas.
//! Both must agree on every name, flag and alias, so both call this crate;
//! it depends only on `syn`, never on the contract engine.
//!
//! ```text
//! #[mcp_contract::tool(
//!     name = "search_catalog",          // required: the published tool name
//!     version = 2,                      // optional: the contract's major version
//!     title = "Search the catalog",     // optional
//!     description = "...",              // optional: defaults to the doc comment
//!     output = SearchResults,           // optional: structured output type
//!     read_only, idempotent,            // annotation flags (`= false` allowed)
//!     destructive = false, open_world = false,
//!     reserved("q", "legacy_filter"),   // removed names that must never come back
//! )]
//! struct SearchArgs {
//!     #[mcp_contract(alias = "query")]  // a deprecated name still accepted
//!     search_text: String,
//! }
//! ```

mod attr;
mod docs;
mod entry_file;
mod field;
mod item;
mod quick;
mod quick_args;

pub use attr::{Annotations, ToolAttr};
pub use docs::doc_text;
pub use entry_file::{entry_file_name, OUT_SUBDIR};
pub use field::{is_field_attr, strip_field_attrs, Alias, FIELD_ATTR};
pub use item::{is_tool_attr, tool_def, tool_def_from_attr, ToolDef};
pub use quick::{quick_tool_def, QuickDef};
pub use quick_args::is_keyword;

/// The longest tool name MCP allows.
pub const MAX_NAME_LEN: usize = 128;

/// Whether `name` is a valid MCP tool name (1-128 of `A-Z a-z 0-9 _ - .`).
pub fn is_valid_tool_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names() {
        assert!(is_valid_tool_name("search_v2"));
        assert!(is_valid_tool_name("a.b-c"));
        assert!(!is_valid_tool_name(""));
        assert!(!is_valid_tool_name("has space"));
        assert!(!is_valid_tool_name("slash/name"));
        assert!(!is_valid_tool_name(&"x".repeat(129)));
    }
}
