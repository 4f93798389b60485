use serde_json::{json, Value};

use super::eval::{accepts, Outcome};
use super::{Draft, Graph};

fn check(doc: Value, draft: Draft, cases: &[(Value, bool)]) {
    let mut g = Graph::new();
    let root = g.add(&doc, draft);
    for (v, want) in cases {
        let got = accepts(&g, root, v);
        assert_eq!(got.known(), Some(*want), "{doc} on {v}: {got:?}");
    }
}

#[test]
fn draft04_integer_is_written_without_a_fraction() {
    check(
        json!({"type": "integer"}),
        Draft::D4,
        &[(json!(1), true), (json!(1.0), false), (json!(1.5), false)],
    );
    check(
        json!({"type": "integer"}),
        Draft::D2020,
        &[(json!(1), true), (json!(1.0), true), (json!(1.5), false)],
    );
    check(
        json!({"enum": [1, 2], "type": "integer"}),
        Draft::D4,
        &[(json!(1), true), (json!(3), false), (json!(true), false)],
    );
}

#[test]
fn references_anchors_and_bases() {
    check(
        json!({"$id": "http://x.test/root.json", "properties": {
            "a": {"$ref": "item.json"}, "b": {"$ref": "#foo"}, "c": {"$ref": "#/$defs/n"}},
            "$defs": {"i": {"$id": "item.json", "type": "string"},
                      "f": {"$anchor": "foo", "type": "integer"},
                      "n": {"type": "null"}}}),
        Draft::D2020,
        &[
            (json!({"a": "x", "b": 1, "c": null}), true),
            (json!({"a": 1}), false),
            (json!({"b": "x"}), false),
            (json!({"c": 0}), false),
        ],
    );
    // draft-07: keywords beside `$ref` are ignored
    check(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {"s": {"type": "string"}},
               "properties": {"a": {"$ref": "#/definitions/s", "maxLength": 1}}}),
        Draft::D2020,
        &[(json!({"a": "long"}), true), (json!({"a": 1}), false)],
    );
}

#[test]
fn dynamic_references_bind_the_outermost_anchor() {
    // the specification's generic list: the root binds `T` to strings of length 1
    let doc = json!({
        "$id": "https://x.test/root",
        "$ref": "list",
        "$defs": {
            "t": {"$dynamicAnchor": "T", "maxLength": 1},
            "list": {"$id": "list", "type": "array", "items": {"$dynamicRef": "#T"},
                     "$defs": {"default": {"$dynamicAnchor": "T"}}}
        }
    });
    check(
        doc,
        Draft::D2020,
        &[(json!(["a"]), true), (json!(["ab"]), false)],
    );
}

#[test]
fn unevaluated_properties_see_through_all_of_and_refs() {
    let doc = json!({"properties": {"id": {}}, "allOf": [{"$ref": "#/$defs/A"}],
                     "unevaluatedProperties": false,
                     "$defs": {"A": {"properties": {"a": {}}}}});
    check(
        doc,
        Draft::D2020,
        &[
            (json!({"id": 1, "a": 2}), true),
            (json!({"id": 1, "b": 2}), false),
        ],
    );
    let doc = json!({"anyOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"b": {}}}],
                     "unevaluatedProperties": false});
    check(
        doc,
        Draft::D2020,
        &[
            (json!({"a": "x", "b": 1}), true),
            // the first branch fails on `a`: nothing evaluated it
            (json!({"a": 1, "b": 1}), false),
            (json!({"a": 1, "c": 1}), false),
        ],
    );
}

#[test]
fn dependencies_split_and_tuples() {
    check(
        json!({"dependencies": {"k": ["a"], "c": {"required": ["d"]}}, "items": [{"type": "string"}], "additionalItems": false}),
        Draft::D7,
        &[
            (json!({"k": 1}), false),
            (json!({"k": 1, "a": 2}), true),
            (json!({"c": 1}), false),
            (json!(["a"]), true),
            (json!(["a", "b"]), false),
            (json!([1]), false),
        ],
    );
}

#[test]
fn facts() {
    let doc = json!({"anyOf": [{"const": 1}, {"enum": ["a", "b"]}], "$defs": {}});
    let mut g = Graph::new();
    let root = g.add(&doc, Draft::D2020);
    assert_eq!(g.finite(root).map(<[Value]>::len), Some(3));
    let doc2 = json!({"anyOf": [{"const": 1.0}, {"enum": ["a", "b"]}]});
    let r2 = g.add(&doc2, Draft::D2020);
    assert!(super::facts::same(&g, root, r2));
    assert!(!g.accepts_nothing(root));
    let never = json!({"allOf": [{"type": "string"}, {"type": "integer"}]});
    let r3 = g.add(&never, Draft::D2020);
    assert!(g.accepts_nothing(r3));
}

#[test]
fn unresolved_references_are_not_known() {
    let doc = json!({"$ref": "https://elsewhere.test/x.json"});
    let mut g = Graph::new();
    let root = g.add(&doc, Draft::D2020);
    assert!(matches!(accepts(&g, root, &json!(1)), Outcome::Unknown(_)));
}
