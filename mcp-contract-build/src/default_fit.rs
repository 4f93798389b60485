//! Does a `default` transition's value fit the field it is the default of?
//! The value is published as the field's `"default"` and the server applies
//! it to calls that omit the field, so a value the field's own schema
//! rejects (`""` for a `u8`) would publish a contract the server breaks.
//!
//! The keywords schemars emits for Rust types are checked: `type`, `enum`,
//! `const`, numeric bounds (the `minimum`/`maximum` of `u8`...), string and
//! array lengths, `items`/`prefixItems`, `properties`/`required`/
//! `additionalProperties`, `anyOf`/`oneOf`/`allOf`/`not` and local `$ref`s.
//! `pattern` and `format` are not checked (no regex engine in a build
//! dependency); a schema is never walked deeper than [`MAX_DEPTH`].

use serde_json::{Map, Value};

const MAX_DEPTH: usize = 64;

/// `Ok` when `value` is valid under `schema` (`root` resolves `$ref`s), else
/// why not, naming where in the value.
pub fn fits(value: &Value, schema: &Value, root: &Value) -> Result<(), String> {
    check(value, schema, root, "", 0)
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn is_type(v: &Value, t: &str) -> bool {
    let actual = type_name(v);
    actual == t || (t == "number" && actual == "integer")
}

fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" at `{path}`")
    }
}

fn check(
    value: &Value,
    schema: &Value,
    root: &Value,
    path: &str,
    depth: usize,
) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "the schema is nested deeper than {MAX_DEPTH} levels"
        ));
    }
    let s = match schema {
        Value::Bool(true) => return Ok(()),
        Value::Bool(false) => return Err(format!("nothing is allowed{}", at(path))),
        Value::Object(s) => s,
        _ => return Ok(()),
    };
    if let Some(Value::String(r)) = s.get("$ref") {
        let target = r
            .strip_prefix('#')
            .and_then(|p| root.pointer(p))
            .ok_or_else(|| format!("the schema's `$ref` {r} does not resolve"))?;
        check(value, target, root, path, depth + 1)?;
    }
    match s.get("type") {
        Some(Value::String(t)) if !is_type(value, t) => {
            return Err(format!("expected {t}, got {}{}", describe(value), at(path)))
        }
        Some(Value::Array(ts))
            if !ts
                .iter()
                .filter_map(Value::as_str)
                .any(|t| is_type(value, t)) =>
        {
            let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
            return Err(format!(
                "expected {}, got {}{}",
                names.join(" or "),
                describe(value),
                at(path)
            ));
        }
        _ => {}
    }
    if let Some(Value::Array(options)) = s.get("enum") {
        if !options.contains(value) {
            let shown: Vec<String> = options.iter().map(Value::to_string).collect();
            return Err(format!(
                "{} is not one of {}{}",
                value,
                shown.join(", "),
                at(path)
            ));
        }
    }
    if let Some(c) = s.get("const") {
        if c != value {
            return Err(format!("expected {c}, got {value}{}", at(path)));
        }
    }
    numbers(value, s, path)?;
    lengths(value, s, path)?;
    if let Some(Value::Array(all)) = s.get("allOf") {
        for sub in all {
            check(value, sub, root, path, depth + 1)?;
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(options)) = s.get(key) {
            let passing = options
                .iter()
                .filter(|o| check(value, o, root, path, depth + 1).is_ok())
                .count();
            let ok = if key == "anyOf" {
                passing >= 1
            } else {
                passing == 1
            };
            if !ok {
                return Err(format!(
                    "{} matches {passing} of the {} alternatives of `{key}`{}",
                    describe(value),
                    options.len(),
                    at(path)
                ));
            }
        }
    }
    if let Some(not) = s.get("not") {
        if check(value, not, root, path, depth + 1).is_ok() {
            return Err(format!(
                "{} is excluded by `not`{}",
                describe(value),
                at(path)
            ));
        }
    }
    match value {
        Value::Object(o) => object(o, s, root, path, depth),
        Value::Array(a) => array(a, s, root, path, depth),
        _ => Ok(()),
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(_) | Value::Number(_) | Value::Bool(_) | Value::Null => {
            format!("{} {v}", type_name(v))
        }
        other => type_name(other).to_string(),
    }
}

fn numbers(value: &Value, s: &Map<String, Value>, path: &str) -> Result<(), String> {
    let Some(n) = value.as_f64() else {
        return Ok(());
    };
    let bound = |k: &str| s.get(k).and_then(Value::as_f64);
    if let Some(m) = bound("minimum") {
        if n < m {
            return Err(format!("{value} is below the minimum {m}{}", at(path)));
        }
    }
    if let Some(m) = bound("maximum") {
        if n > m {
            return Err(format!("{value} is above the maximum {m}{}", at(path)));
        }
    }
    if let Some(m) = bound("exclusiveMinimum") {
        if n <= m {
            return Err(format!("{value} is not above {m}{}", at(path)));
        }
    }
    if let Some(m) = bound("exclusiveMaximum") {
        if n >= m {
            return Err(format!("{value} is not below {m}{}", at(path)));
        }
    }
    if let Some(m) = bound("multipleOf").filter(|m| *m > 0.0) {
        let q = n / m;
        if (q - q.round()).abs() > 1e-9 {
            return Err(format!("{value} is not a multiple of {m}{}", at(path)));
        }
    }
    Ok(())
}

