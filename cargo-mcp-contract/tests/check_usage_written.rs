//! A typed removal condition is decided wherever it is written, on every
//! row of the evidence. The server here keeps a deprecated alias by hand
//! (no build step, no `rename` in its record: a server in another language
//! would look the same): `search` publishes `search_text` and
//! `"query": {"type": "string", "deprecated": true}` with an `anyOf` of the
//! two `required`. The change removes `query`; the entry that acknowledges
//! it says `transition = { kind = "removal", removal = { quiet_for = "30d" } }`.
//! The condition is decided on the `search`, `field:query` rows: refused
//! without evidence, cleared by quiet covering evidence, refused with a
//! call inside the quiet window and with a call after it (today, or a day
//! ahead of `--today`: a collector whose clock runs fast), in every format.
//!
//! Every date below is worked out by hand: with `--today 2026-12-21` and
//! 30 quiet days the window is 2026-11-21..2026-12-20.

mod check_support;

use check_support::*;
use serde_json::{json, Value};

const REMOVAL: &str = r#"[[acknowledge]]
tool = "search"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "nobody sends query any more"
owner = "@search"
transition = { kind = "removal", removal = { quiet_for = "30d" } }
"#;

/// `search` with the hand-written alias `query` (committed, no record),
/// then without it (the working tree), the removal acknowledged.
fn hand_written_alias_removed() -> TestRepo {
    let r = TestRepo::new();
    r.lock(json!([{
        "name": "search",
        "description": "Search documents.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "search_text": {"type": "string"},
                "query": {"type": "string", "deprecated": true}
            },
            "anyOf": [{"required": ["search_text"]}, {"required": ["query"]}]
        }
    }]));
    r.commit("search_text, query kept by hand");
    r.lock(search(json!({"search_text": {"type": "string"}})));
    r.write(RECORD, REMOVAL);
    r
}

const TODAY: [&str; 2] = ["--today", "2026-12-21"];

fn check(r: &TestRepo, extra: &[&str]) -> Run {
    let mut args = vec!["--against", "HEAD", "--no-witness"];
    args.extend_from_slice(extra);
    r.check(&args)
}

fn json_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {run:?}"))
}

#[test]
fn refused_without_evidence_naming_the_evidence_and_the_waiver() {
    let r = hand_written_alias_removed();
    let run = check(&r, &TODAY);
    assert_eq!(run.code, 1, "{run:?}");
    for want in [
        "error[usage.no-evidence]: removing the argument `query` of `search`: no usage evidence shows that nobody still takes it",
        "  --> contracts/migrations.toml:1",
        "  = usage rows: tool `search`, path `field:query`",
        "  = condition: no calls for 30 days (contracts/migrations.toml:8)",
        "pass the usage evidence with `--usage FILE`",
        "`--no-usage-evidence`",
        "result: FAILED",
    ] {
        assert!(run.stdout.contains(want), "missing {want:?}: {run:?}");
    }
    // the change itself is acknowledged: the usage gate alone refuses it
    let v = json_of(&check(&r, &[TODAY[0], TODAY[1], "--format", "json"]));
    assert_eq!(v["checks"][0]["summary"]["failing"], 0, "{v}");
    let removal = &v["checks"][0]["usage"]["removals"][0];
    assert_eq!(
        (removal["kind"].as_str(), removal["path"].as_str()),
        (Some("field"), Some("field:query")),
        "{removal}"
    );
    assert_eq!(removal["verdict"], "no-evidence");
    // waived on purpose, it passes and says so
    let waived = check(&r, &[TODAY[0], TODAY[1], "--no-usage-evidence"]);
    assert_eq!(waived.code, 0, "{waived:?}");
    assert!(
        waived.stdout.contains("warning[usage.evidence-waived]"),
        "{waived:?}"
    );
}

