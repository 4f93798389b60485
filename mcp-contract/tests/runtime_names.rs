//! The runtime layer lets through the argument names the published schema
//! lets through, read the way the comparator reads the schema: every
//! alternative's own fields (what schemars writes for a `#[serde(flatten)]`
//! enum or an internally tagged one), references, conditions, names only
//! `required` lists, patterns; an open object admits every name, a closed
//! one refuses the names it does not declare; the record's
//! `refuse_unknown_fields` narrows an open tool on purpose. The same plan
//! answers for the server and for `check`'s fixture replay.

use mcp_contract::fixtures;
use mcp_contract::load::surface_from_value;
use mcp_contract::migrations;
use mcp_contract::runtime::fixture_check;
use mcp_contract::runtime::plan::{self, CompatPlan};
use mcp_contract::runtime::{Compat, ErrorCode, Prepared, StaleCall};
use mcp_contract::Surface;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// A search by one of two keys, flattened into the arguments.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Search {
    query: String,
    #[serde(flatten)]
    by: By,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum By {
    ByAuthor(String),
    ByDate(String),
}

/// Arguments as an internally tagged enum with closed variants.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[allow(dead_code)]
enum Tagged {
    One { x: u8 },
    Two { y: String },
}

/// A struct that refuses undeclared fields.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Closed {
    a: String,
}

/// A struct that does not.
#[derive(Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Open {
    a: String,
}

fn schema_of<T: JsonSchema>() -> Value {
    let g = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    serde_json::to_value(g.into_root_schema_for::<T>()).unwrap()
}

fn surface(tools: &[(&str, Value)]) -> Surface {
    let list: Vec<Value> = tools
        .iter()
        .map(|(name, schema)| json!({"name": name, "inputSchema": schema}))
        .collect();
    surface_from_value(&Value::Array(list), "test").unwrap()
}

fn plan_for(tools: &[(&str, Value)], record: &str) -> CompatPlan {
    let (record, problems) = migrations::parse(record, "migrations.toml");
    assert!(problems.is_empty(), "{problems:?}");
    plan::derive(&record, &surface(tools), "sha256:0").unwrap()
}

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

fn passes(plan: &CompatPlan, tool: &str, v: Value) {
    match Compat::new(plan.clone()).prepare(tool, Some(args(v.clone()))) {
        Prepared::Call(a) => assert_eq!(Value::Object(a), v, "passed on changed"),
        Prepared::Reject(e) => panic!("{v} refused: {e}"),
    }
}

fn refused(plan: &CompatPlan, tool: &str, v: Value) -> StaleCall {
    match Compat::new(plan.clone()).prepare(tool, Some(args(v.clone()))) {
        Prepared::Reject(e) => e,
        Prepared::Call(a) => panic!("{v} passed on as {a:?}"),
    }
}

#[test]
fn a_flattened_enum_variant_is_an_argument() {
    let plan = plan_for(&[("search", schema_of::<Search>())], "");
    passes(
        &plan,
        "search",
        json!({"query": "rust", "by_author": "ann"}),
    );
    passes(&plan, "search", json!({"query": "rust", "by_date": "2024"}));
    assert_eq!(
        plan.tools["search"].properties,
        ["by_author", "by_date", "query"],
        "every alternative's fields are the handler's"
    );
}

#[test]
fn fixture_replay_in_check_reads_the_same_names() {
    let tools = [("search", schema_of::<Search>())];
    let plan = plan_for(&tools, "");
    let fixture = fixtures::from_value(
        &json!({
            "safe": true,
            "arguments": {"query": "rust", "by_author": "ann"},
            "expect": {"outcome": "success"}
        }),
        "contracts/fixtures/search/by_author.json",
        "search",
    )
    .unwrap();
    let report = fixture_check::check(&[fixture], &surface(&tools), &plan).unwrap();
    assert!(report.passed(), "{:?}", report.failures);
}

#[test]
fn an_internally_tagged_root_takes_each_variants_fields_and_no_other() {
    let plan = plan_for(&[("op", schema_of::<Tagged>())], "");
    passes(&plan, "op", json!({"kind": "one", "x": 1}));
    passes(&plan, "op", json!({"kind": "two", "y": "b"}));
    let e = refused(&plan, "op", json!({"kind": "one", "x": 1, "z": 2}));
    assert_eq!(e.code, ErrorCode::UnknownField);
    assert_eq!(e.fields, ["z"]);
    assert!(e.message.contains("has no argument `z`"), "{}", e.message);
    // each name is declared, but by variants that rule each other out
    let e = refused(&plan, "op", json!({"kind": "one", "x": 1, "y": "b"}));
    assert_eq!(e.code, ErrorCode::UnknownField);
    assert_eq!(e.fields, ["y"]);
    assert!(
        e.message.contains("different alternatives"),
        "{}",
        e.message
    );
}

