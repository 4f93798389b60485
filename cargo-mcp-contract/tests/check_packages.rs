//! `check -p PKG` / `--workspace` on a package whose build step writes its
//! lockfile: the candidate must be what the sources say now. A lockfile the
//! sources have moved past is exit 2 with the command that refreshes it.

mod check_support;

use check_support::TestRepo;

const MANIFEST: &str = r#"[package]
name = "tiny"
version = "0.1.0"
edition = "2021"

[dependencies]
serde = { version = "1", features = ["derive"] }

[build-dependencies]
mcp-contract-build = "0.1"
"#;

fn lib(doc: &str) -> String {
    format!(
        "/// {doc}\n#[mcp_contract::tool(name = \"echo\", read_only)]\n#[derive(serde::Deserialize)]\npub struct EchoArgs {{\n    /// What to say back.\n    pub text: String,\n}}\n"
    )
}

fn package(doc: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write("Cargo.toml", MANIFEST);
    repo.write("build.rs", "fn main() { mcp_contract_build::snapshot() }\n");
    repo.write("src/lib.rs", &lib(doc));
    mcp_contract_build::Builder::new()
        .manifest_dir(repo.path())
        .package("tiny")
        .mode(mcp_contract_build::Mode::Update)
        .quiet()
        .generate()
        .expect("the fixture package snapshots");
    repo.commit("tiny with its lockfile");
    repo
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