#[test]
fn cleared_by_quiet_covering_evidence() {
    let r = hand_written_alias_removed();
    let f = Files::new();
    // a call before the window does not hold the removal back
    let ev = f.write(
        "usage.json",
        &evidence_json(
            "2026-11-01",
            "2026-12-20",
            &[],
            &[("search", "field:query", "mcp/0.1.0", "2026-11-20", 2)],
        ),
    );
    let run = check(&r, &["--usage", &ev, TODAY[0], TODAY[1]]);
    assert_eq!(run.code, 1, "the entry must record the evidence: {run:?}");
    assert!(
        run.stdout.contains("error[usage.evidence-not-recorded]: removing the argument `query` of `search`: cleared by usage evidence (no call in the quiet window 2026-11-21..2026-12-20, 30 days with data)"),
        "{run:?}"
    );
    let wrote = check(
        &r,
        &["--usage", &ev, TODAY[0], TODAY[1], "--record-evidence"],
    );
    assert_eq!(wrote.code, 0, "{wrote:?}");
    assert!(
        wrote.stdout.contains("note[usage.removal-cleared]"),
        "{wrote:?}"
    );
}

#[test]
fn refused_with_a_call_in_the_window() {
    let r = hand_written_alias_removed();
    let f = Files::new();
    let ev = f.write(
        "usage.json",
        &evidence_json(
            "2026-11-01",
            "2026-12-20",
            &[],
            &[("search", "field:query", "python-agent/1.0", "2026-12-10", 4)],
        ),
    );
    let run = check(&r, &["--usage", &ev, TODAY[0], TODAY[1]]);
    assert_eq!(run.code, 1, "{run:?}");
    for want in [
        "error[usage.removal-refused]: removing the argument `query` of `search`: usage evidence does not clear it: 1 client(s) took it in the quiet window 2026-11-21..2026-12-20",
        "  = python-agent/1.0: last hit 2026-12-10, 4 hit(s) in the window",
    ] {
        assert!(run.stdout.contains(want), "missing {want:?}: {run:?}");
    }
}

/// The two sample lines docs/usage-gate.md shows for calls after the
/// window: today (not over), then a day ahead of `--today`.
fn documented_after_window() -> [String; 2] {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/usage-gate.md"),
    )
    .unwrap();
    let marker = "<!-- checked-by: cargo-mcp-contract/tests/check_usage_written.rs -->\n```text\n";
    let start = page.find(marker).expect("the sample lines") + marker.len();
    let sample = &page[start..start + page[start..].find("```").unwrap()];
    let lines: Vec<String> = sample.lines().map(str::to_string).collect();
    lines.try_into().expect("two sample lines")
}

/// python-agent/1.0 calls `query` 40 times on `day`; the evidence covers
/// 2026-11-01 through `day`, every day with data.
fn forty_calls_on(f: &Files, day: &str) -> String {
    f.write(
        "usage.json",
        &evidence_json(
            "2026-11-01",
            day,
            &[],
            &[("search", "field:query", "python-agent/1.0", day, 40)],
        ),
    )
}

/// The run in every check format: exit 1, and the refusal (and each of
/// `also`) in each, with the days of the calls after the window.
fn refused_in_every_format(r: &TestRepo, ev: &str, also: &[&str], days: &str) {
    for format in ["human", "json", "sarif", "github", "junit", "markdown"] {
        let run = check(r, &["--usage", ev, TODAY[0], TODAY[1], "--format", format]);
        assert_eq!(run.code, 1, "{format}: {run:?}");
        for rule in ["usage.removal-refused"].iter().chain(also) {
            assert!(run.stdout.contains(rule), "{format}: no {rule}: {run:?}");
        }
        assert!(
            run.stdout
                .contains("1 client(s) took it after the window, on or after today 2026-12-21"),
            "{format}: {run:?}"
        );
        assert!(
            run.stdout.contains(&format!(
                "python-agent/1.0: calls on {days}, after the window"
            )),
            "{format}: {run:?}"
        );
        assert!(
            !run.stdout.contains("cleared by usage evidence (no call"),
            "{format}: {run:?}"
        );
    }
    // JSON carries the calls after the window apart from those in it
    let v = json_of(&check(
        r,
        &["--usage", ev, TODAY[0], TODAY[1], "--format", "json"],
    ));
    let removal = &v["checks"][0]["usage"]["removals"][0];
    assert_eq!(removal["verdict"], "refused", "{removal}");
    assert_eq!(removal["callers"], json!([]), "{removal}");
    assert_eq!(
        removal["after_window"],
        json!([{"client": "python-agent/1.0", "days": [days], "hits": 40}]),
        "{removal}"
    );
    assert_eq!(
        (removal["covered"].as_u64(), removal["needed"].as_u64()),
        (Some(30), Some(30)),
        "{removal}"
    );
    // and nothing is recorded as the proof
    let record = check(r, &["--usage", ev, TODAY[0], TODAY[1], "--record-evidence"]);
    assert_eq!(record.code, 1, "{record:?}");
    assert_eq!(r.read(RECORD), REMOVAL);
}

