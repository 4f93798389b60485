//! `cargo mcp-contract check` against real temporary git repositories: the
//! migration record acknowledges breaks, unacknowledged ones fail with the
//! entry to paste, and the baseline is the merge-base.

mod check_support;

use check_support::*;
use mcp_contract::{load, lockfile};
use serde_json::{json, Value};

const RENAME_ENTRY: &str = r#"[[acknowledge]]
tool = "search"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "query is now search_text"
owner = "@search-team"
transition = { kind = "rename", from = "query", to = "search_text", until = 2999-01-01 }
"#;

#[test]
fn acknowledged_rename_passes() {
    let r = renamed_on_branch();
    r.write(RECORD, RENAME_ENTRY);
    let run = r.check(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("acknowledged[input.property-removed]"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("rename query -> search_text"),
        "{run:?}"
    );
    assert!(run.stdout.contains("result: passed"), "{run:?}");
}

#[test]
fn unacknowledged_rename_fails_with_the_entry_that_acknowledges_it() {
    let r = renamed_on_branch();
    let run = r.check(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[input.property-removed]"),
        "{run:?}"
    );
    for line in [
        "[[acknowledge]]",
        "tool = \"search\"",
        "rule = \"input.property-removed\"",
        "pointer = \"/inputSchema/properties/query\"",
        "subject = \"query\"",
        "reason = \"\"",
        "owner = \"\"",
        "transition = { kind = \"rename\", from = \"query\", to = \"search_text\" }",
    ] {
        assert!(run.stdout.contains(line), "missing {line:?} in {run:?}");
    }

    // JSON carries the same entry as `migration_entry`.
    let json = r.check(&["--format", "json"]);
    assert_eq!(json.code, 1);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let change = &v["checks"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["rule"] == "input.property-removed")
        .cloned()
        .unwrap();
    let entry = change["migration_entry"].as_str().unwrap().to_string();
    assert!(entry.starts_with("[[acknowledge]]\n"), "{entry}");
    assert_eq!(change["fails"], true);

    // Pasted as printed, the empty reason and owner are rejected with their
    // line, and nothing is judged against a record that does not read.
    r.write(RECORD, &entry);
    let pasted = r.check(&[]);
    assert_eq!(pasted.code, 2, "{pasted:?}");
    assert_eq!(pasted.stdout, "", "{pasted:?}");
    assert_eq!(
        pasted.stderr,
        "error: contracts/migrations.toml:6:10: `reason` is empty\n  help: say why this break is acceptable: `reason = \"...\"` (every entry needs one)\nerror: contracts/migrations.toml:7:9: `owner` is empty\n  help: name who answers for this break: `owner = \"@team\"` (or remove the key and set `owner` in `[tools.NAME]`)\n",
        "{pasted:?}"
    );

    // The help never sends the reader to a second error: without the keys,
    // the record asks for the same two values.
    r.write(
        RECORD,
        &entry
            .replace("reason = \"\"\n", "")
            .replace("owner = \"\"\n", ""),
    );
    let removed = r.check(&[]);
    assert_eq!(removed.code, 2, "{removed:?}");
    assert!(
        removed.stderr.contains(
            "entry has no `reason`\n  help: say why this break is acceptable: `reason = \"...\"`"
        ) && removed.stderr.contains(
            "entry has no `owner`\n  help: name who answers for this break: `owner = \"@team\"`"
        ),
        "{removed:?}"
    );

    // Filled in, the check passes.
    r.write(
        RECORD,
        &entry
            .replace("reason = \"\"", "reason = \"clearer name\"")
            .replace("owner = \"\"", "owner = \"@me\""),
    );
    let filled = r.check(&[]);
    assert_eq!(filled.code, 0, "{filled:?}");
}

#[test]
fn baseline_is_the_merge_base_not_the_tip_of_main() {
    let r = TestRepo::new();
    r.lock(search(json!({"query": {"type": "string"}})));
    let fork = r.commit("publish search");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.write("README", "branch work\n");
    r.commit("unrelated work on the branch");
    // main moves on after the fork: a new tool the branch does not have.
    r.git(&["checkout", "-q", "main"]);
    let mut tools = search(json!({"query": {"type": "string"}}));
    tools
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "fetch", "inputSchema": {"type": "object"}}));
    r.lock(tools);
    r.commit("main adds fetch");
    r.git(&["checkout", "-q", "feature"]);

    let run = r.check(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    let short = r.git(&["rev-parse", "--short", &fork]);
    assert!(
        run.stdout
            .contains(&format!("against {short} (merge-base of HEAD and main)")),
        "{run:?}"
    );
    assert!(!run.stdout.contains("fetch"), "{run:?}");

    // Against the tip of main the branch would seem to remove `fetch`.
    let tip = r.check(&["--against", "main"]);
    assert_eq!(tip.code, 1, "{tip:?}");
    assert!(tip.stdout.contains("error[tool.removed]"), "{tip:?}");
    // A change to the whole tool is placed at the tool alone, on the
    // lockfile's `tools` key (line 4: the tool is gone from it).
    assert!(
        tip.stdout
            .contains("\n  --> contracts/mcp-contract.lock:4 (fetch)\n"),
        "{tip:?}"
    );
}

