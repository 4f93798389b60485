//! `../shared/rmcp-servers/` (source excerpts of real rmcp servers, read in
//! place) for the tests that run on them: where it is, and its files.

use std::path::{Path, PathBuf};

#[path = "../../../tests/support/skip.rs"]
mod skip;

/// The excerpts' directory. Without it the test skips (`None`), saying so;
/// under CI (or `MCP_CONTRACT_REQUIRE_LIVE=1`) the skip fails the test
/// (`tests/support/skip.rs`).
pub fn shared() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/rmcp-servers");
    if dir.is_dir() {
        return Some(dir);
    }
    // (the test harness names each test's thread after the test)
    let current = std::thread::current();
    skip::skip(
        current.name().unwrap_or("this test"),
        &format!(
            "{} is missing (it lives beside the repository in shared/)",
            dir.display()
        ),
    );
    None
}

/// Every `.rs` file below `dir`, sorted by path, into `out`.
#[allow(dead_code)] // not every test that reads the directory lists its files
pub fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}
