//! The silent misses and false alarms the comparator had before its
//! verdicts were decided on the compiled graph (each with the schemas it
//! was found on), through the entry points `cargo mcp-contract diff`
//! uses; every witness is re-checked with the `jsonschema` validator.

use mcp_contract::load::surface_from_value;
use mcp_contract::{diff_surfaces, Change, Severity};
use serde_json::{json, Value};

fn tool(key: &str, schema: &Value) -> Value {
    match key {
        "inputSchema" => json!([{"name": "t", "inputSchema": schema}]),
        _ => json!([{"name": "t", "inputSchema": {"type": "object"}, "outputSchema": schema}]),
    }
}

/// The diff with the witness pass run, as `cargo mcp-contract diff` runs it.
fn diff(key: &str, old: &Value, new: &Value) -> Vec<Change> {
    let o = surface_from_value(&tool(key, old), "old.json").unwrap();
    let n = surface_from_value(&tool(key, new), "new.json").unwrap();
    let mut report = diff_surfaces(&o, &n);
    mcp_contract::witness::attach(&mut report, &o, &n, &Default::default());
    report.changes
}

/// Every breaking finding is backed by a witness the validator confirmed.
fn proven(changes: &[Change]) {
    for c in changes.iter().filter(|c| c.severity == Severity::Breaking) {
        assert!(
            c.proof.as_ref().is_some_and(|p| p.is_backed()),
            "{} at {} is not proven: {:?}",
            c.rule,
            c.pointer,
            c.proof
        );
    }
}

fn breaking(key: &str, old: &Value, new: &Value) -> Vec<(&'static str, String)> {
    diff(key, old, new)
        .into_iter()
        .filter(|c| c.severity == Severity::Breaking)
        .map(|c| (c.rule, c.pointer))
        .collect()
}

/// `witness` is accepted by `accepting` and rejected by `rejecting` (the
/// validator the witness pass uses, formats asserted).
fn shows(witness: &Value, accepting: &Value, rejecting: &Value) {
    let v = |s: &Value| {
        jsonschema::options()
            .should_validate_formats(true)
            .build(s)
            .unwrap()
    };
    assert!(
        v(accepting).is_valid(witness),
        "{accepting} must accept {witness}"
    );
    assert!(
        !v(rejecting).is_valid(witness),
        "{rejecting} must reject {witness}"
    );
}

fn input_breaks(old: Value, new: Value, witness: Value) {
    let got = breaking("inputSchema", &old, &new);
    assert!(!got.is_empty(), "{old} -> {new}: no breaking finding");
    proven(&diff("inputSchema", &old, &new));
    shows(&witness, &old, &new);
}

fn output_breaks(old: Value, new: Value, witness: Value) {
    let got = breaking("outputSchema", &old, &new);
    assert!(!got.is_empty(), "{old} -> {new}: no breaking finding");
    proven(&diff("outputSchema", &old, &new));
    shows(&witness, &new, &old);
}

fn no_break(key: &str, old: Value, new: Value) {
    let got = breaking(key, &old, &new);
    assert!(got.is_empty(), "{old} -> {new}: {got:?}");
}

#[test]
fn a_default_beside_a_ref_to_an_enum_is_compared() {
    let doc = |default: &str, key: Value| {
        json!({"type": "object", "properties": {"sort": {"$ref": "#/$defs/SortKey", "default": default}},
               "$defs": {"SortKey": key}})
    };
    for key in [
        json!({"type": "string", "enum": ["created", "updated"]}),
        json!({"type": "string"}),
    ] {
        let changes = diff(
            "inputSchema",
            &doc("updated", key.clone()),
            &doc("created", key.clone()),
        );
        assert!(
            changes.iter().any(|c| c.rule == "input.default-changed"
                && c.pointer == "/inputSchema/properties/sort/default"),
            "{key}: {changes:?}"
        );
    }
}

#[test]
fn draft04_enum_beside_integer_type_accepts_its_values() {
    let d4 = |s: Value| {
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object",
               "properties": {"x": s}, "required": ["x"]})
    };
    let old = d4(json!({"enum": [1, 2], "type": "integer"}));
    input_breaks(old.clone(), d4(json!({"type": "boolean"})), json!({"x": 1}));
    input_breaks(
        old,
        d4(json!({"enum": [true], "type": "boolean"})),
        json!({"x": 1}),
    );
    input_breaks(
        d4(json!({"enum": [1, 2, 3], "type": "integer"})),
        d4(json!({"allOf": [{"enum": [1, 2, 3]}, {"type": "integer"}], "enum": [3, 4, 5]})),
        json!({"x": 1}),
    );
}

#[test]
fn unevaluated_properties_false_closes_what_all_of_and_refs_evaluate() {
    let out = |a: Value| {
        json!({"type": "object", "properties": {"id": {"type": "string"}},
               "allOf": [{"$ref": "#/$defs/A"}], "unevaluatedProperties": false,
               "$defs": {"A": a}})
    };
    output_breaks(
        out(json!({"properties": {"a": {"type": "string"}}})),
        out(json!({"properties": {"a": {"type": "string"}, "b": {"type": "string"}}})),
        json!({"id": "1", "a": "x", "b": "y"}),
    );
    let input = |branch: Value| {
        json!({"type": "object", "properties": {"o": {"type": "object", "allOf": [branch],
               "unevaluatedProperties": false}}})
    };
    input_breaks(
        input(json!({"properties": {"x": {"type": "string"}, "y": {"type": "string"}}})),
        input(json!({"properties": {"x": {"type": "string"}}})),
        json!({"o": {"x": "1", "y": "2"}}),
    );
    // tuples through `$ref` under `unevaluatedItems: false`
    let tuple = |items: Value| {
        json!({"type": "object", "properties": {"t": {"type": "array", "$ref": "#/$defs/T",
               "unevaluatedItems": false}}, "$defs": {"T": {"prefixItems": items}}})
    };
    input_breaks(
        tuple(json!([{"type": "string"}, {"type": "string"}])),
        tuple(json!([{"type": "string"}])),
        json!({"t": ["a", "b"]}),
    );
}

