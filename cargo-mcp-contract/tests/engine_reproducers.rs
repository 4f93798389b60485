//! Reproducers for comparator failures found by issue 15's fuzzing
//! (`mcp-contract/tests/fuzz.rs`, long run), minimized by hand, for the
//! engine's owner to fix. Each runs the real binary in a child process, so
//! a stack overflow (which aborts the process) fails the test instead of
//! killing the test harness.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

fn diff(old: &str, new: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("old.json"), dir.path().join("new.json"));
    let wrap = |s: &str| format!(r#"{{"tools": [{{"name": "t", "inputSchema": {s}}}]}}"#);
    std::fs::write(&a, wrap(old)).unwrap();
    std::fs::write(&b, wrap(new)).unwrap();
    let out = Command::new(BIN)
        .arg("diff")
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A definition that is one of its own `anyOf` branches, compared with a
/// plain object schema: the comparator recurses through the branch until
/// the stack overflows (debug build, 8 MiB main stack) instead of stopping
/// at the recursion (the memo key of the non-reference side is its
/// pointer, which grows with every branch, so it never repeats).
#[test]
fn a_self_referencing_any_of_branch_does_not_overflow_the_stack() {
    let old = r##"{"$ref": "#/$defs/D", "$defs": {"D": {"anyOf": [{"type": "object"}, {"$ref": "#/$defs/D"}]}}}"##;
    let new = r#"{"type": "object"}"#;
    let (code, stderr) = diff(old, new);
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?} (a signal: None): {stderr}"
    );
}
