//! Values expanded from the environment never surface: a client
//! configuration whose `command`, `args`, `env`, `url` and `headers` read
//! `${VAR}`s that hold unique markers is driven into every error of stdio,
//! Streamable HTTP and legacy SSE (a program that does not exist, a server
//! that exits or writes garbage or never answers or answers with an error,
//! a refused connection, bad statuses and bodies that echo the request, a
//! malformed answer) and through successful captures of servers that echo
//! them into what they publish. No marker may appear in stdout, stderr or
//! the lockfile; the command and URL are shown as written, `${VAR}` and all.

#![cfg(unix)]

#[path = "../../tests/support/scratch.rs"]
mod scratch;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");
const VAR: &str = "MCP_CONTRACT_TEST_KEY";
const HEADER_VAR: &str = "MCP_CONTRACT_TEST_TOKEN";

/// Unique per run, so that no other text can contain it by chance.
fn markers() -> (String, String) {
    let n = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let pid = std::process::id();
    (
        format!("TOPSECRETkey{pid}x{n}"),
        format!("TOPSECRETtoken{pid}y{n}"),
    )
}

/// A fresh scratch directory for one test, removed when it ends.
fn scratch(name: &str) -> scratch::Scratch {
    scratch::scratch(&format!("secrets-{name}"))
}

struct Run {
    code: Option<i32>,
    out: String,
    lock: Option<String>,
}

/// `snapshot --config` of server `s` in `config`, with the markers in the environment.
fn snapshot(dir: &Path, case: &str, server: Value, extra: &[&str]) -> Run {
    let (key, token) = markers_of(dir);
    let cfg = dir.join(format!("{case}.json"));
    std::fs::write(&cfg, json!({"mcpServers": {"s": server}}).to_string()).unwrap();
    let lock = dir.join(format!("{case}.lock"));
    let mut args = vec![
        "snapshot",
        "--config",
        cfg.to_str().unwrap(),
        "--name",
        "s",
        "--timeout",
        "2",
        "-o",
        lock.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let out = Command::new(BIN)
        .args(&args)
        .env(VAR, key)
        .env(HEADER_VAR, token)
        .env_remove("CI")
        .output()
        .unwrap();
    Run {
        code: out.status.code(),
        out: format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        lock: std::fs::read_to_string(&lock).ok(),
    }
}

/// The markers of this test directory (fixed once per directory).
fn markers_of(dir: &Path) -> (String, String) {
    let f = dir.join("markers");
    if let Ok(t) = std::fs::read_to_string(&f) {
        let (a, b) = t.split_once('\n').unwrap();
        return (a.to_string(), b.to_string());
    }
    let (a, b) = markers();
    std::fs::write(&f, format!("{a}\n{b}")).unwrap();
    (a, b)
}

fn assert_hidden(dir: &Path, case: &str, run: &Run, code: i32, shown: &[&str]) {
    let (key, token) = markers_of(dir);
    assert_eq!(run.code, Some(code), "{case}: {}", run.out);
    for m in [&key, &token] {
        assert!(
            !run.out.contains(m.as_str()),
            "{case}: a secret is printed:\n{}",
            run.out
        );
        if let Some(lock) = &run.lock {
            assert!(
                !lock.contains(m.as_str()),
                "{case}: a secret is locked:\n{lock}"
            );
        }
    }
    for s in shown {
        assert!(run.out.contains(s), "{case}: `{s}` not shown:\n{}", run.out);
    }
    assert!(!run.out.contains("panicked"), "{case}: {}", run.out);
}

const KEY: &str = "${MCP_CONTRACT_TEST_KEY}";

/// A stdio server in sh: `$1` is the expanded argument, `$API_KEY` the
/// expanded variable; it echoes both into whatever it writes.
fn sh_server(script: &str) -> Value {
    json!({
        "command": "sh",
        "args": ["-c", script, "sh", format!("--api-key={KEY}")],
        "env": {"API_KEY": KEY}
    })
}

/// Answers `server/discover` with an error and everything else per `answer`
/// (a shell snippet using `$id`).
fn rpc_script(answer: &str) -> String {
    format!(
        r#"while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/^{{"id":\([0-9][0-9]*\),.*/\1/p')
  [ -z "$id" ] && continue
  case "$line" in
    *'"method":"server/discover"'*) printf '{{"jsonrpc":"2.0","id":%s,"error":{{"code":-32601,"message":"no"}}}}\n' "$id" ;;
    *) {answer} ;;
  esac
done"#
    )
}

