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
use std::process::{Command, Stdio};

use serde_json::{json, Value};

#[path = "../../tests/support/child_build.rs"]
mod child_build;
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

    /// rmcp's client calls `tool` as `rmcp-agent/0.3`: the agent's stdin
    /// and stdout are the server's stdout and stdin.
    fn rmcp(&self, agent: &Path, server: &Path, tool: &str, args: Value) -> Value {
        let out_file = self.evidence.with_extension("rmcp-result.json");
        let mut cmd = Command::new(server);
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
        self.server_env(&mut cmd);
        let mut srv = cmd.spawn().expect("start the server");
        let (to_server, from_server) = (srv.stdin.take().unwrap(), srv.stdout.take().unwrap());
        let agent_out = run(Command::new(agent)
            .args(["rmcp-agent", "0.3", tool, &args.to_string()])
            .arg(&out_file)
            .stdin(Stdio::from(from_server))
            .stdout(Stdio::from(to_server)));
        // the server ends when the agent closes the session; its last flush
        // is done when it has exited
        let srv_status = srv.wait().expect("the server exits");
        assert!(
            agent_out.status.success() && srv_status.success(),
            "the rmcp client ({:?}) or the server ({srv_status:?}) failed:\n{}",
            agent_out.status,
            text(&agent_out)
        );
        let text = std::fs::read_to_string(&out_file).expect("the agent wrote its result");
        serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("the rmcp client wrote {text:?}: {e}"))
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

const RECORD: &str = "contracts/migrations.toml";

/// The rename as the demo records it, with the typed condition the team
/// agreed on when it deprecated `query`.
const RENAME: &str = r#"transition = { kind = "rename", from = "query", to = "search_text", until = 2027-03-31, removal = { quiet_for = "30d", note = "no calls using query for 30 days" } }"#;
/// The pull request: the alias goes, the name stays reserved.
const REMOVED: &str = r#"transition = { kind = "removal", replacement = "search_text", removal = { quiet_for = "30d" } }"#;

/// The fixtures that send `query`: after the removal each is refused.
const QUERY_FIXTURES: [(&str, &str); 3] = [
    ("legacy_query", r#"{ "query": "usb" }"#),
    (
        "both_names_same_value",
        r#"{ "query": "tea", "search_text": "tea" }"#,
    ),
    (
        "conflicting_aliases",
        r#"{ "query": "tea", "search_text": "usb" }"#,
    ),
];

/// Without the alias, `search_text` is the one way to say what to search
/// for: the check reports that as its own change, acknowledged here.
const REQUIRED: &str = r#"
[[acknowledge]]
tool = "search_catalog"
rule = "input.required-added"
pointer = "/inputSchema/required"
subject = "search_text"
reason = "with the alias `query` gone, search_text is the one name for the search text"
owner = "@catalog-team"
transition = { kind = "other", note = "callers that still send query get RESERVED_FIELD" }
"#;

fn remove_alias(team: &Team) {
    team.edit(RECORD, RENAME, REMOVED);
    let record = team.read(RECORD);
    team.write(RECORD, &format!("{record}{REQUIRED}"));
    for (name, args) in QUERY_FIXTURES {
        team.write(
            &format!("contracts/fixtures/search_catalog/{name}.json"),
            &format!(
                r#"{{ "description": "`query` was removed: refused, nothing executed", "safe": true, "arguments": {args}, "expect": {{ "outcome": "tool_error", "error_code": "RESERVED_FIELD" }} }}"#
            ),
        );
    }
}

/// `2026-MM-DD` for day `d` of November (11) or December (12).
fn day(month: u32, d: u32) -> String {
    format!("2026-{month:02}-{d:02}")
}

fn check_json(team: &Team, evidence: &Path, today: &str) -> (i32, Value) {
    let out = team.cli(&[
        "check",
        "--against",
        "HEAD",
        "--no-witness",
        "--usage",
        &evidence.display().to_string(),
        "--today",
        today,
        "--format",
        "json",
    ]);
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("check printed no JSON ({e}):\n{}", text(&out)));
    (out.status.code().unwrap_or(-1), v)
}

