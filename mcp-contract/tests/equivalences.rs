//! Forms that validate the same values must compare as "no change", and
//! references must be followed to any depth without looping.

use mcp_contract::diff::{diff_schema, Direction};
use serde_json::{json, Value};

fn changes(old: Value, new: Value) -> Vec<(&'static str, String)> {
    diff_schema(&old, &new, Direction::Input, "t")
        .into_iter()
        .map(|c| (c.rule, c.pointer))
        .collect()
}

#[test]
fn same_values_different_spelling_is_no_change() {
    let kind = json!({"type": "string", "enum": ["a", "b"]});
    let cases = [
        // a type moved into $defs
        (
            json!({"type": "object", "properties": {"kind": kind}}),
            json!({"type": "object", "properties": {"kind": {"$ref": "#/$defs/Kind"}}, "$defs": {"Kind": kind}}),
        ),
        // a renamed $defs key with the same shape
        (
            json!({"type": "object", "properties": {"kind": {"$ref": "#/$defs/Kind"}}, "$defs": {"Kind": kind}}),
            json!({"type": "object", "properties": {"kind": {"$ref": "#/$defs/Category"}}, "$defs": {"Category": kind}}),
        ),
        // draft-07 definitions vs 2020-12 $defs
        (
            json!({"properties": {"k": {"$ref": "#/definitions/K"}}, "definitions": {"K": kind}}),
            json!({"properties": {"k": {"$ref": "#/$defs/K"}}, "$defs": {"K": kind}}),
        ),
        // nullable spellings
        (
            json!({"type": ["string", "null"]}),
            json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
        ),
        (
            json!({"type": ["string", "null"]}),
            json!({"oneOf": [{"type": "null"}, {"type": "string"}]}),
        ),
        // Option<Struct> as schemars writes it vs an inlined nullable object
        (
            json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}], "$defs": {"S": {"type": "object", "properties": {"x": {"type": "integer"}}}}}),
            json!({"type": ["object", "null"], "properties": {"x": {"type": "integer"}}}),
        ),
        // boolean schemas
        (
            json!({"properties": {"a": true}}),
            json!({"properties": {"a": {}}}),
        ),
        // allOf that merges without conflict
        (
            json!({"allOf": [{"type": "object"}, {"required": ["a"]}]}),
            json!({"type": "object", "required": ["a"]}),
        ),
        // required order and duplicates
        (
            json!({"required": ["b", "a"]}),
            json!({"required": ["a", "b", "a"]}),
        ),
        // anyOf branches in another order
        (
            json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}),
            json!({"anyOf": [{"type": "integer"}, {"type": "string"}]}),
        ),
        // const vs one-value enum
        (json!({"const": "x"}), json!({"enum": ["x"]})),
    ];
    for (old, new) in cases {
        let got = changes(old.clone(), new.clone());
        assert!(
            got.is_empty(),
            "expected no change:\nold {old}\nnew {new}\ngot {got:?}"
        );
    }
}

fn tree(leaf_type: &str) -> Value {
    json!({
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {
            "value": {"type": leaf_type},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            "parent": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}
        }}}
    })
}

#[test]
fn recursive_schemas_terminate_and_changes_inside_are_found() {
    assert!(changes(tree("string"), tree("string")).is_empty());
    let got = changes(tree("number"), tree("integer"));
    assert!(
        got.iter().any(|(rule, ptr)| *rule == "input.type-narrowed"
            && ptr == "/inputSchema/properties/root/properties/value/type"),
        "{got:?}"
    );
}

#[test]
fn references_are_followed_to_any_depth() {
    // a chain of 40 definitions, each pointing at the next
    let build = |leaf: &str| {
        let mut defs = serde_json::Map::new();
        for i in 0..40 {
            defs.insert(format!("D{i}"), json!({"type": "object", "properties": {"next": {"$ref": format!("#/$defs/D{}", i + 1)}}}));
        }
        defs.insert("D40".into(), json!({"type": leaf}));
        json!({"$ref": "#/$defs/D0", "$defs": defs})
    };
    let got = changes(build("number"), build("integer"));
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].1.ends_with("/next/type"), "{got:?}");
}

#[test]
fn shared_definitions_do_not_blow_up() {
    // each level references the next twice: 2^30 paths if expanded naively
    let build = |leaf: &str| {
        let mut defs = serde_json::Map::new();
        for i in 0..30 {
            let next = format!("#/$defs/L{}", i + 1);
            defs.insert(
                format!("L{i}"),
                json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
            );
        }
        defs.insert("L30".into(), json!({"type": leaf}));
        json!({"$ref": "#/$defs/L0", "$defs": defs})
    };
    let got = changes(build("number"), build("integer"));
    assert!(!got.is_empty());
}

#[test]
fn deep_but_legal_nesting_does_not_overflow() {
    // 60 nested objects: within serde_json's nesting limit, deep for a schema
    let nest = |leaf: &str| {
        let mut v = json!({"type": leaf});
        for _ in 0..60 {
            v = json!({"type": "object", "properties": {"x": v}});
        }
        v
    };
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || changes(nest("number"), nest("integer")).len())
        .unwrap();
    assert_eq!(handle.join().unwrap(), 1);
}

#[test]
fn the_input_root_only_ever_receives_objects() {
    // `arguments` are objects by protocol: declaring `type: object` at the
    // input root (or dropping it) changes nothing callers see
    assert!(changes(json!({}), json!({"type": "object"})).is_empty());
    // `structuredContent` may be any value since MCP 2026-07-28: an output
    // root that stops promising an object is compared like any other node
    let out = diff_schema(
        &json!({"type": "object"}),
        &json!({}),
        Direction::Output,
        "t",
    );
    assert_eq!(
        out.iter().map(|c| c.rule).collect::<Vec<_>>(),
        vec!["output.type-widened"]
    );
    // one level down it does matter
    let got = changes(
        json!({"properties": {"a": {}}}),
        json!({"properties": {"a": {"type": "object"}}}),
    );
    assert_eq!(
        got,
        vec![(
            "input.type-narrowed",
            "/inputSchema/properties/a/type".to_string()
        )]
    );
}
