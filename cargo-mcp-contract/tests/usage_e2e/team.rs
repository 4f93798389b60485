//! A team's repository for the removal scenario: a copy of the workspace's
//! demo server (its sources, `build.rs`, `contracts/`) as a crate of its
//! own in a temporary git repository, depending on this repository's crates
//! by path with the workspace's `Cargo.lock`, built offline into the target
//! directory the tests' child projects share (`tests/support/child_build.rs`:
//! kept between runs, dependencies compiled once for all of them). The
//! crate also builds `agent/main.rs`, a client on rmcp.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::child_build;

pub const CLI: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

pub struct Team {
    pub dir: PathBuf,
    pub target: PathBuf,
}

pub fn run(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    out
}

pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(cmd: &mut Command) -> Output {
    let out = run(cmd);
    assert!(out.status.success(), "{cmd:?} failed:\n{}", text(&out));
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dest = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dest);
        } else {
            std::fs::copy(entry.path(), dest).unwrap();
        }
    }
}

/// The copy's manifest: the demo server's library and binary, the rmcp
/// agent, and the dependency set every rmcp server built under
/// `child_build::target_dir()` shares (so nothing common compiles twice).
fn manifest(ws: &Path) -> String {
    format!(
        r#"[package]
name = "demo-server"
version = "0.1.0"
edition = "2021"
publish = false

[lib]
name = "demo_server"
path = "src/lib.rs"

[[bin]]
name = "demo-server"
path = "src/main.rs"

[[bin]]
name = "{AGENT}"
path = "agent/main.rs"

[workspace]

{}{}"#,
        child_build::rmcp_server_dependencies(ws),
        child_build::PROFILE
    )
}

/// The rmcp agent's binary name.
pub const AGENT: &str = "usage-e2e-agent";

impl Team {
    /// The demo server's crate in a new git repository (nothing committed).
    pub fn new(dir: &Path) -> Team {
        let ws = workspace();
        let demo = ws.join("examples/demo-server");
        for sub in ["src", "contracts"] {
            copy_dir(&demo.join(sub), &dir.join(sub));
        }
        std::fs::copy(demo.join("build.rs"), dir.join("build.rs")).unwrap();
        std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
        std::fs::create_dir_all(dir.join("agent")).unwrap();
        std::fs::copy(
            ws.join("cargo-mcp-contract/tests/usage_e2e/rmcp_agent.rs"),
            dir.join("agent/main.rs"),
        )
        .unwrap();
        std::fs::write(dir.join("Cargo.toml"), manifest(&ws)).unwrap();
        std::fs::write(dir.join(".gitignore"), "/target\n/bin\n").unwrap();
        let team = Team {
            dir: dir.to_path_buf(),
            target: child_build::target_dir(),
        };
        team.git(&["init", "-q", "-b", "main"]);
        team
    }

    /// Replaces `from` (which must be there) with `to` in the file at `rel`.
    pub fn edit(&self, rel: &str, from: &str, to: &str) {
        let path = self.dir.join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{rel} lacks {from:?}");
        std::fs::write(path, text.replacen(from, to, 1)).unwrap();
    }

    pub fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.dir.join(rel), text).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.dir.join(rel)).unwrap()
    }

    pub fn git(&self, args: &[&str]) -> Output {
        ok(Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(&self.dir))
    }

    pub fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    /// Builds the server and the rmcp agent as the sources are now and
    /// copies both to `bin/<tag>/` (a developer's build: the build step may
    /// rewrite the lockfile, so `CI` is not passed on).
    pub fn build(&self, tag: &str) -> (PathBuf, PathBuf) {
        ok(Command::new(env!("CARGO"))
            .args(["build", "--offline", "--quiet", "--bins"])
            .current_dir(&self.dir)
            .env("CARGO_TARGET_DIR", &self.target)
            .env_remove("CI")
            .env_remove("RUSTFLAGS"));
        let bin = self.dir.join("bin").join(tag);
        std::fs::create_dir_all(&bin).unwrap();
        let exe = std::env::consts::EXE_SUFFIX;
        let server = bin.join(format!("demo-server{exe}"));
        let agent = bin.join(format!("{AGENT}{exe}"));
        std::fs::copy(self.target.join(format!("debug/demo-server{exe}")), &server).unwrap();
        std::fs::copy(self.target.join(format!("debug/{AGENT}{exe}")), &agent).unwrap();
        (server, agent)
    }

    /// `cargo mcp-contract ARGS` in the team's repository.
    pub fn cli(&self, args: &[&str]) -> Output {
        run(Command::new(CLI)
            .arg("mcp-contract")
            .args(args)
            .current_dir(&self.dir)
            .env_remove("CI"))
    }
}
