//! The check's text agrees with its verdict once a transition is served: a
//! field made required with a `default` transition is published optional
//! with that default, so the report says so instead of "is now required".

mod check_support;

use check_support::{search, TestRepo, RECORD};
use serde_json::json;

const DEFAULT_ENTRY: &str = r#"version = 1

[[acknowledge]]
fingerprint = "input.required-added search /inputSchema/required region"
reason = "region is needed for data residency"
owner = "@search-team"
transition = { kind = "default", field = "region", value = "eu" }
"#;

#[test]
fn a_served_default_is_reported_as_published_optional_with_its_default() {
    let repo = TestRepo::new();
    repo.lock(search(json!({"query": {"type": "string"}})));
    repo.commit("publish search");
    // what the build step publishes for the record's default transition
    repo.lock(search(json!({
        "query": {"type": "string"},
        "region": {"type": "string", "enum": ["eu", "us"], "default": "eu"}
    })));
    repo.write(RECORD, DEFAULT_ENTRY);
    let run = repo.check(&["--against", "HEAD", "--color", "never"]);
    assert_eq!(run.code, 0, "{run:?}");
    let line = |prefix: &str| -> String {
        run.stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line starting with {prefix:?}: {run:?}"))
            .to_string()
    };
    let ack = line("acknowledged[input.required-added]: ");
    assert_eq!(
        ack,
        "acknowledged[input.required-added]: \"region\" is published optional with the default \"eu\": calls made without it are served with \"eu\" (the record's default transition)",
        "{run:?}"
    );
    let added = line("note[input.property-added]: ");
    assert_eq!(
        added,
        "note[input.property-added]: field \"region\" was added, published optional with the default \"eu\"",
        "{run:?}"
    );
    // the JSON report carries the same text
    let json_run = repo.check(&["--against", "HEAD", "--format", "json"]);
    assert_eq!(json_run.code, 0, "{json_run:?}");
    assert!(!json_run.stdout.contains("is now required"), "{json_run:?}");
    assert!(!json_run.stdout.contains("required field"), "{json_run:?}");
}

/// Where the published schema still requires the field (a server that does
/// not publish the default), "is now required" is what clients see, and the
/// report keeps saying it.
#[test]
fn a_default_the_lockfile_does_not_publish_keeps_the_required_text() {
    let repo = TestRepo::new();
    repo.lock(search(json!({"query": {"type": "string"}})));
    repo.commit("publish search");
    let mut tools = search(json!({
        "query": {"type": "string"},
        "region": {"type": "string", "enum": ["eu", "us"]}
    }));
    tools[0]["inputSchema"]["required"] = json!(["region"]);
    repo.lock(tools);
    repo.write(RECORD, DEFAULT_ENTRY);
    let run = repo.check(&["--against", "HEAD", "--color", "never"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains(
            "acknowledged[input.required-added]: \"region\" is now required: calls made without it are rejected"
        ),
        "{run:?}"
    );
}

/// A committed `rename` entry that gains the typed removal condition the
/// usage gate asks for (what docs/usage-gate.md tells a team to do) is
/// still the acknowledgement it was: the alias stays in the lockfile, only
/// its description now names the condition (what the build step writes),
/// so the check sees one behavioral change and nothing to acknowledge. The
/// same edit on a `default` entry likewise.
#[test]
fn adding_a_removal_condition_to_a_committed_transition_is_not_a_new_change() {
    const RENAME: &str = r#"[[acknowledge]]
tool = "create_note"
rule = "input.property-removed"
pointer = "/inputSchema/properties/title"
subject = "title"
reason = "title is now headline"
owner = "@notes"
transition = { kind = "rename", from = "title", to = "headline" }
"#;
    let alias = |extra: &str| {
        json!({"type": "string", "deprecated": true,
               "description": format!("Deprecated: renamed to `headline`; send `headline` instead.{extra}")})
    };
    let note = |alias: serde_json::Value| {
        json!([{"name": "create_note", "description": "Create a note.",
                "inputSchema": {"type": "object",
                    "properties": {"headline": {"type": "string"}, "title": alias},
                    "anyOf": [{"required": ["headline"]}, {"required": ["title"]}]}}])
    };
    let repo = TestRepo::new();
    repo.lock(note(alias("")));
    repo.write(RECORD, RENAME);
    repo.commit("rename title to headline, title kept as an alias");
    repo.lock(note(alias(" Still accepted until no calls for 30 days.")));
    repo.write(
        RECORD,
        &RENAME.replace(
            "to = \"headline\" }",
            "to = \"headline\", removal = { quiet_for = \"30d\" } }",
        ),
    );
    let diff = repo.check(&["--against", "HEAD", "--color", "never"]);
    assert_eq!(diff.code, 0, "{diff:?}");
    assert!(!diff.stdout.contains("error["), "{diff:?}");
    assert!(!diff.stdout.contains("[[acknowledge]]"), "{diff:?}");
    assert!(
        diff.stdout
            .contains("summary: 0 breaking, 1 behavioral, 0 additive, 0 cosmetic"),
        "{diff:?}"
    );
    // the same entry with a new reason and owner as well: still the same
    repo.write(
        RECORD,
        &RENAME
            .replace("reason = \"title is now headline\"", "reason = \"headline says what it holds\"")
            .replace("@notes", "@notes-team")
            .replace(
                "to = \"headline\" }",
                "to = \"headline\", removal = { quiet_for = \"60d\", note = \"no calls using title\" } }",
            ),
    );
    repo.lock(note(alias(" Still accepted until no calls using title.")));
    let edited = repo.check(&["--against", "HEAD", "--color", "never"]);
    assert_eq!(edited.code, 0, "{edited:?}");
    assert!(!edited.stdout.contains("error["), "{edited:?}");

    // The default transition, edited the same way.
    let repo = TestRepo::new();
    repo.lock(search(json!({
        "query": {"type": "string"},
        "region": {"type": "string", "enum": ["eu", "us"], "default": "eu"}
    })));
    repo.write(RECORD, DEFAULT_ENTRY);
    repo.commit("region with a served default");
    repo.write(
        RECORD,
        &DEFAULT_ENTRY.replace(
            "value = \"eu\" }",
            "value = \"eu\", removal = { quiet_for = \"30d\" } }",
        ),
    );
    let run = repo.check(&["--against", "HEAD", "--color", "never"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!run.stdout.contains("error["), "{run:?}");
}