#[test]
fn dynamic_references_bound_by_several_anchors_are_followed() {
    let doc = |root_anchor: Value| {
        json!({"$id": "https://example.test/root", "type": "object",
               "properties": {"l": {"$ref": "list"}},
               "$defs": {
                   "string": root_anchor,
                   "list": {"$id": "list", "type": "array", "items": {"$dynamicRef": "#T"},
                            "$defs": {"default": {"$dynamicAnchor": "T"}}}}})
    };
    input_breaks(
        doc(json!({"$dynamicAnchor": "T", "type": "string"})),
        doc(json!({"$dynamicAnchor": "T", "type": "string", "maxLength": 1})),
        json!({"l": ["ab"]}),
    );
}

#[test]
fn a_name_required_only_through_dependent_required_is_declared() {
    let doc = |a: Option<Value>| {
        let mut d =
            json!({"type": "object", "properties": {"k": {}}, "dependentRequired": {"k": ["a"]}});
        if let Some(a) = a {
            d["properties"]["a"] = a;
        }
        d
    };
    input_breaks(
        doc(None),
        doc(Some(json!({"type": "integer"}))),
        json!({"k": 1, "a": "x"}),
    );
    let d7 = |a: Option<Value>| {
        let mut d = json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                           "properties": {"k": {}}, "dependencies": {"k": ["a"]}});
        if let Some(a) = a {
            d["properties"]["a"] = a;
        }
        d
    };
    input_breaks(
        d7(None),
        d7(Some(json!({"type": "integer"}))),
        json!({"k": 1, "a": "x"}),
    );
}

#[test]
fn spellings_that_accept_the_same_values_are_no_break() {
    let field = |s: Value| json!({"type": "object", "properties": {"n": s}});
    for (a, b) in [
        (
            json!({"type": "integer"}),
            json!({"type": "number", "multipleOf": 1}),
        ),
        (
            json!({"type": "number", "multipleOf": 1}),
            json!({"type": "integer"}),
        ),
    ] {
        no_break("inputSchema", field(a.clone()), field(b.clone()));
        no_break("outputSchema", field(a), field(b));
    }
    let cond = json!({"properties": {"mode": {"const": "full"}}, "required": ["mode"]});
    let then = json!({"required": ["path"]});
    let if_then = json!({"type": "object", "properties": {"mode": {"type": "string"}, "path": {"type": "string"}},
                         "if": cond, "then": then});
    let any_of = json!({"type": "object", "properties": {"mode": {"type": "string"}, "path": {"type": "string"}},
                        "anyOf": [{"not": cond}, then]});
    no_break("inputSchema", if_then.clone(), any_of.clone());
    no_break("inputSchema", any_of.clone(), if_then.clone());
    no_break("outputSchema", if_then.clone(), any_of.clone());
    no_break("outputSchema", any_of, if_then);
}

#[test]
fn bounds_a_closed_object_makes_redundant_are_no_break() {
    let closed = |max: u64| {
        json!({"type": "object", "properties": {"o": {"type": "object",
               "properties": {"a": {}, "b": {}, "c": {}}, "additionalProperties": false,
               "maxProperties": max}}})
    };
    no_break("inputSchema", closed(5), closed(3));
    let names = |max: u64| {
        json!({"type": "object", "properties": {"o": {"type": "object",
               "properties": {"only": {}}, "additionalProperties": false,
               "propertyNames": {"maxLength": max}}}})
    };
    no_break("inputSchema", names(10), names(4));
    let contains = |extra: bool| {
        let mut a = json!({"type": "array", "maxItems": 1});
        if extra {
            a["contains"] = json!({"type": "integer"});
            a["maxContains"] = json!(1);
            a["minContains"] = json!(0);
        }
        json!({"type": "object", "properties": {"a": a}})
    };
    no_break("inputSchema", contains(false), contains(true));
}

#[test]
fn a_default_written_as_a_float_is_the_same_default() {
    let d =
        |v: Value| json!({"type": "object", "properties": {"n": {"type": "number", "default": v}}});
    let changes = diff("inputSchema", &d(json!(1)), &d(json!(1.0)));
    assert!(
        changes.iter().all(|c| c.rule != "input.default-changed"),
        "{changes:?}"
    );
}

#[test]
fn a_change_inside_an_alternative_a_catch_all_takes_is_no_break() {
    // mongodb-mcp-server 2.1.1 -> 3.0.4: pipeline stages `anyOf [$vectorSearch
    // stage, any object]`, only `limit` inside the first branch changed
    let doc = |limit: Value| {
        json!({"type": "object", "properties": {"pipeline": {"type": "array", "items": {"anyOf": [
            {"type": "object", "properties": {"$vectorSearch": {"type": "object",
                "properties": {"limit": limit}, "required": ["limit"]}}, "required": ["$vectorSearch"]},
            {"type": "object", "additionalProperties": {}}]}}}})
    };
    no_break(
        "inputSchema",
        doc(json!({"type": "integer"})),
        doc(json!({"type": "integer", "maximum": 10})),
    );
    no_break(
        "inputSchema",
        doc(json!({"type": "number"})),
        doc(json!({"type": "integer"})),
    );
}
