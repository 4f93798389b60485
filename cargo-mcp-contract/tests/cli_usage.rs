//! `cargo mcp-contract usage` as a user runs it: merging evidence files and
//! printing who still takes each old path (human and JSON), importing the
//! hit counter from Prometheus text into an evidence file, and exit 2 with
//! file, place and fix for bad evidence, leaving no file half-written.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-mcp-contract"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn write(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    path
}

const NOV: &str = r#"{"format": "mcp-contract-usage", "version": 1,
  "range": {"from": "2026-11-01", "to": "2026-11-07"}, "no_data": ["2026-11-04"],
  "hits": [{"tool": "search", "path": "field:query", "client": "claude-desktop/1.2", "day": "2026-11-02", "count": 3},
           {"tool": "search", "path": "field:query", "client": "batch", "day": "2026-11-01", "count": 40}]}"#;
const LATER: &str = r#"{"format": "mcp-contract-usage", "version": 1,
  "range": {"from": "2026-11-10", "to": "2026-11-11"},
  "hits": [{"tool": "search", "path": "field:query", "client": "claude-desktop/1.2", "day": "2026-11-11", "count": 2}]}"#;

#[test]
fn merges_and_prints_paths_clients_and_gaps() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "nov.json", NOV);
    let b = write(dir.path(), "later.json", LATER);
    let out = run(&["usage", p(&a), p(&b)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("usage 2026-11-01..2026-11-11: 8 of 11 days with data; gaps: 2026-11-04, 2026-11-08..2026-11-09"), "{s}");
    assert!(
        s.contains("search  field:query  claude-desktop/1.2  2026-11-11"),
        "{s}"
    );
    let json = run(&["usage", p(&a), p(&b), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["days_covered"], 8);
    assert_eq!(v["paths"][0]["client"], "batch");
    assert_eq!(v["paths"][1]["total"], 5);
    assert_eq!(v["gaps"][1], "2026-11-08..2026-11-09");
}

#[test]
fn bad_or_overlapping_evidence_is_exit_2_with_place_and_fix() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "nov.json", NOV);
    let future = write(
        dir.path(),
        "future.json",
        &NOV.replace("\"version\": 1", "\"version\": 9"),
    );
    let out = run(&["usage", p(&future)]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("future.json: /version: evidence version 9"),
        "{err}"
    );
    assert!(err.contains("help: upgrade"), "{err}");
    let out = run(&["usage", p(&a), p(&a)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("both have data for 2026-11-01"),
        "{}",
        text(&out.stderr)
    );
    let b = write(dir.path(), "later.json", LATER);
    let out = run(&["usage", p(&b), p(&a)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("list"), "{}", text(&out.stderr));
}

#[test]
fn imports_prometheus_text_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let m = "mcp_contract_compat_hits_total{tool=\"search\",path=\"field:query\",client=\"c\"}";
    let prom = write(
        dir.path(),
        "scrapes.txt",
        &format!("# TYPE mcp_contract_compat_hits_total counter\n{m} 5 1764720000000\n{m} 9 1764806400000\n"),
    );
    let out_path = dir.path().join("evidence.json");
    let out = run(&[
        "usage",
        "--import-prometheus",
        p(&prom),
        "--out",
        p(&out_path),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = run(&["usage", p(&out_path), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&shown.stdout).unwrap();
    assert_eq!(v["paths"][0]["total"], 4);
    assert_eq!(v["paths"][0]["last_hit"], "2025-12-04");

    let bad = write(dir.path(), "bad.txt", &format!("{m} 5\n"));
    let kept = std::fs::read(&out_path).unwrap();
    let out = run(&[
        "usage",
        "--import-prometheus",
        p(&bad),
        "--out",
        p(&out_path),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("bad.txt: line 1, column"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&out_path).unwrap(),
        kept,
        "nothing half-written"
    );
}
