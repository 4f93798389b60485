//! Checks the attribute against its item (the shared rules of
//! `mcp-contract-syntax`), then checks that the build step has snapshotted
//! this tool, so a missing `build.rs` is one clear error, not a cryptic
//! `include_str!` failure.

use std::path::PathBuf;

use mcp_contract_syntax::ToolDef;
use proc_macro2::{Span, TokenStream};

/// The directory under `OUT_DIR` where the build step writes one
/// `<tool name>.json` per tool (must match `mcp-contract-build`).
pub const OUT_SUBDIR: &str = "mcp-contract";

/// The checked definition and the entry the build step wrote for it.
pub fn validate(args: TokenStream, item: &syn::Item) -> syn::Result<(ToolDef, PathBuf)> {
    let def = mcp_contract_syntax::tool_def(args, item)?;
    let entry = snapshotted(&def.name, def.name_span)?;
    Ok((def, entry))
}

/// The tool's entry in `OUT_DIR` (absolute), if the build step wrote it.
pub fn snapshotted(name: &str, span: Span) -> syn::Result<PathBuf> {
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        return Err(syn::Error::new(
            span,
            "no build script: add `build.rs` with `fn main() { mcp_contract_build::snapshot() }`",
        ));
    };
    let entry = PathBuf::from(out_dir)
        .join(OUT_SUBDIR)
        .join(format!("{name}.json"));
    if !entry.is_file() {
        return Err(syn::Error::new(
            span,
            format!(
                "tool `{name}` was not snapshotted: call `mcp_contract_build::snapshot()` from build.rs \
                 and keep this attribute spelled `#[mcp_contract::tool(...)]` in a module the crate root declares"
            ),
        ));
    }
    Ok(entry)
}
