//! Prompts, resources, templates and the server section through the whole
//! engine: the diff reports them with their target kind, the migration
//! record acknowledges them with `prompt =` / `resource =` entries (and
//! says what is wrong with a mismatched target), and the entry `check`
//! suggests parses back and acknowledges exactly the change it was made for.

use mcp_contract::diff::Target;
use mcp_contract::load::surface_from_value;
use mcp_contract::migrations::{parse, suggest_entry};
use mcp_contract::{diff_surfaces, Surface};
use serde_json::json;

fn surface(v: serde_json::Value) -> Surface {
    surface_from_value(&v, "test.json").unwrap()
}

fn old() -> Surface {
    surface(json!({
        "tools": [{"name": "search", "inputSchema": {"type": "object"}}],
        "prompts": [{"name": "greet", "arguments": [{"name": "who", "required": true}]}],
        "resources": [{"uri": "file:///readme", "name": "readme", "mimeType": "text/plain"}],
        "resourceTemplates": [{"uriTemplate": "repo://{owner}/{name}", "name": "repo"}],
        "server": {"protocolVersion": "2025-11-25", "capabilities": {"resources": {"subscribe": true}}}
    }))
}

fn new() -> Surface {
    surface(json!({
        "tools": [{"name": "search", "inputSchema": {"type": "object"}}],
        "prompts": [],
        "resources": [{"uri": "file:///readme", "name": "readme", "mimeType": "text/markdown"}],
        "resourceTemplates": [{"uriTemplate": "repo://{org}/{name}", "name": "repo"}],
        "server": {"protocolVersion": "2025-11-25", "capabilities": {"resources": {}}}
    }))
}

#[test]
fn every_kind_of_entry_is_compared_with_its_target() {
    let report = diff_surfaces(&old(), &new());
    let got: Vec<(&str, Target, &str)> = report
        .changes
        .iter()
        .map(|c| (c.rule, c.target(), c.tool.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("prompt.removed", Target::Prompt, "greet"),
            (
                "resource.mime-type-changed",
                Target::Resource,
                "file:///readme"
            ),
            (
                "template.variable-removed",
                Target::Resource,
                "repo://{owner}/{name}"
            ),
            ("server.capability-removed", Target::Server, "(server)"),
        ]
    );
    assert!(report.is_breaking());
    assert!(
        report.changes[2].message.contains("renamed to `org`"),
        "{}",
        report.changes[2].message
    );
}

#[test]
fn suggested_entries_parse_and_acknowledge_their_change() {
    let report = diff_surfaces(&old(), &new());
    let mut text = String::from("version = 1\n");
    for c in &report.changes {
        let entry = suggest_entry(c, &report.changes, Some(&new()))
            .replace("reason = \"\"", "reason = \"planned\"")
            .replace("owner = \"\"", "owner = \"@team\"");
        text.push_str(&entry);
    }
    assert!(text.contains("prompt = \"greet\""), "{text}");
    assert!(text.contains("resource = \"file:///readme\""), "{text}");
    assert!(!text.contains("tool = "), "{text}");
    let (record, problems) = parse(&text, "migrations.toml");
    assert!(problems.is_empty(), "{problems:?}\n{text}");
    for c in &report.changes {
        assert!(
            record.acknowledging(c).is_some(),
            "{} not acknowledged",
            c.rule
        );
    }
}

#[test]
fn a_mismatched_target_or_transition_is_an_error_with_the_fix() {
    let text = r#"version = 1
[[acknowledge]]
tool = "greet"
rule = "prompt.removed"
pointer = ""
subject = "greet"
reason = "gone"
owner = "@team"
transition = { kind = "removal" }

[[acknowledge]]
resource = "file:///readme"
rule = "resource.removed"
pointer = ""
reason = "gone"
owner = "@team"
transition = { kind = "rename", from = "a", to = "b" }

[[acknowledge]]
prompt = "x"
rule = "server.capability-removed"
pointer = "/server/capabilities/logging"
reason = "gone"
owner = "@team"
transition = { kind = "other" }
"#;
    let (record, problems) = parse(text, "migrations.toml");
    assert!(record.entries.is_empty());
    let all: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(all.len(), 3, "{all:#?}");
    assert!(
        all[0].contains("concerns a prompt") && all[0].contains("write `prompt = "),
        "{}",
        all[0]
    );
    assert!(
        all[1].contains("`rename` transition does not apply to a resource"),
        "{}",
        all[1]
    );
    assert!(
        all[2].contains("`prompt` given for a server rule"),
        "{}",
        all[2]
    );
}

#[test]
fn history_has_timelines_for_prompts_resources_and_the_server() {
    use mcp_contract::git::Revision;
    use mcp_contract::history::{EventKind, HistoryBuilder};
    use mcp_contract::lockfile::render;
    let rev = |n: usize| Revision {
        commit: format!("{n:040}"),
        short: format!("c{n}"),
        time: n as i64,
        subject: String::new(),
        blob: Some(String::new()),
    };
    let mut b = HistoryBuilder::new("lock");
    b.push(&rev(1), Some(&render(&old())));
    b.push(&rev(2), Some(&render(&new())));
    let h = b.finish();
    let kinds = |k: &str| -> Vec<String> {
        h.timelines[k]
            .iter()
            .map(|e| match &e.kind {
                EventKind::Changed { rules, .. } => rules.join(","),
                other => format!("{other:?}"),
            })
            .collect()
    };
    assert_eq!(kinds("prompt greet"), ["Introduced", "Removed"]);
    assert_eq!(
        kinds("resource file:///readme"),
        ["Introduced", "resource.mime-type-changed"]
    );
    assert_eq!(
        kinds("template repo://{owner}/{name}"),
        ["Introduced", "Removed"]
    );
    assert_eq!(kinds("template repo://{org}/{name}"), ["Introduced"]);
    assert_eq!(kinds("server"), ["Introduced", "server.capability-removed"]);
    assert_eq!(h.published_entries["prompt greet"].1, "c1");
}
