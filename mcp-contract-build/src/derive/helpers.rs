//! Schema surgery schemars' derive output performs at run time
//! (`schemars::_private`): making a schema nullable, merging a flattened
//! field, tagging an internally tagged variant, adding a property.

use serde_json::{json, Map, Value};

use super::attrs::{ensure_object, has_type};

fn contains_immediate_subschema(obj: &Map<String, Value>) -> bool {
    ["if", "allOf", "anyOf", "oneOf", "$ref"]
        .into_iter()
        .any(|k| obj.contains_key(k))
}

/// `allow_null`: what `Option<T>` does to `T`'s schema.
pub(crate) fn allow_null(schema: &mut Value) {
    match schema {
        Value::Object(obj) => {
            if obj.len() == 1
                && obj
                    .get("anyOf")
                    .and_then(Value::as_array)
                    .is_some_and(|a| a.iter().any(|s| has_type(s, "null")))
            {
                return;
            }
            if contains_immediate_subschema(obj) {
                let inner = Value::Object(std::mem::take(obj));
                *schema = json!({"anyOf": [inner, {"type": "null"}]});
                return;
            }
            if let Some(instance_type) = obj.get_mut("type") {
                match instance_type {
                    Value::Array(array) => {
                        let null = Value::from("null");
                        if !array.contains(&null) {
                            array.push(null);
                        }
                    }
                    Value::String(s) if s != "null" => {
                        let current = std::mem::take(s);
                        *instance_type = json!([current, "null"]);
                    }
                    _ => {}
                }
            }
            if let Some(c) = obj.remove("const") {
                if !c.is_null() {
                    obj.insert("enum".into(), json!([c, null]));
                }
            } else if let Some(Value::Array(e)) = obj.get_mut("enum") {
                if !e.contains(&Value::Null) {
                    e.push(Value::Null);
                }
            }
        }
        Value::Bool(true) => {}
        _ => *schema = json!({"type": "null"}),
    }
}

