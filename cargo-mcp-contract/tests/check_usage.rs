//! `check --usage`: a change that removes a deprecated path passes only when
//! usage evidence shows nobody takes it any more. In real git repositories:
//! the alias `query` of `search` (renamed to `search_text`, condition
//! `removal = { quiet_for = "30d" }`) is removed while a client still calls
//! it (refused, naming the client, its last hit and its count), after the
//! quiet window (cleared; the entry must then record the evidence, which
//! `--record-evidence` writes), with a gap in the window (refused), and
//! without evidence (refused; passes with `--no-usage-evidence`, the waiver
//! shown in every format). An old major version is decided on its
//! `tool:<replacement>` rows, a deprecated tool on all of its rows. The
//! removed name stays reserved; evidence for a tool the lockfile never had
//! is reported; bad evidence files are exit 2 with file, place and fix,
//! nothing written.
//!
//! The behaviour is documented in docs/usage-gate.md (its sample output is
//! this fixture's). Every expected date, count and digest below is worked
//! out by hand from the fixture: the quiet window of 30 days before `--today 2026-12-01` is
//! 2026-11-01..2026-11-30.

mod check_support;

use std::path::Path;

use check_support::*;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

const RENAME: &str = r#"[[acknowledge]]
tool = "search"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "query is now search_text"
owner = "@search"
transition = { kind = "rename", from = "query", to = "search_text", removal = { quiet_for = "30d" } }
"#;

/// The same entry once the alias goes: the name is reserved from now on.
const REMOVAL: &str = r#"[[acknowledge]]
tool = "search"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "nobody sends query any more"
owner = "@search"
transition = { kind = "removal", replacement = "search_text", removal = { quiet_for = "30d" } }
"#;

/// `search {query}`, then `search_text` with `query` kept as a deprecated
/// alias (committed), then the alias removed (the working tree).
fn alias_removed() -> TestRepo {
    let r = TestRepo::new();
    r.lock(search(json!({"query": {"type": "string"}})));
    r.commit("publish search");
    r.lock(search(json!({
        "search_text": {"type": "string"},
        "query": {"type": "string", "deprecated": true,
                  "description": "Deprecated: renamed to `search_text`; send `search_text` instead."}
    })));
    r.write(RECORD, RENAME);
    r.commit("rename query to search_text, query kept as an alias");
    r.lock(search(json!({"search_text": {"type": "string"}})));
    r.write(RECORD, REMOVAL);
    r
}

/// python-agent/1.0 took `query` on 2026-11-05 (2) and 2026-11-20 (3);
/// rmcp-agent/0.3 on 2026-10-10 (9), before any window below.
const CALLS: [Hit<'static>; 3] = [
    ("search", "field:query", "python-agent/1.0", "2026-11-05", 2),
    ("search", "field:query", "python-agent/1.0", "2026-11-20", 3),
    ("search", "field:query", "rmcp-agent/0.3", "2026-10-10", 9),
];

fn check(r: &TestRepo, extra: &[&str]) -> Run {
    let mut args = vec!["--against", "HEAD", "--no-witness"];
    args.extend_from_slice(extra);
    r.check(&args)
}

fn json_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {run:?}"))
}

#[test]
fn refused_while_a_client_still_calls() {
    let r = alias_removed();
    let f = Files::new();
    let ev = f.write(
        "usage.json",
        &evidence_json("2026-10-01", "2026-11-30", &[], &CALLS),
    );
    let run = check(&r, &["--usage", &ev, "--today", "2026-12-01"]);
    assert_eq!(run.code, 1, "{run:?}");
    let out = &run.stdout;
    for want in [
        "error[usage.removal-refused]: removing the alias `query` of `search` (renamed to `search_text`): usage evidence does not clear it: 1 client(s) took it in the quiet window 2026-11-01..2026-11-30",
        "  --> contracts/migrations.toml:1",
        "  = usage rows: tool `search`, path `field:query`",
        "  = python-agent/1.0: last hit 2026-11-20, 5 hit(s) in the window",
        "  help: would clear: no call from python-agent/1.0 after 2026-11-20 (cleared on 2026-12-21 at the earliest)",
        "result: FAILED",
    ] {
        assert!(out.contains(want), "missing {want:?}: {run:?}");
    }
    // a call before the window does not hold the removal back
    assert!(!out.contains("rmcp-agent/0.3: last hit"), "{run:?}");

    let v = json_of(&check(
        &r,
        &["--usage", &ev, "--today", "2026-12-01", "--format", "json"],
    ));
    let removal = &v["checks"][0]["usage"]["removals"][0];
    assert_eq!(removal["verdict"], "refused", "{removal}");
    assert_eq!(removal["kind"], "alias");
    assert_eq!(removal["path"], "field:query");
    assert_eq!(
        removal["window"],
        json!({"from": "2026-11-01", "to": "2026-11-30"})
    );
    assert_eq!(
        removal["callers"],
        json!([{"client": "python-agent/1.0", "last_hit": "2026-11-20", "hits": 5}])
    );
    assert_eq!(
        (removal["covered"].as_u64(), removal["needed"].as_u64()),
        (Some(30), Some(30))
    );
    assert_eq!(removal["gaps"], json!([]));
    assert_eq!(v["status"], "failed");
    // the removal itself is acknowledged: the usage gate alone refuses it
    assert_eq!(v["checks"][0]["summary"]["failing"], 0, "{v}");
    assert_eq!(removal["entry_line"], 1);
}

