//! Removal gated on observed usage, end to end, with real parts: the demo
//! server (rmcp, stdio) records every compatibility path per client and day
//! into a usage evidence file (its `UsageRecorder`, the day injected with
//! `DEMO_SERVER_TODAY`); two different clients — the official MCP Python
//! SDK and rmcp's client — call the deprecated name `query` on different
//! days; `usage` shows both; a pull request that removes the alias is
//! refused by `check --usage` while a client still calls and while the
//! evidence has a gap, and passes once the quiet window is covered; the
//! server built after the removal turns the old contract's legacy calls
//! away with the structured refusal (`replay --backward`), and the server
//! from before fails that check.
//!
//! Everything runs in a temporary git repository holding a copy of the
//! demo server (`usage_e2e/team.rs`), built offline. The Python client
//! needs a Python with the `mcp` package: `MCP_CONTRACT_TEST_PYTHON`, else
//! `python3` (`.ci/run` installs examples/python-server's pinned
//! requirements and points the variable at them); without it the test
//! skips locally and fails under CI (`tests/support/skip.rs`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

#[path = "../../tests/support/skip.rs"]
mod skip;
#[path = "usage_e2e/team.rs"]
mod team;

use team::{run, text, Team};

const PYTHON_AGENT: &str = "usage_e2e/python_agent.py";

fn python() -> String {
    std::env::var("MCP_CONTRACT_TEST_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "python3".into())
}

fn python_has_mcp() -> bool {
    Command::new(python())
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What one client saw, as JSON (a `CallToolResult`).
fn result(out: &std::process::Output, who: &str) -> Value {
    assert!(out.status.success(), "{who} failed:\n{}", text(out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("{who} printed {stdout:?}: {e}"))
}

struct Day<'a> {
    day: &'a str,
    evidence: &'a Path,
}

impl Day<'_> {
    fn server_env(&self, cmd: &mut Command) {
        cmd.env("DEMO_SERVER_USAGE_FILE", self.evidence)
            .env("DEMO_SERVER_TODAY", self.day)
            .env_remove("DEMO_SERVER_CLOCK_FILE")
            .env_remove("DEMO_SERVER_USAGE_FLUSH_SECS")
            .env_remove("DEMO_SERVER_DEPRECATION_LOG")
            .env_remove("DEMO_SERVER_EFFECT_LOG")
            .env_remove("DEMO_SERVER_LOCKFILE");
    }

    /// The official Python SDK calls `tool` as `python-agent/1.0`.
    fn python(&self, server: &Path, tool: &str, args: Value) -> Value {
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(PYTHON_AGENT);
        let mut cmd = Command::new(python());
        cmd.arg(script)
            .args(["python-agent", "1.0", tool, &args.to_string(), "--"])
            .arg(server);
        self.server_env(&mut cmd);
        result(&run(&mut cmd), "the Python SDK client")
    }

    /// rmcp's client calls `tool` as `rmcp-agent/0.3`.
    fn rmcp(&self, agent: &Path, server: &Path, tool: &str, args: Value) -> Value {
        let mut cmd = Command::new(agent);
        cmd.args(["rmcp-agent", "0.3", tool, &args.to_string(), "--"])
            .arg(server);
        self.server_env(&mut cmd);
        result(&run(&mut cmd), "the rmcp client")
    }
}

fn served(result: &Value) -> bool {
    result.get("isError") != Some(&Value::Bool(true))
        && result["structuredContent"]["hits"].is_array()
}

fn usage_json(team: &Team, evidence: &Path) -> Value {
    let out = team.cli(&["usage", &evidence.display().to_string(), "--format", "json"]);
    assert!(out.status.success(), "usage failed:\n{}", text(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn removal_waits_for_every_client_and_for_covered_days() {
    if !python_has_mcp() {
        skip::skip(
            "removal_waits_for_every_client_and_for_covered_days",
            &format!(
                "{} has no `mcp` package (pip install -r examples/python-server/requirements.txt, or set MCP_CONTRACT_TEST_PYTHON)",
                python()
            ),
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("team");
    let team = Team::new(&repo);
    let (v1, agent) = team.build("v1");
    let evidence: PathBuf = tmp.path().join("usage.json");
    let on = |day| Day {
        day,
        evidence: &evidence,
    };

    // Two clients take the deprecated name on different days; the server
    // serves both (the alias is still there).
    let search = "search_catalog";
    let old = json!({"query": "usb"});
    assert!(served(&on("2026-11-02").python(&v1, search, old.clone())));
    // (no server ran on the 3rd: a gap, not a zero)
    assert!(served(&on("2026-11-04").rmcp(
        &agent,
        &v1,
        search,
        old.clone()
    )));

    let seen = usage_json(&team, &evidence);
    assert_eq!(
        seen["range"],
        json!({"from": "2026-11-02", "to": "2026-11-04"})
    );
    assert_eq!(seen["gaps"], json!(["2026-11-03"]));
    assert_eq!(
        seen["paths"],
        json!([
            {"tool": search, "path": "field:query", "client": "python-agent/1.0",
             "last_hit": "2026-11-02", "total": 1},
            {"tool": search, "path": "field:query", "client": "rmcp-agent/0.3",
             "last_hit": "2026-11-04", "total": 1},
        ])
    );
}
