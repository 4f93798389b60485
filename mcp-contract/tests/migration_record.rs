//! The migration record parses into the typed model the runtime layer
//! generates code from, and reports every problem with its position.

use mcp_contract::migrations::{self, Date, Level, RenameTarget, Selector, Transition};
use serde_json::json;

const RECORD: &str = r#"version = 1

[tools.send_report]
owner = "@reports-team"
versions = [1, 2]
deprecated = 2025-09-01
replacement = "send_report_v2"
removal = "no calls to send_report for 30 days"
until = "2026-03-01"

[[acknowledge]]
tool = "search"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "clearer name"
owner = "@search-team"
transition = { kind = "rename", from = "query", to = "search_text", until = 2026-01-31 }

[[acknowledge]]
fingerprint = "input.required-added search /inputSchema/required region"
reason = "data residency"
owner = "@search-team"
transition = { kind = "default", field = "region", value = { zone = "eu", replicas = 2 } }

[[acknowledge]]
tool = "send_report"
rule = "tool.version-changed"
pointer = "/version"
reason = "structured recipients"
transition = { kind = "major-version", from = "send_report", to = "send_report_v2", deprecated = 2025-09-01 }

[[acknowledge]]
tool = "search_docs"
rule = "tool.removed"
pointer = ""
subject = "search_docs"
reason = "renamed"
owner = "@docs"
transition = { kind = "rename", from = "search_docs", to = "find_docs" }
"#;

#[test]
fn parses_into_the_typed_model() {
    let (record, problems) = migrations::parse(RECORD, "migrations.toml");
    assert!(problems.is_empty(), "{problems:?}");
    let policy = &record.tools["send_report"];
    assert_eq!(policy.versions, [1, 2]);
    assert_eq!(policy.deprecated, Date::new(2025, 9, 1));
    assert_eq!(policy.until, Date::new(2026, 3, 1));
    assert_eq!(policy.replacement.as_deref(), Some("send_report_v2"));
    assert_eq!(record.entries.len(), 4);
    assert_eq!(
        record.entries[0].transition,
        Transition::Rename {
            target: RenameTarget::Field,
            from: "query".into(),
            to: "search_text".into(),
            until: Date::new(2026, 1, 31),
            removal: None
        }
    );
    assert_eq!(record.entries[0].pos.line, 11);
    assert!(
        matches!(&record.entries[1].selector, Selector::Fingerprint(f) if f.ends_with("region"))
    );
    assert_eq!(
        record.entries[1].transition,
        Transition::Default {
            field: "region".into(),
            value: json!({"zone": "eu", "replicas": 2})
        }
    );
    // The owner falls back to the tool's policy.
    assert_eq!(record.entries[2].owner, "@reports-team");
    assert!(matches!(
        record.entries[2].transition,
        Transition::MajorVersion { .. }
    ));
    assert!(matches!(
        record.entries[3].transition,
        Transition::Rename {
            target: RenameTarget::Tool,
            ..
        }
    ));
    assert_eq!(record.entries_for("search").count(), 2);
}

#[test]
fn reports_every_problem_in_one_pass() {
    let text = "versoin = 1\n[[acknowledge]]\ntool = \"t\"\nrule = \"input.property-removd\"\npointer = \"inputSchema\"\nreason = \"\"\ntransition = { kind = \"renam\" }\n\n[[acknowledge]]\ntool = \"t\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"t\"\nreason = \"r\"\nowner = \"o\"\ntransition = { kind = \"rename\", from = \"a\", until = \"tomorrow\" }\n";
    let (record, problems) = migrations::parse(text, "m.toml");
    assert!(record.entries.is_empty());
    let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    let all = shown.join("\n");
    for expected in [
        "m.toml:1:1: unknown key `versoin`",
        "did you mean `version`?",
        "unknown rule `input.property-removd`",
        "did you mean `input.property-removed`?",
        "m.toml:6:10: `reason` is empty",
        "entry has no `owner`",
        "unknown transition kind `renam`",
        "did you mean `rename`?",
        "a `rename` transition needs `to`",
        "`until` is not a valid date: \"tomorrow\"",
    ] {
        assert!(all.contains(expected), "missing {expected:?} in\n{all}");
    }
    assert!(problems.iter().all(|p| p.level == Level::Error));
}

#[test]
fn a_syntax_error_points_at_its_line() {
    let (_, problems) = migrations::parse("[[acknowledge]]\ntool = \"x\nrule = 1\n", "m.toml");
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].pos.line, 2);
    assert!(
        problems[0].message.starts_with("invalid TOML"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_merge_conflict_is_named_at_its_first_marker_and_a_marker_inside_a_string_is_text() {
    let entry = |field: &str| {
        format!("[[acknowledge]]\ntool = \"t\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"{field}\"\nreason = \"r\"\nowner = \"o\"\ntransition = {{ kind = \"removal\" }}\n")
    };
    let conflicted = format!(
        "version = 1\n<<<<<<< HEAD\n{}=======\n{}>>>>>>> other\n",
        entry("a"),
        entry("b")
    );
    let (record, problems) = migrations::parse(&conflicted, "m.toml");
    assert!(record.entries.is_empty());
    let shown: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        shown,
        ["error: m.toml:2:1: unresolved merge-conflict marker\n  help: resolve the conflict: keep the entries of both sides and delete the `<<<<<<<`, `=======` and `>>>>>>>` lines, then re-run `cargo mcp-contract check`"]
    );
    // The same lines inside a multi-line string are the reason's text.
    let quoted = entry("a").replace(
        "reason = \"r\"",
        "reason = \"\"\"\n<<<<<<< a heading\n=======\n>>>>>>> quoted\n\"\"\"",
    );
    let (record, problems) = migrations::parse(&quoted, "m.toml");
    assert!(problems.is_empty(), "{problems:?}");
    assert!(record.entries[0].reason.contains("======="));
}

#[test]
fn suggested_entries_parse_once_reason_and_owner_are_filled() {
    use mcp_contract::{diff_surfaces, load::surface_from_value};
    let old = surface_from_value(&json!([{"name": "s", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]), "old").unwrap();
    let new = surface_from_value(&json!([{"name": "s", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "format": {"type": "string", "default": "pdf"}}, "required": ["format"]}}]), "new").unwrap();
    let report = diff_surfaces(&old, &new);
    let change = report
        .changes
        .iter()
        .find(|c| c.rule == "input.required-added")
        .unwrap();
    let entry = migrations::suggest_entry(change, &report.changes, Some(&new));
    assert!(
        entry.contains("transition = { kind = \"default\", field = \"format\", value = \"pdf\" }"),
        "{entry}"
    );
    let filled = entry
        .replace("reason = \"\"", "reason = \"r\"")
        .replace("owner = \"\"", "owner = \"o\"");
    let (record, problems) = migrations::parse(&filled, "m.toml");
    assert!(problems.is_empty(), "{problems:?}");
    assert!(record.acknowledging(change).is_some());
}
