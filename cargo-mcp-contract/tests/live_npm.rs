//! The driver against real published MCP servers that nobody here wrote,
//! installed from npm at pinned versions: `@modelcontextprotocol/server-everything`
//! 2025.12.18 → 2026.1.14 (every tool renamed) and
//! `@modelcontextprotocol/server-filesystem` 2025.8.21 → 2025.11.25
//! (annotations and output schemas appeared).
//!
//! Installs are cached under the target directory (`tmp/npm-cache/`), so only
//! the first run downloads. Without `node`/`npm`, or when the registry cannot
//! be reached (a network error, told apart from other install failures by
//! npm's error code), each test says so on the terminal and skips; with `CI`
//! set or `MCP_CONTRACT_REQUIRE_LIVE=1` that skip is a failure
//! (`tests/support/skip.rs`). Any other install failure — a wrong version, a
//! package that does not exist, a full disk — fails the test always.

#![cfg(unix)]

#[path = "../../tests/support/scratch.rs"]
mod scratch;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mcp_contract::{diff_surfaces, lockfile, DiffReport, Severity};

#[path = "../../tests/support/skip.rs"]
mod skip;

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

/// Why a server could not be installed.
enum Missing {
    /// Nothing wrong with the test: no npm, or no network. A skip (a failure under CI).
    Unavailable(String),
    /// Anything else: always a failure.
    Broken(String),
}

/// npm's error codes that mean "the registry could not be reached".
const NETWORK_CODES: &[&str] = &[
    "ENOTFOUND",
    "EAI_AGAIN",
    "ECONNREFUSED",
    "ECONNRESET",
    "ETIMEDOUT",
    "ESOCKETTIMEDOUT",
    "ENETUNREACH",
    "ENETDOWN",
    "EHOSTUNREACH",
    "ERR_SOCKET_TIMEOUT",
];

/// Is npm's stderr a network failure? npm prints `npm error code X` (older:
/// `npm ERR! code X`) and, for fetch failures, `npm error network ...` lines.
/// Without such a line it is not a network error (`ETARGET` for a wrong
/// version, `E404` for a missing package, `ENOSPC`, ...).
fn network_error(stderr: &str) -> bool {
    stderr.lines().any(|line| {
        let rest = line
            .strip_prefix("npm error ")
            .or_else(|| line.strip_prefix("npm ERR! "))
            .unwrap_or("");
        if rest.starts_with("network ") {
            return true;
        }
        let code = rest
            .strip_prefix("code ")
            .or_else(|| rest.strip_prefix("errno "))
            .map(str::trim);
        code.is_some_and(|c| NETWORK_CODES.contains(&c))
    })
}

#[test]
fn npm_network_errors_are_told_apart_from_other_install_failures() {
    let offline = "npm error code ENOTFOUND\nnpm error syscall getaddrinfo\nnpm error errno ENOTFOUND\n\
                   npm error network request to https://registry.npmjs.org/x failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org\n";
    assert!(network_error(offline));
    assert!(network_error("npm ERR! code EAI_AGAIN\n"));
    assert!(network_error("npm error network Socket timeout\n"));
    let wrong_version = "npm error code ETARGET\nnpm error notarget No matching version found for @modelcontextprotocol/server-everything@1999.1.1.\n";
    assert!(!network_error(wrong_version));
    assert!(!network_error("npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@x%2fy - Not found\n"));
    assert!(!network_error("npm error code ENOSPC\n"));
    // The words alone are not the code.
    assert!(!network_error(
        "npm error notarget ENOTFOUND is not a version\n"
    ));
}

/// Prints past the test harness's output capture, so a skip is always seen.
fn say(msg: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{msg}");
}

/// Packages installed beside a release, at the versions it shipped with:
/// a fresh install of an old release resolves its ranges to what is newest
/// today, and zod 4 (from mid 2025) makes the filesystem server's converter
/// publish every `inputSchema` as a bare `{"$schema": ...}`, which clients
/// (and `snapshot`) refuse.
fn shipped_with(package: &str, version: &str) -> &'static [&'static str] {
    match (package, version) {
        ("@modelcontextprotocol/server-filesystem", "2025.8.21") => &["zod@3.25.76"],
        _ => &[],
    }
}

