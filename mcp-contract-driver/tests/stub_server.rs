//! The driver against a scripted stub server: the happy path (paging,
//! server-to-client requests, notifications, unmodelled fields) and every
//! failure mode, each of which must name what happened, carry the server's
//! stderr tail and leave no process behind.

#![cfg(unix)]

mod common;

use std::time::Duration;

use common::stub;
use mcp_contract::fixtures::{self, CallOutcome, Outcome};
use mcp_contract_driver::replay::{self, Status};
use mcp_contract_driver::{capture, ErrorKind, Options, ServerCommand, Session};
use serde_json::json;

fn quick() -> Options {
    Options::with_timeout(Duration::from_secs(5))
}

#[test]
fn captures_every_page_and_keeps_unmodelled_fields() {
    let (cmd, pids) = stub("ok");
    let c = capture(&cmd, &quick()).unwrap();
    assert_eq!(c.pages, 2);
    let names: Vec<&String> = c.surface.tools.keys().collect();
    assert_eq!(names, vec!["add", "boom", "fail"]);
    let add = c.surface.get("add").unwrap();
    assert_eq!(add.extra["execution"], json!({"taskSupport": "forbidden"}));
    assert_eq!(add.extra["x-owner"], json!("team-a"));
    assert_eq!(c.server.name.as_deref(), Some("stub"));
    assert_eq!(c.server.protocol_version, "2025-06-18");
    pids.assert_all_gone(1);
}

#[test]
fn result_level_meta_and_cache_hints_do_not_reach_the_lockfile() {
    let (cmd, _pids) = stub("ok");
    let first = mcp_contract::lockfile::render(&capture(&cmd, &quick()).unwrap().surface);
    let second = mcp_contract::lockfile::render(&capture(&cmd, &quick()).unwrap().surface);
    // The stub stamps each tools/list result's _meta with the time.
    assert_eq!(first, second);
    assert!(
        !first.contains("requestedAt") && !first.contains("ttlMs"),
        "{first}"
    );
}

#[test]
fn server_that_exits_early() {
    let (cmd, pids) = stub("exit-early");
    let e = capture(&cmd, &quick()).unwrap_err();
    assert!(
        matches!(*e.kind, ErrorKind::Exited { .. } | ErrorKind::Io { .. }),
        "{e}"
    );
    assert!(e.stderr_tail.contains("fatal: missing config file"), "{e}");
    assert!(
        e.to_string()
            .contains("    | fatal: missing config file /etc/stub.toml"),
        "{e}"
    );
    assert_eq!(e.exit_status.as_deref(), Some("exit status: 3"), "{e}");
    // Started twice: a stdio server that exits on the unknown
    // `server/discover` (rmcp does) is started again for `initialize`.
    pids.assert_all_gone(2);
}

#[test]
fn server_that_prints_garbage() {
    let (cmd, pids) = stub("garbage");
    let e = capture(&cmd, &quick()).unwrap_err();
    let ErrorKind::Garbage { line, during } = e.kind.as_ref() else {
        panic!("{e}")
    };
    // The first request is the 2026-07-28 discovery.
    assert_eq!(during, "server/discover");
    assert!(line.contains("Server listening on stdio"), "{e}");
    assert!(e.stderr_tail.contains("stub: starting up"), "{e}");
    assert!(e.fix().contains("stderr"), "{e}");
    pids.assert_all_gone(1);
}

#[test]
fn json_that_is_not_jsonrpc_is_garbage_too() {
    let (cmd, pids) = stub("not-jsonrpc");
    let e = capture(&cmd, &quick()).unwrap_err();
    assert!(matches!(*e.kind, ErrorKind::Garbage { .. }), "{e}");
    pids.assert_all_gone(1);
}

