//! The one target directory for the projects tests build with cargo (the
//! adopted rust-sdk examples, the two-server workspace): under cargo's
//! `CARGO_TARGET_TMPDIR`, so inside `CARGO_TARGET_DIR` and kept between
//! runs, and shared, so what those projects have in common (the build step
//! and the library it runs on, for the host; serde, syn, tokio, ...)
//! compiles once, not once per test. Cargo locks the directory, and
//! packages of different names do not collide in it. Copies of one package
//! at different paths do (their fingerprints were seen to overwrite each
//! other's), so `snapshot_fixture`'s copies of the fixture crate keep a
//! directory of their own.
//!
//! Included by path (`#[path = "../../tests/support/child_build.rs"]`).
//! The projects declare `[profile.dev] debug = false`, the same profile
//! everywhere (no debug info for code nobody steps through), so their
//! common units match.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `<CARGO_TARGET_TMPDIR>/child-builds`.
pub fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("child-builds")
}

/// The manifest lines every such project ends with.
pub const PROFILE: &str = "\n[profile.dev]\ndebug = false\n";

/// The dependencies of the rmcp servers built here (the adopted rust-sdk
/// examples, the copy of the demo server the usage removal runs): one set,
/// what all of them need, so every common unit compiles once. `{repo}` is
/// this repository's root.
pub fn rmcp_server_dependencies(repo: &Path) -> String {
    format!(
        r#"[dependencies]
rmcp = {{ version = "3.11", default-features = false, features = ["server", "macros", "transport-io", "client", "elicitation"] }}
tokio = {{ version = "1", features = ["macros", "rt-multi-thread", "io-std"] }}
serde = {{ version = "1", features = ["derive"] }}
serde_json = "1"
schemars = "1"
anyhow = "1"
tracing = "0.1"
tracing-subscriber = {{ version = "0.3", features = ["env-filter", "fmt", "std"] }}
url = "2"
mcp-contract = {{ path = "{repo}/mcp-contract", features = ["rmcp", "macros"] }}

[build-dependencies]
mcp-contract-build = {{ path = "{repo}/mcp-contract-build" }}
"#,
        repo = repo.display()
    )
}
