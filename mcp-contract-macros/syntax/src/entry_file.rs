//! Where the build step leaves each tool's locked entry for the macro: one
//! file per tool under `$OUT_DIR`, holding the entry as a Rust string
//! literal. Both sides name it from here, so the two cannot drift apart.

/// The subdirectory of `OUT_DIR` with one entry file per tool.
pub const OUT_SUBDIR: &str = "mcp-contract";

/// The name of tool `name`'s entry file under [`OUT_SUBDIR`].
pub fn entry_file_name(name: &str) -> String {
    format!("{name}.rs")
}