#[test]
fn origin_head_is_preferred_as_the_default_branch() {
    let upstream = TestRepo::new();
    upstream.lock(search(json!({"query": {"type": "string"}})));
    upstream.commit("publish");
    let clone = tempfile::tempdir().unwrap();
    git_in(
        clone.path(),
        &["clone", "-q", upstream.path().to_str().unwrap(), "repo"],
    );
    let repo = clone.path().join("repo");
    git_in(&repo, &["checkout", "-q", "-b", "feature"]);
    let run = run_in(&repo, &["check"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .contains(" (HEAD, where origin/main is; the uncommitted changes are checked)\n"),
        "{run:?}"
    );
    // The hook's check judges the index, and says so.
    std::fs::write(
        repo.join(LOCK),
        lockfile::render(
            &load::surface_from_value(
                &search(json!({"query": {"type": "string"}, "page": {"type": "integer"}})),
                "t",
            )
            .unwrap(),
        ),
    )
    .unwrap();
    git_in(&repo, &["add", "-A"]);
    let staged = run_in(&repo, &["check", "--staged"]);
    assert_eq!(staged.code, 0, "{staged:?}");
    assert!(
        staged
            .stdout
            .contains(" (HEAD, where origin/main is; the staged changes are checked)\n"),
        "{staged:?}"
    );
}

#[test]
fn a_lockfile_absent_at_the_baseline_is_a_new_surface() {
    let r = TestRepo::new();
    r.write("README", "x\n");
    r.commit("init");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.lock(search(json!({"query": {"type": "string"}})));
    let run = r.check(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("new surface"), "{run:?}");
    assert!(run.stdout.contains("note[tool.added]"), "{run:?}");
}

#[test]
fn fail_on_behavioral_requires_acknowledging_description_changes() {
    let r = TestRepo::new();
    r.lock(search(json!({"query": {"type": "string"}})));
    r.commit("publish");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.lock(
        json!([{"name": "search", "description": "Search documents and issues.",
        "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}}}]),
    );
    assert_eq!(r.check(&[]).code, 0);
    let run = r.check(&["--fail-on", "behavioral"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[tool.description-changed]"),
        "{run:?}"
    );
}

#[test]
fn record_problems_are_reported_together_with_lines_and_suggestions() {
    let r = renamed_on_branch();
    r.write(
        RECORD,
        &format!(
            "{RENAME_ENTRY}\n[[acknowledge]]\ntool = \"search\"\nrule = \"input.requird-added\"\npointer = \"/inputSchema/required\"\nreson = \"typo\"\nowner = \"@me\"\ntransition = {{ kind = \"default\", field = \"x\", value = 1 }}\n\n[tools.search]\ndeprecated = \"2025-02-30\"\nownr = \"@me\"\n"
        ),
    );
    let run = r.check(&[]);
    assert_eq!(run.code, 2, "{run:?}");
    // The record's problems are the whole report, in the file's order: no
    // change is judged against a record that does not read.
    assert_eq!(run.stdout, "", "{run:?}");
    let out = &run.stderr;
    let at = |needle: &str| {
        out.find(needle)
            .unwrap_or_else(|| panic!("{needle:?} in {out}"))
    };
    assert!(
        at("unknown rule `input.requird-added`") < at("unknown key `reson`")
            && at("unknown key `reson`") < at("`deprecated` is not a valid date")
            && at("`deprecated` is not a valid date") < at("unknown key `ownr`"),
        "{out}"
    );
    assert!(out.contains("unknown rule `input.requird-added`"), "{out}");
    assert!(
        out.contains("did you mean `input.required-added`?"),
        "{out}"
    );
    assert!(
        out.contains("contracts/migrations.toml:14:1: unknown key `reson`"),
        "{out}"
    );
    assert!(out.contains("did you mean `reason`?"), "{out}");
    assert!(
        out.contains("`deprecated` is not a valid date: \"2025-02-30\""),
        "{out}"
    );
    assert!(
        out.contains("unknown key `ownr` in `[tools.search]`"),
        "{out}"
    );
}

#[test]
fn stale_entries_warn_and_fail_under_strict() {
    let r = renamed_on_branch();
    let stale = "\n[[acknowledge]]\ntool = \"search\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"search\"\nreason = \"old\"\nowner = \"@me\"\ntransition = { kind = \"removal\", until = 2001-01-01 }\n";
    r.write(RECORD, &format!("{RENAME_ENTRY}{stale}"));
    let run = r.check(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("warning: contracts/migrations.toml:10:1: this entry (tool.removed on `search`) matches no change"), "{run:?}");
    assert!(
        run.stdout.contains("removal date 2001-01-01 has passed"),
        "{run:?}"
    );
    let strict = r.check(&["--strict"]);
    assert_eq!(strict.code, 1, "{strict:?}");

    // Once the record is in the baseline, its entries need not match again.
    r.write(RECORD, RENAME_ENTRY);
    r.commit("rename query");
    r.git(&["checkout", "-q", "main"]);
    r.git(&["merge", "-q", "--ff-only", "feature"]);
    r.git(&["checkout", "-q", "-b", "next"]);
    let later = r.check(&["--strict"]);
    assert_eq!(later.code, 0, "{later:?}");
}

#[test]
fn machine_formats_point_at_the_lockfile_line() {
    let r = renamed_on_branch();
    let text = r.read(LOCK);
    let line = text
        .lines()
        .position(|l| l.trim_start().starts_with("\"search_text\""))
        .unwrap()
        + 1;
    // The removed field is gone from the candidate: the annotation lands on
    // the nearest line that still exists (`properties`).
    let props = text
        .lines()
        .position(|l| l.trim_start().starts_with("\"properties\""))
        .unwrap()
        + 1;

    let gh = r.check(&["--format", "github"]);
    assert_eq!(gh.code, 1);
    assert!(gh.stdout.contains(&format!("::error file=contracts/mcp-contract.lock,line={props},title=input.property-removed (search)::")), "{gh:?}");
    assert!(gh.stdout.contains("%0A[[acknowledge]]%0A"), "{gh:?}");

    let sarif: Value = serde_json::from_str(&r.check(&["--format", "sarif"]).stdout).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let added = results
        .iter()
        .find(|x| x["ruleId"] == "input.property-added")
        .unwrap();
    assert_eq!(
        added["locations"][0]["physicalLocation"]["region"]["startLine"],
        line
    );
    assert_eq!(
        added["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        LOCK
    );
    let removed = results
        .iter()
        .find(|x| x["ruleId"] == "input.property-removed")
        .unwrap();
    assert_eq!(removed["level"], "error");

    let junit = r.check(&["--format", "junit"]);
    assert!(junit.stdout.starts_with("<?xml"), "{junit:?}");
    assert!(
        junit.stdout.contains("tests=\"1\" failures=\"1\""),
        "{junit:?}"
    );
    assert!(junit.stdout.contains("<failure message=\""), "{junit:?}");

    let md = r.check(&["--format", "markdown"]);
    assert!(
        md.stdout
            .contains("### ❌ MCP contract check failed: 1 unacknowledged change"),
        "{md:?}"
    );
    assert!(
        md.stdout
            .contains("| ❌ | `input.property-removed` | `search` |"),
        "{md:?}"
    );
    assert!(md.stdout.contains("```toml\n[[acknowledge]]"), "{md:?}");
}
