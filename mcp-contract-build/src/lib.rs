//! `mcp-contract-build`: used from `build.rs`. During `cargo build` it finds
//! every argument struct annotated with `#[mcp_contract::tool]` in the
//! package's sources (following the module tree from `src/lib.rs` /
//! `src/main.rs`), derives each tool's input and output JSON Schema from the
//! Rust types, and keeps `contracts/mcp-contract.lock` current: written only
//! when its content changed, never in CI or locked mode (there a stale
//! lockfile fails the build with the command that fixes it). It also writes
//! each tool's locked entry (its published definition and version) to
//! `OUT_DIR`, where the macro embeds it: the schema the server publishes is
//! the locked one.
//!
//! ```no_run
//! // build.rs: `fn main() { mcp_contract_build::snapshot() }`
//! mcp_contract_build::snapshot();
//! ```

mod attr_pos;
pub mod build_script;
pub mod builder;
pub mod cache;
pub mod compat;
mod default_fit;
pub mod derive;
pub mod discover;
pub mod error;
pub mod metadata;
pub mod mode;
pub mod outputs;
pub mod rmcp;
pub mod source;
pub mod surface;
pub mod unapply;

pub use builder::{Builder, Built, Snapshot};
pub use error::Error;
pub use mode::Mode;
pub use outputs::LockOutcome;

/// Snapshots the package's tools with every default (see [`Builder`]); on
/// failure prints the error and fails the build.
pub fn snapshot() {
    Builder::new().run();
}

/// Outside a build script (e.g. `cargo mcp-contract check -p PKG`): is the
/// lockfile of the package in `manifest_dir` exactly what its build step
/// would write from the current sources and migration record, configured
/// as `script` (its `build.rs`, read with [`build_script::read`])
/// configures it? Writes nothing; a stale or missing lockfile is
/// [`Error::Stale`] with the fix.
pub fn verify_fresh(
    manifest_dir: &std::path::Path,
    package: &str,
    lockfile: &std::path::Path,
    script: Option<&build_script::BuildScript>,
) -> Result<(), Error> {
    let relative = lockfile.strip_prefix(manifest_dir).unwrap_or(lockfile);
    let builder = match script {
        Some(s) => s.configure(Builder::new()),
        None => Builder::new(),
    };
    builder
        .manifest_dir(manifest_dir)
        .package(package)
        .lockfile(relative)
        .mode(Mode::Verify)
        .quiet()
        .generate()
        .map(|_| ())
        .map_err(|e| match e {
            Error::Stale {
                missing,
                changes,
                fix,
                ..
            } => Error::Stale {
                lockfile: lockfile.to_path_buf(),
                reason: "the check only verifies it",
                missing,
                changes,
                fix,
            },
            other => other,
        })
}

/// Whether `name` can name a file on its own (no separator, not `.`/`..`).
pub(crate) fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0'])
}