/// The server's own `UsageRecorder` counts 2 calls of `field:query` by
/// `mcp/0.1.0` on the check's today (2026-12-01), beside a file showing
/// November quiet. The window 2026-11-01..2026-11-30 is quiet and covered,
/// and today's calls still refuse; with today's file alone the refusal
/// names them beside the missing coverage.
#[test]
fn calls_recorded_today_refuse_beside_a_quiet_month_and_alone() {
    use mcp_contract::runtime::{Caller, DeprecationHook, ManualClock, Usage, UsageRecorder};
    let r = alias_removed();
    let f = Files::new();
    let quiet = f.write(
        "nov-quiet.json",
        &evidence_json("2026-11-01", "2026-11-30", &[], &[]),
    );
    let today_file = f.write("usage-today.json", "");
    std::fs::remove_file(&today_file).unwrap();
    let clock = ManualClock::new(mcp_contract::date::Date::parse("2026-12-01").unwrap());
    let recorder = UsageRecorder::with_clock(&today_file, std::sync::Arc::new(clock));
    let alias = Usage::DeprecatedField {
        from: "query".into(),
        to: "search_text".into(),
    };
    for _ in 0..2 {
        recorder.record("search", &alias, &Caller::client("mcp", "0.1.0"));
    }
    recorder.flush().expect("the recorder writes its file");
    drop(recorder);

    let today = ["--today", "2026-12-01"];
    let run = check(&r, &["--usage", &quiet, &today_file, today[0], today[1]]);
    assert_eq!(run.code, 1, "{run:?}");
    for want in [
        "error[usage.removal-refused]: removing the alias `query` of `search` (renamed to `search_text`): usage evidence does not clear it: 1 client(s) took it after the window, on or after today 2026-12-01\n",
        "  = mcp/0.1.0: calls on 2026-12-01, after the window; today is not over, and its calls count (2 hit(s))\n",
        "  help: would clear: no call from mcp/0.1.0 after 2026-12-01 (cleared on 2027-01-01 at the earliest)\n",
    ] {
        assert!(run.stdout.contains(want), "missing {want:?}: {run:?}");
    }
    assert!(!run.stdout.contains("cleared by usage evidence"), "{run:?}");

    let alone = check(&r, &["--usage", &today_file, today[0], today[1]]);
    assert_eq!(alone.code, 1, "{alone:?}");
    for want in [
        "usage evidence does not clear it: 1 client(s) took it after the window, on or after today 2026-12-01; the data covers 0 of the 30 days of the quiet window 2026-11-01..2026-11-30, 30 needed\n",
        "  = mcp/0.1.0: calls on 2026-12-01, after the window; today is not over, and its calls count (2 hit(s))\n",
    ] {
        assert!(alone.stdout.contains(want), "missing {want:?}: {alone:?}");
    }
}

