//! Situations in which the check cannot see its baseline: each exits with
//! status 2 and the exact fix, never "no breaking changes". And the ones
//! that must simply work: linked worktrees, running inside a git hook.

mod check_support;

use check_support::*;
use serde_json::json;

#[test]
fn shallow_clone_gives_the_fix() {
    let r = TestRepo::new();
    for i in 0..3 {
        r.lock(search(json!({format!("f{i}"): {"type": "string"}})));
        r.commit(&format!("c{i}"));
    }
    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", r.path().display());
    git_in(clone.path(), &["clone", "-q", "--depth", "1", &url, "repo"]);
    let repo = clone.path().join("repo");
    git_in(&repo, &["checkout", "-q", "-b", "feature"]);
    let run = run_in(&repo, &["check"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("shallow clone"), "{run:?}");
    assert!(run.stderr.contains("git fetch --unshallow"), "{run:?}");
    assert!(run.stderr.contains("fetch-depth: 0"), "{run:?}");
    // Even with an explicit baseline the history would be cut off.
    let run = run_in(&repo, &["check", "--against", "HEAD"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stdout.is_empty(), "{run:?}");
}

#[test]
fn a_repository_without_commits_is_an_error() {
    let r = TestRepo::new();
    r.lock(search(json!({"query": {"type": "string"}})));
    let run = r.check(&[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("no commits yet"), "{run:?}");
    assert!(run.stderr.contains("git commit"), "{run:?}");
}

#[test]
fn a_missing_baseline_revision_is_an_error() {
    let r = renamed_on_branch();
    let run = r.check(&["--against", "v9.9.9"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("git does not know the revision `v9.9.9`"),
        "{run:?}"
    );
    assert!(run.stderr.contains("git fetch origin v9.9.9"), "{run:?}");
}

#[test]
fn a_deleted_lockfile_is_an_error() {
    let r = renamed_on_branch();
    r.git(&["rm", "-q", "-f", LOCK]);
    r.commit("drop the lockfile");
    let run = r.check(&[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("the lockfile was deleted"), "{run:?}");
    assert!(run.stderr.contains("git checkout"), "{run:?}");
}

#[test]
fn detached_head_needs_an_explicit_baseline() {
    let r = renamed_on_branch();
    r.commit("rename");
    r.git(&["checkout", "-q", "--detach", "HEAD"]);
    let run = r.check(&[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("HEAD is detached"), "{run:?}");
    assert!(run.stderr.contains("--against origin/main"), "{run:?}");
    let explicit = r.check(&["--against", "main"]);
    assert_eq!(explicit.code, 1, "{explicit:?}");
    assert!(
        explicit.stdout.contains("error[input.property-removed]"),
        "{explicit:?}"
    );
}

#[test]
fn outside_a_repository_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("contracts")).unwrap();
    std::fs::write(dir.path().join(LOCK), "{}").unwrap();
    let run = run_in(dir.path(), &["check"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("not inside a git work tree"), "{run:?}");
}

#[test]
fn a_linked_worktree_works() {
    let r = renamed_on_branch();
    r.commit("rename on feature");
    r.git(&["checkout", "-q", "main"]);
    let wt = tempfile::tempdir().unwrap();
    let wt_path = wt.path().join("wt");
    r.git(&[
        "worktree",
        "add",
        "-q",
        wt_path.to_str().unwrap(),
        "feature",
    ]);
    let run = run_in(&wt_path, &["check"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[input.property-removed]"),
        "{run:?}"
    );
    // The worktree's record is the worktree's, not the main checkout's.
    std::fs::write(
        wt_path.join(RECORD),
        "[[acknowledge]]\nfingerprint = \"input.property-removed search /inputSchema/properties/query query\"\nreason = \"renamed\"\nowner = \"@me\"\ntransition = { kind = \"rename\", from = \"query\", to = \"search_text\" }\n",
    )
    .unwrap();
    let run = run_in(&wt_path, &["check"]);
    assert_eq!(run.code, 0, "{run:?}");
}

#[test]
fn git_variables_of_a_hook_do_not_leak_into_the_check() {
    let r = renamed_on_branch();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-mcp-contract"));
    let out = cmd
        .current_dir(r.path())
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_INDEX_FILE", "/nonexistent/index")
        .env("GIT_DIR", "/nonexistent/.git")
        .args(["mcp-contract", "check"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