#[test]
fn an_open_object_lets_undeclared_names_through_unchanged() {
    let plan = plan_for(&[("t", schema_of::<Open>())], "");
    passes(&plan, "t", json!({"a": "x", "extra": true}));
}

#[test]
fn a_closed_object_refuses_undeclared_names() {
    let plan = plan_for(&[("t", schema_of::<Closed>())], "");
    passes(&plan, "t", json!({"a": "x"}));
    let e = refused(&plan, "t", json!({"a": "x", "extra": true}));
    assert_eq!(e.code, ErrorCode::UnknownField);
    assert_eq!(e.fields, ["extra"]);
}

#[test]
fn references_dialects_conditions_and_patterns_are_read_as_the_comparator_reads_them() {
    let by_ref = json!({
        "type": "object",
        "$ref": "#/$defs/A",
        "$defs": {"A": {"properties": {"a": {}}, "additionalProperties": false}}
    });
    // draft-07 ignores keywords beside `$ref`: this root is not closed
    let draft7 = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$ref": "#/definitions/A",
        "additionalProperties": false,
        "definitions": {"A": {"type": "object", "properties": {"a": {}}}}
    });
    let conditional = json!({
        "type": "object",
        "if": {"properties": {"kind": {"const": "x"}}},
        "then": {"properties": {"kind": {}, "x": {}}, "additionalProperties": false},
        "else": {"properties": {"kind": {}, "y": {}}, "additionalProperties": false}
    });
    let patterned = json!({
        "type": "object",
        "properties": {"a": {}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": false
    });
    let plan = plan_for(
        &[
            ("by_ref", by_ref),
            ("draft7", draft7),
            ("conditional", conditional),
            ("patterned", patterned),
        ],
        "",
    );
    passes(&plan, "by_ref", json!({"a": 1}));
    assert_eq!(refused(&plan, "by_ref", json!({"b": 1})).fields, ["b"]);
    passes(&plan, "draft7", json!({"a": 1, "b": 2}));
    passes(&plan, "conditional", json!({"kind": "x", "x": 1}));
    passes(&plan, "conditional", json!({"kind": "z", "y": 1}));
    assert_eq!(
        refused(&plan, "conditional", json!({"kind": "x", "z": 1})).fields,
        ["z"]
    );
    passes(&plan, "patterned", json!({"a": 1, "x-trace": "t"}));
    assert_eq!(
        refused(&plan, "patterned", json!({"trace": "t"})).fields,
        ["trace"]
    );
}

#[test]
fn refuse_unknown_fields_in_the_record_narrows_an_open_tool() {
    let record =
        "[tools.t]\nrefuse_unknown_fields = true\n\n[tools.bag]\nrefuse_unknown_fields = true\n";
    let required_only = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a", "token"]
    });
    let bag = json!({
        "type": "object",
        "properties": {"a": {}},
        "additionalProperties": {"type": "string"}
    });
    let plan = plan_for(&[("t", required_only), ("bag", bag)], record);
    assert!(plan.tools["t"].refuse_unknown_fields);
    let e = refused(&plan, "t", json!({"a": "x", "token": "k", "extra": 1}));
    assert_eq!(e.code, ErrorCode::UnknownField);
    assert_eq!(
        e.fields,
        ["extra"],
        "a name only `required` lists is declared"
    );
    passes(&plan, "t", json!({"a": "x", "token": "k"}));
    // undeclared names that the schema types are data, never refused
    passes(&plan, "bag", json!({"a": 1, "anything": "s"}));
    // and the plan says so in its JSON, which the build step embeds
    let text = plan.to_json();
    assert_eq!(CompatPlan::from_json(&text).unwrap(), plan);
}

#[test]
fn refuse_unknown_fields_for_a_tool_not_published_is_a_plan_error_with_its_line() {
    let (record, problems) = migrations::parse(
        "version = 1\n\n[tools.gone]\nrefuse_unknown_fields = true\n",
        "migrations.toml",
    );
    assert!(problems.is_empty(), "{problems:?}");
    let errs = plan::derive(&record, &surface(&[("t", schema_of::<Open>())]), "r").unwrap_err();
    assert_eq!(errs[0].line, 3, "{errs:?}");
    assert!(errs[0].message.contains("`gone`"), "{}", errs[0].message);
    let (_, problems) = migrations::parse(
        "[tools.t]\nrefuse_unknown_fields = \"yes\"\n",
        "migrations.toml",
    );
    assert!(
        problems[0].message.contains("must be a boolean"),
        "{problems:?}"
    );
}