#[test]
fn server_that_never_answers_times_out_and_its_children_die_too() {
    let (cmd, pids) = stub("silent");
    let options = Options::with_timeout(Duration::from_millis(500));
    let e = capture(&cmd, &options).unwrap_err();
    let ErrorKind::Timeout { waiting_for, .. } = e.kind.as_ref() else {
        panic!("{e}")
    };
    assert_eq!(waiting_for, "server/discover");
    assert!(e.fix().contains("--protocol 2025-11-25"), "{e}");
    assert!(e.stderr_tail.contains("never comes"), "{e}");
    // The shell and the `sleep 300` it started.
    pids.assert_all_gone(2);
}

#[test]
fn server_that_ignores_sigterm_is_killed() {
    let (cmd, pids) = stub("stubborn");
    let options = Options::with_timeout(Duration::from_millis(300));
    let e = capture(&cmd, &options).unwrap_err();
    assert!(matches!(*e.kind, ErrorKind::Timeout { .. }), "{e}");
    assert!(e.stderr_tail.contains("ignoring SIGTERM"), "{e}");
    pids.assert_all_gone(1);
}

#[test]
fn jsonrpc_error_on_initialize() {
    let (cmd, pids) = stub("init-error");
    let e = capture(&cmd, &quick()).unwrap_err();
    let ErrorKind::JsonRpc {
        method,
        code,
        message,
    } = e.kind.as_ref()
    else {
        panic!("{e}")
    };
    assert_eq!(
        (method.as_str(), *code, message.as_str()),
        ("initialize", -32603, "invalid token")
    );
    assert!(e.stderr_tail.contains("invalid token"), "{e}");
    pids.assert_all_gone(1);
}

#[test]
fn jsonrpc_error_on_tools_list() {
    let (cmd, pids) = stub("list-error");
    let e = capture(&cmd, &quick()).unwrap_err();
    assert!(
        matches!(e.kind.as_ref(), ErrorKind::JsonRpc { method, .. } if method == "tools/list"),
        "{e}"
    );
    assert!(e.stderr_tail.contains("tools are not ready yet"), "{e}");
    pids.assert_all_gone(1);
}

#[test]
fn a_cursor_that_repeats_is_a_protocol_error() {
    let (cmd, pids) = stub("cursor-loop");
    let e = capture(&cmd, &quick()).unwrap_err();
    assert!(e.summary().contains("paging loop"), "{e}");
    pids.assert_all_gone(1);
}

#[test]
fn a_tool_without_a_name_is_an_input_error_with_a_pointer() {
    let (cmd, pids) = stub("bad-tool");
    let e = capture(&cmd, &quick()).unwrap_err();
    let ErrorKind::Surface(input) = e.kind.as_ref() else {
        panic!("{e}")
    };
    assert_eq!(input.location.as_deref(), Some("/tools/0/name"));
    pids.assert_all_gone(1);
}

#[test]
fn a_program_that_does_not_exist() {
    let cmd = ServerCommand::new("/nonexistent/mcp-server-that-is-not-there");
    let e = capture(&cmd, &quick()).unwrap_err();
    assert!(matches!(*e.kind, ErrorKind::Spawn { .. }), "{e}");
    assert!(
        e.to_string()
            .contains("help: check that the program is installed"),
        "{e}"
    );
}

#[test]
fn tool_calls_report_their_outcome_class() {
    let (cmd, pids) = stub("ok");
    let mut s = Session::start(&cmd, &quick()).unwrap();
    let add = s.call_tool("add", &serde_json::Map::new()).unwrap();
    assert_eq!(add.class(), Outcome::Success);
    assert_eq!(add.fields_object().unwrap()["sum"], 3);
    assert_eq!(
        s.call_tool("fail", &serde_json::Map::new())
            .unwrap()
            .class(),
        Outcome::ToolError
    );
    let boom = s.call_tool("boom", &serde_json::Map::new()).unwrap();
    assert!(
        matches!(boom, CallOutcome::JsonRpcError { code: -32602, .. }),
        "{boom:?}"
    );
    s.close();
    pids.assert_all_gone(1);
}

