//! The literal reader against what `json!` builds: each expected value is
//! written with `serde_json::json!` from the same text the reader reads.

use serde_json::{json, Value};

use super::{body_schema, schema_of};

fn expr(text: &str) -> syn::Expr {
    syn::parse_str(text).unwrap_or_else(|e| panic!("`{text}` parses: {e}"))
}

fn read(text: &str) -> Result<Value, String> {
    let e = expr(text);
    schema_of(&e).map_err(|n| n.what)
}

#[test]
fn json_values_are_read_as_json_builds_them() {
    let text = r#"json_schema!({
        "type": "object",
        "additionalProperties": true,
        "properties": {"a": {"type": ["string", "null"], "default": null}},
        "x-numbers": [0, -1, 2.5, -0.5, 1e3, 7u64, -9i8, 1_000, 0x1f, 1.5f32, 0.1f32, 3f64],
        "x-strings": ["plain", "esc\"aped\n", r"raw\d", 'c'],
        "x-trailing": [1, 2,],
        "x-nested": {"deep": {"er": [[], {}]}},
        "dup": 1,
        "dup": 2,
    })"#;
    let expected = json!({
        "type": "object",
        "additionalProperties": true,
        "properties": {"a": {"type": ["string", "null"], "default": null}},
        "x-numbers": [0, -1, 2.5, -0.5, 1e3, 7u64, -9i8, 1_000, 0x1f, 1.5f32, 0.1f32, 3f64],
        "x-strings": ["plain", "esc\"aped\n", r"raw\d", 'c'],
        "x-trailing": [1, 2,],
        "x-nested": {"deep": {"er": [[], {}]}},
        "dup": 1,
        "dup": 2,
    });
    assert_eq!(read(text), Ok(expected));
}

#[test]
fn every_form_real_code_uses_to_make_a_schema_is_read() {
    let object = json!({"type": "object", "additionalProperties": true});
    for text in [
        r#"schemars::json_schema!({"type": "object", "additionalProperties": true})"#,
        r#"json_schema!({"type":"object","additionalProperties":true})"#,
        r#"serde_json::json!({"type": "object", "additionalProperties": true}).try_into().unwrap()"#,
        r#"json!({"type": "object", "additionalProperties": true}).try_into().expect("an object")"#,
        r#"Schema::try_from(json!({"type": "object", "additionalProperties": true})).unwrap()"#,
        r#"schemars::Schema::try_from(serde_json::json!({"type": "object", "additionalProperties": true})).expect("x")"#,
        r#"serde_json::from_value(json!({"type": "object", "additionalProperties": true})).unwrap()"#,
        r#"(json_schema!({"type": "object", "additionalProperties": true}))"#,
        r#"{ json_schema!({"type": "object", "additionalProperties": true}) }"#,
    ] {
        assert_eq!(read(text), Ok(object.clone()), "{text}");
    }
    for (text, expected) in [
        ("json_schema!(true)", json!(true)),
        ("schemars::json_schema!(false)", json!(false)),
        ("Schema::from(true)", json!(true)),
        ("schemars::Schema::from(false)", json!(false)),
        ("true.into()", json!(true)),
        ("Schema::default()", json!({})),
        ("json!(false).try_into().unwrap()", json!(false)),
    ] {
        assert_eq!(read(text), Ok(expected), "{text}");
    }
}

#[test]
fn a_body_is_one_expression_or_a_return() {
    let block: syn::Block =
        syn::parse_str(r#"{ return json_schema!({"type": "string"}); }"#).unwrap();
    assert_eq!(
        body_schema(&block).map_err(|n| n.what),
        Ok(json!({"type": "string"}))
    );
    let block: syn::Block =
        syn::parse_str(r#"{ let s = json_schema!({"type": "string"}); s }"#).unwrap();
    assert_eq!(
        body_schema(&block).map_err(|n| n.what),
        Err("has a body of 2 statements, not one expression".to_string())
    );
}

#[test]
fn what_is_not_a_literal_is_named_with_where_it_sits() {
    let cases = [
        (
            r#"json_schema!({"type": "object", "properties": {"a": {"description": desc}}})"#,
            "interpolates `desc` at `/properties/a/description` in its `json_schema!` body",
        ),
        (
            r#"json_schema!({"items": generator.subschema_for::<String>()})"#,
            "interpolates `generator.subschema_for::<String>()` at `/items` in its `json_schema!` body",
        ),
        (
            r#"json_schema!({"maxLength": (MAX)})"#,
            "interpolates `(MAX)` at `/maxLength` in its `json_schema!` body",
        ),
        (
            r#"json_schema!({"a/b": {"~": [1, x]}})"#,
            "interpolates `x` at `/a~1b/~0/1` in its `json_schema!` body",
        ),
        (
            r#"json_schema!({key: 1})"#,
            "interpolates the key `key` in its `json_schema!` body",
        ),
        (
            r#"json_schema!({"a": b"bytes"})"#,
            "interpolates `b\"bytes\"` at `/a` in its `json_schema!` body",
        ),
        (
            r#"json_schema!(value)"#,
            "interpolates `value` in its `json_schema!` body",
        ),
        (
            r#"json!({"type": kind}).try_into().unwrap()"#,
            "interpolates `kind` at `/type` in its `json!` body",
        ),
        (
            "build_schema(generator)",
            "calls `build_schema(..)`, which the build step cannot run",
        ),
        (
            "String::json_schema(generator)",
            "calls `String::json_schema(..)`, which the build step cannot run",
        ),
        (
            "generator.subschema_for::<u8>()",
            "calls `generator.subschema_for(..)`, which the build step cannot run",
        ),
        ("SCHEMA.clone()", "calls `SCHEMA.clone(..)`, which the build step cannot run"),
        ("SCHEMA", "returns `SCHEMA`, a value only running code knows"),
        (
            "schema_from!(x)",
            "expands `schema_from!`, which the build step does not run",
        ),
        (
            "json!([1, 2]).try_into().unwrap()",
            "returns `[1,2]`, which is neither an object nor a boolean: making it a `Schema` fails at run time",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(read(text), Err(expected.to_string()), "{text}");
    }
}

#[test]
fn nesting_is_bounded() {
    let deep = format!(
        "json_schema!({{\"a\": {}1{}}})",
        "[".repeat(200),
        "]".repeat(200)
    );
    let err = read(&deep).expect_err("too deep");
    assert!(
        err.starts_with("nests deeper than 128 levels at `/a/0/0"),
        "{err}"
    );
}
