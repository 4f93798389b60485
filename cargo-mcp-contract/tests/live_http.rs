//! `--url`, `--header` and `--config` against a scripted HTTP stub on
//! 127.0.0.1 ([`http_support`]): the happy path (Streamable HTTP with JSON
//! and SSE answers, session id, protocol header, paging, a server ping,
//! `DELETE` on close, a bearer token from the environment that reaches
//! neither the lockfile nor any output), same-origin redirects, and every
//! failure mode, each exiting 2 with the cause and the fix.

mod http_support;

#[path = "../../tests/support/scratch.rs"]
mod scratch;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use http_support::{refused_port, start, TOKEN};

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("MCP_TOKEN", TOKEN)
        .env_remove("CI")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh scratch directory for one test, removed when it ends.
fn scratch(name: &str) -> scratch::Scratch {
    scratch::scratch(&format!("live-http-{name}"))
}

const AUTH: &str = "Authorization: Bearer ${MCP_TOKEN}";

#[test]
fn streamable_http_capture_with_a_secret_header() {
    let stub = start("ok");
    let out = run(&[
        "snapshot",
        "--url",
        &stub.url("/mcp"),
        "--header",
        AUTH,
        "-o",
        "-",
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stdout.contains(TOKEN) && !stderr.contains(TOKEN));
    let s = mcp_contract::lockfile::parse(stdout.as_bytes(), "stdout").unwrap();
    assert_eq!(
        s.tools["add"].input_schema["properties"]["a"]["x-mcp-header"],
        "A"
    );
    assert!(s.prompts["sum"].arguments[0].required);
    assert_eq!(
        s.resources.keys().collect::<Vec<_>>(),
        ["mem://a", "mem://b"]
    );
    assert!(s.resource_templates.contains_key("mem://{key}"));
    let server = s.server.as_ref().unwrap();
    assert_eq!(server.protocol_version.as_deref(), Some("2025-11-25"));
    assert!(server.has_capability(&["resources", "subscribe"]));
    assert!(!stdout.contains("\"size\"") && !stdout.contains("ttlMs"));
    // the release it was captured from is recorded beside the contract, not in it
    let release = mcp_contract::lockfile::release(&stdout, "stdout")
        .unwrap()
        .unwrap();
    assert_eq!(release.name.as_deref(), Some("http-stub"));
    assert_eq!(stdout.matches("http-stub").count(), 1, "{stdout}");
    assert!(
        stderr.contains("2 from resources/list (2 page(s))"),
        "{stderr}"
    );

    let seen = stub.seen.lock().unwrap();
    let methods: Vec<&str> = seen.requests.iter().map(String::as_str).collect();
    // discover refused (a 2025 server), then the handshake, the lists, our
    // answer to the server's ping, and the session closed.
    assert_eq!(methods[0], "POST /mcp server/discover");
    assert_eq!(methods[1], "POST /mcp initialize");
    assert!(methods.contains(&"POST /mcp"), "{methods:?}");
    assert_eq!(*methods.last().unwrap(), "DELETE /mcp");
    drop(seen);

    // The same server from a client configuration file: the same bytes.
    let dir = scratch("config");
    let config = dir.join(".mcp.json");
    std::fs::write(
        &config,
        serde_json::json!({"mcpServers": {"calc": {"type": "http", "url": stub.url("/mcp"),
            "headers": {"Authorization": "Bearer ${MCP_TOKEN}"}}}})
        .to_string(),
    )
    .unwrap();
    let out2 = run(&[
        "snapshot",
        "--config",
        config.to_str().unwrap(),
        "--name",
        "calc",
        "-o",
        "-",
    ]);
    assert_eq!(out2.status.code(), Some(0), "{}", text(&out2.stderr));
    assert_eq!(text(&out2.stdout), stdout);
    let out3 = run(&[
        "snapshot",
        "--config",
        config.to_str().unwrap(),
        "--name",
        "calcc",
        "-o",
        "-",
    ]);
    assert_eq!(out3.status.code(), Some(2));
    assert!(
        text(&out3.stderr).contains("did you mean `calc`?"),
        "{}",
        text(&out3.stderr)
    );
}

#[test]
fn same_origin_redirects_are_followed_and_others_refused() {
    let stub = start("redirect");
    let out = run(&[
        "snapshot",
        "--url",
        &stub.url("/old"),
        "--header",
        AUTH,
        "-o",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stub = start("redirect-other");
    let out = run(&[
        "snapshot",
        "--url",
        &stub.url("/mcp"),
        "--header",
        AUTH,
        "-o",
        "-",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("to another origin (http://127.0.0.2:9/mcp)"),
        "{stderr}"
    );
    assert!(!stderr.contains(TOKEN));
}

#[test]
fn every_http_failure_exits_2_with_cause_and_fix() {
    let refused = format!("http://127.0.0.1:{}/mcp", refused_port());
    let cases: &[(&str, &[&str], &str, &str)] = &[
        (
            "refused",
            &[],
            "cannot connect to",
            "check that the server is running",
        ),
        (
            "401",
            &[],
            "refused the request (401 Unauthorized); it asks for `Bearer`",
            "--header \"Authorization: Bearer ${TOKEN}\"",
        ),
        (
            "401",
            &["--header", AUTH],
            "refused the request (401",
            "the `Authorization` header given was refused",
        ),
        (
            "404",
            &[],
            "no MCP endpoint at this URL (404 Not Found)",
            "usually answer at /mcp",
        ),
        (
            "500",
            &[],
            "the server failed (500 Internal Server Error): \"database down\"",
            "the server's own log says why",
        ),
        ("not-mcp", &[], "not a JSON-RPC message", "JSON-RPC"),
        ("html", &[], "Content-Type `text/html`", "not a web page"),
        (
            "slow",
            &["--timeout", "1"],
            "did not answer `server/discover` within 1 s",
            "raise --timeout",
        ),
        (
            "endless",
            &["--timeout", "1"],
            "did not answer `server/discover` within 1 s",
            "raise --timeout",
        ),
        (
            "huge",
            &["--max-response", "1048576"],
            "larger than 1048576 bytes",
            "far smaller",
        ),
    ];
    for (mode, extra, cause, fix) in cases {
        let stub = (*mode != "refused").then(|| start(mode));
        let url = stub
            .as_ref()
            .map(|s| s.url("/mcp"))
            .unwrap_or_else(|| refused.clone());
        let mut args = vec!["snapshot", "--url", url.as_str(), "-o", "-"];
        args.extend_from_slice(extra);
        let started = Instant::now();
        let out = run(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{mode}: {stderr}");
        assert!(
            stderr.contains(cause),
            "{mode}: cause {cause:?} not in {stderr}"
        );
        assert!(
            stderr.contains("help: ") && stderr.contains(fix),
            "{mode}: fix {fix:?} not in {stderr}"
        );
        assert!(
            out.stdout.is_empty(),
            "{mode}: nothing is written on failure"
        );
        assert!(!stderr.contains(TOKEN));
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{mode} took {:?}",
            started.elapsed()
        );
        if *mode == "endless" {
            // The client went away: the stream's writer sees it.
            let until = Instant::now() + Duration::from_secs(5);
            while !stub.as_ref().unwrap().seen.lock().unwrap().stream_closed {
                assert!(
                    Instant::now() < until,
                    "the endless stream is still being read"
                );
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

#[test]
fn usage_errors_for_urls_and_headers() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["snapshot", "--url", "ftp://x", "-o", "-"],
            "not an http:// or https:// URL",
        ),
        (
            &[
                "snapshot",
                "--url",
                "http://127.0.0.1:1/mcp",
                "--header",
                "X-Key: ${NOT_SET_ANYWHERE}",
                "-o",
                "-",
            ],
            "reads ${NOT_SET_ANYWHERE}, which is not set",
        ),
        (
            &[
                "snapshot",
                "--url",
                "http://127.0.0.1:1/mcp",
                "--header",
                "no colon",
                "-o",
                "-",
            ],
            "must be `NAME: VALUE`",
        ),
        (
            &[
                "snapshot",
                "--url",
                "http://127.0.0.1:1/mcp",
                "-o",
                "-",
                "--",
                "node",
                "x.js",
            ],
            "both say where the server is",
        ),
    ];
    for (args, msg) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(msg),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_2026_server_over_http_is_stateless_and_gets_its_routing_headers() {
    let stub = start("stateless");
    let url = stub.url("/mcp");
    let out = run(&["snapshot", "--url", &url, "-o", "-"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = mcp_contract::lockfile::parse(&out.stdout, "stdout").unwrap();
    let server = s.server.as_ref().unwrap();
    assert_eq!(server.protocol_version.as_deref(), Some("2026-07-28"));
    assert_eq!(server.instructions.as_deref(), Some("Stateless."));
    let lock = text(&out.stdout);
    for volatile in ["ttlMs", "cacheScope", "resultType"] {
        assert!(!lock.contains(volatile), "{volatile} in {lock}");
    }
    // serverInfo.version only as the release captured, for the version rule
    let release = mcp_contract::lockfile::release(&lock, "stdout")
        .unwrap()
        .unwrap();
    assert_eq!(release.version.as_deref(), Some("3.0.0"));
    assert_eq!(lock.matches("3.0.0").count(), 1, "{lock}");
    // A call: `Mcp-Name` and `Mcp-Param-A` mirror the body, or the stub refuses.
    let dir = scratch("stateless");
    let fixture = dir.join("fixtures/add/two.json");
    std::fs::create_dir_all(fixture.parent().unwrap()).unwrap();
    std::fs::write(
        &fixture,
        r#"{"safe": true, "arguments": {"a": 2}, "expect": {"outcome": "success"}}"#,
    )
    .unwrap();
    let fixtures = dir.join("fixtures");
    let out = run(&[
        "replay",
        "--url",
        &url,
        "--fixtures",
        fixtures.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("replay: 1 passed"),
        "{}",
        text(&out.stdout)
    );
    let seen = stub.seen.lock().unwrap();
    assert!(seen
        .headers
        .iter()
        .all(|h| h.iter().all(|(k, _)| k != "mcp-session-id")));
    assert!(
        !seen
            .requests
            .iter()
            .any(|r| r.contains("initialize") || r.starts_with("DELETE")),
        "{:?}",
        seen.requests
    );
}
