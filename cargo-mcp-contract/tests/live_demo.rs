//! `verify --server` against the workspace's demo server (an rmcp server whose
//! lockfile is written at build time): the binary publishes exactly what
//! `examples/demo-server/contracts/mcp-contract.lock` records, and a lockfile
//! that no longer matches the binary fails.
//!
//! The demo binary is the one cargo built beside this package's binary
//! (`cargo test --workspace` builds it). When it is missing or older than the
//! demo's sources, the test says so on the terminal and skips; with `CI` set
//! or `MCP_CONTRACT_REQUIRE_LIVE=1` it fails (`tests/support/skip.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::SystemTime;

use mcp_contract::lockfile;

#[path = "../../tests/support/skip.rs"]
mod skip;

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

fn demo_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/demo-server")
}

fn newest_source(dir: &Path) -> SystemTime {
    let mut newest = SystemTime::UNIX_EPOCH;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return newest;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let t = if path.is_dir() {
            newest_source(&path)
        } else {
            entry
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH)
        };
        newest = newest.max(t);
    }
    newest
}

/// The demo server binary, when it exists and is not older than its sources.
fn demo_binary(test: &str) -> Option<PathBuf> {
    let exe = Path::new(BIN)
        .parent()
        .unwrap()
        .join(format!("demo-server{}", std::env::consts::EXE_SUFFIX));
    let built = std::fs::metadata(&exe).and_then(|m| m.modified()).ok();
    let dir = demo_dir();
    let sources = newest_source(&dir.join("src"))
        .max(newest_source(&dir.join("build.rs")))
        .max(
            std::fs::metadata(dir.join("Cargo.toml"))
                .and_then(|m| m.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH),
        );
    match built {
        Some(t) if t >= sources => Some(exe),
        found => {
            let why = if found.is_some() {
                "is older than its sources"
            } else {
                "is not built"
            };
            skip::skip(
                test,
                &format!(
                    "{} {why}; `cargo build -p demo-server` (or `cargo test --workspace`) builds it",
                    exe.display()
                ),
            );
            None
        }
    }
}

fn verify(lock: &Path, server: &Path) -> Output {
    Command::new(BIN)
        .args(["verify", "--server", "--color", "never", "--lockfile"])
        .arg(lock)
        .arg("--")
        .arg(server)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn demo_server_publishes_its_lockfile_and_a_mismatch_fails() {
    let test = "demo_server_publishes_its_lockfile_and_a_mismatch_fails";
    let Some(server) = demo_binary(test) else {
        return;
    };
    let lock = demo_dir().join(lockfile::DEFAULT_PATH);
    let out = verify(&lock, &server);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("matches the live surface"));

    // A modified copy of the lockfile: one tool that the binary does not
    // publish, and another tool's description changed.
    let mut surface = lockfile::read(&lock).unwrap();
    let first = surface.tools.keys().next().unwrap().clone();
    let mut tool = surface.get(&first).unwrap().clone();
    tool.description = Some("a description the binary does not publish".into());
    surface.insert(tool);
    surface.insert(mcp_contract::Tool::new("retired_tool"));
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("live-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let edited = dir.join("mcp-contract.lock");
    std::fs::write(&edited, lockfile::render(&surface)).unwrap();
    let out = verify(&edited, &server);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("error[tool.removed]: tool `retired_tool` was removed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("warning[tool.description-changed]"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("--> {first} /description")),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