/// `AllowUnknownProperties`: drops `additionalProperties: false` /
/// `unevaluatedProperties: false` here and in `if/then/else/allOf/anyOf/oneOf`.
/// Returns whether anything changed.
pub(crate) fn allow_unknown_properties(schema: &mut Value, include_self: bool) -> bool {
    let mut modified = false;
    if let Value::Object(obj) = schema {
        if include_self {
            for key in ["additionalProperties", "unevaluatedProperties"] {
                if obj.get(key).and_then(Value::as_bool) == Some(false) {
                    obj.remove(key);
                    modified = true;
                }
            }
        }
        for (key, value) in obj.iter_mut() {
            match key.as_str() {
                "if" | "then" | "else" if value.is_object() || value.is_boolean() => {
                    modified |= allow_unknown_properties(value, true);
                }
                "allOf" | "anyOf" | "oneOf" => {
                    if let Some(array) = value.as_array_mut() {
                        for v in array {
                            if v.is_object() || v.is_boolean() {
                                modified |= allow_unknown_properties(v, true);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    modified
}

/// The non-generic part of `json_schema_for_flatten`.
pub(crate) fn flatten_field_schema(mut schema: Value, is_optional: bool) -> Value {
    if let Some(unit_variants) = remove_unit_variants(&mut schema) {
        let obj = ensure_object(&mut schema);
        if let Value::Array(one_of) = obj.entry("oneOf").or_insert(Value::Array(Vec::new())) {
            one_of.extend(
                unit_variants
                    .iter()
                    .filter_map(Value::as_str)
                    .map(|variant| {
                        json!({
                            "type": "object",
                            "properties": { variant: {"type": "null"} },
                            "required": [variant]
                        })
                    }),
            );
        }
    }
    if is_optional {
        if let Value::Object(obj) = &mut schema {
            obj.remove("required");
            if let Some(one_of) = obj.remove("oneOf") {
                flatten(&mut schema, json!({"anyOf": [{"oneOf": one_of}, {}]}));
            }
        }
        if let Some(Value::Array(any_of)) = schema.get_mut("anyOf") {
            let empty = Value::Object(Map::new());
            if !any_of.contains(&empty) {
                any_of.push(empty);
            }
        }
    }
    allow_unknown_properties(&mut schema, true);
    schema
}

fn remove_unit_variants(schema: &mut Value) -> Option<Vec<Value>> {
    let obj = schema.as_object_mut()?;
    if obj.get("type").and_then(Value::as_str) == Some("string") {
        if let Some(Value::Array(a)) = obj.remove("enum") {
            obj.remove("type");
            return Some(a);
        }
    }
    let one_of = obj.get_mut("oneOf")?.as_array_mut()?;
    let first = one_of.get_mut(0)?.as_object_mut()?;
    if first.get("type").and_then(Value::as_str) == Some("string") {
        if let Some(Value::Array(a)) = first.remove("enum") {
            one_of.remove(0);
            return Some(a);
        }
    }
    None
}

/// `schemars::_private::flatten`: merges `other` into `schema`.
pub(crate) fn flatten(schema: &mut Value, other: Value) {
    match other {
        Value::Bool(false) => {}
        Value::Bool(true) => {
            if let Value::Object(obj) = schema {
                if !obj.contains_key("additionalProperties")
                    && !obj.contains_key("unevaluatedProperties")
                {
                    let key = if contains_immediate_subschema(obj) {
                        "unevaluatedProperties"
                    } else {
                        "additionalProperties"
                    };
                    obj.insert(key.into(), Value::Bool(true));
                }
            }
        }
        Value::Object(mut obj2) => {
            let obj1 = ensure_object(schema);
            normalise_additional_unevaluated(obj1, &obj2);
            normalise_additional_unevaluated(&mut obj2, obj1);
            for (key, value2) in obj2 {
                flatten_property(obj1, key, value2);
            }
        }
        _ => {}
    }
}

fn flatten_property(obj1: &mut Map<String, Value>, key: String, value2: Value) {
    match obj1.get_mut(&key) {
        None => {
            obj1.insert(key, value2);
        }
        Some(existing) => match key.as_str() {
            "required" | "allOf" => {
                if let (Value::Array(a1), Value::Array(a2)) = (existing, value2) {
                    a1.extend(a2);
                }
            }
            "properties" | "patternProperties" => {
                if let (Value::Object(o1), Value::Object(o2)) = (existing, value2) {
                    o1.extend(o2);
                }
            }
            "oneOf" | "anyOf" => {
                let current = obj1.remove(&key).unwrap_or(Value::Null);
                flatten_property(
                    obj1,
                    "allOf".into(),
                    json!([{ key.clone(): current }, { key: value2 }]),
                );
            }
            _ => {}
        },
    }
}

fn normalise_additional_unevaluated(obj1: &mut Map<String, Value>, obj2: &Map<String, Value>) {
    if obj1.contains_key("additionalProperties")
        && (obj2.contains_key("unevaluatedProperties") || contains_immediate_subschema(obj2))
    {
        let ap = obj1.remove("additionalProperties").unwrap_or(Value::Null);
        obj1.insert("unevaluatedProperties".into(), ap);
    }
}

/// `apply_internal_enum_variant_tag`.
pub(crate) fn apply_internal_tag(
    schema: &mut Value,
    tag: &str,
    variant: &str,
    deny_unknown_fields: bool,
) {
    let obj = ensure_object(schema);
    let is_unit = obj.get("type").and_then(Value::as_str) == Some("null");
    obj.insert("type".into(), "object".into());
    if let Some(properties) = obj
        .entry("properties")
        .or_insert(Value::Object(Map::new()))
        .as_object_mut()
    {
        let fields = std::mem::take(properties);
        properties.insert(tag.into(), json!({"type": "string", "const": variant}));
        properties.extend(fields.into_iter().filter(|(k, _)| k != tag));
    }
    if let Some(required) = obj
        .entry("required")
        .or_insert(Value::Array(Vec::new()))
        .as_array_mut()
    {
        required.insert(0, tag.into());
    }
    if deny_unknown_fields && is_unit {
        obj.entry("additionalProperties")
            .or_insert(Value::Bool(false));
    }
}

/// `insert_object_property`.
pub(crate) fn insert_property(schema: &mut Value, key: &str, is_optional: bool, sub: Value) {
    let obj = ensure_object(schema);
    if let Some(properties) = obj
        .entry("properties")
        .or_insert(Value::Object(Map::new()))
        .as_object_mut()
    {
        properties.insert(key.into(), sub);
    }
    if !is_optional {
        if let Some(req) = obj
            .entry("required")
            .or_insert(Value::Array(Vec::new()))
            .as_array_mut()
        {
            req.push(key.into());
        }
    }
}