/// A call dated the check's today: the window 2026-11-21..2026-12-20 is
/// quiet and covered, and the 40 calls of the 21st still refuse. The same
/// row dated 2026-12-20 is in the window, and refuses as such.
#[test]
fn refused_with_a_call_today_after_the_window_in_every_format() {
    let r = hand_written_alias_removed();
    let f = Files::new();
    let ev = forty_calls_on(&f, "2026-12-21");
    refused_in_every_format(&r, &ev, &[], "2026-12-21");
    let run = check(&r, &["--usage", &ev, TODAY[0], TODAY[1]]);
    let [today_line, _] = documented_after_window();
    assert!(
        run.stdout.contains(&format!("{today_line}\n")),
        "{today_line}\n{run:?}"
    );
    // evidence that ends today is not ahead of the check
    assert!(
        !run.stdout.contains("usage.evidence-after-today"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("help: would clear: no call from python-agent/1.0 after 2026-12-21 (cleared on 2027-01-21 at the earliest)"),
        "{run:?}"
    );

    let f = Files::new();
    let in_window = forty_calls_on(&f, "2026-12-20");
    let run = check(&r, &["--usage", &in_window, TODAY[0], TODAY[1]]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("  = python-agent/1.0: last hit 2026-12-20, 40 hit(s) in the window"),
        "{run:?}"
    );
}

/// A row dated a day ahead of `--today` (a collector whose clock runs
/// fast): refused, and the file whose range ends after today is reported.
#[test]
fn refused_with_a_call_dated_ahead_of_today_in_every_format() {
    let r = hand_written_alias_removed();
    let f = Files::new();
    let ev = forty_calls_on(&f, "2026-12-22");
    refused_in_every_format(&r, &ev, &["usage.evidence-after-today"], "2026-12-22");
    let run = check(&r, &["--usage", &ev, TODAY[0], TODAY[1]]);
    let [_, ahead_line] = documented_after_window();
    assert!(
        run.stdout.contains(&format!("{ahead_line}\n")),
        "{ahead_line}\n{run:?}"
    );
    assert!(
        run.stdout.contains("warning[usage.evidence-after-today]: usage evidence 2026-11-01..2026-12-22 ends after the check's today 2026-12-21"),
        "{run:?}"
    );
    assert!(run.stdout.contains("--today 2026-12-23"), "{run:?}");
    let v = json_of(&check(
        &r,
        &["--usage", &ev, TODAY[0], TODAY[1], "--format", "json"],
    ));
    let findings = v["usage"]["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("{v}"));
    assert!(
        findings
            .iter()
            .any(|x| x["rule"] == "usage.evidence-after-today"
                && x["file"].as_str() == Some(ev.as_str())
                && x["level"] == "warning"),
        "{v}"
    );
}

/// A condition on a change whose removal usage evidence cannot count is a
/// record error at the condition's line (exit 2), not a condition that
/// looks enforced.
#[test]
fn a_condition_nothing_can_decide_is_a_record_error_at_its_line() {
    let r = TestRepo::new();
    r.lock(search(
        json!({"mode": {"type": "string", "enum": ["fast", "slow"]}}),
    ));
    r.commit("v1");
    r.lock(search(
        json!({"mode": {"type": "string", "enum": ["slow"]}}),
    ));
    r.write(
        RECORD,
        r#"[[acknowledge]]
tool = "search"
rule = "input.enum-narrowed"
pointer = "/inputSchema/properties/mode/enum"
values = ["fast"]
reason = "fast mode retired"
owner = "@search"
transition = { kind = "removal", removal = { quiet_for = "30d" } }
"#,
    );
    let run = check(&r, &TODAY);
    assert_eq!(run.code, 2, "{run:?}");
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(
        all.contains("contracts/migrations.toml:8:44: this removal condition cannot be decided"),
        "{run:?}"
    );
}

/// The fenced block of `lang` in docs/other-languages.md.
fn snippet(lang: &str) -> String {
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/other-languages.md"),
    )
    .unwrap();
    let open = format!("```{lang}\n");
    let start = page
        .find(&open)
        .unwrap_or_else(|| panic!("no {lang} block"))
        + open.len();
    page[start..][..page[start..].find("```").unwrap()].to_string()
}

/// docs/other-languages.md tells a TypeScript or Python server which
/// counter to emit: the metric the importer reads, with the labels it
/// requires and the path key the removal is decided on. A sample of that
/// counter, imported, decides this very removal.
#[test]
fn the_counter_another_language_emits_decides_the_removal() {
    let metric = mcp_contract::usage::prometheus::METRIC;
    let ts = snippet("typescript");
    let py = snippet("python");
    assert!(ts.contains(&format!("name: \"{metric}\"")), "{ts}");
    // prometheus_client appends `_total` to a counter's name itself
    let base = metric.strip_suffix("_total").unwrap();
    assert!(py.contains(&format!("\"{base}\",")), "{py}");
    assert!(
        ts.contains("labelNames: [\"tool\", \"path\", \"client\"]"),
        "{ts}"
    );
    assert!(py.contains("[\"tool\", \"path\", \"client\"]"), "{py}");
    assert!(ts.contains("path: \"field:query\""), "{ts}");
    assert!(py.contains("path=\"field:query\""), "{py}");

    // What those snippets expose, scraped on 2026-12-09 and 2026-12-10 at
    // noon UTC: python-agent/1.0 sent `query` 3 times on the 10th.
    let f = Files::new();
    let scrapes = f.write(
        "scrapes.txt",
        &format!(
            "# TYPE {metric} counter\n\
             {metric}{{tool=\"search\",path=\"field:query\",client=\"python-agent/1.0\",instance=\"a\"}} 1 1796817600000\n\
             {metric}{{tool=\"search\",path=\"field:query\",client=\"python-agent/1.0\",instance=\"a\"}} 4 1796904000000\n"
        ),
    );
    // (written by the import; an empty file there is replaced)
    let out = f.write("imported.json", "");
    let r = hand_written_alias_removed();
    let import = r.run(&["usage", "--import-prometheus", &scrapes, "--out", &out]);
    assert_eq!(import.code, 0, "{import:?}");
    let run = check(&r, &["--usage", &out, TODAY[0], TODAY[1]]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("  = python-agent/1.0: last hit 2026-12-10, 3 hit(s) in the window"),
        "{run:?}"
    );
}

/// The evidence a cleared removal relied on travels with the record:
/// `--record-evidence` commits it beside the record and names it in the
/// entry, so the next check without `--usage` (the hook, CI on a clean
/// clone, a day later) decides on the same counts; a committed file whose
/// counts are not the entry's digest, or that is missing, is an error.
#[test]
fn recorded_evidence_is_enough_for_the_next_check() {
    let r = hand_written_alias_removed();
    let base = r.git(&["rev-parse", "HEAD"]);
    let f = Files::new();
    let ev = f.write(
        "usage.json",
        &evidence_json(
            "2026-11-01",
            "2026-12-20",
            &[],
            &[("search", "field:query", "mcp/0.1.0", "2026-11-20", 2)],
        ),
    );
    let wrote = check(
        &r,
        &["--usage", &ev, TODAY[0], TODAY[1], "--record-evidence"],
    );
    assert_eq!(wrote.code, 0, "{wrote:?}");
    let record = r.read(RECORD);
    let line = record
        .lines()
        .find(|l| l.starts_with("evidence = "))
        .unwrap_or_else(|| panic!("no evidence line: {record}"));
    let file = line
        .split("file = \"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .unwrap_or_else(|| panic!("no file in {line}"));
    assert!(
        file.starts_with("usage/") && file.ends_with(".json"),
        "{line}"
    );
    assert!(
        line.contains("from = 2026-11-01, to = 2026-12-20"),
        "{line}"
    );
    let committed = format!("contracts/{file}");
    assert!(
        wrote.stderr.contains("wrote the usage evidence") && wrote.stderr.contains(&committed),
        "{wrote:?}"
    );

    // the hook, before the file is staged: it is not in the commit
    r.git(&["add", LOCK, RECORD]);
    let hook = check(&r, &["--staged", TODAY[0], TODAY[1]]);
    assert_eq!(hook.code, 2, "{hook:?}");
    let all = format!("{}{}", hook.stdout, hook.stderr);
    assert!(
        all.contains(&format!(
            "error: contracts/migrations.toml: line 9, column 12: the entry's evidence file {committed} does not exist"
        )) && all.contains("(`git add` it)"),
        "{hook:?}"
    );
    r.git(&["add", "-A"]);
    let hook = check(&r, &["--staged", TODAY[0], TODAY[1]]);
    assert_eq!(hook.code, 0, "{hook:?}");

    // a plain check, the same day and a month later: the recorded decision
    for today in ["2026-12-21", "2027-01-20"] {
        let run = check(&r, &["--today", today]);
        assert_eq!(run.code, 0, "{today}: {run:?}");
        assert!(
            run.stdout.contains("note[usage.removal-cleared]: removing the argument `query` of `search`: cleared by the usage evidence committed with the record (no call in the quiet window 2026-11-21..2026-12-20, 30 days with data)"),
            "{today}: {run:?}"
        );
        assert!(
            run.stdout.contains(&format!(
                "evidence: {committed}, as the entry records it; judged as of 2026-12-21"
            )),
            "{today}: {run:?}"
        );
        let v = json_of(&check(&r, &["--today", today, "--format", "json"]));
        let removal = &v["checks"][0]["usage"]["removals"][0];
        assert_eq!(removal["verdict"], "cleared", "{removal}");
        assert_eq!(removal["evidence_record"], "committed", "{removal}");
        assert_eq!(removal["evidence_file"], committed.as_str(), "{removal}");
        assert_eq!(removal["fails"], false, "{removal}");
    }

    // CI: a clean clone of the commit, checked against its parent
    let head = r.commit("query removed, its evidence committed");
    let ci = tempfile::tempdir().unwrap();
    git_in(
        ci.path(),
        &["clone", "-q", &r.path().display().to_string(), "."],
    );
    let run = run_in(
        ci.path(),
        &[
            "check",
            "--against",
            &base,
            "--no-witness",
            TODAY[0],
            TODAY[1],
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("committed with the record"), "{run:?}");
    assert_eq!(git_in(ci.path(), &["rev-parse", "HEAD"]), head);
    // from here on, the same change checked from the working tree
    let since = |base: &str| r.check(&["--against", base, "--no-witness", TODAY[0], TODAY[1]]);

    // one count changed in the committed file: its digest is not the entry's
    let text = r.read(&committed);
    assert!(text.contains("\"count\": 2"), "{text}");
    r.write(&committed, &text.replace("\"count\": 2", "\"count\": 3"));
    let run = since(&base);
    assert_eq!(run.code, 2, "{run:?}");
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(
        all.contains(&format!(
            "the entry's evidence file {committed} does not hold the evidence the entry records"
        )),
        "{run:?}"
    );
    // the file removed: an error too, never a silent `usage.no-evidence`
    std::fs::remove_file(r.abs(&committed)).unwrap();
    let run = since(&base);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        format!("{}{}", run.stdout, run.stderr).contains(&format!(
            "the entry's evidence file {committed} does not exist"
        )),
        "{run:?}"
    );

    // an entry recorded before evidence travelled (no `file`): the check
    // says why nothing decides on it, and recording again commits the file
    let record = r.read(RECORD);
    r.write(RECORD, &record.replace(&format!(", file = \"{file}\""), ""));
    let run = since(&base);
    assert_eq!(run.code, 1, "{run:?}");
    for want in [
        "error[usage.no-evidence]: removing the argument `query` of `search`",
        "  = the entry records evidence (2026-11-01..2026-12-20) but not its file, so nothing here can decide on it: run `cargo mcp-contract check --usage FILE... --record-evidence` once more",
        "`--record-evidence` commits the evidence beside the record, and a check without `--usage` (the hook, CI) decides on it",
    ] {
        assert!(run.stdout.contains(want), "missing {want:?}: {run:?}");
    }
    let again = r.check(&[
        "--against",
        &base,
        "--no-witness",
        "--usage",
        &ev,
        TODAY[0],
        TODAY[1],
        "--record-evidence",
    ]);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(r.read(RECORD), record);
    assert_eq!(r.read(&committed), text);
    assert_eq!(since(&base).code, 0);
}

/// A tool that was never deprecated, removed by an entry that carries a
/// typed condition: decided on every row of the tool (a server in another
/// language counts its calls as `tool:<its own name>`), refused without
/// evidence and with a call in the window, cleared by quiet covering data.
#[test]
fn a_removed_tool_with_a_typed_condition_is_decided_on_its_rows() {
    let r = TestRepo::new();
    let tools = |with_export: bool| {
        let mut t = search(json!({"search_text": {"type": "string"}}));
        if with_export {
            t.as_array_mut().unwrap().push(json!({
                "name": "legacy_export",
                "description": "Export everything.",
                "inputSchema": {"type": "object", "properties": {}}
            }));
        }
        t
    };
    r.lock(tools(true));
    r.commit("legacy_export published");
    r.lock(tools(false));
    r.write(
        RECORD,
        r#"[[acknowledge]]
tool = "legacy_export"
rule = "tool.removed"
pointer = ""
subject = "legacy_export"
reason = "nobody exports"
owner = "@reports"
transition = { kind = "removal", removal = { quiet_for = "30d" } }
"#,
    );
    let none = check(&r, &TODAY);
    assert_eq!(none.code, 1, "{none:?}");
    assert!(none.stdout.contains("error[usage.no-evidence]"), "{none:?}");
    assert!(
        none.stdout
            .contains("usage rows: every path of tool `legacy_export`"),
        "{none:?}"
    );
    let f = Files::new();
    let called = f.write(
        "called.json",
        &evidence_json(
            "2026-11-01",
            "2026-12-20",
            &[],
            &[(
                "legacy_export",
                "tool:legacy_export",
                "ts-agent/2.0",
                "2026-12-02",
                3,
            )],
        ),
    );
    let run = check(&r, &["--usage", &called, TODAY[0], TODAY[1]]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout
            .contains("  = ts-agent/2.0: last hit 2026-12-02, 3 hit(s) in the window"),
        "{run:?}"
    );
    // another tool's calls do not hold it back
    let quiet = f.write(
        "quiet.json",
        &evidence_json(
            "2026-11-01",
            "2026-12-20",
            &[],
            &[("search", "field:query", "ts-agent/2.0", "2026-12-02", 3)],
        ),
    );
    let run = check(&r, &["--usage", &quiet, TODAY[0], TODAY[1]]);
    assert_eq!(run.code, 1, "the entry must record the evidence: {run:?}");
    assert!(
        run.stdout.contains("error[usage.evidence-not-recorded]")
            && run.stdout.contains("cleared by usage evidence (no call in the quiet window 2026-11-21..2026-12-20, 30 days with data)"),
        "{run:?}"
    );
}
