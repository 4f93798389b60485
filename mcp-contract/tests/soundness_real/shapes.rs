//! Seeds built here in the shapes serde + schemars 1.x publish (and MCP
//! 2026-07-28 allows for outputs), for what the real artifacts rarely hold:
//! every integer width through `format` with `minimum` beside, `Option<T>`
//! in both spellings, enums as `oneOf`/`anyOf` with `$ref` struct variants,
//! non-object roots (array, string, integer, `oneOf`, tuple, nullable,
//! recursive `$ref: "#"`), and the keywords the mutations otherwise only
//! add: `contains`/`minContains`, `prefixItems`, `patternProperties` with
//! `unevaluatedProperties`, `propertyNames`, `dependentRequired`,
//! `dependentSchemas`, `if`/`then`/`else`, bounds beyond 2^53.

use serde_json::{json, Map, Value};

use super::widths::WIDTHS;

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

fn width_field(format: &str) -> Value {
    let mut m = Map::new();
    let float = format == "float" || format == "double";
    m.insert(
        "type".into(),
        json!(if float { "number" } else { "integer" }),
    );
    m.insert("format".into(), json!(format));
    if format.starts_with('u') {
        m.insert("minimum".into(), json!(0));
    }
    Value::Object(m)
}

/// `(name, schema)` for every built-in shape.
pub fn all() -> Vec<(&'static str, Value)> {
    let mut widths = Map::new();
    for f in WIDTHS {
        widths.insert(format!("w_{f}"), width_field(f));
    }
    let required: Vec<&String> = widths.keys().collect();
    let widths = json!({"$schema": DRAFT, "title": "Widths", "type": "object", "properties": widths, "required": required});

    let payment = json!({
        "$schema": DRAFT, "title": "Order", "type": "object",
        "properties": {
            "id": {"type": "integer", "format": "uint64", "minimum": 0},
            "payment": {"$ref": "#/$defs/Payment"},
            "shipping": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]},
            "note": {"type": ["string", "null"]},
            "qty": {"type": ["integer", "null"], "format": "uint16", "minimum": 0}
        },
        "required": ["id", "payment"],
        "$defs": {
            "Payment": {"oneOf": [
                {"type": "string", "enum": ["Cash", "Invoice"]},
                {"type": "object", "properties": {"Card": {"$ref": "#/$defs/Card"}}, "required": ["Card"], "additionalProperties": false},
                {"type": "object", "properties": {"Transfer": {"type": "object", "properties": {"iban": {"type": "string"}}, "required": ["iban"]}}, "required": ["Transfer"], "additionalProperties": false}
            ]},
            "Card": {"type": "object", "properties": {"number": {"type": "string", "pattern": "^[0-9]{2,4}$"}, "cvc": {"type": "integer", "format": "uint16", "minimum": 0}}, "required": ["number"]},
            "Address": {"type": "object", "properties": {"street": {"type": "string"}, "zip": {"type": "integer", "format": "uint32", "minimum": 0}}, "required": ["street"]}
        }
    });

    let tagged = json!({
        "$schema": DRAFT, "title": "Event",
        "oneOf": [
            {"type": "object", "properties": {"kind": {"type": "string", "const": "created"}, "at": {"type": "integer", "format": "int64"}}, "required": ["kind", "at"]},
            {"type": "object", "properties": {"kind": {"type": "string", "const": "moved"}, "to": {"$ref": "#/$defs/Place"}}, "required": ["kind", "to"]},
            {"allOf": [{"$ref": "#/$defs/Place"}], "properties": {"kind": {"const": "placed"}}, "required": ["kind"]}
        ],
        "$defs": {"Place": {"type": "object", "properties": {"x": {"type": "integer", "format": "int32"}, "y": {"type": "integer", "format": "int32"}}, "required": ["x", "y"]}}
    });

    let untagged = json!({
        "$schema": DRAFT, "title": "Value",
        "anyOf": [{"$ref": "#/$defs/Small"}, {"type": "string"}, {"type": "array", "items": {"$ref": "#/$defs/Small"}}],
        "$defs": {"Small": {"type": "integer", "format": "uint8", "minimum": 0}}
    });

    let keywords = json!({
        "$schema": DRAFT, "title": "Keywords", "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}, "contains": {"const": "a"}, "minContains": 0},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer", "format": "int16"}], "items": false, "minItems": 2, "maxItems": 2},
            "labels": {"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "unevaluatedProperties": false},
            "meta": {"type": "object", "additionalProperties": {"type": "integer", "format": "uint32", "minimum": 0}, "propertyNames": {"maxLength": 6}},
            "big": {"type": "integer", "format": "uint64", "minimum": 0, "maximum": 9007199254740993u64},
            "a": {"type": "string"},
            "b": {"type": "string"},
            "step": {"type": "integer", "format": "int32", "multipleOf": 5},
            "set": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
            "both": {"allOf": [{"$ref": "#/$defs/Named"}, {"required": ["id"], "properties": {"id": {"type": "integer", "format": "uint8", "minimum": 0}}}]}
        },
        "$defs": {"Named": {"type": "object", "properties": {"name": {"type": "string", "minLength": 1}}, "required": ["name"]}},
        "dependentRequired": {"a": ["b"]},
        "dependentSchemas": {"b": {"properties": {"big": {"maximum": 100}}}},
        "if": {"properties": {"a": {"const": "foo"}}, "required": ["a"]},
        "then": {"required": ["tags"]},
        "else": {"properties": {"tags": {"maxItems": 3}}}
    });

    vec![
        ("widths", widths),
        ("order-with-enum-variants", payment),
        ("internally-tagged", tagged),
        ("untagged", untagged),
        ("keywords", keywords),
        (
            "root-array-of-refs",
            json!({"$schema": DRAFT, "type": "array", "items": {"$ref": "#/$defs/Item"}, "$defs": {"Item": {"type": "object", "properties": {"id": {"type": "integer", "format": "uint32", "minimum": 0}, "name": {"type": "string"}}, "required": ["id"]}}}),
        ),
        (
            "root-string-enum",
            json!({"$schema": DRAFT, "type": "string", "enum": ["low", "high"]}),
        ),
        (
            "root-integer",
            json!({"$schema": DRAFT, "type": "integer", "format": "uint16", "minimum": 0}),
        ),
        (
            "root-number-float",
            json!({"$schema": DRAFT, "type": "number", "format": "float"}),
        ),
        (
            "root-oneOf",
            json!({"$schema": DRAFT, "oneOf": [{"type": "string", "const": "none"}, {"type": "object", "properties": {"Some": {"type": "integer", "format": "int8"}}, "required": ["Some"], "additionalProperties": false}]}),
        ),
        (
            "root-tuple",
            json!({"$schema": DRAFT, "type": "array", "prefixItems": [{"type": "integer", "format": "int32"}, {"type": ["string", "null"]}], "minItems": 2, "maxItems": 2}),
        ),
        (
            "root-nullable",
            json!({"$schema": DRAFT, "type": ["string", "null"], "maxLength": 8}),
        ),
        (
            "root-recursive-items",
            json!({"type": "array", "items": {"oneOf": [{"$ref": "#"}, {"type": "integer"}]}}),
        ),
        (
            "root-recursive-allOf",
            json!({"allOf": [{"anyOf": [{"$ref": "#"}, {"type": "integer"}]}], "type": ["array", "integer"], "items": {"$ref": "#"}}),
        ),
        (
            "recursive-defs",
            json!({"$schema": DRAFT, "$ref": "#/$defs/Tree", "$defs": {"Tree": {"type": "object", "properties": {"value": {"type": "integer", "format": "int64"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}, "required": ["value"]}}}),
        ),
    ]
}
