//! Captures refuse what clients refuse: a tool whose `inputSchema` is not an
//! object schema (`{"$schema": "…draft-07…"}`, no `type`) makes `snapshot`
//! (from a file or a live server) and `verify` exit 2 naming the tool, the
//! requirement and the fix, with nothing written; `--allow-non-object-input`
//! locks it anyway, with a warning.

#![cfg(unix)]

#[path = "../../tests/support/scratch.rs"]
mod scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");
const FLAG: &str = "--allow-non-object-input";

/// The published tools: one fine, one as some Python servers publish a
/// tool without arguments.
const TOOLS: &str = r#"[{"name":"fine","inputSchema":{"type":"object"}},{"name":"legacy","description":"no arguments","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#"}}]"#;

/// A fresh scratch directory for one test, removed when it ends.
fn scratch(name: &str) -> scratch::Scratch {
    scratch::scratch(&format!("published-inputs-{name}"))
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

/// A stdio server (2025-era: no `server/discover`) publishing [`TOOLS`].
fn stub(dir: &Path) -> PathBuf {
    let script = dir.join("server.sh");
    let body = format!(
        r#"reply() {{ printf '%s\n' "$1"; }}
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/^{{"id":\([0-9][0-9]*\),.*/\1/p')
  case "$line" in
    *'"method":"server/discover"'*) reply "{{\"jsonrpc\":\"2.0\",\"id\":$id,\"error\":{{\"code\":-32601,\"message\":\"Method not found\"}}}}" ;;
    *'"method":"initialize"'*) reply "{{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{{\"tools\":{{}}}},\"serverInfo\":{{\"name\":\"py\",\"version\":\"1\"}}}}}}" ;;
    *'"method":"tools/list"'*) reply "{{\"jsonrpc\":\"2.0\",\"id\":$id,\"result\":{{\"tools\":{tools}}}}}" ;;
  esac
done
"#,
        tools = TOOLS.replace('"', "\\\"")
    );
    std::fs::write(&script, body).unwrap();
    script
}

fn assert_refused(out: &Output, file: &str, location: &str) {
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(file), "names the source: {err}");
    assert!(err.contains(location), "names the place: {err}");
    assert!(err.contains("tool `legacy`"), "names the tool: {err}");
    assert!(
        err.contains("requires `\"type\": \"object\"` at the root of every tool's inputSchema"),
        "says what the specification requires: {err}"
    );
    assert!(
        err.contains("help: ") && err.contains(FLAG),
        "says how to fix it: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn snapshot_from_a_file_refuses_a_non_object_input_schema() {
    let dir = scratch("file");
    let from = dir.join("tools.json");
    std::fs::write(&from, format!(r#"{{"tools": {TOOLS}}}"#)).unwrap();
    let lock = dir.join("out.lock");
    let out = run(&["snapshot", "--from", p(&from), "-o", p(&lock)]);
    assert_refused(&out, p(&from), "/tools/1/inputSchema");
    assert!(!lock.exists(), "nothing may be written on error");

    let out = run(&["snapshot", "--from", p(&from), "-o", p(&lock), FLAG]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: `legacy`") && err.contains("MCP clients refuse"),
        "{err}"
    );
    let locked = std::fs::read_to_string(&lock).unwrap();
    assert!(locked.contains("draft-07"), "{locked}");
}

#[test]
fn snapshot_and_verify_of_a_live_server_refuse_a_non_object_input_schema() {
    let dir = scratch("live");
    let script = stub(&dir);
    let lock = dir.join("live.lock");
    let out = run(&[
        "snapshot",
        "--server",
        "-o",
        p(&lock),
        "--",
        "sh",
        p(&script),
    ]);
    assert_refused(&out, "tools/list of `sh ", "/tools/1/inputSchema");
    assert!(!lock.exists(), "nothing may be written on error");

    let out = run(&[
        "snapshot",
        "--server",
        FLAG,
        "-o",
        p(&lock),
        "--",
        "sh",
        p(&script),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(lock.exists());

    let verify = |extra: &[&str]| {
        let mut args = vec!["verify", "--server", "--lockfile", p(&lock)];
        args.extend_from_slice(extra);
        args.extend(["--", "sh", p(&script)]);
        run(&args)
    };
    let out = verify(&[]);
    assert_refused(&out, "tools/list of `sh ", "/tools/1/inputSchema");
    let out = verify(&[FLAG]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("matches the live surface"));
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}
