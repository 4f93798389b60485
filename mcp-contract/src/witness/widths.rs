//! Integer widths as the validator can check them.
//!
//! serde enforces a `format: uint8` (the range of the Rust integer type,
//! no fraction); the `jsonschema` crate reads the format as an annotation
//! and enforces nothing. A width witness must hold with the widths
//! enforced, on the whole instance, not only at the changed node (a width
//! under one `anyOf` branch binds nothing when another branch takes the
//! value). [`spell_out`] writes every integer width of a schema as the
//! bounds serde enforces, so that the validator checks them.

use serde_json::{json, Map, Value};

use crate::schema::numeric::{self, Bound, Num};
use crate::schema::NAMED_SCHEMA_KEYWORDS;

/// Keywords whose value is one schema.
const ONE: &[&str] = &[
    "items",
    "additionalItems",
    "additionalProperties",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
];

/// Keywords whose value is a list of schemas.
const LIST: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems", "items"];

/// Keywords whose value maps names to schemas: [`NAMED_SCHEMA_KEYWORDS`],
/// and draft 7's `dependencies`, whose list values (names) are skipped.
fn maps_names_to_schemas(keyword: &str) -> bool {
    NAMED_SCHEMA_KEYWORDS.contains(&keyword) || keyword == "dependencies"
}

/// Deepest nesting spelled out (deeper schemas are left as they are).
const MAX_DEPTH: usize = 64;

/// `schema` with every integer width also written as `minimum`, `maximum`
/// and `multipleOf: 1` (in an added `allOf` entry); `None` when it has none.
pub(crate) fn spell_out(schema: &Value) -> Option<Value> {
    let mut out = schema.clone();
    spell(&mut out, 0).then_some(out)
}

fn spell(v: &mut Value, depth: usize) -> bool {
    let Value::Object(m) = v else { return false };
    if depth > MAX_DEPTH {
        return false;
    }
    let mut changed = false;
    for (k, child) in m.iter_mut() {
        let k = k.as_str();
        if ONE.contains(&k) && child.is_object() {
            changed |= spell(child, depth + 1);
        }
        if LIST.contains(&k) {
            if let Value::Array(a) = child {
                for c in a {
                    changed |= spell(c, depth + 1);
                }
            }
        }
        if maps_names_to_schemas(k) {
            if let Value::Object(entries) = child {
                for c in entries.values_mut() {
                    changed |= spell(c, depth + 1);
                }
            }
        }
    }
    let width = m
        .get("format")
        .and_then(Value::as_str)
        .filter(|f| numeric::is_integer_format(f))
        .and_then(numeric::format_range);
    if let Some((lo, hi)) = width {
        let mut bound = Map::new();
        bound.insert("multipleOf".into(), json!(1));
        if let Some(v) = exact(&lo) {
            bound.insert("minimum".into(), v);
        }
        if let Some(v) = exact(&hi) {
            bound.insert("maximum".into(), v);
        }
        match m.get_mut("allOf") {
            Some(Value::Array(a)) => a.push(Value::Object(bound)),
            _ => {
                m.insert("allOf".into(), json!([bound]));
            }
        }
        changed = true;
    }
    changed
}

/// An inclusive integer bound as a JSON number, when serde_json holds it exactly.
fn exact(b: &Bound) -> Option<Value> {
    let Num::Int(i) = b.value else { return None };
    if b.exclusive {
        return None;
    }
    i64::try_from(i)
        .map(|i| json!(i))
        .or_else(|_| u64::try_from(i).map(|u| json!(u)))
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_become_bounds_wherever_a_schema_sits() {
        let s = json!({"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}],
            "$defs": {"N": {"type": "integer", "format": "uint8", "allOf": [{}]}}});
        let out = spell_out(&s).expect("a width");
        assert_eq!(
            out["$defs"]["N"]["allOf"],
            json!([{}, {"minimum": 0, "maximum": 255, "multipleOf": 1}])
        );
        let v = jsonschema::validator_for(&out).unwrap();
        assert!(v.is_valid(&json!(255)) && v.is_valid(&Value::Null));
        assert!(!v.is_valid(&json!(256)) && !v.is_valid(&json!(-1)) && !v.is_valid(&json!(0.5)));
        // values are not schemas; string formats carry no width
        let s = json!({"const": {"format": "int8"}, "properties": {"d": {"format": "date"}}});
        assert_eq!(spell_out(&s), None);
    }
}