/// The one removal the check decided.
fn removal(v: &Value) -> &Value {
    let all: Vec<&Value> = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["usage"]["removals"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(all.len(), 1, "one removal: {v}");
    all[0]
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
    team.commit("the demo server: `query` served as an alias of `search_text`, removable after 30 quiet days");
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

    // The pull request that removes the alias, built as its author would.
    remove_alias(&team);
    let (v2, _) = team.build("v2");

    // Refused while both clients are in the window (2026-10-06..2026-11-04).
    let (code, v) = check_json(&team, &evidence, "2026-11-05");
    assert_eq!(code, 1, "{v}");
    let r = removal(&v);
    assert_eq!(
        (&r["verdict"], &r["kind"], &r["path"]),
        (&json!("refused"), &json!("alias"), &json!("field:query")),
        "{r}"
    );
    assert_eq!(
        r["window"],
        json!({"from": "2026-10-06", "to": "2026-11-04"})
    );
    assert_eq!(
        r["callers"],
        json!([
            {"client": "python-agent/1.0", "last_hit": "2026-11-02", "hits": 1},
            {"client": "rmcp-agent/0.3", "last_hit": "2026-11-04", "hits": 1},
        ])
    );
    assert_eq!(
        (r["covered"].as_u64(), r["needed"].as_u64()),
        (Some(2), Some(30))
    );

    // Production keeps running (the old build); callers use `search_text`
    // now. Nothing is recorded on the 20th.
    let quiet = json!({"search_text": "usb"});
    let mut days: Vec<String> = (5..=30).map(|d| day(11, d)).collect();
    days.extend((1..=21).map(|d| day(12, d)));
    for d in days
        .iter()
        .filter(|d| d.as_str() != "2026-11-20" && d.as_str() <= "2026-12-05")
    {
        assert!(served(&on(d).rmcp(&agent, &v1, search, quiet.clone())));
    }
    // Nobody called in 2026-11-06..2026-12-05, but the 20th has no data.
    let (code, v) = check_json(&team, &evidence, "2026-12-06");
    assert_eq!(code, 1, "{v}");
    let r = removal(&v);
    assert_eq!(r["verdict"], "refused", "{r}");
    assert_eq!(r["callers"], json!([]));
    assert_eq!(r["gaps"], json!(["2026-11-20"]));
    assert_eq!(
        (r["covered"].as_u64(), r["needed"].as_u64()),
        (Some(29), Some(30))
    );

    // Sixteen more days with data: 2026-11-22..2026-12-21 is quiet and covered.
    for d in days.iter().filter(|d| d.as_str() > "2026-12-05") {
        assert!(served(&on(d).rmcp(&agent, &v1, search, quiet.clone())));
    }
    let (code, v) = check_json(&team, &evidence, "2026-12-22");
    assert_eq!(
        code, 1,
        "cleared, but the entry must record the evidence first: {v}"
    );
    let r = removal(&v);
    assert_eq!(r["verdict"], "cleared", "{r}");
    assert_eq!(
        r["window"],
        json!({"from": "2026-11-22", "to": "2026-12-21"})
    );
    let ev = evidence.display().to_string();
    let args = [
        "check",
        "--against",
        "HEAD",
        "--no-witness",
        "--usage",
        &ev,
        "--today",
        "2026-12-22",
    ];
    let wrote = team.cli(&[&args[..], &["--record-evidence"]].concat());
    assert!(wrote.status.success(), "{}", text(&wrote));
    let record = team.read(RECORD);
    let entry = record
        .lines()
        .skip_while(|l| *l != REMOVED)
        .nth(1)
        .unwrap_or_default();
    assert!(
        entry.starts_with("evidence = { sha256 = \"")
            && entry.contains("\", from = 2026-11-02, to = 2026-12-21, file = \"usage/")
            && entry.ends_with(".json\" }"),
        "the removal's entry records the evidence it was cleared on, and the file it committed: {entry:?}\n{record}"
    );
    let passed = team.cli(&args);
    assert!(passed.status.success(), "{}", text(&passed));
    assert!(
        text(&passed).contains("note[usage.removal-cleared]"),
        "{}",
        text(&passed)
    );
    // the hook and CI have no evidence files: they decide on the committed one
    let plain = team.cli(&[
        "check",
        "--against",
        "HEAD",
        "--no-witness",
        "--today",
        "2026-12-22",
    ]);
    assert!(plain.status.success(), "{}", text(&plain));
    assert!(
        text(&plain).contains("cleared by the usage evidence committed with the record"),
        "{}",
        text(&plain)
    );
    team.commit("remove the alias `query`: no caller for 30 days (usage evidence recorded)");

    // The backward check: the old contract's legacy calls of `query` get
    // the structured refusal from the new build...
    let backward = |server: &Path| {
        let out = run(Command::new(team::CLI)
            .args([
                "mcp-contract",
                "replay",
                "--backward",
                "HEAD~1",
                "--server",
                "--",
            ])
            .arg(server)
            .current_dir(&team.dir)
            .env_remove("CI")
            .env_remove("DEMO_SERVER_USAGE_FILE"));
        (out.status.code(), text(&out))
    };
    let (code, out) = backward(&v2);
    assert_eq!(code, Some(0), "{out}");
    for want in [
        "legacy search_catalog ",
        "took field:query, removed since ",
        "replay: 2 passed, 0 failed, 0 skipped",
    ] {
        assert!(out.contains(want), "missing {want:?}:\n{out}");
    }
    // ...and the build from before the removal, still serving the alias,
    // fails it: a success there means something else now.
    let (code, out) = backward(&v1);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("replay: 0 passed, 2 failed, 0 skipped"),
        "{out}"
    );
    assert!(out.contains("means something else"), "{out}");
}