#[test]
fn a_fixture_still_listing_placeholders_for_review_is_not_sent() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("replay-review-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("add")).unwrap();
    // were it sent, `add` would succeed and the expectation fail
    let review = json!({"placeholders": ["/a"], "why": "w", "fix": "f"});
    for (name, safe) in [("reviewed-not.json", true), ("unsafe.json", false)] {
        std::fs::write(
            dir.join("add").join(name),
            json!({"safe": safe, "arguments": {"a": ""}, "expect": {"outcome": "tool_error"}, "x-review": review})
                .to_string(),
        )
        .unwrap();
    }
    let all = fixtures::read_dir(&dir).unwrap();
    let (cmd, pids) = stub("ok");
    let report = replay::replay_server(&cmd, &quick(), &all, replay::Expect::Recorded).unwrap();
    let why: Vec<String> = report
        .entries
        .iter()
        .map(|e| match &e.status {
            Status::Skipped(why) => why.clone(),
            other => panic!("{}: {other:?}", e.file.display()),
        })
        .collect();
    assert!(
        why[0].starts_with("marked safe, but `x-review` lists placeholder arguments at /a"),
        "{why:?}"
    );
    assert!(
        why[1].starts_with("not marked \"safe\": true, and `x-review`"),
        "{why:?}"
    );
    assert_eq!(
        (report.passed(), report.failed(), report.skipped()),
        (0, 0, 2)
    );
    pids.assert_all_gone(1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn replay_names_tool_fixture_and_field() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("replay-fixtures-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |rel: &str, body: serde_json::Value| {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body.to_string()).unwrap();
    };
    write(
        "add/ok.json",
        json!({"safe": true, "arguments": {"a": 1}, "expect": {"outcome": "success", "fields": {"sum": "integer", "note": "string|null"}}}),
    );
    write(
        "add/wrong-type.json",
        json!({"safe": true, "expect": {"outcome": "success", "fields": {"sum": "string"}}}),
    );
    write("add/unsafe.json", json!({"expect": {"outcome": "success"}}));
    write(
        "fail/stale.json",
        json!({"safe": true, "expect": {"outcome": "tool_error", "error_code": "STALE_TOOL_SCHEMA"}}),
    );
    write(
        "boom/rpc.json",
        json!({"safe": true, "expect": {"outcome": "jsonrpc_error", "error_code": -32602}}),
    );
    write(
        "gone/missing.json",
        json!({"safe": true, "expect": {"outcome": "success"}}),
    );
    let all = fixtures::read_dir(&dir).unwrap();
    let (cmd, pids) = stub("ok");
    let report = replay::replay_server(&cmd, &quick(), &all, replay::Expect::Recorded).unwrap();
    let summary: Vec<(String, String, String)> = report
        .entries
        .iter()
        .map(|e| {
            let status = match &e.status {
                Status::Passed => "passed".to_string(),
                Status::Skipped(_) => "skipped".to_string(),
                Status::Failed(m) => format!("failed {}", m[0].field),
            };
            (
                e.tool.clone(),
                e.file.file_name().unwrap().to_string_lossy().into_owned(),
                status,
            )
        })
        .collect();
    let expected = [
        ("add", "ok.json", "passed"),
        ("add", "unsafe.json", "skipped"),
        ("add", "wrong-type.json", "failed sum"),
        ("boom", "rpc.json", "passed"),
        ("fail", "stale.json", "passed"),
        ("gone", "missing.json", "failed tool"),
    ];
    let expected: Vec<(String, String, String)> = expected
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect();
    assert_eq!(summary, expected);
    assert_eq!(
        (report.passed(), report.failed(), report.skipped()),
        (3, 2, 1)
    );
    pids.assert_all_gone(1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_2025_server_is_spoken_to_with_initialize_and_its_server_section_recorded() {
    let (cmd, pids) = stub("ok");
    let c = capture(&cmd, &quick()).unwrap();
    let server = c.surface.server.as_ref().unwrap();
    assert_eq!(server.protocol_version.as_deref(), Some("2025-06-18"));
    assert!(server.has_capability(&["tools"]));
    // The stub declares no prompts or resources: none are listed.
    assert!(c.lists.is_empty(), "{:?}", c.lists);
    let text = mcp_contract::lockfile::render(&c.surface);
    assert!(
        !text.contains("serverInfo") && !text.contains("0.0.1"),
        "{text}"
    );
    pids.assert_all_gone(1);
}

#[test]
fn a_2026_server_is_discovered_and_every_request_carries_the_revision() {
    let (cmd, pids) = stub("stateless");
    let c = capture(&cmd, &quick()).unwrap();
    assert_eq!(c.server.protocol_version, "2026-07-28");
    let server = c.surface.server.as_ref().unwrap();
    assert_eq!(server.protocol_version.as_deref(), Some("2026-07-28"));
    assert_eq!(server.instructions.as_deref(), Some("Add first."));
    assert_eq!(server.extra["supportedVersions"], json!(["2026-07-28"]));
    // The stub refuses prompts/list without the 2026 `_meta`.
    assert!(c.surface.prompts["greet"].arguments[0].required);
    let text = mcp_contract::lockfile::render(&c.surface);
    for volatile in ["ttlMs", "cacheScope", "resultType", "9.9.9"] {
        assert!(!text.contains(volatile), "{volatile} in {text}");
    }
    pids.assert_all_gone(1);
}

#[test]
fn forcing_2026_on_a_2025_server_fails_with_the_reason() {
    let (cmd, pids) = stub("ok");
    let options = Options {
        protocol: mcp_contract_driver::Protocol::Stateless,
        ..quick()
    };
    let e = capture(&cmd, &options).unwrap_err();
    assert!(
        matches!(e.kind.as_ref(), ErrorKind::JsonRpc { method, code: -32601, .. } if method == "server/discover"),
        "{e}"
    );
    pids.assert_all_gone(1);
}

/// A server that never answers `server/discover` (nor errs on it) is sent
/// `initialize` beside it after the probe, and captured as a 2025 server,
/// the same as one that answers "method not found".
#[test]
fn a_server_that_ignores_discover_falls_back_to_initialize_within_one_timeout() {
    let (cmd, pids) = stub("ignore-discover");
    let c = capture(&cmd, &Options::with_timeout(Duration::from_secs(20))).unwrap();
    assert_eq!(c.server.protocol_version, "2025-06-18");
    let (ok, _ok_pids) = stub("ok");
    let expected = capture(&ok, &quick()).unwrap();
    assert_eq!(
        mcp_contract::lockfile::render(&c.surface),
        mcp_contract::lockfile::render(&expected.surface)
    );
    // one process: no restart
    pids.assert_all_gone(1);
}

/// A server that starts slower than the probe gets both requests before
/// it reads either; what it speaks decides, as for a fast server.
#[test]
fn a_slow_server_is_recorded_as_a_fast_one_would_be() {
    let long = Options::with_timeout(Duration::from_secs(20));
    let (slow, pids) = stub("slow-ok");
    let (fast, _fast_pids) = stub("ok");
    assert_eq!(
        mcp_contract::lockfile::render(&capture(&slow, &long).unwrap().surface),
        mcp_contract::lockfile::render(&capture(&fast, &quick()).unwrap().surface)
    );
    pids.assert_all_gone(1);

    // `initialize` was sent too, but the `server/discover` answer wins
    let (slow, pids) = stub("slow-stateless");
    let c = capture(&slow, &long).unwrap();
    assert_eq!(c.server.protocol_version, "2026-07-28");
    assert!(c.surface.prompts["greet"].arguments[0].required);
    pids.assert_all_gone(1);
}