/// Installs `package@version` (once) and returns its executable `bin`.
fn npm_server(package: &str, version: &str, bin: &str) -> Result<PathBuf, Missing> {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("npm-cache");
    let pins = shipped_with(package, version);
    let root = cache.join(format!(
        "{}@{version}{}",
        package.replace('/', "+"),
        pins.iter().map(|p| format!("+{p}")).collect::<String>()
    ));
    let exe = root.join("node_modules/.bin").join(bin);
    if exe.exists() {
        return Ok(exe);
    }
    match Command::new("npm").arg("--version").output() {
        Ok(o) if o.status.success() => {}
        _ => {
            return Err(Missing::Unavailable(
                "`npm` is not installed (or not on PATH)".into(),
            ))
        }
    }
    // Install beside the cache entry, then move it into place: a half
    // finished install never looks like a cached one.
    let staging = cache.join(format!(
        ".staging-{}-{}-{:?}",
        bin,
        std::process::id(),
        std::thread::current().id()
    ));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|e| Missing::Broken(e.to_string()))?;
    let out = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--prefix",
        ])
        .arg(&staging)
        .arg(format!("{package}@{version}"))
        .args(pins)
        .output()
        .map_err(|e| Missing::Broken(format!("cannot run npm: {e}")))?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(&staging);
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(5).collect();
        let tail = tail.into_iter().rev().collect::<Vec<_>>().join(" / ");
        return Err(if network_error(&err) {
            Missing::Unavailable(format!(
                "`npm install {package}@{version}` cannot reach the registry: {tail}"
            ))
        } else {
            Missing::Broken(format!(
                "`npm install {package}@{version}` failed (not a network error): {tail}"
            ))
        });
    }
    if std::fs::rename(&staging, &root).is_err() {
        // Another test installed it first.
        let _ = std::fs::remove_dir_all(&staging);
    }
    if exe.exists() {
        Ok(exe)
    } else {
        Err(Missing::Broken(format!(
            "{package}@{version} has no `{bin}` executable"
        )))
    }
}

