//! The runtime normalizer, each behaviour both ways: renames (dual read,
//! conflicts), server-applied defaults, reserved names, unknown fields,
//! retired and deprecated tools, the stale-call error shape, telemetry that
//! never sees argument values, and no panic on any input.

use std::sync::{Arc, Mutex};

use mcp_contract::runtime::plan::{
    Alias, CompatPlan, Reserved, RetiredTool, ServerDefault, ToolDeprecation, ToolPlan,
};
use mcp_contract::runtime::{
    Caller, Compat, DeprecationHook, ErrorCode, HitCounter, Prepared, StaleCall, Usage,
};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

const REVISION: &str = "sha256:feedface";

fn plan() -> CompatPlan {
    let mut p = CompatPlan {
        revision: REVISION.into(),
        ..CompatPlan::default()
    };
    p.tools.insert(
        "search".into(),
        ToolPlan {
            properties: vec!["limit".into(), "search_text".into()],
            aliases: vec![Alias {
                from: "query".into(),
                to: "search_text".into(),
                required: true,
                until: Some("2027-03-31".into()),
                removal: None,
            }],
            // (the record's `refuse_unknown_fields = true`: the schema
            // itself is open)
            refuse_unknown_fields: true,
            ..ToolPlan::default()
        },
    );
    p.tools.insert(
        "order".into(),
        ToolPlan {
            properties: vec!["currency".into(), "instructions".into(), "lines".into()],
            defaults: vec![ServerDefault {
                field: "currency".into(),
                value: json!("EUR"),
            }],
            reserved: vec![Reserved {
                name: "note".into(),
                replacement: Some("instructions".into()),
                note: Some("notes were never read".into()),
            }],
            ..ToolPlan::default()
        },
    );
    p.tools.insert(
        "report".into(),
        ToolPlan {
            properties: vec!["body".into()],
            deprecated: Some(ToolDeprecation {
                replacement: "report_v2".into(),
                since: None,
                until: None,
                removal: None,
            }),
            ..ToolPlan::default()
        },
    );
    p.tools.insert(
        "open".into(),
        ToolPlan {
            properties: vec!["a".into()],
            open: true,
            ..ToolPlan::default()
        },
    );
    p.retired.insert(
        "lookup".into(),
        RetiredTool {
            replacement: Some("get_item".into()),
            note: Some("merged into get_item".into()),
        },
    );
    p
}

fn args(v: Value) -> Option<Map<String, Value>> {
    v.as_object().cloned()
}

fn call(tool: &str, v: Value) -> Map<String, Value> {
    match Compat::new(plan()).prepare(tool, args(v)) {
        Prepared::Call(a) => a,
        Prepared::Reject(e) => panic!("unexpected rejection: {e}"),
    }
}

fn reject(tool: &str, v: Value) -> StaleCall {
    match Compat::new(plan()).prepare(tool, args(v)) {
        Prepared::Reject(e) => e,
        Prepared::Call(a) => panic!("unexpectedly accepted: {a:?}"),
    }
}

#[test]
fn old_name_alone_is_read_as_the_new_name() {
    assert_eq!(
        call("search", json!({"query": "usb", "limit": 2})),
        args(json!({"search_text": "usb", "limit": 2})).unwrap()
    );
}

#[test]
fn new_name_alone_passes_unchanged() {
    assert_eq!(
        call("search", json!({"search_text": "usb"})),
        args(json!({"search_text": "usb"})).unwrap()
    );
}

#[test]
fn both_names_with_the_same_value_are_accepted_once() {
    assert_eq!(
        call("search", json!({"query": "tea", "search_text": "tea"})),
        args(json!({"search_text": "tea"})).unwrap()
    );
}

#[test]
fn both_names_with_different_values_are_a_conflict_not_a_pick() {
    let e = reject("search", json!({"query": "tea", "search_text": "usb"}));
    assert_eq!(e.code, ErrorCode::ConflictingAliases);
    assert_eq!(e.fields, ["query", "search_text"]);
    assert_eq!(e.replacement.as_deref(), Some("search_text"));
    assert!(
        e.message.contains("Send only `search_text`"),
        "{}",
        e.message
    );
    assert_eq!(e.required_action().as_str(), "fix_arguments");
}

#[test]
fn an_omitted_field_gets_the_server_default() {
    let a = call("order", json!({"lines": []}));
    assert_eq!(a.get("currency"), Some(&json!("EUR")));
}

#[test]
fn a_given_field_keeps_its_value() {
    let a = call("order", json!({"lines": [], "currency": "USD"}));
    assert_eq!(a.get("currency"), Some(&json!("USD")));
}

#[test]
fn a_reserved_name_is_rejected_naming_the_replacement() {
    let e = reject("order", json!({"lines": [], "note": "x"}));
    assert_eq!(e.code, ErrorCode::ReservedField);
    assert_eq!(e.fields, ["note"]);
    assert_eq!(e.replacement.as_deref(), Some("instructions"));
    assert!(
        e.message.contains("Use `instructions` instead"),
        "{}",
        e.message
    );
    assert!(e.message.contains("notes were never read"), "{}", e.message);
    assert_eq!(e.required_action().as_str(), "refresh_tools");
}

#[test]
fn without_the_reserved_name_the_call_goes_through() {
    let a = call("order", json!({"lines": [], "instructions": "ring"}));
    assert_eq!(a.get("instructions"), Some(&json!("ring")));
}

#[test]
fn an_unknown_field_is_an_error_not_silence() {
    let e = reject("search", json!({"search_text": "usb", "page": 2}));
    assert_eq!(e.code, ErrorCode::UnknownField);
    assert_eq!(e.fields, ["page"]);
    assert!(
        e.message.contains("`limit`, `search_text`"),
        "{}",
        e.message
    );
}

