//! Canonical JSON: the one byte form every lockfile and snapshot is written in.
//!
//! Keys are sorted recursively (serde_json's default map is ordered), the
//! `required` arrays of schemas are sorted and de-duplicated, indentation is
//! two spaces, line endings LF, with a trailing newline. The same surface
//! always gives the same bytes, and a small change gives a small text diff.

use serde_json::Value;

// Data values are copied untouched; named schemas are canonicalized by value
// (their names are not keywords).
use crate::schema::{DATA_KEYWORDS, NAMED_SCHEMA_KEYWORDS};

/// Returns `value` with every schema-level `required` array sorted and de-duplicated.
pub fn canonicalize(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                let v = if DATA_KEYWORDS.contains(&k.as_str()) {
                    v.clone()
                } else if k == "required" {
                    sort_required(v)
                } else if NAMED_SCHEMA_KEYWORDS.contains(&k.as_str()) {
                    match v {
                        Value::Object(named) => Value::Object(
                            named
                                .iter()
                                .map(|(n, s)| (n.clone(), canonicalize(s)))
                                .collect(),
                        ),
                        other => canonicalize(other),
                    }
                } else {
                    canonicalize(v)
                };
                out.insert(k.clone(), v);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(canonicalize).collect()),
        other => other.clone(),
    }
}

/// Is `value` already in canonical form (every schema-level `required`
/// sorted and free of duplicates)? Cheaper than comparing with
/// [`canonicalize`], which copies the whole tree.
pub fn is_canonical(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.iter().all(|(k, v)| {
            if DATA_KEYWORDS.contains(&k.as_str()) {
                true
            } else if k == "required" {
                match v {
                    Value::Array(items) if items.iter().all(Value::is_string) => {
                        items.windows(2).all(|w| w[0].as_str() < w[1].as_str())
                    }
                    other => is_canonical(other),
                }
            } else if NAMED_SCHEMA_KEYWORDS.contains(&k.as_str()) {
                match v {
                    Value::Object(named) => named.values().all(is_canonical),
                    other => is_canonical(other),
                }
            } else {
                is_canonical(v)
            }
        }),
        Value::Array(items) => items.iter().all(is_canonical),
        _ => true,
    }
}

fn sort_required(v: &Value) -> Value {
    match v {
        Value::Array(items) if items.iter().all(Value::is_string) => {
            let mut names: Vec<&str> = items.iter().filter_map(Value::as_str).collect();
            names.sort_unstable();
            names.dedup();
            Value::Array(names.into_iter().map(|s| Value::String(s.into())).collect())
        }
        other => canonicalize(other),
    }
}

/// Serializes `value` (already canonicalized) as pretty JSON with a trailing newline.
pub fn to_canonical_string(value: &Value) -> String {
    let mut s = serde_json::to_string_pretty(value).expect("a serde_json::Value always serializes");
    s.push('\n');
    s
}

/// The SHA-256 of `text` as 64 lowercase hex digits: the lockfile's
/// revision and the usage evidence's record are both written this way.
pub fn sha256_hex(text: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Compact canonical form, used for digests and equality.
pub fn to_compact_string(value: &Value) -> String {
    serde_json::to_string(&canonicalize(value)).expect("a serde_json::Value always serializes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sorts_required_but_not_enum_or_defaults() {
        let v = json!({"required": ["b", "a", "a"], "enum": ["z", "y"], "default": {"required": ["z", "y"]}});
        let c = canonicalize(&v);
        assert_eq!(c["required"], json!(["a", "b"]));
        assert_eq!(c["enum"], json!(["z", "y"]));
        assert_eq!(c["default"]["required"], json!(["z", "y"]));
    }

    #[test]
    fn is_canonical_agrees_with_canonicalize() {
        for v in [
            json!({"required": ["a", "b"], "properties": {"x": {"required": ["c"]}}}),
            json!({"required": ["b", "a"]}),
            json!({"properties": {"x": {"required": ["d", "c"]}}}),
            json!({"required": ["a", "a"]}),
            json!({"enum": [{"required": ["z", "y"]}]}),
        ] {
            assert_eq!(is_canonical(&v), canonicalize(&v) == v, "{v}");
        }
    }

    #[test]
    fn property_named_like_a_keyword_is_still_a_schema() {
        let v = json!({"properties": {"enum": {"required": ["b", "a"]}}});
        assert_eq!(
            canonicalize(&v)["properties"]["enum"]["required"],
            json!(["a", "b"])
        );
    }

    #[test]
    fn keys_sorted_two_space_indent_trailing_newline() {
        let v: Value = serde_json::from_str(r#"{"b":1,"a":{"d":2,"c":3}}"#).unwrap();
        let s = to_canonical_string(&canonicalize(&v));
        assert_eq!(
            s,
            "{\n  \"a\": {\n    \"c\": 3,\n    \"d\": 2\n  },\n  \"b\": 1\n}\n"
        );
    }
}
