//! `../shared/rmcp-servers/` (source excerpts of real rmcp servers, read in
//! place) for the tests that run on them: where it is, and its files.

use std::path::{Path, PathBuf};

/// The excerpts' directory. Without it the test says so and passes
/// (`None`); with `CI` set it panics: there the test must run.
pub fn shared() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/rmcp-servers");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "{} is missing, and CI is set: this test must run",
            dir.display()
        );
    }
    eprintln!(
        "SKIPPED: {} is missing (the test runs where ../shared exists)",
        dir.display()
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