fn lengths(value: &Value, s: &Map<String, Value>, path: &str) -> Result<(), String> {
    let (len, min_key, max_key) = match value {
        Value::String(t) => (t.chars().count(), "minLength", "maxLength"),
        Value::Array(a) => (a.len(), "minItems", "maxItems"),
        Value::Object(o) => (o.len(), "minProperties", "maxProperties"),
        _ => return Ok(()),
    };
    if let Some(m) = s.get(min_key).and_then(Value::as_u64) {
        if (len as u64) < m {
            return Err(format!(
                "{} is shorter than {min_key} {m}{}",
                describe(value),
                at(path)
            ));
        }
    }
    if let Some(m) = s.get(max_key).and_then(Value::as_u64) {
        if (len as u64) > m {
            return Err(format!(
                "{} is longer than {max_key} {m}{}",
                describe(value),
                at(path)
            ));
        }
    }
    Ok(())
}

fn object(
    o: &Map<String, Value>,
    s: &Map<String, Value>,
    root: &Value,
    path: &str,
    depth: usize,
) -> Result<(), String> {
    for name in s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(n) = name.as_str() {
            if !o.contains_key(n) {
                return Err(format!("`{n}` is required{}", at(path)));
            }
        }
    }
    let props = s.get("properties").and_then(Value::as_object);
    for (k, v) in o {
        let inner = if path.is_empty() {
            k.clone()
        } else {
            format!("{path}.{k}")
        };
        match props.and_then(|p| p.get(k)) {
            Some(sub) => check(v, sub, root, &inner, depth + 1)?,
            None => {
                if let Some(extra) = s.get("additionalProperties") {
                    check(v, extra, root, &inner, depth + 1)
                        .map_err(|e| format!("{e} (not a declared property)"))?;
                }
            }
        }
    }
    Ok(())
}

fn array(
    a: &[Value],
    s: &Map<String, Value>,
    root: &Value,
    path: &str,
    depth: usize,
) -> Result<(), String> {
    let prefix = s.get("prefixItems").and_then(Value::as_array);
    for (i, v) in a.iter().enumerate() {
        let inner = format!("{path}[{i}]");
        let sub = match prefix.and_then(|p| p.get(i)) {
            Some(p) => Some(p),
            None => s.get("items"),
        };
        if let Some(sub) = sub {
            check(v, sub, root, &inner, depth + 1)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(v: Value, s: Value) -> bool {
        fits(&v, &s, &s).is_ok()
    }

    #[test]
    fn what_schemars_emits_for_rust_types() {
        let u8_schema = json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255});
        assert!(ok(json!(7), u8_schema.clone()));
        assert_eq!(
            fits(&json!(""), &u8_schema, &u8_schema).unwrap_err(),
            "expected integer, got string \"\""
        );
        assert!(!ok(json!(256), u8_schema.clone()));
        assert!(!ok(json!(1.5), u8_schema));
        let opt = json!({"type": ["string", "null"]});
        assert!(ok(json!(null), opt.clone()) && ok(json!("x"), opt.clone()) && !ok(json!(1), opt));
        let e = json!({"type": "string", "enum": ["EUR", "USD"]});
        assert!(ok(json!("EUR"), e.clone()) && !ok(json!("GBP"), e));
        let root = json!({"$defs": {"Unit": {"type": "string", "enum": ["c", "f"]}},
                          "properties": {"unit": {"$ref": "#/$defs/Unit"}}});
        assert!(fits(&json!("c"), &root["properties"]["unit"], &root).is_ok());
        assert!(fits(&json!("k"), &root["properties"]["unit"], &root).is_err());
        let obj = json!({"type": "object", "properties": {"a": {"type": "integer"}},
                         "required": ["a"], "additionalProperties": false});
        assert!(ok(json!({"a": 1}), obj.clone()));
        assert!(!ok(json!({}), obj.clone()));
        assert_eq!(
            fits(&json!({"a": 1, "b": 2}), &obj, &obj).unwrap_err(),
            "nothing is allowed at `b` (not a declared property)"
        );
        let any = json!({"anyOf": [{"type": "integer"}, {"type": "null"}]});
        assert!(ok(json!(null), any.clone()) && !ok(json!("x"), any));
        let arr = json!({"type": "array", "items": {"type": "integer"}, "maxItems": 2});
        assert!(ok(json!([1, 2]), arr.clone()) && !ok(json!([1, "x"]), arr.clone()));
        assert!(!ok(json!([1, 2, 3]), arr));
    }
}