/// The SHA-256 of the merged evidence as the documented canonical JSON:
/// sorted keys, two-space indent, a trailing newline.
fn digest(merged: &Value) -> String {
    let mut text = serde_json::to_string_pretty(merged).unwrap();
    text.push('\n');
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn cleared_after_the_quiet_window_and_the_evidence_recorded() {
    let r = alias_removed();
    let f = Files::new();
    let autumn = f.write(
        "autumn.json",
        &evidence_json("2026-10-01", "2026-11-30", &[], &CALLS),
    );
    let december = f.write(
        "december.json",
        &evidence_json("2026-12-01", "2026-12-20", &[], &[]),
    );
    // 2026-12-21: the window is 2026-11-21..2026-12-20, after the last call.
    let today = ["--today", "2026-12-21"];
    let merged = json!({
        "format": "mcp-contract-usage",
        "hits": [
            {"client": "python-agent/1.0", "count": 2, "day": "2026-11-05", "path": "field:query", "tool": "search"},
            {"client": "python-agent/1.0", "count": 3, "day": "2026-11-20", "path": "field:query", "tool": "search"},
            {"client": "rmcp-agent/0.3", "count": 9, "day": "2026-10-10", "path": "field:query", "tool": "search"},
        ],
        "no_data": [],
        "range": {"from": "2026-10-01", "to": "2026-12-20"},
        "version": 1,
    });
    let line = format!(
        "evidence = {{ sha256 = \"{}\", from = 2026-10-01, to = 2026-12-20 }}",
        digest(&merged)
    );
    // what --record-evidence writes: the line, naming the evidence it
    // commits beside the record
    let file = format!("usage/{}.json", &digest(&merged)[..16]);
    let written = line.replace(" }", &format!(", file = \"{file}\" }}"));

    // Cleared, but the entry does not record the evidence yet.
    let run = check(&r, &["--usage", &autumn, &december, today[0], today[1]]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[usage.evidence-not-recorded]: removing the alias `query` of `search` (renamed to `search_text`): cleared by usage evidence (no call in the quiet window 2026-11-21..2026-12-20, 30 days with data)"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains(&format!(
            "add this line to the entry at contracts/migrations.toml:1: {line}"
        )),
        "{line}\n{run:?}"
    );
    assert!(run.stdout.contains("--record-evidence"), "{run:?}");
    // `--usage` repeated is the same as one `--usage` with two files
    let again = check(
        &r,
        &["--usage", &autumn, "--usage", &december, today[0], today[1]],
    );
    assert_eq!(again.stdout, run.stdout);

    // (docs/usage-gate.md shows this entry with this line)
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/usage-gate.md"),
    )
    .unwrap();
    assert!(page.contains(&written), "{written}");

    // --record-evidence writes exactly that line into the entry.
    let wrote = check(
        &r,
        &[
            "--usage",
            &autumn,
            &december,
            today[0],
            today[1],
            "--record-evidence",
        ],
    );
    assert_eq!(wrote.code, 0, "{wrote:?}");
    assert!(wrote.stderr.contains("wrote `evidence = "), "{wrote:?}");
    assert_eq!(r.read(RECORD), format!("{REMOVAL}{written}\n"));
    let committed = r.read(&format!("contracts/{file}"));
    // byte for byte the canonical text the digest is taken of
    assert_eq!(
        committed,
        format!("{}\n", serde_json::to_string_pretty(&merged).unwrap())
    );

    // Recorded: the check passes and says why; writing again changes nothing.
    let run = check(&r, &["--usage", &autumn, &december, today[0], today[1]]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("note[usage.removal-cleared]"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains(&format!("recorded: {written}")),
        "{run:?}"
    );
    let same = check(
        &r,
        &[
            "--usage",
            &autumn,
            &december,
            today[0],
            today[1],
            "--record-evidence",
        ],
    );
    assert_eq!(same.code, 0, "{same:?}");
    assert!(!same.stderr.contains("wrote"), "{same:?}");
    assert_eq!(r.read(RECORD), format!("{REMOVAL}{written}\n"));

    // Other evidence that clears as well is not the evidence recorded.
    let more = f.write(
        "more.json",
        &evidence_json(
            "2026-10-01",
            "2026-11-30",
            &[],
            &[
                CALLS[0],
                CALLS[1],
                ("search", "field:query", "rmcp-agent/0.3", "2026-10-11", 1),
            ],
        ),
    );
    let other = check(&r, &["--usage", &more, &december, today[0], today[1]]);
    assert_eq!(other.code, 1, "{other:?}");
    assert!(
        other
            .stdout
            .contains("the entry records other evidence (2026-10-01..2026-12-20, sha256 "),
        "{other:?}"
    );
    assert!(
        other.stdout.contains(
            "replace the entry's `evidence` at contracts/migrations.toml:9 with: evidence = "
        ),
        "{other:?}"
    );

    // The history says which evidence allowed the removal.
    let history = r.run(&["history"]);
    assert_eq!(history.code, 0, "{history:?}");
    assert!(
        history.stdout.contains(&format!(
            "evidence    `query` cleared by usage evidence 2026-10-01..2026-12-20 sha256 {} (per ",
            digest(&merged)
        )),
        "{history:?}"
    );
}

