//! `check -p PKG` / `--workspace` on a package whose build step writes its
//! lockfile: the candidate must be what the sources say now. A lockfile the
//! sources have moved past is exit 2 with the command that refreshes it.

mod check_support;

use check_support::{tiny_lib, tiny_package, TestRepo};

fn lib(doc: &str) -> String {
    tiny_lib(doc, "text")
}

fn package(doc: &str) -> TestRepo {
    tiny_package(doc)
}

#[test]
fn a_fresh_build_step_lockfile_is_checked() {
    let repo = package("Echo the text.");
    let r = repo.run(&["check", "-p", "tiny", "--against", "HEAD"]);
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn a_lockfile_the_sources_moved_past_is_refused_with_the_fix() {
    let repo = package("Echo the text.");
    repo.write("src/lib.rs", &lib("Echo the text, loudly."));
    let r = repo.run(&["check", "--workspace", "--against", "HEAD"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("out of date with the sources"), "{r:?}");
    assert!(r.stderr.contains("changed: echo"), "{r:?}");
    assert!(r.stderr.contains("cargo build -p tiny"), "{r:?}");
    assert!(
        r.stdout.is_empty(),
        "no verdict about a stale candidate: {r:?}"
    );
}

/// The pre-commit hook's check judges the commit: a staged source change
/// whose rebuilt lockfile is not staged fails, even though the working tree
/// holds the rebuilt lockfile; staging it too passes.
#[test]
fn staged_check_judges_what_the_commit_contains() {
    let repo = package("Echo the text.");
    repo.write("src/lib.rs", &lib("Echo the text, loudly."));
    repo.git(&["add", "src/lib.rs"]);
    // The developer rebuilt (the working-tree lockfile is fresh) but did not stage it.
    mcp_contract_build::Builder::new()
        .manifest_dir(repo.path())
        .package("tiny")
        .mode(mcp_contract_build::Mode::Update)
        .quiet()
        .generate()
        .expect("rebuild");
    let fresh_in_tree = repo.run(&["check", "-p", "tiny", "--against", "HEAD"]);
    assert_eq!(fresh_in_tree.code, 0, "{fresh_in_tree:?}");
    let r = repo.run(&["check", "--staged", "--against", "HEAD"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("out of date with the sources"), "{r:?}");
    assert!(r.stderr.contains("staged content"), "{r:?}");
    assert!(
        !r.stderr.contains("mcp-contract-staged-"),
        "messages name the repository's paths: {r:?}"
    );
    repo.git(&["add", "contracts/mcp-contract.lock"]);
    let r = repo.run(&["check", "--staged", "--against", "HEAD"]);
    assert_eq!(r.code, 0, "{r:?}");
    // Nothing staged that a contract depends on: nothing to check.
    repo.commit("echo, loudly");
    repo.write("README.md", "notes\n");
    repo.git(&["add", "README.md"]);
    let r = repo.run(&["check", "--staged", "--against", "HEAD"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("nothing staged"), "{r:?}");
}

/// Run from a subdirectory, `check` finds the package the way cargo does.
#[test]
fn check_from_a_subdirectory_finds_the_package() {
    let repo = package("Echo the text.");
    let r = check_support::run_in(&repo.abs("src"), &["check", "--against", "HEAD"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("mcp-contract.lock"), "{r:?}");
    repo.write("src/lib.rs", &lib("Echo the text, loudly."));
    let r = check_support::run_in(&repo.abs("src"), &["check", "--against", "HEAD"]);
    assert_eq!(r.code, 2, "the build-step freshness check runs too: {r:?}");
}

/// Plain `check` in the package's directory, where the lockfile sits in
/// `contracts/`, judges the package as `-p` does: a field renamed in the
/// source without a rebuild is a stale lockfile (exit 2), not a pass.
#[test]
fn plain_check_in_the_package_finds_a_stale_lockfile() {
    let repo = package("Echo the text.");
    repo.write("src/lib.rs", &tiny_lib("Echo the text.", "words"));
    let named = repo.run(&["check", "-p", "tiny", "--against", "HEAD"]);
    assert_eq!(named.code, 2, "{named:?}");
    let plain = repo.run(&["check", "--against", "HEAD"]);
    assert_eq!(plain.code, 2, "{plain:?}");
    assert!(
        plain.stderr.contains("out of date with the sources"),
        "{plain:?}"
    );
    assert!(plain.stderr.contains("cargo build -p tiny"), "{plain:?}");
    assert!(!plain.stdout.contains("passed"), "{plain:?}");
}

/// What plain `check` judged is in its report: a package's lockfile derived
/// again from the sources, or a lockfile no build step writes, as written.
#[test]
fn plain_check_says_which_lockfile_it_judged_and_how() {
    let repo = package("Echo the text.");
    let run = repo.run(&["check", "--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains("package `tiny`: the lockfile matches its sources"),
        "{run:?}"
    );
    let json = repo.run(&["check", "--against", "HEAD", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        v["checks"][0]["candidate"],
        serde_json::json!({"kind": "build-step", "package": "tiny"}),
        "{json:?}"
    );

    let plain = TestRepo::new();
    plain.lock(check_support::search(
        serde_json::json!({"q": {"type": "string"}}),
    ));
    plain.commit("a captured surface");
    let run = plain.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("judged as written"), "{run:?}");
    let json = plain.check(&["--against", "HEAD", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(
        v["checks"][0]["candidate"],
        serde_json::json!({"kind": "lockfile", "package": null}),
        "{json:?}"
    );
}
