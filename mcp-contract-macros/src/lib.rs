//! `#[mcp_contract::tool]`: marks an MCP tool's argument struct.
//!
//! The build step (`mcp-contract-build`, called from `build.rs`) reads the
//! same attribute from source, derives the tool's schemas, locks them in
//! `contracts/mcp-contract.lock` and writes the published tool definition to
//! `OUT_DIR`. This macro embeds that file, so the schema a server publishes
//! at run time is, byte for byte, the locked one. Use it through the
//! `mcp-contract` crate's `macros` feature: `#[mcp_contract::tool(...)]`.
//! The grammar lives in `mcp-contract-syntax`.

use proc_macro::TokenStream;

mod expand;
mod parse;
mod schema_attr;
mod validate;

/// Marks the argument struct of an MCP tool. See the crate docs of
/// `mcp-contract-syntax` for the full grammar:
///
/// ```text
/// #[mcp_contract::tool(name = "search_catalog", version = 1, output = Hits,
///                      read_only, idempotent, reserved("q"))]
/// struct SearchArgs { #[mcp_contract(alias = "query")] search_text: String }
/// ```
#[proc_macro_attribute]
pub fn tool(args: TokenStream, item: TokenStream) -> TokenStream {
    let raw_item = item.clone();
    let (args, item): (proc_macro2::TokenStream, proc_macro2::TokenStream) =
        (args.into(), item.into());
    // The common shape needs neither a parse nor a re-print of the item
    // (see `mcp_contract_syntax::quick_tool_def`); anything else, and every
    // error, goes through the full check.
    if let Some(def) = mcp_contract_syntax::quick_tool_def(args.clone(), &item) {
        if let Ok(entry) = validate::snapshotted(&def.name, def.name_span) {
            return expand::expand_quick(&def, entry, raw_item);
        }
    }
    let item = match parse::parse(item) {
        Ok(item) => item,
        Err(e) => return e.to_compile_error().into(),
    };
    match validate::validate(args, &item) {
        Ok((def, entry)) => expand::expand(&def, entry, item),
        Err(e) => expand::with_error(e, item),
    }
}

/// The derivation escape hatch, for a struct or enum whose JSON Schema the
/// build step cannot derive from source (a foreign type it does not know, a
/// hand-written `Deserialize`...). Generates nothing: the build step reads it.
///
/// ```text
/// #[mcp_contract::schema(r#"{"type": "string", "pattern": "^tok_[a-z0-9]+$"}"#)]
/// pub struct Token(Opaque);            // this schema, verbatim
///
/// #[mcp_contract::schema]
/// pub struct Window {                  // derived, except the marked field
///     #[mcp_contract(schema = r#"{"type": "string", "format": "duration"}"#)]
///     pub length: Foreign,
/// }
/// ```
///
/// With an argument, the type's schema is that JSON text. With or without
/// one, the type's fields may carry `#[mcp_contract(schema = "...")]` (as a
/// tool's argument struct's fields may), which this attribute removes.
/// Write the path out (`mcp_contract::schema`): the build step finds the
/// attribute by it.
#[proc_macro_attribute]
pub fn schema(args: TokenStream, item: TokenStream) -> TokenStream {
    schema_attr::expand(args.into(), item.into()).into()
}
