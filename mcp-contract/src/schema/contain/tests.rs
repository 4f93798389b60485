use serde_json::{json, Value};

use super::{Decider, Decision};
use crate::schema::graph::{eval::accepts, Draft, Graph};
use crate::schema::types::TypeSet;

/// Decides `a ⊆ b` (both read in `draft`).
fn decide(a: &Value, b: &Value, draft: Draft) -> Decision {
    let mut g = Graph::new();
    let ra = g.add(a, draft);
    let rb = g.add(b, draft);
    let d = Decider::new(&g).contained(ra, rb, TypeSet::ALL);
    if let Decision::NotContained { witness, .. } = &d {
        assert!(
            accepts(&g, ra, witness).is_valid(),
            "{a} must accept {witness}"
        );
        assert!(
            !accepts(&g, rb, witness).is_valid(),
            "{b} must reject {witness}"
        );
    }
    d
}

fn contained(a: Value, b: Value) {
    let d = decide(&a, &b, Draft::D2020);
    assert_eq!(d, Decision::Contained, "{a} ⊆ {b}");
}

fn not_contained(a: Value, b: Value) -> Value {
    match decide(&a, &b, Draft::D2020) {
        Decision::NotContained { witness, .. } => witness,
        other => panic!("{a} ⊄ {b} expected, got {other:?}"),
    }
}

#[test]
fn numbers() {
    contained(
        json!({"type": "integer"}),
        json!({"type": "number", "multipleOf": 1}),
    );
    contained(
        json!({"type": "number", "multipleOf": 1}),
        json!({"type": "integer"}),
    );
    contained(
        json!({"type": "integer", "exclusiveMinimum": 0}),
        json!({"type": "integer", "minimum": 1}),
    );
    not_contained(
        json!({"type": "number", "exclusiveMinimum": 0}),
        json!({"minimum": 1}),
    );
    contained(json!({"multipleOf": 4}), json!({"multipleOf": 2}));
    not_contained(json!({"multipleOf": 2}), json!({"multipleOf": 4}));
    contained(
        json!({"type": "integer", "minimum": 1, "maximum": 3, "not": {"enum": [2]}}),
        json!({"enum": [1, 3]}),
    );
    not_contained(
        json!({"type": "integer", "minimum": 1, "maximum": 4, "not": {"enum": [2]}}),
        json!({"enum": [1, 3]}),
    );
    contained(
        json!({"type": "number", "multipleOf": 0.1, "minimum": 0.25, "maximum": 0.35}),
        json!({"const": 0.3}),
    );
}

#[test]
fn strings() {
    contained(
        json!({"type": "string", "pattern": "^[a-z]+$"}),
        json!({"type": "string", "pattern": "^[a-z0-9]+$"}),
    );
    not_contained(
        json!({"type": "string", "pattern": "^[a-z0-9]+$"}),
        json!({"pattern": "^[a-z]+$"}),
    );
    contained(
        json!({"type": "string", "pattern": "^[ab]+$", "maxLength": 3, "minLength": 3}),
        json!({"pattern": "^[a-c]{3}$"}),
    );
    // ECMA's `.` does not match a line break
    let w = not_contained(
        json!({"type": "string", "maxLength": 1, "minLength": 1}),
        json!({"pattern": "^.$"}),
    );
    assert_eq!(w, json!("\n"));
    let w = not_contained(
        json!({"type": "string", "maxLength": 5}),
        json!({"type": "string", "maxLength": 3}),
    );
    assert_eq!(w.as_str().map(|s| s.chars().count()), Some(4));
    contained(
        json!({"enum": ["a", "bb"]}),
        json!({"type": "string", "maxLength": 2}),
    );
}

