//! `verify`'s fix names the command that really refreshes the lockfile: for
//! a package whose build script (mcp-contract-build) writes it, the build
//! (a snapshot would be undone by the next build); for any other lockfile,
//! `snapshot --server`. Runs the driver's stub server (`sh`).

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

fn stub_script() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp-contract-driver/tests/stubs/stub-server.sh")
        .display()
        .to_string()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .env_remove("CI")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A package `tiny` (with `build_dependencies` as its
/// `[build-dependencies]`) whose lockfile is the stub's surface plus a tool
/// the stub does not publish; what `verify` prints on stderr.
fn verify_in_package(build_dependencies: &str) -> String {
    // (outside this workspace: cargo must see `tiny` as its own package)
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[package]\nname = \"tiny\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[build-dependencies]\n{build_dependencies}"
        ),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "").unwrap();
    let script = stub_script();
    let server = ["--", "sh", script.as_str(), "ok"];
    let mut args = vec!["snapshot", "--server", "-o", "contracts/mcp-contract.lock"];
    args.extend(server);
    let out = run(root, &args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lock = root.join("contracts/mcp-contract.lock");
    let mut surface =
        mcp_contract::lockfile::parse(&std::fs::read(&lock).unwrap(), "lock").unwrap();
    surface.insert(mcp_contract::Tool::new("retired"));
    std::fs::write(&lock, mcp_contract::lockfile::render(&surface)).unwrap();
    let mut args = vec!["verify", "--server"];
    args.extend(server);
    let out = run(root, &args);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("error[tool.removed]: tool `retired` was removed"),
        "{}",
        text(&out.stdout)
    );
    text(&out.stderr)
}

#[test]
fn a_lockfile_the_build_step_writes_is_fixed_by_the_build() {
    let stderr = verify_in_package("mcp-contract-build = \"0.1\"\n");
    assert!(
        stderr.contains(
            "help: `tiny`'s build script (mcp-contract-build) writes this lockfile from its sources, so a snapshot would be undone by the next build: rebuild with `cargo build -p tiny`"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("snapshot --server"), "{stderr}");
}

#[test]
fn any_other_package_lockfile_is_fixed_by_a_snapshot() {
    let stderr = verify_in_package("");
    assert!(
        stderr.contains(
            "help: if the live surface is the intended contract, refresh the lockfile with `cargo mcp-contract snapshot --server -o contracts/mcp-contract.lock -- sh "
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("cargo build"), "{stderr}");
}