#[test]
fn stdio_errors_and_captures_never_show_expanded_values() {
    let dir = scratch("stdio");
    let shown_arg = format!("--api-key={KEY}");
    let cases: Vec<(&str, Value, i32, Vec<String>)> = vec![
        (
            "missing-program",
            json!({"command": format!("/nonexistent/{KEY}/server"), "args": [format!("--api-key={KEY}")]}),
            2,
            vec![
                format!("/nonexistent/{KEY}/server"),
                "cannot start the server".into(),
            ],
        ),
        (
            "exits",
            sh_server(r#"echo "unknown option $1 (key $API_KEY)" >&2; exit 3"#),
            2,
            vec![
                shown_arg.clone(),
                format!("| unknown option --api-key={KEY} (key {KEY})"),
            ],
        ),
        (
            "garbage",
            sh_server(r#"echo "listening with $1"; sleep 5"#),
            2,
            vec![
                "not a JSON-RPC message".into(),
                format!("listening with --api-key={KEY}"),
            ],
        ),
        (
            "silent",
            sh_server(r#"echo "waiting for $API_KEY" >&2; exec sleep 30"#),
            2,
            vec!["did not answer".into(), format!("| waiting for {KEY}")],
        ),
        (
            "rpc-error",
            sh_server(&rpc_script(
                r#"printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"bad key %s"}}\n' "$id" "$API_KEY""#,
            )),
            2,
            vec![format!("JSON-RPC error -32000: bad key {KEY}")],
        ),
        (
            "published",
            sh_server(&rpc_script(
                r#"case "$line" in
      *'"method":"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"srv %s","version":"1"},"instructions":"started with %s"}}\n' "$id" "$API_KEY" "$1" ;;
      *'"method":"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"t","description":"uses %s","inputSchema":{"type":"object","properties":{"k":{"default":"%s"}}}}]}}\n' "$id" "$API_KEY" "$API_KEY" ;;
    esac"#,
            )),
            0,
            vec![format!("from srv {KEY}")],
        ),
    ];
    for (case, server, code, shown) in cases {
        let run = snapshot(&dir, case, server, &[]);
        let shown: Vec<&str> = shown.iter().map(String::as_str).collect();
        assert_hidden(&dir, case, &run, code, &shown);
        if case == "published" {
            let lock = run.lock.unwrap();
            assert!(
                lock.contains(&format!("uses {KEY}"))
                    && lock.contains(&format!("started with --api-key={KEY}")),
                "{lock}"
            );
        }
    }
}

/// What the HTTP stub does.
#[derive(Clone, Copy)]
enum Mode {
    /// Every request: 400 with a body echoing the path and Authorization.
    Echo400,
    /// Every request: 500, the same body.
    Echo500,
    /// 200 JSON that is not JSON-RPC, echoing the path.
    Malformed,
    /// JSON-RPC errors echoing the path and the token.
    RpcError,
    /// Legacy SSE: the stream names a POST URL under the path; POSTs get 400 echoes.
    SseEndpoint,
    /// A working server publishing the path and the token.
    Works,
}

fn serve(mut conn: TcpStream, mode: Mode) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut r = BufReader::new(conn.try_clone()?);
    let mut line = String::new();
    r.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, path) = (
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("").to_string(),
    );
    let mut auth = String::new();
    let mut len = 0usize;
    loop {
        let mut h = String::new();
        r.read_line(&mut h)?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            match k.trim().to_ascii_lowercase().as_str() {
                "authorization" => auth = v.trim().to_string(),
                "content-length" => len = v.trim().parse().unwrap_or(0),
                _ => {}
            }
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body)?;
    let msg: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let id = msg.get("id").cloned().unwrap_or(Value::Null);
    let rpc = msg.get("method").and_then(Value::as_str).unwrap_or("");
    let echo = format!("Cannot {method} {path} with {auth}");
    let reply = |conn: &mut TcpStream, status: &str, ctype: &str, body: &str| {
        let _ = conn.write_all(
            format!(
                "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        );
    };
    let json_reply =
        |conn: &mut TcpStream, v: Value| reply(conn, "200 OK", "application/json", &v.to_string());
    match mode {
        Mode::Echo400 => reply(&mut conn, "400 Bad Request", "text/plain", &echo),
        Mode::Echo500 => reply(&mut conn, "500 Internal Server Error", "text/plain", &echo),
        Mode::Malformed => reply(
            &mut conn,
            "200 OK",
            "application/json",
            &format!("{{\"path\": \"{path}\"}}"),
        ),
        Mode::RpcError => json_reply(
            &mut conn,
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": echo}}),
        ),
        Mode::SseEndpoint if method == "GET" => {
            let _ = conn.write_all(
                format!("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nevent: endpoint\ndata: /messages{path}\n\n").as_bytes(),
            );
            let until = Instant::now() + Duration::from_secs(10);
            while Instant::now() < until && conn.write_all(b": ping\n\n").is_ok() {
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        Mode::SseEndpoint => reply(&mut conn, "400 Bad Request", "text/plain", &echo),
        Mode::Works => match (method.as_str(), rpc) {
            ("POST", "server/discover") => json_reply(
                &mut conn,
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no"}}),
            ),
            ("POST", "initialize") => json_reply(
                &mut conn,
                json!({"jsonrpc": "2.0", "id": id, "result": {
                    "protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                    "serverInfo": {"name": format!("at {path}"), "version": "1"},
                    "instructions": format!("reached at {path} with {auth}")}}),
            ),
            ("POST", "tools/list") => json_reply(
                &mut conn,
                json!({"jsonrpc": "2.0", "id": id, "result": {"tools": [
                    {"name": "t", "description": format!("served at {path} for {auth}"),
                     "inputSchema": {"type": "object"}}]}}),
            ),
            _ => reply(&mut conn, "202 Accepted", "text/plain", ""),
        },
    }
    Ok(())
}

fn start(mode: Mode) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            std::thread::spawn(move || serve(conn, mode));
        }
    });
    port
}

fn http_server(port: u16, kind: &str) -> Value {
    json!({
        "type": kind,
        "url": format!("http://127.0.0.1:{port}/mcp/{KEY}/sse"),
        "headers": {"Authorization": "Bearer ${MCP_CONTRACT_TEST_TOKEN}"}
    })
}

#[test]
fn http_and_sse_errors_and_captures_never_show_expanded_values() {
    let dir = scratch("http");
    let refused = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url_shown = |port: u16| format!("http://127.0.0.1:{port}/mcp/{KEY}/sse");
    let mut cases: Vec<(&str, Value, i32, Vec<String>)> = vec![(
        "refused",
        http_server(refused, "http"),
        2,
        vec![format!("cannot connect to {}", url_shown(refused))],
    )];
    for (case, mode, kind, what) in [
        ("status-400", Mode::Echo400, "http", "400 Bad Request"),
        (
            "status-500",
            Mode::Echo500,
            "http",
            "500 Internal Server Error",
        ),
        (
            "malformed",
            Mode::Malformed,
            "http",
            "not a JSON-RPC message",
        ),
        ("rpc-error", Mode::RpcError, "http", "JSON-RPC error -32000"),
        (
            "sse-status",
            Mode::Echo500,
            "sse",
            "500 Internal Server Error",
        ),
        ("sse-post", Mode::SseEndpoint, "sse", "400 Bad Request"),
    ] {
        let port = start(mode);
        cases.push((
            case,
            http_server(port, kind),
            2,
            vec![url_shown(port), what.to_string()],
        ));
    }
    let port = start(Mode::Works);
    cases.push(("works", http_server(port, "http"), 0, vec![]));
    for (case, server, code, shown) in cases {
        let run = snapshot(&dir, case, server, &[]);
        let shown: Vec<&str> = shown.iter().map(String::as_str).collect();
        assert_hidden(&dir, case, &run, code, &shown);
        if case == "works" {
            let lock = run.lock.unwrap();
            assert!(
                lock.contains(&format!(
                    "served at /mcp/{KEY}/sse for <Authorization header>"
                )),
                "{lock}"
            );
        }
        if case.starts_with("status") || case == "sse-post" {
            assert!(
                run.out
                    .contains(&format!("/mcp/{KEY}/sse with <Authorization header>")),
                "{case}: {}",
                run.out
            );
        }
    }
}

#[test]
fn a_configuration_error_never_shows_an_expanded_value() {
    let dir = scratch("config");
    let (key, _) = markers_of(&dir);
    let cfg = dir.join("bad-url.json");
    std::fs::write(
        &cfg,
        json!({"mcpServers": {"s": {"url": "${MCP_CONTRACT_TEST_URL}/mcp"}}}).to_string(),
    )
    .unwrap();
    let out = Command::new(BIN)
        .args([
            "snapshot",
            "--config",
            cfg.to_str().unwrap(),
            "--name",
            "s",
            "-o",
            "-",
        ])
        .env("MCP_CONTRACT_TEST_URL", format!("ftp://{key}"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains(&key), "{err}");
    assert!(
        err.contains("`${MCP_CONTRACT_TEST_URL}/mcp` is not an http:// or https:// URL"),
        "{err}"
    );
}
