//! `.ci/contract-gate`, the contract gate CI runs on the examples' own
//! lockfiles: it checks each commit against the one before it, makes a
//! shallow clone complete first (never passing without checking), fails
//! with the fix when it cannot, and says so when HEAD is a root commit.
//! Each case runs the script itself in a temporary repository with the
//! real binary.

#![cfg(unix)]

mod check_support;

use std::path::Path;
use std::process::Command;

use check_support::{git_in, search, Run, TestRepo};
use mcp_contract::{load, lockfile};
use serde_json::{json, Value};

const EXAMPLE_LOCK: &str = "examples/ex/contracts/mcp-contract.lock";

fn script() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.ci/contract-gate"))
        .expect(".ci/contract-gate")
}

/// A repository holding the gate script and an example's lockfile, one
/// commit per surface in `history`.
fn origin(history: &[Value]) -> TestRepo {
    let repo = TestRepo::new();
    repo.write(".ci/contract-gate", &script());
    for (i, tools) in history.iter().enumerate() {
        let surface = load::surface_from_value(tools, "test").unwrap();
        repo.write(EXAMPLE_LOCK, &lockfile::render(&surface));
        repo.commit(&format!("revision {i}"));
    }
    repo
}

/// Runs the gate script of the repository at `dir`, with this build's binary.
fn gate(dir: &Path) -> Run {
    let mut cmd = Command::new("bash");
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("GIT_") {
            cmd.env_remove(k);
        }
    }
    let out = cmd
        .arg(dir.join(".ci/contract-gate"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("CI")
        .env("NO_COLOR", "1")
        .env(
            "MCP_CONTRACT_CHECK",
            format!("{} mcp-contract", env!("CARGO_BIN_EXE_cargo-mcp-contract")),
        )
        .output()
        .expect("bash runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A clone of `origin` holding only its last commit.
fn shallow_clone(origin: &TestRepo) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("file://{}", origin.path().display());
    git_in(dir.path(), &["clone", "-q", "--depth", "1", &url, "clone"]);
    assert_eq!(
        git_in(
            &dir.path().join("clone"),
            &["rev-parse", "--is-shallow-repository"]
        ),
        "true"
    );
    dir
}

fn query_removed() -> [Value; 2] {
    [
        search(json!({"query": {"type": "string"}})),
        search(json!({"search_text": {"type": "string"}})),
    ]
}

#[test]
fn a_shallow_clone_is_completed_and_an_unacknowledged_break_fails() {
    let origin = origin(&query_removed());
    let dir = shallow_clone(&origin);
    let clone = dir.path().join("clone");
    let run = gate(&clone);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("contract gate: shallow clone: fetching the full history from origin"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("error[input.property-removed]"),
        "{run:?}"
    );
    assert_eq!(
        git_in(&clone, &["rev-parse", "--is-shallow-repository"]),
        "false"
    );
}

#[test]
fn a_shallow_clone_with_an_additive_change_passes_after_checking() {
    let origin = origin(&[
        search(json!({"query": {"type": "string"}})),
        search(json!({"query": {"type": "string"}, "limit": {"type": "integer"}})),
    ]);
    let dir = shallow_clone(&origin);
    let run = gate(&dir.path().join("clone"));
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("result: passed"), "{run:?}");
}

#[test]
fn a_shallow_clone_without_a_remote_fails_with_the_fix() {
    let origin = origin(&query_removed());
    let dir = shallow_clone(&origin);
    let clone = dir.path().join("clone");
    git_in(&clone, &["remote", "remove", "origin"]);
    let run = gate(&clone);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stderr
            .contains("error: contract gate: this is a shallow clone without a remote"),
        "{run:?}"
    );
    assert!(
        run.stderr
            .contains("help: clone with full history (in GitHub Actions: actions/checkout with fetch-depth: 0)"),
        "{run:?}"
    );
}

#[test]
fn a_root_commit_has_nothing_to_compare_with_and_says_so() {
    let origin = origin(&query_removed()[..1]);
    let run = gate(origin.path());
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout.trim(),
        "contract gate: HEAD is a root commit: no previous commit to compare with, nothing to check (1 lockfile(s) are new surfaces)",
        "{run:?}"
    );
}

#[test]
fn a_full_clone_checks_against_the_previous_commit() {
    let origin = origin(&query_removed());
    let run = gate(origin.path());
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[input.property-removed]"),
        "{run:?}"
    );
    assert!(!run.stdout.contains("shallow"), "{run:?}");
}
