//! Deriving the runtime plan from a migration record and a published
//! surface: what each transition becomes, what is refused (with the record
//! line), the JSON the build step embeds, and which entries a surface serves.

use mcp_contract::migrations;
use mcp_contract::runtime::plan::{self, CompatPlan};
use mcp_contract::runtime::served::served;
use mcp_contract::{load, Surface};
use serde_json::json;

fn surface() -> Surface {
    load::surface_from_value(
        &json!([
            {
                "name": "search",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "search_text": {"type": "string"},
                        "query": {"type": "string", "deprecated": true, "description": "Deprecated: renamed to `search_text`."},
                        "limit": {"type": "integer"}
                    },
                    "anyOf": [{"required": ["search_text"]}, {"required": ["query"]}]
                }
            },
            {
                "name": "order",
                "inputSchema": {
                    "type": "object",
                    "properties": {"lines": {"type": "array"}, "currency": {"type": "string", "default": "EUR"}},
                    "required": ["lines"]
                }
            },
            {"name": "report", "inputSchema": {"type": "object", "properties": {"body": {"type": "string"}}}},
            {"name": "report_v2", "inputSchema": {"type": "object", "properties": {"sections": {"type": "array"}}}},
            {"name": "bag", "inputSchema": {"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "string"}}}
        ]),
        "test",
    )
    .unwrap()
}

const RECORD: &str = r#"
[tools.lookup]
owner = "@t"
replacement = "search"
removal = "merged"

[[acknowledge]]
tool = "search"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "clearer"
owner = "@t"
transition = { kind = "rename", from = "query", to = "search_text", until = 2027-01-31, removal = "no calls for 30 days" }

[[acknowledge]]
tool = "order"
rule = "input.required-added"
pointer = "/inputSchema/required"
subject = "currency"
reason = "two currencies"
owner = "@t"
transition = { kind = "default", field = "currency", value = "EUR" }

[[acknowledge]]
tool = "order"
rule = "input.property-removed"
pointer = "/inputSchema/properties/note"
subject = "note"
reason = "unused"
owner = "@t"
transition = { kind = "removal", replacement = "instructions" }

[[acknowledge]]
tool = "report_v2"
rule = "tool.added"
pointer = ""
subject = "report_v2"
reason = "sections"
owner = "@t"
transition = { kind = "major-version", from = "report", to = "report_v2", deprecated = 2026-11-01 }
"#;

fn derived(record: &str) -> Result<CompatPlan, Vec<plan::PlanError>> {
    let (record, problems) = migrations::parse(record, "migrations.toml");
    assert!(problems.is_empty(), "{problems:?}");
    plan::derive(&record, &surface(), "sha256:0")
}

#[test]
fn every_transition_becomes_runtime_behaviour() {
    let p = derived(RECORD).unwrap();
    let search = &p.tools["search"];
    assert_eq!(
        search.properties,
        ["limit", "search_text"],
        "alias is not a handler field"
    );
    assert_eq!(search.aliases.len(), 1);
    assert!(search.aliases[0].required);
    assert_eq!(search.aliases[0].until.as_deref(), Some("2027-01-31"));
    let order = &p.tools["order"];
    assert_eq!(order.defaults[0].field, "currency");
    assert_eq!(order.defaults[0].value, json!("EUR"));
    assert_eq!(order.reserved[0].name, "note");
    assert_eq!(
        order.reserved[0].replacement.as_deref(),
        Some("instructions")
    );
    assert_eq!(
        p.tools["report"].deprecated.as_ref().unwrap().replacement,
        "report_v2"
    );
    assert!(p.tools["report_v2"].deprecated.is_none());
    assert_eq!(
        p.retired["lookup"].replacement.as_deref(),
        Some("search"),
        "a [tools.NAME] replacement for an unpublished tool retires it"
    );
    assert!(p.tools["bag"].open);
    assert!(!p.tools["order"].open);
}