/// The server executables for the given versions, or a printed skip (a
/// failure under CI); an install failure that is not a network error panics.
fn servers(test: &str, package: &str, bin: &str, versions: &[&str]) -> Option<Vec<PathBuf>> {
    if !Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        skip::skip(test, "`node` is not installed (or not on PATH)");
        return None;
    }
    let installs: Vec<Result<PathBuf, Missing>> = std::thread::scope(|s| {
        let handles: Vec<_> = versions
            .iter()
            .map(|v| s.spawn(move || npm_server(package, v, bin)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut out = vec![];
    for r in installs {
        match r {
            Ok(p) => out.push(p),
            Err(Missing::Unavailable(why)) => {
                skip::skip(test, &why);
                return None;
            }
            Err(Missing::Broken(why)) => panic!("{test}: {why}"),
        }
    }
    Some(out)
}

/// A fresh scratch directory for one test, removed when it ends.
fn scratch(name: &str) -> scratch::Scratch {
    scratch::scratch(&format!("live-npm-{name}"))
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("CI")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `cargo mcp-contract snapshot --server -o LOCK -- SERVER ARGS…`
fn snapshot(lock: &Path, server: &Path, server_args: &[&str]) {
    let mut args = vec![
        "snapshot",
        "--server",
        "-o",
        lock.to_str().unwrap(),
        "--",
        server.to_str().unwrap(),
    ];
    args.extend(server_args);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

fn counts(report: &DiffReport) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for c in &report.changes {
        *m.entry(c.rule).or_default() += 1;
    }
    m
}

#[test]
fn everything_renames_are_breaking_removals_with_rename_hints() {
    let test = "everything_renames_are_breaking_removals_with_rename_hints";
    let Some(bins) = servers(
        test,
        "@modelcontextprotocol/server-everything",
        "mcp-server-everything",
        &["2025.12.18", "2026.1.14"],
    ) else {
        return;
    };
    let dir = scratch("everything");
    let (old_lock, new_lock) = (dir.join("old.lock"), dir.join("new.lock"));
    snapshot(&old_lock, &bins[0], &[]);
    snapshot(&new_lock, &bins[1], &[]);
    let old = lockfile::read(&old_lock).unwrap();
    let new = lockfile::read(&new_lock).unwrap();
    // 2026.1.14 publishes `execution`, which typed clients drop: the capture keeps it.
    assert!(new
        .tools
        .values()
        .all(|t| t.extra.contains_key("execution")));

    let report = diff_surfaces(&old, &new);
    say(&format!("{test}: {:?}", counts(&report)));
    let removed: Vec<&str> = old
        .tools
        .keys()
        .filter(|n| !new.tools.contains_key(*n))
        .map(String::as_str)
        .collect();
    assert!(removed.len() >= 8, "{removed:?}");
    for name in &removed {
        let c = report
            .changes
            .iter()
            .find(|c| c.rule == "tool.removed" && c.tool == *name)
            .unwrap_or_else(|| panic!("no tool.removed for {name}"));
        assert_eq!(c.severity, Severity::Breaking);
    }
    for (from, to) in [
        ("add", "get-sum"),
        ("getTinyImage", "get-tiny-image"),
        ("longRunningOperation", "trigger-long-running-operation"),
        ("structuredContent", "get-structured-content"),
        ("annotatedMessage", "get-annotated-message"),
    ] {
        let c = report
            .changes
            .iter()
            .find(|c| c.rule == "tool.removed" && c.tool == from)
            .unwrap();
        let hint = c.hint.as_deref().unwrap_or_default();
        assert!(hint.contains(&format!("`{to}`")), "{from}: {hint:?}");
    }
    // The CLI agrees: breaking, exit 1.
    let out = run(&[
        "diff",
        old_lock.to_str().unwrap(),
        new_lock.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout)
        .contains("error[tool.removed]: tool `add` was removed, probably renamed to `get-sum`"));
}

#[test]
fn filesystem_gains_annotations_and_output_schemas() {
    let test = "filesystem_gains_annotations_and_output_schemas";
    let Some(bins) = servers(
        test,
        "@modelcontextprotocol/server-filesystem",
        "mcp-server-filesystem",
        &["2025.8.21", "2025.11.25"],
    ) else {
        return;
    };
    let dir = scratch("filesystem");
    let root = dir.join("root");
    std::fs::create_dir_all(&root).unwrap();
    let (old_lock, new_lock) = (dir.join("old.lock"), dir.join("new.lock"));
    snapshot(&old_lock, &bins[0], &[root.to_str().unwrap()]);
    snapshot(&new_lock, &bins[1], &[root.to_str().unwrap()]);
    let old = lockfile::read(&old_lock).unwrap();
    let new = lockfile::read(&new_lock).unwrap();
    let report = diff_surfaces(&old, &new);
    let by_rule = counts(&report);
    say(&format!("{test}: {by_rule:?}"));

    let read_text = new.get("read_text_file").unwrap();
    assert_eq!(
        read_text.annotations.as_ref().unwrap()["readOnlyHint"],
        serde_json::json!(true)
    );
    assert!(report
        .changes
        .iter()
        .any(|c| c.rule == "tool.output-schema-added" && c.tool == "read_text_file"));
    assert!(report
        .changes
        .iter()
        .any(|c| c.rule.starts_with("annotations.") && c.tool == "read_text_file"));
    let output_schemas_added = by_rule
        .get("tool.output-schema-added")
        .copied()
        .unwrap_or(0);
    let tools_with_output = new
        .tools
        .values()
        .filter(|t| t.output_schema.is_some())
        .count();
    assert_eq!(output_schemas_added, tools_with_output);
    assert!(tools_with_output >= 10, "{tools_with_output}");
}

#[test]
fn verify_passes_on_the_captured_server_and_fails_on_a_changed_lockfile() {
    let test = "verify_passes_on_the_captured_server_and_fails_on_a_changed_lockfile";
    let Some(bins) = servers(
        test,
        "@modelcontextprotocol/server-everything",
        "mcp-server-everything",
        &["2025.12.18", "2026.1.14"],
    ) else {
        return;
    };
    let dir = scratch("verify");
    let lock = dir.join("mcp-contract.lock");
    snapshot(&lock, &bins[1], &[]);
    let verify = |lock: &Path, server: &Path| {
        run(&[
            "verify",
            "--server",
            "--lockfile",
            lock.to_str().unwrap(),
            "--",
            server.to_str().unwrap(),
        ])
    };
    let out = verify(&lock, &bins[1]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );

    // A lockfile whose description of `echo` no longer matches the binary.
    let mut surface = lockfile::read(&lock).unwrap();
    let mut echo = surface.get("echo").unwrap().clone();
    echo.description = Some("Echoes back the input, loudly".into());
    surface.insert(echo);
    let edited = dir.join("edited.lock");
    std::fs::write(&edited, lockfile::render(&surface)).unwrap();
    let out = verify(&edited, &bins[1]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("warning[tool.description-changed]"),
        "{stdout}"
    );

    // The old release's lockfile against the new release: every rename shows.
    let old_lock = dir.join("old.lock");
    snapshot(&old_lock, &bins[0], &[]);
    let out = verify(&old_lock, &bins[1]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("error[tool.removed]"));
}

#[test]
fn replay_against_a_real_server() {
    let test = "replay_against_a_real_server";
    let Some(bins) = servers(
        test,
        "@modelcontextprotocol/server-everything",
        "mcp-server-everything",
        &["2025.12.18", "2026.1.14"],
    ) else {
        return;
    };
    let dir = scratch("replay");
    let fixtures = dir.join("fixtures");
    let write = |rel: &str, body: &str| {
        let p = fixtures.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    };
    write(
        "echo/hello.json",
        r#"{"safe": true, "arguments": {"message": "hi"}, "expect": {"outcome": "success"}}"#,
    );
    write(
        "get-structured-content/new-york.json",
        r#"{"safe": true, "arguments": {"location": "New York"},
            "expect": {"outcome": "success", "fields": {"temperature": "number", "conditions": "string", "humidity": "number"}}}"#,
    );
    write(
        "get-sum/wrong-type.json",
        r#"{"safe": true, "arguments": {"a": "x"}, "expect": {"outcome": "tool_error"}}"#,
    );
    write(
        "get-env/dump.json",
        r#"{"description": "prints the environment: not for shared instances", "expect": {"outcome": "success"}}"#,
    );
    let replay = |server: &Path| {
        run(&[
            "replay",
            "--server",
            "--fixtures",
            fixtures.to_str().unwrap(),
            "--",
            server.to_str().unwrap(),
        ])
    };
    let out = replay(&bins[1]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("replay: 3 passed, 0 failed, 1 skipped"),
        "{stdout}"
    );

    // The previous release published none of these names but `echo`.
    let out = replay(&bins[0]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAIL  get-sum ") && stdout.contains("no such tool in tools/list"),
        "{stdout}"
    );

    // A field of the wrong type is named with its tool and fixture.
    write(
        "get-structured-content/new-york.json",
        r#"{"safe": true, "arguments": {"location": "New York"}, "expect": {"outcome": "success", "fields": {"conditions": "integer"}}}"#,
    );
    let out = replay(&bins[1]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAIL  get-structured-content ")
            && stdout.contains("new-york.json: `conditions`: expected integer, got string"),
        "{stdout}"
    );
}

/// A server started in an HTTP mode, killed (and reaped) when dropped.
struct HttpServer(std::process::Child);

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `server MODE` with `PORT` set to a free port; waits until it listens.
fn http_server(server: &Path, mode: &str) -> (HttpServer, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(server)
        .arg(mode)
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let guard = HttpServer(child);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            std::time::Instant::now() < until,
            "{mode} server never listened on {port}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    (guard, port)
}

/// `snapshot --url URL -o LOCK`
fn snapshot_url(lock: &Path, url: &str) -> String {
    let out = run(&["snapshot", "--url", url, "-o", lock.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{url}: {}", text(&out.stderr));
    text(&out.stderr)
}

#[test]
fn everything_over_stdio_streamable_http_and_sse_gives_one_lockfile() {
    let test = "everything_over_stdio_streamable_http_and_sse_gives_one_lockfile";
    let Some(bins) = servers(
        test,
        "@modelcontextprotocol/server-everything",
        "mcp-server-everything",
        &["2025.12.18", "2026.1.14"],
    ) else {
        return;
    };
    let dir = scratch("transports");
    let mut locks = vec![];
    for (bin, version) in bins.iter().zip(["2025.12.18", "2026.1.14"]) {
        let stdio = dir.join(format!("{version}-stdio.lock"));
        snapshot(&stdio, bin, &[]);
        let (_http, port) = http_server(bin, "streamableHttp");
        let http = dir.join(format!("{version}-http.lock"));
        let note = snapshot_url(&http, &format!("http://127.0.0.1:{port}/mcp"));
        let (_sse, sse_port) = http_server(bin, "sse");
        // The legacy transport, detected: the first POST to /sse is refused.
        let sse = dir.join(format!("{version}-sse.lock"));
        snapshot_url(&sse, &format!("http://127.0.0.1:{sse_port}/sse"));
        let bytes = |p: &Path| std::fs::read(p).unwrap();
        assert!(
            bytes(&stdio) == bytes(&http),
            "{version}: stdio and Streamable HTTP lockfiles differ"
        );
        assert!(
            bytes(&stdio) == bytes(&sse),
            "{version}: stdio and SSE lockfiles differ"
        );
        let s = lockfile::read(&stdio).unwrap();
        say(&format!(
            "{test}: {version}: {} bytes, {} tools, {} prompts, {} resources, {} templates, protocol {:?}; {}",
            bytes(&stdio).len(),
            s.tools.len(),
            s.prompts.len(),
            s.resources.len(),
            s.resource_templates.len(),
            s.server.as_ref().and_then(|x| x.protocol_version.clone()),
            note.trim()
        ));
        assert!(!s.prompts.is_empty() && !s.resources.is_empty());
        assert!(s
            .server
            .as_ref()
            .unwrap()
            .has_capability(&["resources", "subscribe"]));
        locks.push(s);
    }
    let report = diff_surfaces(&locks[0], &locks[1]);
    let by_rule = counts(&report);
    say(&format!("{test}: 2025.12.18 -> 2026.1.14: {by_rule:?}"));
    for rule in [
        "prompt.removed",
        "prompt.added",
        "resource.removed",
        "resource.added",
        "template.added",
    ] {
        assert!(by_rule.contains_key(rule), "no {rule} in {by_rule:?}");
    }
    assert!(report
        .changes
        .iter()
        .any(|c| c.rule == "prompt.removed" && c.severity == Severity::Breaking));
}

#[test]
fn filesystem_is_captured_without_roots() {
    let test = "filesystem_is_captured_without_roots";
    let Some(bins) = servers(
        test,
        "@modelcontextprotocol/server-filesystem",
        "mcp-server-filesystem",
        &["2025.11.25"],
    ) else {
        return;
    };
    let dir = scratch("filesystem-roots");
    let root = dir.join("root");
    std::fs::create_dir_all(&root).unwrap();
    let lock = dir.join("fs.lock");
    // This client declares no `roots` capability: the server works from the
    // directories on its command line, and its surface does not depend on
    // the client.
    snapshot(&lock, &bins[0], &[root.to_str().unwrap()]);
    let s = lockfile::read(&lock).unwrap();
    let server = s.server.as_ref().unwrap();
    say(&format!(
        "{test}: {} tools, capabilities {:?}, protocol {:?}",
        s.tools.len(),
        server.capabilities.keys().collect::<Vec<_>>(),
        server.protocol_version
    ));
    assert!(s.get("list_allowed_directories").is_some());
    assert!(server.has_capability(&["tools"]));
    assert!(s.prompts.is_empty() && s.resources.is_empty());
    let text = std::fs::read_to_string(&lock).unwrap();
    assert!(
        !text.contains(root.to_str().unwrap()),
        "the lockfile names the temporary root"
    );
}

/// The consumer trial: a `.mcp.json` naming a real npm server and this
/// repository's demo server is locked; then the npm server's pinned version
/// moves (2025.12.18 -> 2026.1.14, every tool renamed) and a third server
/// that cannot start is added. `check --config` finds the npm server's
/// breaking change with its witness, reports the demo server as pinned, and
/// the crashed server as its own error (stderr shown, the secret it prints
/// scrubbed), the others still checked.
#[test]
fn consumer_trial_lock_then_check_after_the_version_moves() {
    let test = "consumer_trial_lock_then_check_after_the_version_moves";
    let demo = Path::new(BIN)
        .parent()
        .unwrap()
        .join(format!("demo-server{}", std::env::consts::EXE_SUFFIX));
    if !demo.exists() {
        skip::skip(
            test,
            &format!(
                "{} is not built; `cargo build -p demo-server` (or `cargo test --workspace`) builds it",
                demo.display()
            ),
        );
        return;
    }
    let Some(bins) = servers(
        test,
        "@modelcontextprotocol/server-everything",
        "mcp-server-everything",
        &["2025.12.18", "2026.1.14"],
    ) else {
        return;
    };
    let dir = scratch("consumer");
    let secret = format!("consumer-secret-{}", std::process::id());
    let write_config = |everything: &Path, broken: bool| {
        let mut servers = serde_json::json!({
            "everything": {"command": everything.to_str().unwrap()},
            "demo": {"command": demo.to_str().unwrap()},
        });
        if broken {
            servers["notes"] = serde_json::json!({
                "command": "node",
                "args": ["-e", "console.error('notes: cannot open the vault with ' + process.env.VAULT_TOKEN); process.exit(3)"],
                "env": {"VAULT_TOKEN": "${MCP_CONTRACT_TEST_VAULT}"},
            });
        }
        std::fs::write(
            dir.join(".mcp.json"),
            serde_json::json!({ "mcpServers": servers }).to_string(),
        )
        .unwrap();
    };
    let cli = |args: &[&str]| {
        Command::new(BIN)
            .current_dir(&dir)
            .args(args)
            .env_remove("CI")
            .env("MCP_CONTRACT_TEST_VAULT", &secret)
            .output()
            .unwrap()
    };
    write_config(&bins[0], false);
    let out = cli(&["lock", "--config", ".mcp.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    say(&format!("{test}: {}", text(&out.stderr).trim()));

    write_config(&bins[1], true);
    let out = cli(&["check", "--config", ".mcp.json"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("server `everything` of .mcp.json: the surface it publishes now"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("error[tool.removed]: tool `add` was removed, probably renamed to `get-sum`"),
        "{stdout}"
    );
    assert!(
        stdout.contains("= witness: tools/call {\"arguments\":{\"a\":"),
        "{stdout}"
    );
    assert!(
        stdout.contains("server `demo` of .mcp.json: pinned: every digest matches its lock"),
        "{stdout}"
    );
    assert!(
        stderr.contains("error: server `notes` of .mcp.json could not be captured")
            && stderr.contains("| notes: cannot open the vault with ${MCP_CONTRACT_TEST_VAULT}"),
        "{stderr}"
    );
    assert!(!stdout.contains(&secret) && !stderr.contains(&secret));
    let out = cli(&["check", "--config", ".mcp.json", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let states: BTreeMap<String, String> = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["candidate"]["server"].as_str().unwrap().to_string(),
                c["candidate"]["state"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    say(&format!("{test}: {states:?}"));
    assert_eq!(
        states,
        BTreeMap::from([
            ("demo".to_string(), "pinned".to_string()),
            ("everything".to_string(), "compared".to_string()),
            ("notes".to_string(), "not-captured".to_string()),
        ])
    );
    let everything = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["candidate"]["server"] == "everything")
        .unwrap();
    assert_eq!(everything["status"], "failed");
    assert!(everything["summary"]["breaking"].as_u64().unwrap() >= 8);
}
