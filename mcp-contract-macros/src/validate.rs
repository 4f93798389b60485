//! Checks the attribute against its item (the shared rules of
//! `mcp-contract-syntax`), then reads the entry the build step wrote for
//! this tool, so a missing `build.rs` is one clear error.

use mcp_contract_syntax::{entry_file_name, ToolDef, OUT_SUBDIR};
use proc_macro2::{Span, TokenStream};

/// The checked definition and the entry the build step wrote for it.
pub fn validate(
    args: TokenStream,
    item: &syn::Item,
) -> syn::Result<(ToolDef, proc_macro::Literal)> {
    let def = mcp_contract_syntax::tool_def(args, item)?;
    let entry = snapshotted(&def.name, def.name_span)?;
    Ok((def, entry))
}

/// The tool's entry in `OUT_DIR`, if the build step wrote it: one Rust
/// string literal (the locked entry's JSON text), lexed by rustc.
///
/// The macro embeds the literal itself rather than emitting
/// `include_str!(path)`: that builtin costs rustc a file load, a source-map
/// entry and a canonicalized path per tool on every build. No dependency is
/// lost by it: the file is written only by the build script, and cargo
/// recompiles the crate whenever its build script ran. The build step
/// writes the literal ready-made (`mcp_contract_build::outputs`), so this
/// unoptimized macro never scans the text.
pub fn snapshotted(name: &str, span: Span) -> syn::Result<proc_macro::Literal> {
    let Some(out_dir) = std::env::var_os("OUT_DIR") else {
        return Err(syn::Error::new(
            span,
            "no build script: add `build.rs` with `fn main() { mcp_contract_build::snapshot() }`",
        ));
    };
    let entry = std::path::Path::new(&out_dir)
        .join(OUT_SUBDIR)
        .join(entry_file_name(name));
    let damaged = |why: &dyn std::fmt::Display| {
        syn::Error::new(
            span,
            format!(
                "cannot read `{}` ({why}): run `cargo clean -p <this package>` and rebuild",
                entry.display()
            ),
        )
    };
    match std::fs::read_to_string(&entry) {
        // A string literal (`r#"…"#` or `"…"`), and nothing else.
        Ok(text) => match text.parse::<proc_macro::Literal>() {
            Ok(literal) if text.starts_with(['r', '"']) => Ok(literal),
            _ => Err(damaged(&"not a string literal")),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(syn::Error::new(
            span,
            format!(
                "tool `{name}` was not snapshotted: call `mcp_contract_build::snapshot()` from build.rs \
                 and keep this attribute spelled `#[mcp_contract::tool(...)]` in a module the crate root declares"
            ),
        )),
        Err(e) => Err(damaged(&e)),
    }
}
