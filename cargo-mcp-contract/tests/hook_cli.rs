//! The pre-commit hook as `install-hook` writes it, run by a real
//! `git commit`: without the CLI it names the install command (and the way
//! to skip once) instead of cargo's bare "no such command"; with it, what
//! the check says names the repository's files, never the scratch copy of
//! the index it judged.

#![cfg(unix)]

mod check_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use check_support::*;

/// `git commit -m MSG` with `path` as PATH (and CARGO_HOME, when given).
fn commit_with(r: &TestRepo, path: &str, cargo_home: Option<&Path>) -> Run {
    let mut cmd = Command::new("git");
    cmd.current_dir(r.path())
        .args(["-c", "commit.gpgsign=false", "commit", "-q", "-m", "change"])
        .env("PATH", path)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .env("NO_COLOR", "1")
        .env_remove("CI");
    if let Some(home) = cargo_home {
        cmd.env("CARGO_HOME", home);
    }
    let out = cmd.output().expect("git runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The directories on this PATH holding `name`.
fn on_path(name: &str) -> Vec<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .filter(|d| d.join(name).is_file())
        .collect()
}

/// A repository with `search` committed, the hook installed, and a change
/// staged that removes `limit`.
fn staged_removal() -> TestRepo {
    let r = TestRepo::new();
    r.lock(search(serde_json::json!({
        "query": {"type": "string"},
        "limit": {"type": "integer"}
    })));
    r.commit("publish search");
    let installed = r.run(&["install-hook"]);
    assert_eq!(installed.code, 0, "{installed:?}");
    r.lock(search(serde_json::json!({"query": {"type": "string"}})));
    r.git(&["add", "-A"]);
    r
}

#[test]
fn without_the_cli_the_hook_names_the_install_command() {
    let r = staged_removal();
    let head = r.git(&["rev-parse", "HEAD"]);
    // Only git and the shell: no cargo-mcp-contract on PATH, and an empty
    // CARGO_HOME (cargo finds subcommands in its bin too).
    let git_dirs = on_path("git");
    let path = std::env::join_paths(
        git_dirs
            .iter()
            .cloned()
            .chain([PathBuf::from("/usr/bin"), PathBuf::from("/bin")]),
    )
    .unwrap();
    for dir in std::env::split_paths(&path) {
        assert!(
            !dir.join("cargo-mcp-contract").exists(),
            "{} holds cargo-mcp-contract: this test needs a PATH without it",
            dir.display()
        );
    }
    let home = tempfile::tempdir().unwrap();
    let run = commit_with(&r, path.to_str().unwrap(), Some(home.path()));
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(
        run.stderr,
        format!(
            "error: this pre-commit hook runs `cargo mcp-contract check`, but cargo-mcp-contract is not installed\n  help: install it with `cargo install --locked --git {} cargo-mcp-contract`, or skip the check for one commit with `git commit --no-verify`\n",
            env!("CARGO_PKG_REPOSITORY")
        ),
        "{run:?}"
    );
    assert_eq!(r.git(&["rev-parse", "HEAD"]), head, "nothing committed");
}

#[test]
fn the_hooks_report_names_the_repositorys_files() {
    let r = staged_removal();
    // A fixture the commit would add, malformed.
    r.write(
        "contracts/fixtures/search/typo.json",
        "{\"arguments\": {}, \"expect\": {\"outcome\": \"sucess\"}}\n",
    );
    r.git(&["add", "-A"]);
    let bin = Path::new(env!("CARGO_BIN_EXE_cargo-mcp-contract"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let run = commit_with(&r, path.to_str().unwrap(), None);
    assert_eq!(run.code, 1, "the hook refuses the commit: {run:?}");
    assert!(
        run.stderr.contains("\n  --> contracts/mcp-contract.lock:"),
        "{run:?}"
    );
    assert!(
        run.stderr.ends_with(
            "error: contracts/fixtures/search/typo.json: /expect/outcome: unknown outcome `sucess`\n  help: use one of \"success\", \"tool_error\", \"jsonrpc_error\"\n"
        ),
        "{run:?}"
    );
    let scratch = std::env::temp_dir();
    assert!(
        !run.stderr.contains(&scratch.display().to_string()),
        "no temporary path: {run:?}"
    );
}

/// A repository of a server in another language: the lockfile is captured,
/// so a staged change to the server's code cannot reach it. The hook says
/// so, with the command that captures it again, instead of "nothing staged
/// touches a contract".
#[test]
fn a_captured_lockfile_names_the_capture_when_only_the_server_changed() {
    let r = TestRepo::new();
    r.lock(search(serde_json::json!({"query": {"type": "string"}})));
    r.write("server.py", "print('v1')\n");
    r.commit("publish search");
    r.write("server.py", "print('v2')\n");
    r.write("README.md", "notes\n");
    r.git(&["add", "-A"]);
    let run = r.check(&["--staged"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stderr,
        "mcp-contract: nothing staged touches contracts/mcp-contract.lock: it is captured from the running server, not derived from the sources, so the change to README.md, server.py reaches it only when the server is captured again\n  help: capture it with `cargo mcp-contract snapshot --server -o contracts/mcp-contract.lock -- CMD` (CMD: the command that starts the server, e.g. `python server.py`), then `git add contracts/mcp-contract.lock`\n",
        "{run:?}"
    );
}