#[test]
fn the_documented_refusal_is_what_the_check_prints() {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/usage-gate.md"),
    )
    .unwrap();
    let marker = "<!-- checked-by: cargo-mcp-contract/tests/check_usage.rs -->\n```text\n";
    let start = page.find(marker).expect("the sample output") + marker.len();
    let sample = &page[start..start + page[start..].find("```").unwrap()];
    let r = alias_removed();
    let f = Files::new();
    let ev = f.write(
        "usage.json",
        &evidence_json("2026-10-01", "2026-11-30", &["2026-11-14"], &CALLS),
    );
    let run = check(&r, &["--usage", &ev, "--today", "2026-12-01"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains(sample), "{sample}\n{run:?}");
}

#[test]
fn refused_when_the_evidence_has_a_gap_in_the_window() {
    let r = alias_removed();
    let f = Files::new();
    // Nobody called, but 2026-11-14 has no data: a gap is not a zero.
    let ev = f.write(
        "usage.json",
        &evidence_json("2026-10-01", "2026-11-30", &["2026-11-14"], &[]),
    );
    let run = check(&r, &["--usage", &ev, "--today", "2026-12-01"]);
    assert_eq!(run.code, 1, "{run:?}");
    for want in [
        "error[usage.removal-refused]: removing the alias `query` of `search` (renamed to `search_text`): usage evidence does not clear it: the data covers 29 of the 30 days of the quiet window 2026-11-01..2026-11-30, 30 needed",
        "  = no data on 2026-11-14 (29 of 30 days covered, 30 needed)",
        "  help: would clear: usage data for 1 more day(s) of 2026-11-01..2026-11-30",
    ] {
        assert!(run.stdout.contains(want), "missing {want:?}: {run:?}");
    }
    let v = json_of(&check(
        &r,
        &["--usage", &ev, "--today", "2026-12-01", "--format", "json"],
    ));
    let removal = &v["checks"][0]["usage"]["removals"][0];
    assert_eq!(removal["callers"], json!([]));
    assert_eq!(removal["gaps"], json!(["2026-11-14"]));
    assert_eq!(removal["covered"], 29);
}

