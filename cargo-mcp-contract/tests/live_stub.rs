//! `snapshot --server`, `verify --server` and `replay --server` end to end
//! against the driver's scripted stub server: exit statuses, what is printed,
//! and that no server process survives (not even after Ctrl-C).

#![cfg(unix)]

#[path = "../../tests/support/scratch.rs"]
mod scratch;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

#[path = "../../tests/support/skip.rs"]
mod skip;

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

fn stub_script() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp-contract-driver/tests/stubs/stub-server.sh")
        .display()
        .to_string()
}

/// A fresh scratch directory for one test, removed when it ends.
fn scratch(name: &str) -> scratch::Scratch {
    scratch::scratch(&format!("live-stub-{name}"))
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("CI")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn pids(file: &Path) -> Vec<i32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rsplit_once(')')
                .map(|(_, rest)| rest.trim_start().starts_with(['Z', 'X']))
        })
        .is_some_and(|zombie| !zombie)
        || (!Path::new("/proc/self/stat").exists()
            && Command::new("kill")
                .args(["-0", &pid.to_string()])
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success()))
}

fn assert_gone(file: &Path, expected: usize) {
    let pids = pids(file);
    assert_eq!(pids.len(), expected, "{pids:?}");
    let until = Instant::now() + Duration::from_secs(3);
    for pid in pids {
        while running(pid) {
            assert!(
                Instant::now() < until,
                "server process {pid} is still running"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn every_failure_exits_2_with_the_servers_stderr_tail() {
    let dir = scratch("failures");
    let script = stub_script();
    let cases = [
        (
            "exit-early",
            "closed its stdout",
            "fatal: missing config file /etc/stub.toml",
            // Started again once: a server that exits on the unknown
            // `server/discover` gets a second start for `initialize`.
            2,
        ),
        ("garbage", "not a JSON-RPC message", "stub: starting up", 1),
        (
            "silent",
            "did not answer `server/discover` within 0.5 s",
            "stub: waiting for a database that never comes",
            2,
        ),
        (
            "init-error",
            "JSON-RPC error -32603: invalid token",
            "stub: rejecting the client: invalid token",
            1,
        ),
        (
            "list-error",
            "answered `tools/list` with JSON-RPC error",
            "stub: tools are not ready yet",
            1,
        ),
    ];
    for (mode, what, tail, processes) in cases {
        let pidfile = dir.join(format!("{mode}.pids"));
        let lock = dir.join(format!("{mode}.lock"));
        let out = run(&[
            "snapshot",
            "--server",
            "--timeout",
            "0.5",
            "-o",
            lock.to_str().unwrap(),
            "--",
            "sh",
            &script,
            mode,
            pidfile.to_str().unwrap(),
        ]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{mode}: {err}");
        assert!(err.contains(what), "{mode}: {err}");
        assert!(err.contains(&format!("| {tail}")), "{mode}: {err}");
        assert!(err.contains("help: "), "{mode}: {err}");
        assert!(!lock.exists(), "{mode}: nothing may be written on error");
        assert_gone(&pidfile, processes);
    }
}

#[test]
fn ctrl_c_takes_the_server_down_too() {
    let dir = scratch("sigint");
    let pidfile = dir.join("silent.pids");
    let mut child = Command::new(BIN)
        .args(["snapshot", "--server", "--timeout", "60", "-o"])
        .arg(dir.join("x.lock"))
        .args(["--", "sh", &stub_script(), "silent"])
        .arg(&pidfile)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    while pids(&pidfile).len() < 2 {
        assert!(Instant::now() < until, "the stub never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert_gone(&pidfile, 2);
}

/// A server that ignores `server/discover` (no answer, no error), or starts
/// slower than the driver's probe, is snapshotted as the well-behaved stub
/// is: same lockfile, exit 0, one process each.
#[test]
fn servers_that_ignore_discover_or_start_slowly_snapshot_like_the_others() {
    let dir = scratch("probe");
    let script = stub_script();
    let mut locks = vec![];
    for mode in ["ok", "ignore-discover", "slow-ok"] {
        let lock = dir.join(format!("{mode}.lock"));
        let pidfile = dir.join(format!("{mode}.pids"));
        let out = run(&[
            "snapshot",
            "--server",
            "-o",
            lock.to_str().unwrap(),
            "--",
            "sh",
            &script,
            mode,
            pidfile.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{mode}: {}", text(&out.stderr));
        locks.push(std::fs::read_to_string(&lock).unwrap());
        assert_gone(&pidfile, 1);
    }
    assert_eq!(locks[0], locks[1]);
    assert_eq!(locks[0], locks[2]);
}

#[test]
fn usage_errors_exit_2() {
    let out = run(&["verify", "--server"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no server command given"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["snapshot", "--from", "x.json", "--", "node", "s.js"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("needs --server"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["verify", "--", "node", "s.js"]);
    assert_eq!(out.status.code(), Some(2), "--server is required");
    let out = run(&["snapshot", "--server", "--timeout", "-1", "--", "node"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn snapshot_then_verify_passes_and_a_changed_lockfile_fails() {
    let dir = scratch("verify");
    let lock = dir.join("contracts/mcp-contract.lock");
    let script = stub_script();
    let server = ["--", "sh", script.as_str(), "ok"];
    let mut args = vec!["snapshot", "--server", "-o", lock.to_str().unwrap()];
    args.extend(server);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("captured 3 tools from stub 0.0.1"),
        "{}",
        text(&out.stderr)
    );
    let locked = std::fs::read_to_string(&lock).unwrap();
    assert!(
        locked.contains("\"taskSupport\": \"forbidden\""),
        "{locked}"
    );

    let mut args = vec!["verify", "--server", "--lockfile", lock.to_str().unwrap()];
    args.extend(server);
    let out = run(&args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(text(&out.stdout).contains("matches the live surface"));

    // The lockfile records a tool the server no longer publishes.
    let mut surface = mcp_contract::lockfile::parse(locked.as_bytes(), "lock").unwrap();
    surface.insert(mcp_contract::Tool::new("retired"));
    std::fs::write(&lock, mcp_contract::lockfile::render(&surface)).unwrap();
    let out = run(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("error[tool.removed]: tool `retired` was removed"),
        "{stdout}"
    );
    assert!(
        text(&out.stderr).contains("snapshot --server -o"),
        "{}",
        text(&out.stderr)
    );

    // Only an unmodelled key differs: still a failure, and it is named.
    let mut surface = mcp_contract::lockfile::parse(locked.as_bytes(), "lock").unwrap();
    let mut add = surface.get("add").unwrap().clone();
    add.extra
        .insert("x-owner".into(), serde_json::json!("team-b"));
    surface.insert(add);
    std::fs::write(&lock, mcp_contract::lockfile::render(&surface)).unwrap();
    let out = run(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("in 1 tool(s): add"), "{stdout}");
    assert!(
        stdout.contains("note: every difference is cosmetic"),
        "{stdout}"
    );

    // A missing lockfile is an input error.
    std::fs::remove_file(&lock).unwrap();
    assert_eq!(run(&args).status.code(), Some(2));
}

#[test]
fn replay_fails_naming_tool_fixture_and_field() {
    let dir = scratch("replay");
    let fixtures = dir.join("fixtures");
    let write = |rel: &str, body: &str| {
        let p = fixtures.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    };
    write(
        "add/sum.json",
        r#"{"safe": true, "arguments": {"a": 1}, "expect": {"outcome": "success", "fields": {"sum": "integer"}}}"#,
    );
    write(
        "add/destructive.json",
        r#"{"arguments": {"a": 2}, "expect": {"outcome": "success"}}"#,
    );
    write(
        "fail/stale.json",
        r#"{"safe": true, "expect": {"outcome": "tool_error", "error_code": "STALE_TOOL_SCHEMA"}}"#,
    );
    let script = stub_script();
    let args = [
        "replay",
        "--server",
        "--fixtures",
        fixtures.to_str().unwrap(),
        "--",
        "sh",
        &script,
        "ok",
    ];
    let out = run(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("skip  add"), "{stdout}");
    assert!(
        stdout.contains("destructive.json: not marked \"safe\": true"),
        "{stdout}"
    );
    assert!(
        stdout.contains("replay: 2 passed, 0 failed, 1 skipped"),
        "{stdout}"
    );

    write(
        "add/sum.json",
        r#"{"safe": true, "arguments": {"a": 1}, "expect": {"outcome": "success", "fields": {"sum": "string", "total": "integer"}}}"#,
    );
    let out = run(&args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAIL  add ")
            && stdout.contains("sum.json: `sum`: expected string, got integer 3"),
        "{stdout}"
    );
    assert!(
        stdout.contains("sum.json: `total`: expected a present integer, got no such field"),
        "{stdout}"
    );

    write(
        "add/typo.json",
        r#"{"saf": true, "expect": {"outcome": "success"}}"#,
    );
    let out = run(&args);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("typo.json: /saf: unknown key `saf`") && err.contains("did you mean `safe`"),
        "{err}"
    );
}

/// A replay that sent nothing checked nothing: exit 2 with why and the fix,
/// whether no fixture is marked safe or the safe ones still await review.
#[test]
fn a_replay_that_sends_nothing_is_not_a_pass() {
    let dir = scratch("replay-nothing");
    let fixtures = dir.join("fixtures");
    std::fs::create_dir_all(fixtures.join("add")).unwrap();
    std::fs::write(
        fixtures.join("add/unsafe.json"),
        r#"{"arguments": {"a": 2}, "expect": {"outcome": "success"}}"#,
    )
    .unwrap();
    std::fs::write(
        fixtures.join("add/witness.json"),
        r#"{"safe": true, "arguments": {"a": ""}, "expect": {"outcome": "success"}, "x-review": {"placeholders": ["/a"]}}"#,
    )
    .unwrap();
    let script = stub_script();
    let out = run(&[
        "replay",
        "--server",
        "--fixtures",
        fixtures.to_str().unwrap(),
        "--",
        "sh",
        &script,
        "ok",
    ]);
    let (stdout, err) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{err}");
    assert!(
        stdout.contains("replay: 0 passed, 0 failed, 2 skipped"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "witness.json: marked safe, but `x-review` lists placeholder arguments at /a"
        ),
        "{stdout}"
    );
    assert!(
        err.contains("nothing was sent, so nothing was checked")
            && err.contains(fixtures.to_str().unwrap()),
        "{err}"
    );
    assert!(
        err.contains("help: mark the fixtures") && err.contains("x-review"),
        "{err}"
    );
}

fn git(repo: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(repo)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
}

#[test]
fn check_gates_the_live_surface_against_git_history() {
    if Command::new("git").arg("--version").output().is_err() {
        skip::skip(
            "check_gates_the_live_surface_against_git_history",
            "git is not installed",
        );
        return;
    }
    let repo = scratch("check");
    git(&repo, &["init", "-q"]);
    let script = stub_script();
    let check = || {
        Command::new(BIN)
            .args([
                "check",
                "--against",
                "HEAD",
                "--server",
                "--",
                "sh",
                &script,
                "ok",
            ])
            .current_dir(&repo)
            .env_remove("CI")
            .output()
            .unwrap()
    };
    let out = Command::new(BIN)
        .args(["snapshot", "--server", "--", "sh", &script, "ok"])
        .current_dir(&repo)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    git(&repo, &["add", "contracts/mcp-contract.lock"]);
    git(&repo, &["commit", "-q", "-m", "lock"]);
    let out = check();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );

    // The committed contract has a tool the live server no longer publishes,
    // and the working-tree lockfile is not what is checked.
    let lock = repo.join("contracts/mcp-contract.lock");
    let mut surface = mcp_contract::lockfile::read(&lock).unwrap();
    surface.insert(mcp_contract::Tool::new("retired"));
    std::fs::write(&lock, mcp_contract::lockfile::render(&surface)).unwrap();
    git(&repo, &["commit", "-q", "-am", "baseline with retired"]);
    let out = check();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("tool.removed") && stdout.contains("retired"),
        "{stdout}"
    );

    // A server that cannot be driven is an error, not a pass.
    let out = Command::new(BIN)
        .args([
            "check",
            "--against",
            "HEAD",
            "--server",
            "--timeout",
            "0.5",
            "--",
            "sh",
            &script,
            "garbage",
        ])
        .current_dir(&repo)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("| stub: starting up"));
}

#[test]
fn contract_versions_are_not_published_so_the_lockfiles_are_kept() {
    let dir = scratch("versions");
    let lock = dir.join("mcp-contract.lock");
    let script = stub_script();
    let snapshot = [
        "snapshot",
        "--server",
        "-o",
        lock.to_str().unwrap(),
        "--",
        "sh",
        &script,
        "ok",
    ];
    assert_eq!(run(&snapshot).status.code(), Some(0));
    let mut surface = mcp_contract::lockfile::read(&lock).unwrap();
    let written = std::fs::read_to_string(&lock).unwrap();
    let release = mcp_contract::lockfile::release(&written, "lock")
        .unwrap()
        .unwrap();
    let mut add = surface.get("add").unwrap().clone();
    add.version = Some(2);
    surface.insert(add);
    std::fs::write(
        &lock,
        mcp_contract::lockfile::render_captured(&surface, &release),
    )
    .unwrap();

    let verify = [
        "verify",
        "--server",
        "--lockfile",
        lock.to_str().unwrap(),
        "--",
        "sh",
        &script,
        "ok",
    ];
    let out = run(&verify);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let out = run(&snapshot);
    assert!(
        text(&out.stderr).contains("is up to date"),
        "{}",
        text(&out.stderr)
    );
    let again = mcp_contract::lockfile::read(&lock).unwrap();
    assert_eq!(again.get("add").unwrap().version, Some(2));
}
