//! Adoption the way a user does it, on programs nobody here wrote:
//! rust-sdk's `examples/servers/src/*.rs` (complete stdio servers for the
//! current rmcp), read in place from `../shared/rmcp-servers` and each
//! copied to a temporary crate with only what adoption adds: `build.rs`
//! (`mcp_contract_build::snapshot()`), the build-dependency, and the
//! wrapper line around the server it serves. Each crate is built (the first
//! build writes `contracts/mcp-contract.lock`) and started.
//!
//! `structured_output.rs` (`#[tool_router(router = ...)]`,
//! `#[tool_handler(router = self.tool_router)]`, `Json<T>` outputs, a tool
//! returning plain text) must publish exactly its lockfile over stdio; every
//! other stdio program there must do what it is known to do once adopted.
//!
//! Every crate gets the same manifest (the features and dependencies all of
//! the programs need) and the target directory the workspace's tests share
//! for projects they build (`tests/support/child_build.rs`, inside
//! `CARGO_TARGET_DIR`, kept between runs): rmcp and the rest are compiled
//! once for all of them.
//! Without `../shared` the tests skip, saying so; under CI the skip fails
//! them (`tests/support/skip.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_contract::lockfile;
use mcp_contract_driver::verify::verify;
use mcp_contract_driver::{capture, Options, ServerCommand};

#[path = "../../tests/support/child_build.rs"]
mod child_build;
mod rmcp_servers_dir;
use rmcp_servers_dir::shared;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn examples_dir() -> Option<PathBuf> {
    Some(shared()?.join("modelcontextprotocol__rust-sdk/examples/servers/src"))
}

/// The program with the wrapper added: `.serve(stdio())` becomes
/// `.with_contract(mcp_contract::rmcp!()).serve(stdio())`, and the trait is
/// imported at the end of the file.
fn adopt_source(text: &str) -> Option<String> {
    text.contains(".serve(stdio())").then(|| {
        format!(
            "{}\nuse mcp_contract::rmcp::WithContract;\n",
            text.replacen(
                ".serve(stdio())",
                ".with_contract(mcp_contract::rmcp!()).serve(stdio())",
                1
            )
        )
    })
}

fn adopt(name: &str, source: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("adopt-rust-sdk")
        .join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let repo = repo().canonicalize().unwrap();
    let manifest = format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

{dependencies}{profile}"#,
        dependencies = child_build::rmcp_server_dependencies(&repo),
        profile = child_build::PROFILE,
    );
    let write = |p: PathBuf, t: &str| {
        if std::fs::read_to_string(&p).ok().as_deref() != Some(t) {
            std::fs::write(p, t).unwrap();
        }
    };
    write(dir.join("Cargo.toml"), &manifest);
    write(
        dir.join("build.rs"),
        "fn main() {\n    mcp_contract_build::snapshot();\n}\n",
    );
    write(dir.join("src/main.rs"), source);
    // The workspace's versions, so the copy builds from what is already cached.
    if !dir.join("Cargo.lock").exists() {
        std::fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    }
    let status = Command::new(env!("CARGO"))
        .arg("build")
        .arg("--quiet")
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", child_build::target_dir())
        .env_remove("CI")
        .env("MCP_CONTRACT_LOCKED", "0")
        .status()
        .unwrap();
    assert!(status.success(), "building the adopted `{name}` failed");
    dir
}

fn published_equals_lockfile(name: &str, file: &Path) {
    let text = std::fs::read_to_string(file).unwrap();
    let source = adopt_source(&text).unwrap_or_else(|| panic!("{name}: no `.serve(stdio())`"));
    let dir = adopt(name, &source);
    let locked = lockfile::read(&dir.join("contracts/mcp-contract.lock")).unwrap();
    let bin = child_build::target_dir().join("debug").join(name);
    let live = capture(
        ServerCommand::new(bin.display().to_string()),
        &Options::default(),
    )
    .unwrap_or_else(|e| panic!("{name}: {}", e.summary()));
    let v = verify(&locked, &live.surface);
    assert!(
        v.identical(),
        "{name}: published != locked for {:?}: {:#?}",
        v.differing,
        v.report.changes
    );
    eprintln!(
        "{name}: {} tools and {} prompts published over stdio, equal to the lockfile",
        live.surface.tools.len(),
        locked.prompts.len()
    );
}

#[test]
fn structured_output_publishes_its_lockfile() {
    let Some(src) = examples_dir() else { return };
    published_equals_lockfile("structured_output", &src.join("structured_output.rs"));
}

/// What each other complete stdio program of `examples/servers` does once
/// adopted. Three print a banner to stdout before serving (not a valid stdio
/// server: the driver refuses it, naming the line); `sampling_stdio`
/// declares its one tool by hand in `list_tools` (nothing for the build step
/// to find), so the wrapper publishes it unlocked and `verify` fails on it.
#[test]
fn every_other_stdio_example() {
    let Some(src) = examples_dir() else { return };
    for name in ["prompt_stdio", "completion_stdio", "elicitation_stdio"] {
        let text = std::fs::read_to_string(src.join(format!("{name}.rs"))).unwrap();
        let dir = adopt(name, &adopt_source(&text).unwrap());
        let locked = lockfile::read(&dir.join("contracts/mcp-contract.lock")).unwrap();
        let bin = child_build::target_dir().join("debug").join(name);
        let err = capture(
            ServerCommand::new(bin.display().to_string()),
            &Options::default(),
        )
        .err()
        .unwrap_or_else(|| panic!("{name}: expected the stdout banner to be refused"));
        assert!(
            err.summary().contains("not a JSON-RPC message"),
            "{name}: {}",
            err.summary()
        );
        eprintln!(
            "{name}: locked {} tools and {} prompts; not checkable over stdio: {}",
            locked.tools.len(),
            locked.prompts.len(),
            err.summary()
        );
    }
    let name = "sampling_stdio";
    let text = std::fs::read_to_string(src.join(format!("{name}.rs"))).unwrap();
    let dir = adopt(name, &adopt_source(&text).unwrap());
    let locked = lockfile::read(&dir.join("contracts/mcp-contract.lock")).unwrap();
    let bin = child_build::target_dir().join("debug").join(name);
    let live = capture(
        ServerCommand::new(bin.display().to_string()),
        &Options::default(),
    )
    .unwrap_or_else(|e| panic!("{name}: {}", e.summary()));
    let v = verify(&locked, &live.surface);
    assert!(locked.tools.is_empty());
    assert_eq!(v.differing.len(), live.surface.tools.len());
    assert!(!v.differing.is_empty());
    eprintln!(
        "{name}: hand-declared tools {:?} are published unlocked; verify fails on them",
        v.differing
    );
}
