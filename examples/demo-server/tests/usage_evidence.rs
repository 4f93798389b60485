//! Usage evidence written by the demo server itself, over stdio with rmcp's
//! client: each client names itself in `initialize`, the server counts its
//! old-path calls per client and (injected) day, and the evidence file
//! records both processes' days with the days between them as a gap. A
//! corrupt evidence file is refused and kept; bad clock configuration stops
//! the server with status 2. The same counts are served on `/metrics` as
//! Prometheus text, and the runtime layer's `tracing` events name the
//! client.

use std::path::Path;
use std::process::Stdio;

use mcp_contract::date::Date;
use mcp_contract::usage::{self, Key};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
};
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::process::ChildStderr;

const SECRET: &str = "usb-s3cret-4711";
const VARS: [&str; 9] = [
    "DEMO_SERVER_METRICS_ADDR",
    "DEMO_SERVER_TRACE",
    "DEMO_SERVER_LOCKFILE",
    "DEMO_SERVER_EFFECT_LOG",
    "DEMO_SERVER_DEPRECATION_LOG",
    "DEMO_SERVER_USAGE_FILE",
    "DEMO_SERVER_CLOCK_FILE",
    "DEMO_SERVER_TODAY",
    "DEMO_SERVER_USAGE_FLUSH_SECS",
];

fn command(envs: &[(&str, &str)]) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_demo-server"));
    for var in VARS {
        cmd.env_remove(var);
    }
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd
}

/// The server, with a client that names itself `name`/`version`.
async fn start(
    client: (&str, &str),
    envs: &[(&str, &str)],
) -> (RunningService<RoleClient, ClientConfig>, ChildStderr) {
    let (transport, stderr) = TokioChildProcess::builder(command(envs))
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn demo-server");
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new(client.0, client.1),
    );
    let service = info.serve(transport).await.expect("initialize");
    (service, stderr.expect("piped stderr"))
}

/// Closes the connection (the server flushes and exits) and returns what
/// the server wrote to stderr.
async fn stop(
    service: RunningService<RoleClient, ClientConfig>,
    mut stderr: ChildStderr,
) -> String {
    service.cancel().await.expect("shut down");
    let mut text = String::new();
    stderr.read_to_string(&mut text).await.unwrap();
    text
}

async fn call(
    service: &RunningService<RoleClient, ClientConfig>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    let args: Map<String, Value> = args.as_object().cloned().unwrap();
    service
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args))
        .await
        .unwrap_or_else(|e| panic!("`{tool}`: {e}"))
}

fn d(s: &str) -> Date {
    Date::parse(s).unwrap()
}