#[test]
fn objects() {
    contained(
        json!({"type": "object", "properties": {"a": {}, "b": {}, "c": {}}, "additionalProperties": false, "maxProperties": 5}),
        json!({"type": "object", "properties": {"a": {}, "b": {}, "c": {}}, "additionalProperties": false, "maxProperties": 3}),
    );
    not_contained(
        json!({"type": "object", "properties": {"a": {"type": "string"}}}),
        json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": 1}}}),
    );
    contained(
        json!({"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}}),
        json!({"type": "object", "properties": {"a": {"type": "number"}}}),
    );
    not_contained(
        json!({"type": "object"}),
        json!({"type": "object", "required": ["a"]}),
    );
    contained(
        json!({"propertyNames": {"enum": ["only"]}, "properties": {"only": {}}}),
        json!({"propertyNames": {"maxLength": 4}}),
    );
    // a name required only through dependentRequired
    let w = not_contained(
        json!({"type": "object", "properties": {"k": {}}, "dependentRequired": {"k": ["a"]}}),
        json!({"type": "object", "properties": {"k": {}, "a": {"type": "integer"}}, "dependentRequired": {"k": ["a"]}}),
    );
    assert!(w.get("a").is_some());
}

#[test]
fn arrays() {
    contained(
        json!({"type": "array", "contains": {"type": "integer"}, "maxContains": 1, "maxItems": 1}),
        json!({"type": "array", "maxItems": 1}),
    );
    contained(
        json!({"type": "array", "maxItems": 1}),
        json!({"type": "array", "uniqueItems": true}),
    );
    not_contained(
        json!({"type": "array", "maxItems": 2}),
        json!({"type": "array", "uniqueItems": true}),
    );
    contained(
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false}),
        json!({"type": "array", "maxItems": 1}),
    );
    not_contained(
        json!({"type": "array", "items": {"type": "integer"}}),
        json!({"type": "array", "contains": {"type": "integer"}}),
    );
}

#[test]
fn conditionals_and_alternatives() {
    let i = json!({"properties": {"k": {"const": "a"}}, "required": ["k"]});
    let t = json!({"required": ["x"]});
    contained(
        json!({"if": i, "then": t}),
        json!({"anyOf": [{"not": i}, t]}),
    );
    contained(
        json!({"anyOf": [{"not": i}, t]}),
        json!({"if": i, "then": t}),
    );
    contained(
        json!(true),
        json!({"anyOf": [{"minLength": 2}, {"not": {"minLength": 2}}]}),
    );
    contained(
        json!({"allOf": [{"minLength": 2}, {"not": {"minLength": 2}}]}),
        json!(false),
    );
    not_contained(
        json!({"oneOf": [{"type": "string"}, {"minLength": 1}]}),
        json!({"type": "integer"}),
    );
}

#[test]
fn recursion_is_decided_coinductively() {
    let tree = json!({"$defs": {"n": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/n"}}}}}, "$ref": "#/$defs/n"});
    contained(tree.clone(), tree.clone());
    let narrower = json!({"$defs": {"n": {"type": "object", "properties": {"kids": {"type": "array", "maxItems": 2, "items": {"$ref": "#/$defs/n"}}}}}, "$ref": "#/$defs/n"});
    contained(narrower.clone(), tree.clone());
    let w = not_contained(tree, narrower);
    assert!(w.to_string().contains("kids"));
}

#[test]
fn draft04_enum_with_integer_type() {
    let d = decide(
        &json!({"enum": [1, 2], "type": "integer"}),
        &json!({"type": "boolean"}),
        Draft::D4,
    );
    assert!(matches!(d, Decision::NotContained { .. }), "{d:?}");
}

/// schemars' `enum Expr { Lit(Literal), Not(Box<Expr>), All(Vec<Expr>) }`.
fn expr(lit_max: Option<u64>, any: bool) -> Value {
    let mut string = json!({"type": "string"});
    if let Some(m) = lit_max {
        string["maxLength"] = json!(m);
    }
    let variant = |name: &str, schema: Value| json!({"type": "object", "properties": {name: schema}, "required": [name], "additionalProperties": false});
    let mut variants = vec![
        variant("Lit", json!({"$ref": "#/$defs/Literal"})),
        variant("Not", json!({"$ref": "#/$defs/Expr"})),
        variant(
            "All",
            json!({"type": "array", "items": {"$ref": "#/$defs/Expr"}}),
        ),
    ];
    if any {
        variants.push(variant(
            "Any",
            json!({"type": "array", "items": {"$ref": "#/$defs/Expr"}}),
        ));
    }
    json!({"type": "object", "properties": {"filter": {"$ref": "#/$defs/Expr"}}, "required": ["filter"],
        "$defs": {"Expr": {"oneOf": variants},
            "Literal": {"oneOf": [string, {"type": "integer", "format": "int64"}, {"type": "boolean"}]}}})
}

#[test]
fn recursive_enums_are_decided() {
    contained(expr(None, false), expr(None, true));
    let w = not_contained(expr(None, true), expr(None, false));
    assert!(w.to_string().contains("Any"), "{w}");
    let w = not_contained(expr(None, false), expr(Some(10), false));
    assert!(w.to_string().contains("Lit"), "{w}");
    contained(expr(Some(10), false), expr(None, false));
}