#[test]
fn refused_without_evidence_and_the_waiver_shown_in_every_format() {
    let r = alias_removed();
    let run = check(&r, &[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[usage.no-evidence]: removing the alias `query` of `search` (renamed to `search_text`): no usage evidence shows that nobody still takes it"),
        "{run:?}"
    );
    assert!(run.stdout.contains("`--usage FILE`"), "{run:?}");
    assert!(run.stdout.contains("`--no-usage-evidence`"), "{run:?}");

    let waived = |format: &str| check(&r, &["--no-usage-evidence", "--format", format]);
    let human = waived("human");
    assert_eq!(human.code, 0, "{human:?}");
    assert!(
        human.stdout.contains("warning[usage.evidence-waived]: removing the alias `query` of `search` (renamed to `search_text`) without usage evidence: waived with --no-usage-evidence"),
        "{human:?}"
    );

    let json = waived("json");
    assert_eq!(json.code, 0, "{json:?}");
    let v = json_of(&json);
    assert_eq!(v["usage"]["waived"], true, "{v}");
    assert_eq!(v["usage"]["evidence"], Value::Null);
    let removal = &v["checks"][0]["usage"]["removals"][0];
    assert_eq!(removal["verdict"], "waived");
    assert_eq!(removal["fails"], false);
    assert_eq!(removal["finding"]["rule"], "usage.evidence-waived");

    let sarif = waived("sarif");
    assert_eq!(sarif.code, 0, "{sarif:?}");
    let s = json_of(&sarif);
    let results = s["runs"][0]["results"].as_array().unwrap();
    let result = results
        .iter()
        .find(|x| x["ruleId"] == "usage.evidence-waived")
        .unwrap_or_else(|| panic!("no waiver result: {s}"));
    assert_eq!(result["level"], "warning");
    assert_eq!(
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        RECORD
    );
    assert_eq!(
        result["locations"][0]["physicalLocation"]["region"]["startLine"],
        1
    );
    assert_eq!(s["runs"][0]["properties"]["usage"]["waived"], true);
    let rules = s["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    assert!(
        rules.iter().any(|x| x["id"] == "usage.evidence-waived"),
        "{s}"
    );

    let github = waived("github");
    assert!(
        github.stdout.lines().any(|l| l.starts_with(
            "::warning file=contracts/migrations.toml,line=1,title=usage gate (usage.evidence-waived)::"
        )),
        "{github:?}"
    );
    let junit = waived("junit");
    assert!(
        junit
            .stdout
            .contains("usage.evidence-waived contracts/migrations.toml:1"),
        "{junit:?}"
    );
    assert!(!junit.stdout.contains("<failure"), "{junit:?}");
    let markdown = waived("markdown");
    assert!(
        markdown
            .stdout
            .contains("⚠️ **warning** `usage.evidence-waived` `contracts/migrations.toml:1`"),
        "{markdown:?}"
    );
    assert!(
        markdown.stdout.contains("✅ MCP contract check passed"),
        "{markdown:?}"
    );
    // the same run without the waiver fails in every format
    for format in ["json", "sarif", "github", "junit", "markdown"] {
        let failed = check(&r, &["--format", format]);
        assert_eq!(failed.code, 1, "{format}: {failed:?}");
        assert!(
            failed.stdout.contains("usage.no-evidence"),
            "{format}: {failed:?}"
        );
    }
}

#[test]
fn the_removed_name_stays_reserved() {
    let r = alias_removed();
    let f = Files::new();
    let ev = f.write(
        "usage.json",
        &evidence_json("2026-10-01", "2026-11-30", &[], &[]),
    );
    let cleared = check(
        &r,
        &["--usage", &ev, "--today", "2026-12-01", "--record-evidence"],
    );
    assert_eq!(cleared.code, 0, "{cleared:?}");
    r.commit("remove the query alias");
    // Later, `query` comes back meaning something else.
    r.lock(search(json!({
        "search_text": {"type": "string"},
        "query": {"type": "object", "properties": {"sql": {"type": "string"}}}
    })));
    let run = check(&r, &[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains(
            "error[input.reserved-name-reused]: input field \"query\" was published before"
        ),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("(search /inputSchema/properties/query)"),
        "{run:?}"
    );
    // reusing it is not a removal: the usage gate has nothing to say
    assert!(!run.stdout.contains("usage."), "{run:?}");
}

#[test]
fn an_old_version_is_decided_on_its_replacement_rows_and_a_deprecated_tool_on_all() {
    let r = TestRepo::new();
    let tool = |name: &str| json!({"name": name, "description": "A tool.", "inputSchema": {"type": "object", "properties": {}}});
    r.lock(json!([
        tool("send_report"),
        tool("send_report_v2"),
        tool("legacy_export")
    ]));
    r.write(
        RECORD,
        r#"[tools.legacy_export]
owner = "@reports"
deprecated = 2026-06-01
removal = { quiet_for = "7d" }

[[acknowledge]]
tool = "send_report_v2"
rule = "tool.added"
pointer = ""
subject = "send_report_v2"
reason = "sectioned reports"
owner = "@reports"
transition = { kind = "major-version", from = "send_report", to = "send_report_v2", removal = { quiet_for = "7d" } }
"#,
    );
    r.commit("v2 beside v1, legacy_export deprecated");
    r.lock(json!([tool("send_report_v2")]));
    let record = r.read(RECORD);
    r.write(
        RECORD,
        &format!(
            "{record}\n[[acknowledge]]\ntool = \"send_report\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"send_report\"\nreason = \"v1 is done\"\nowner = \"@reports\"\ntransition = {{ kind = \"removal\", replacement = \"send_report_v2\" }}\n\n[[acknowledge]]\ntool = \"legacy_export\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"legacy_export\"\nreason = \"nobody exports\"\nowner = \"@reports\"\ntransition = {{ kind = \"removal\" }}\n"
        ),
    );
    let f = Files::new();
    // 2026-12-01: the 7-day window is 2026-11-24..2026-11-30.
    let ev = f.write(
        "usage.json",
        &evidence_json(
            "2026-11-01",
            "2026-11-30",
            &[],
            &[
                (
                    "send_report",
                    "tool:send_report_v2",
                    "batch-job/2",
                    "2026-11-29",
                    4,
                ),
                // a rejected call is no use of the old version as v1
                (
                    "send_report",
                    "rejected:UNKNOWN_FIELD",
                    "old-agent/1",
                    "2026-11-28",
                    1,
                ),
                // for a deprecated tool every row counts
                (
                    "legacy_export",
                    "rejected:UNKNOWN_FIELD",
                    "old-agent/1",
                    "2026-11-27",
                    2,
                ),
            ],
        ),
    );
    let run = check(
        &r,
        &["--usage", &ev, "--today", "2026-12-01", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{run:?}");
    let v = json_of(&run);
    // both removals are acknowledged: the usage gate alone fails the check
    assert_eq!(v["checks"][0]["summary"]["failing"], 0, "{v}");
    assert_eq!(v["checks"][0]["summary"]["acknowledged"], 2, "{v}");
    let removals = v["checks"][0]["usage"]["removals"].as_array().unwrap();
    let by_tool = |t: &str| {
        removals
            .iter()
            .find(|x| x["tool"] == t)
            .unwrap_or_else(|| panic!("no removal of {t}: {v}"))
    };
    let v1 = by_tool("send_report");
    assert_eq!(
        (v1["kind"].as_str(), v1["path"].as_str()),
        (Some("old-version"), Some("tool:send_report_v2"))
    );
    assert_eq!(v1["verdict"], "refused");
    assert_eq!(
        v1["callers"],
        json!([{"client": "batch-job/2", "last_hit": "2026-11-29", "hits": 4}])
    );
    let legacy = by_tool("legacy_export");
    assert_eq!(
        (legacy["kind"].as_str(), legacy["path"].clone()),
        (Some("tool"), Value::Null)
    );
    assert_eq!(
        legacy["callers"],
        json!([{"client": "old-agent/1", "last_hit": "2026-11-27", "hits": 2}])
    );
    assert_eq!(removals.len(), 2, "{v}");
}

#[test]
fn evidence_for_a_tool_the_lockfile_never_had_is_reported() {
    let r = TestRepo::new();
    r.lock(json!([
        {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}},
        {"name": "retired_tool", "inputSchema": {"type": "object", "properties": {}}}
    ]));
    r.commit("search and retired_tool");
    r.lock(search(json!({"query": {"type": "string"}})));
    r.commit("retired_tool goes");
    let f = Files::new();
    let ev = f.write(
        "usage.json",
        &evidence_json(
            "2026-11-01",
            "2026-11-30",
            &[],
            &[
                ("serch", "field:query", "typo-agent/1", "2026-11-03", 2),
                ("serch", "field:query", "typo-agent/1", "2026-11-09", 1),
                (
                    "retired_tool",
                    "rejected:STALE_TOOL_SCHEMA",
                    "old/1",
                    "2026-11-04",
                    5,
                ),
                ("search", "field:q", "good/1", "2026-11-05", 1),
            ],
        ),
    );
    let run = check(&r, &["--usage", &ev, "--today", "2026-12-01"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("warning[usage.unknown-tool]: usage evidence counts 3 hit(s) of tool `serch`, which the lockfile never published"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("  = clients: typo-agent/1; last hit 2026-11-09"),
        "{run:?}"
    );
    assert!(run.stdout.contains("did you mean `search`?"), "{run:?}");
    // a tool the history published is known, and so is a published one
    assert!(!run.stdout.contains("`retired_tool`"), "{run:?}");
    assert_eq!(
        run.stdout.matches("usage.unknown-tool").count(),
        1,
        "{run:?}"
    );

    let v = json_of(&check(
        &r,
        &["--usage", &ev, "--today", "2026-12-01", "--format", "json"],
    ));
    assert_eq!(
        v["usage"]["unknown_tools"],
        json!([{"tool": "serch", "file": ev, "clients": ["typo-agent/1"], "hits": 3,
                "last_hit": "2026-11-09", "suggestion": "search"}])
    );
    let s = json_of(&check(
        &r,
        &["--usage", &ev, "--today", "2026-12-01", "--format", "sarif"],
    ));
    let results = s["runs"][0]["results"].as_array().unwrap();
    assert!(
        results
            .iter()
            .any(|x| x["ruleId"] == "usage.unknown-tool" && x["level"] == "warning"),
        "{s}"
    );
}

#[test]
fn bad_evidence_is_exit_2_with_file_place_and_fix_and_nothing_written() {
    let r = alias_removed();
    let f = Files::new();
    let corrupt = f.write(
        "corrupt.json",
        "{\"format\": \"mcp-contract-usage\", \"version\": 1,\n \"range\": {\"from\": ",
    );
    let future = f.write(
        "future.json",
        &evidence_json("2026-11-01", "2026-11-30", &[], &[])
            .replace("\"version\":1", "\"version\":2"),
    );
    let early = f.write(
        "early.json",
        &evidence_json("2026-11-01", "2026-11-10", &[], &[]),
    );
    let late = f.write(
        "late.json",
        &evidence_json("2026-11-10", "2026-11-20", &[], &[]),
    );
    let october = f.write(
        "october.json",
        &evidence_json("2026-10-01", "2026-10-31", &[], &[]),
    );
    let november = f.write(
        "november.json",
        &evidence_json("2026-11-01", "2026-11-30", &[], &[]),
    );
    let cases: [(&[&str], Vec<String>); 4] = [
        (
            &[&corrupt],
            vec![format!("error: {corrupt}: line 2, column "), "invalid JSON".into(), "help: make the file valid JSON".into()],
        ),
        (
            &[&future],
            vec![
                format!("error: {future}: /version: evidence version 2 was written by a newer mcp-contract"),
                "help: upgrade cargo-mcp-contract".into(),
            ],
        ),
        (
            &[&early, &late],
            vec![
                format!("error: {late}: /range: overlaps {early}: both have data for 2026-11-10"),
                "help: cut one file's range, or list 2026-11-10 in one file's `no_data`".into(),
            ],
        ),
        (
            &[&november, &october],
            vec![
                format!("error: {october}: /range/from: out of order: its range starts 2026-10-01 before {november}'s (2026-11-01)"),
                format!("help: list {october} before {november} (oldest range first)"),
            ],
        ),
    ];
    for (files, wants) in cases {
        let mut args = vec!["--usage"];
        args.extend_from_slice(files);
        args.extend(["--today", "2026-12-01", "--record-evidence"]);
        let run = check(&r, &args);
        assert_eq!(run.code, 2, "{files:?}: {run:?}");
        for want in &wants {
            assert!(
                run.stderr.contains(want.as_str()),
                "{files:?}: missing {want:?}: {run:?}"
            );
        }
        assert_eq!(
            run.stdout, "",
            "nothing is reported before the evidence is good"
        );
        assert_eq!(r.read(RECORD), REMOVAL, "nothing written");
    }

    // --record-evidence never writes in CI
    let good = f.write(
        "good.json",
        &evidence_json("2026-10-01", "2026-11-30", &[], &[]),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cargo-mcp-contract"))
        .current_dir(r.path())
        .args([
            "mcp-contract",
            "check",
            "--against",
            "HEAD",
            "--usage",
            &good,
        ])
        .args(["--today", "2026-12-01", "--record-evidence"])
        .env("CI", "true")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--record-evidence does not write under CI"),
        "{err}"
    );
    assert_eq!(r.read(RECORD), REMOVAL, "nothing written");

    // a day that is not one
    let bad_day = check(&r, &["--no-usage-evidence", "--today", "2026-02-30"]);
    assert_eq!(bad_day.code, 2, "{bad_day:?}");
    assert!(
        bad_day.stderr.contains("`2026-02-30` is not a day"),
        "{bad_day:?}"
    );
}

#[test]
fn free_text_removal_conditions_are_warned_once_in_every_format() {
    let r = renamed_on_branch();
    r.write(
        RECORD,
        &RENAME.replace(
            "removal = { quiet_for = \"30d\" }",
            "removal = \"no calls using query for 30 days\"",
        ),
    );
    let human = check_plain(&r, "human");
    assert_eq!(human.code, 0, "{human:?}");
    let warning = "`removal` is free text, which usage evidence cannot check";
    assert_eq!(human.stdout.matches(warning).count(), 1, "{human:?}");
    assert!(
        human.stdout.contains("help: write it typed: removal = { quiet_for = \"30d\", note = \"no calls using query for 30 days\" }"),
        "{human:?}"
    );
    for format in ["json", "sarif", "github", "junit", "markdown"] {
        let run = check_plain(&r, format);
        assert_eq!(run.code, 0, "{format}: {run:?}");
        assert_eq!(run.stdout.matches(warning).count(), 1, "{format}: {run:?}");
    }
}

fn check_plain(r: &TestRepo, format: &str) -> Run {
    r.check(&["--no-witness", "--format", format])
}