fn key(tool: &str, path: &str, client: &str) -> Key {
    Key {
        tool: tool.into(),
        path: path.into(),
        client: client.into(),
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[tokio::test]
async fn two_clients_on_different_days_with_a_restart_between() {
    let tmp = tempfile::tempdir().unwrap();
    let evidence = tmp.path().join("usage.json");
    let clock = tmp.path().join("today");
    let deprecations = tmp.path().join("deprecations.jsonl");
    std::fs::write(&clock, "2026-11-01\n").unwrap();

    // One process, two days: the clock file moves it from 11-01 to 11-02.
    let (claude, stderr) = start(
        ("claude-desktop", "1.2"),
        &[
            ("DEMO_SERVER_USAGE_FILE", s(&evidence)),
            ("DEMO_SERVER_CLOCK_FILE", s(&clock)),
            ("DEMO_SERVER_DEPRECATION_LOG", s(&deprecations)),
        ],
    )
    .await;
    for _ in 0..2 {
        let r = call(&claude, "search_catalog", json!({ "query": SECRET })).await;
        assert_ne!(r.is_error, Some(true), "{r:?}");
    }
    std::fs::write(&clock, "2026-11-02").unwrap();
    call(&claude, "search_catalog", json!({ "query": SECRET })).await;
    // the current name takes no old path
    call(&claude, "search_catalog", json!({ "search_text": SECRET })).await;
    let err = stop(claude, stderr).await;
    assert!(err.is_empty(), "{err}");

    // Nothing runs on 11-03 and 11-04; another client on 11-05.
    let (batch, stderr) = start(
        ("batch-agent", "0.9"),
        &[
            ("DEMO_SERVER_USAGE_FILE", s(&evidence)),
            ("DEMO_SERVER_TODAY", "2026-11-05"),
        ],
    )
    .await;
    call(&batch, "search_catalog", json!({ "query": SECRET })).await;
    let r = call(
        &batch,
        "create_order",
        json!({
            "lines": [{ "item_id": "bk-1", "quantity": 1 }],
            "shipping": { "method": "pickup", "store_id": "s-1" },
            "note": SECRET,
        }),
    )
    .await;
    assert_eq!(r.is_error, Some(true), "{r:?}");
    let err = stop(batch, stderr).await;
    assert!(err.is_empty(), "{err}");

    let e = usage::read(&evidence).unwrap();
    assert_eq!((e.from, e.to), (d("2026-11-01"), d("2026-11-05")));
    assert_eq!(
        e.no_data.iter().copied().collect::<Vec<_>>(),
        [d("2026-11-03"), d("2026-11-04")]
    );
    let search = |client: &str| e.hits[&key("search_catalog", "field:query", client)].clone();
    assert_eq!(
        search("claude-desktop/1.2").into_iter().collect::<Vec<_>>(),
        [(d("2026-11-01"), 2), (d("2026-11-02"), 1)]
    );
    assert_eq!(
        search("batch-agent/0.9").into_iter().collect::<Vec<_>>(),
        [(d("2026-11-05"), 1)]
    );
    assert_eq!(
        e.hits[&key("create_order", "rejected:RESERVED_FIELD", "batch-agent/0.9")]
            [&d("2026-11-05")],
        1
    );
    assert_eq!(e.hits.len(), 3, "{:?}", e.hits.keys());
    let text = std::fs::read_to_string(&evidence).unwrap();
    assert!(
        !text.contains(SECRET),
        "a value reached the evidence: {text}"
    );

    // The line log names the client too, never a value.
    let log = std::fs::read_to_string(&deprecations).unwrap();
    let first: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(
        first,
        json!({"tool": "search_catalog", "usage": "field:query", "client": "claude-desktop/1.2"})
    );
    assert!(!log.contains(SECRET), "{log}");
}

#[tokio::test]
async fn a_corrupt_evidence_file_is_refused_and_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let evidence = tmp.path().join("usage.json");
    let corrupt = "{\"format\": \"mcp-contract-usage\", \"version\": 1, \"range\": ";
    std::fs::write(&evidence, corrupt).unwrap();
    let (client, stderr) = start(
        ("claude-desktop", "1.2"),
        &[
            ("DEMO_SERVER_USAGE_FILE", s(&evidence)),
            ("DEMO_SERVER_TODAY", "2026-11-01"),
        ],
    )
    .await;
    // the server still serves: evidence is telemetry, not the call path
    let r = call(&client, "search_catalog", json!({ "query": "x" })).await;
    assert_ne!(r.is_error, Some(true), "{r:?}");
    let err = stop(client, stderr).await;
    assert!(
        err.contains("usage evidence not written") && err.contains(s(&evidence)),
        "{err}"
    );
    assert!(err.contains("invalid JSON"), "{err}");
    // said when the recorder first tried (at start) and by the last flush,
    // not again by every later try
    let said = err
        .lines()
        .filter(|l| l.contains("usage evidence not written"))
        .count();
    assert_eq!(said, 2, "{err}");
    assert_eq!(std::fs::read_to_string(&evidence).unwrap(), corrupt);
}

#[tokio::test]
async fn bad_clock_configuration_stops_the_server_with_status_2() {
    let tmp = tempfile::tempdir().unwrap();
    let evidence = tmp.path().join("usage.json");
    let missing = tmp.path().join("no-such-clock");
    let cases: [(Vec<(&str, &str)>, &str); 3] = [
        (
            vec![("DEMO_SERVER_TODAY", "2026-13-01")],
            "DEMO_SERVER_TODAY",
        ),
        (
            vec![("DEMO_SERVER_CLOCK_FILE", s(&missing))],
            "DEMO_SERVER_CLOCK_FILE",
        ),
        (
            vec![
                ("DEMO_SERVER_TODAY", "2026-11-01"),
                ("DEMO_SERVER_CLOCK_FILE", s(&missing)),
            ],
            "both set",
        ),
    ];
    for (mut envs, want) in cases {
        envs.push(("DEMO_SERVER_USAGE_FILE", s(&evidence)));
        let out = command(&envs)
            .stdin(Stdio::null())
            .output()
            .await
            .expect("run demo-server");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{envs:?}: {err}");
        assert!(err.contains(want), "{envs:?}: {err}");
    }
    assert!(!evidence.exists(), "nothing written on bad configuration");
}

/// `GET /metrics` from `addr`, the body.
fn scrape(addr: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).expect("connect to /metrics");
    write!(stream, "GET /metrics HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").expect("an HTTP response");
    assert!(head.starts_with("HTTP/1.1 200 OK"), "{head}");
    assert!(head.contains("text/plain; version=0.0.4"), "{head}");
    body.to_string()
}

#[tokio::test]
async fn metrics_and_tracing_events_name_the_client() {
    let tmp = tempfile::tempdir().unwrap();
    let evidence = tmp.path().join("usage.json");
    let (client, stderr) = start(
        ("claude-desktop", "1.2"),
        &[
            ("DEMO_SERVER_USAGE_FILE", s(&evidence)),
            ("DEMO_SERVER_TODAY", "2026-11-01"),
            ("DEMO_SERVER_METRICS_ADDR", "127.0.0.1:0"),
            ("DEMO_SERVER_TRACE", "1"),
        ],
    )
    .await;
    let mut stderr = BufReader::new(stderr);
    let mut first = String::new();
    stderr.read_line(&mut first).await.unwrap();
    let addr = first
        .trim()
        .strip_prefix("demo-server: metrics on http://")
        .and_then(|a| a.strip_suffix("/metrics"))
        .unwrap_or_else(|| panic!("no metrics address on stderr: {first}"))
        .to_string();
    for _ in 0..2 {
        call(&client, "search_catalog", json!({ "query": SECRET })).await;
    }
    let body = tokio::task::spawn_blocking(move || scrape(&addr))
        .await
        .unwrap();
    // the line docs/telemetry.md shows
    assert!(
        body.lines().any(|l| l
            == "mcp_contract_compat_hits_total{tool=\"search_catalog\",path=\"field:query\",client=\"claude-desktop/1.2\"} 2"),
        "{body}"
    );
    assert!(!body.contains(SECRET), "{body}");
    client.cancel().await.expect("shut down");
    let mut events = String::new();
    stderr.read_to_string(&mut events).await.unwrap();
    let lines: Vec<&str> = events
        .lines()
        .filter(|l| l.contains("mcp_contract::compat"))
        .collect();
    assert_eq!(lines.len(), 2, "{events}");
    for line in lines {
        for want in [
            "compatibility path taken",
            "tool=\"search_catalog\"",
            "path=field:query",
            "client.name=\"claude-desktop\"",
            "client.version=\"1.2\"",
        ] {
            assert!(line.contains(want), "`{want}` not in {line}");
        }
    }
    assert!(!events.contains(SECRET), "{events}");
}
