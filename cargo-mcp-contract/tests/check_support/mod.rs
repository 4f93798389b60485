//! Shared helpers for the check tests: real temporary git repositories with
//! a hermetic git configuration, and the binary run inside them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mcp_contract::{load, lockfile};
use serde_json::Value;

pub const LOCK: &str = "contracts/mcp-contract.lock";
pub const RECORD: &str = "contracts/migrations.toml";

pub struct TestRepo {
    pub dir: tempfile::TempDir,
}

fn hermetic(cmd: &mut Command) {
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("GIT_") {
            cmd.env_remove(k);
        }
    }
    cmd.env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .env_remove("CI")
        .env("NO_COLOR", "1");
}

pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let mut cmd = Command::new("git");
    hermetic(&mut cmd);
    let out = cmd
        .current_dir(dir)
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The output of a run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    fn from(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

pub fn run_in(dir: &Path, args: &[&str]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-contract"));
    hermetic(&mut cmd);
    Run::from(
        cmd.current_dir(dir)
            .arg("mcp-contract")
            .args(args)
            .output()
            .expect("binary runs"),
    )
}

impl TestRepo {
    /// A new repository with no commits.
    pub fn new() -> TestRepo {
        let dir = tempfile::tempdir().expect("tempdir");
        git_in(dir.path(), &["init", "-q"]);
        TestRepo { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn git(&self, args: &[&str]) -> String {
        git_in(self.path(), args)
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path().join(rel)).unwrap()
    }

    /// Writes the lockfile for `tools` (an array of tool objects).
    pub fn lock(&self, tools: Value) {
        let surface = load::surface_from_value(&tools, "test").expect("valid tools");
        self.write(LOCK, &lockfile::render(&surface));
    }

    /// Writes the lockfile for `tools` at `rel` (another lockfile than the default).
    pub fn lock_at(&self, rel: &str, tools: Value) {
        let surface = load::surface_from_value(&tools, "test").expect("valid tools");
        self.write(rel, &lockfile::render(&surface));
    }

    /// Stages everything and commits; returns the commit id.
    pub fn commit(&self, msg: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", msg]);
        self.git(&["rev-parse", "HEAD"])
    }

    pub fn run(&self, args: &[&str]) -> Run {
        run_in(self.path(), args)
    }

    pub fn check(&self, extra: &[&str]) -> Run {
        let mut args = vec!["check"];
        args.extend_from_slice(extra);
        self.run(&args)
    }

    pub fn abs(&self, rel: &str) -> PathBuf {
        self.path().join(rel)
    }
}

/// `search` with the given input properties (all optional).
pub fn search(props: Value) -> Value {
    serde_json::json!([{
        "name": "search",
        "description": "Search documents.",
        "inputSchema": {"type": "object", "properties": props}
    }])
}

/// A repository whose main has `search {query}` and whose branch `feature`
/// (checked out) renamed `query` to `search_text` (not committed).
pub fn renamed_on_branch() -> TestRepo {
    let r = TestRepo::new();
    r.lock(search(serde_json::json!({"query": {"type": "string"}})));
    r.commit("publish search");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.lock(search(
        serde_json::json!({"search_text": {"type": "string"}}),
    ));
    r
}

/// The manifest of `tiny`, a package whose build step writes its lockfile.
pub const TINY_MANIFEST: &str = r#"[package]
name = "tiny"
version = "0.1.0"
edition = "2021"

[dependencies]
serde = { version = "1", features = ["derive"] }

[build-dependencies]
mcp-contract-build = "0.1"
"#;

/// `tiny`'s one tool, `echo`, with `doc` as its description and `field` as
/// the name of its one argument.
pub fn tiny_lib(doc: &str, field: &str) -> String {
    format!(
        "/// {doc}\n#[mcp_contract::tool(name = \"echo\", read_only)]\n#[derive(serde::Deserialize)]\npub struct EchoArgs {{\n    /// What to say back.\n    pub {field}: String,\n}}\n"
    )
}

/// A repository holding the package `tiny` at its root, its lockfile written
/// by the build step and committed.
pub fn tiny_package(doc: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write("Cargo.toml", TINY_MANIFEST);
    repo.write("build.rs", "fn main() { mcp_contract_build::snapshot() }\n");
    repo.write("src/lib.rs", &tiny_lib(doc, "text"));
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

/// One usage-evidence hit row: tool, path, client, day, count.
pub type Hit<'a> = (&'a str, &'a str, &'a str, &'a str, u64);

/// An `mcp-contract-usage` file's text.
pub fn evidence_json(from: &str, to: &str, no_data: &[&str], hits: &[Hit<'_>]) -> String {
    let rows: Vec<Value> = hits
        .iter()
        .map(|(tool, path, client, day, count)| {
            serde_json::json!({"tool": tool, "path": path, "client": client, "day": day, "count": count})
        })
        .collect();
    serde_json::json!({"format": "mcp-contract-usage", "version": 1,
           "range": {"from": from, "to": to}, "no_data": no_data, "hits": rows})
    .to_string()
}

/// Usage-evidence files, beside the repository, not in it.
pub struct Files(tempfile::TempDir);

impl Files {
    pub fn new() -> Files {
        Files(tempfile::tempdir().unwrap())
    }

    pub fn write(&self, name: &str, text: &str) -> String {
        let p: PathBuf = self.0.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    }
}