#[test]
fn an_open_schema_accepts_undeclared_fields() {
    let a = call("open", json!({"a": 1, "extra": true}));
    assert_eq!(a.get("extra"), Some(&json!(true)));
}

#[test]
fn a_retired_tool_is_a_stale_tool_schema_error() {
    let e = reject("lookup", json!({"id": "x"}));
    assert_eq!(e.code, ErrorCode::StaleToolSchema);
    assert_eq!(e.replacement.as_deref(), Some("get_item"));
    assert!(
        e.message.contains("use `get_item` instead"),
        "{}",
        e.message
    );
    assert!(e.fields.is_empty());
}

#[test]
fn a_tool_the_plan_does_not_know_passes_through() {
    let a = call("elsewhere", json!({"anything": 1}));
    assert_eq!(a, args(json!({"anything": 1})).unwrap());
}

#[test]
fn missing_arguments_are_an_empty_object() {
    match Compat::new(plan()).prepare("order", None) {
        Prepared::Call(a) => assert_eq!(a, args(json!({"currency": "EUR"})).unwrap()),
        Prepared::Reject(e) => panic!("{e}"),
    }
}

#[test]
fn the_error_is_a_tool_execution_error_with_structured_content() {
    let e = reject("order", json!({"note": "x"}));
    let result = e.to_call_result();
    assert_eq!(result["isError"], json!(true));
    assert!(result.get("error").is_none());
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.ends_with("Nothing was executed."), "{text}");
    let sc = &result["structuredContent"];
    assert_eq!(sc["error_code"], "RESERVED_FIELD");
    assert_eq!(sc["tool"], "order");
    assert_eq!(sc["required_action"], "refresh_tools");
    assert_eq!(sc["side_effect_started"], json!(false));
    assert_eq!(sc["contract_revision"], REVISION);
    assert_eq!(sc["replacement"], "instructions");
    assert_eq!(sc["fields"], json!(["note"]));
}

#[test]
fn error_codes_are_the_documented_strings() {
    let all: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(
        all,
        [
            "STALE_TOOL_SCHEMA",
            "CONFLICTING_ALIASES",
            "RESERVED_FIELD",
            "UNKNOWN_FIELD",
            "INVALID_ARGUMENTS"
        ]
    );
}

#[derive(Default)]
struct Capture(Mutex<Vec<(String, Usage)>>);

impl DeprecationHook for Capture {
    fn record(&self, tool: &str, usage: &Usage, _caller: &Caller<'_>) {
        self.0
            .lock()
            .unwrap()
            .push((tool.to_string(), usage.clone()));
    }
}

#[test]
fn telemetry_counts_each_compatibility_path() {
    let counter = Arc::new(HitCounter::new());
    let compat = Compat::new(plan()).with_hook(counter.clone());
    compat.prepare("search", args(json!({"query": "a"})));
    compat.prepare("search", args(json!({"query": "b"})));
    compat.prepare("search", args(json!({"search_text": "c"})));
    compat.prepare("order", args(json!({"lines": []})));
    compat.prepare("order", args(json!({"lines": [], "currency": "USD"})));
    compat.prepare("order", args(json!({"note": "n"})));
    compat.prepare("report", args(json!({"body": "b"})));
    compat.prepare("lookup", None);
    assert_eq!(counter.get("search", "field:query"), 2);
    assert_eq!(counter.get("order", "default:currency"), 1);
    assert_eq!(counter.get("order", "rejected:RESERVED_FIELD"), 1);
    assert_eq!(counter.get("report", "tool:report_v2"), 1);
    assert_eq!(counter.get("lookup", "rejected:STALE_TOOL_SCHEMA"), 1);
    let total: u64 = counter.snapshot().iter().map(|(_, _, n)| n).sum();
    assert_eq!(total, 6, "{:?}", counter.snapshot());
}

#[test]
fn telemetry_never_sees_argument_values() {
    let capture = Arc::new(Capture::default());
    let compat = Compat::new(plan()).with_hook(capture.clone());
    let secret = "s3cret-value-4711";
    compat.prepare("search", args(json!({"query": secret})));
    compat.prepare(
        "search",
        args(json!({"query": secret, "search_text": "other"})),
    );
    compat.prepare("order", args(json!({"note": secret})));
    let seen = capture.0.lock().unwrap();
    assert_eq!(seen.len(), 3);
    for (tool, usage) in seen.iter() {
        let shown = format!("{tool} {usage:?} {}", usage.key());
        assert!(!shown.contains(secret), "{shown}");
    }
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-z_]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{0,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    /// Any arguments (including the alias, reserved and default names with
    /// any values) give a decision, never a panic, and an accepted call
    /// never hands the handler a deprecated or reserved name.
    #[test]
    fn never_panics_and_never_leaks_old_names(
        tool in prop_oneof![Just("search"), Just("order"), Just("report"), Just("open"), Just("lookup"), Just("x")],
        base in prop::collection::btree_map(
            prop_oneof![Just("query".to_string()), Just("search_text".to_string()), Just("note".to_string()), Just("currency".to_string()), "[a-z_]{1,6}"],
            arb_json(), 0..5),
    ) {
        let map: Map<String, Value> = base.into_iter().collect();
        match Compat::new(plan()).prepare(tool, Some(map)) {
            Prepared::Call(a) => {
                if tool == "search" { prop_assert!(!a.contains_key("query")); }
                if tool == "order" {
                    prop_assert!(!a.contains_key("note"));
                    prop_assert!(a.contains_key("currency"));
                }
            }
            Prepared::Reject(e) => {
                prop_assert!(e.message.ends_with("Nothing was executed."));
                prop_assert_eq!(e.to_call_result()["isError"].clone(), json!(true));
            }
        }
    }
}