#[test]
fn without_a_record_every_tool_is_plain() {
    let p = derived("").unwrap();
    assert_eq!(p.tools.len(), 5);
    assert!(p.retired.is_empty());
    let search = &p.tools["search"];
    assert!(search.aliases.is_empty());
    assert_eq!(search.properties, ["limit", "query", "search_text"]);
}

#[test]
fn the_plan_round_trips_through_its_json() {
    let p = derived(RECORD).unwrap();
    let text = p.to_json();
    assert_eq!(CompatPlan::from_json(&text).unwrap(), p);
    assert_eq!(p.to_json(), text, "deterministic");
}

#[test]
fn a_rename_to_a_missing_field_is_refused_with_its_line() {
    let bad = RECORD.replace("to = \"search_text\"", "to = \"search_txt\"");
    let errs = derived(&bad).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(errs[0].line, 7);
    assert!(
        errs[0].message.contains("no field `search_txt`"),
        "{}",
        errs[0]
    );
}

#[test]
fn a_default_for_a_missing_field_and_a_missing_major_version_are_refused() {
    let bad = RECORD
        .replace("field = \"currency\"", "field = \"curency\"")
        .replace("to = \"report_v2\"", "to = \"report_v3\"");
    let errs = derived(&bad).unwrap_err();
    let all: Vec<String> = errs.iter().map(|e| e.to_string()).collect();
    assert!(
        all.iter().any(|e| e.contains("no field `curency`")),
        "{all:?}"
    );
    assert!(
        all.iter()
            .any(|e| e.contains("`report_v3`") && e.contains("not published")),
        "{all:?}"
    );
}

#[test]
fn an_entry_for_an_unpublished_tool_names_the_published_one_it_likely_means() {
    let bad = RECORD
        .replacen("tool = \"search\"", "tool = \"serch\"", 1)
        .replace("tool = \"order\"", "tool = \"xyz\"");
    let errs = derived(&bad).unwrap_err();
    let helps: Vec<(&str, &str)> = errs
        .iter()
        .map(|e| (e.message.as_str(), e.help.as_str()))
        .collect();
    assert_eq!(
        helps,
        [
            (
                "the rename `query` -> `search_text` is for tool `serch`, which is not published",
                "did you mean `search`? (fix the entry's tool, or remove the entry)"
            ),
            (
                "the default for `currency` is for tool `xyz`, which is not published",
                "fix the entry's tool, or remove the entry"
            ),
        ]
    );
}

#[test]
fn a_removed_field_still_published_is_refused() {
    let bad = RECORD
        .replace("properties/note", "properties/lines")
        .replace("subject = \"note\"", "subject = \"lines\"");
    let errs = derived(&bad).unwrap_err();
    assert!(errs[0].message.contains("still published"), "{}", errs[0]);
}

#[test]
fn revision_is_the_lockfile_digest() {
    let r = plan::revision_of("abc");
    assert_eq!(
        r,
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn served_entries_are_the_ones_whose_branch_is_published() {
    let (record, _) = migrations::parse(RECORD, "m.toml");
    let s = surface();
    let by_kind = |k: &str| {
        record
            .entries
            .iter()
            .find(|e| e.transition.kind() == k)
            .unwrap()
    };
    assert!(served(by_kind("rename"), &s));
    assert!(served(by_kind("default"), &s));
    assert!(served(by_kind("major-version"), &s));
    assert!(!served(by_kind("removal"), &s), "a removal is a real break");

    // Without the alias or the default in the schema, the entries are not served.
    let mut bare = s.clone();
    let search = bare.tools.get_mut("search").unwrap();
    search.input_schema["properties"]
        .as_object_mut()
        .unwrap()
        .remove("query");
    let order = bare.tools.get_mut("order").unwrap();
    order.input_schema["required"] = json!(["lines", "currency"]);
    assert!(!served(by_kind("rename"), &bare));
    assert!(!served(by_kind("default"), &bare));
    bare.tools.remove("report");
    assert!(!served(by_kind("major-version"), &bare));
}
