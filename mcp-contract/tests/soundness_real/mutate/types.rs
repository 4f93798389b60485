//! Mutations of what type a node admits: `type` narrowed, widened,
//! changed or dropped; nullability added, removed or respelled (schemars'
//! `Option<T>` as `anyOf` with `{"type":"null"}` or as a `type` array); and
//! number widths carried by `format` (narrowed, widened, sign flipped,
//! added, removed) and string formats.

use serde_json::{json, Value};

use super::super::rng::Rng;
use super::super::widths::{int_range, SIGNED, UNSIGNED};
use super::{has_type, is_numeric_node, is_string_node, node, types_of, Effect, Kind};

pub fn kinds() -> Vec<Kind> {
    use Effect::*;
    vec![
        Kind {
            name: "type.narrow",
            effect: Narrow,
            apply: type_narrow,
        },
        Kind {
            name: "type.widen",
            effect: Widen,
            apply: type_widen,
        },
        Kind {
            name: "type.change",
            effect: Mixed,
            apply: type_change,
        },
        Kind {
            name: "type.remove",
            effect: Widen,
            apply: type_remove,
        },
        Kind {
            name: "nullable.add",
            effect: Widen,
            apply: nullable_add,
        },
        Kind {
            name: "nullable.remove",
            effect: Narrow,
            apply: nullable_remove,
        },
        Kind {
            name: "nullable.respell",
            effect: Same,
            apply: nullable_respell,
        },
        Kind {
            name: "format.narrow",
            effect: Narrow,
            apply: format_narrow,
        },
        Kind {
            name: "format.widen",
            effect: Widen,
            apply: format_widen,
        },
        Kind {
            name: "format.sign",
            effect: Mixed,
            apply: format_sign,
        },
        Kind {
            name: "format.add",
            effect: Narrow,
            apply: format_add,
        },
        Kind {
            name: "format.remove",
            effect: Widen,
            apply: format_remove,
        },
        Kind {
            name: "format.string",
            effect: Mixed,
            apply: format_string,
        },
    ]
}

const TYPES: [&str; 7] = [
    "string", "integer", "number", "boolean", "object", "array", "null",
];

fn type_narrow(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let ts = types_of(m);
    if ts.len() > 1 {
        let mut ts = ts;
        ts.remove(rng.below(ts.len()));
        m.insert("type".into(), json!(ts));
        true
    } else if ts == ["number"] {
        m.insert("type".into(), json!("integer"));
        true
    } else {
        false
    }
}

fn type_widen(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let mut ts = types_of(m);
    if ts.is_empty() {
        return false;
    }
    if ts == ["integer"] && rng.chance(50) {
        m.insert("type".into(), json!("number"));
        return true;
    }
    let extra = *rng.pick(&TYPES);
    if ts.iter().any(|t| t == extra) || (extra == "integer" && ts.iter().any(|t| t == "number")) {
        return false;
    }
    ts.push(extra.into());
    m.insert("type".into(), json!(ts));
    true
}

fn type_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let ts = types_of(m);
    if ts.is_empty() {
        return false;
    }
    let t = *rng.pick(&TYPES);
    m.insert("type".into(), json!(t));
    ts != [t]
}

fn type_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("type").is_some())
}

fn nullable_add(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.is_empty() || has_type(m, "null") {
        return false;
    }
    let ts = types_of(m);
    let nullable_by_type = !ts.is_empty()
        && !m.contains_key("enum")
        && !m.contains_key("const")
        && !m.contains_key("$ref")
        && !m.contains_key("anyOf")
        && !m.contains_key("oneOf")
        && !m.contains_key("allOf")
        && !m.contains_key("not");
    if nullable_by_type {
        let mut ts = ts;
        ts.push("null".into());
        m.insert("type".into(), json!(ts));
    } else {
        // schemars' `Option<T>` of a referenced or composite T
        let inner = Value::Object(std::mem::take(m));
        m.insert("anyOf".into(), json!([inner, {"type": "null"}]));
    }
    true
}

fn is_null_schema(v: &Value) -> bool {
    v == &json!({"type": "null"})
}

fn nullable_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let ts = types_of(m);
    if ts.len() > 1 && ts.iter().any(|t| t == "null") {
        let rest: Vec<&String> = ts.iter().filter(|t| *t != "null").collect();
        m.insert(
            "type".into(),
            if rest.len() == 1 {
                json!(rest[0])
            } else {
                json!(rest)
            },
        );
        return true;
    }
    for kw in ["anyOf", "oneOf"] {
        if let Some(Value::Array(bs)) = m.get(kw) {
            if bs.len() == 2 && bs.iter().any(is_null_schema) {
                let other = bs.iter().find(|b| !is_null_schema(b)).cloned().unwrap();
                m.remove(kw);
                m.insert("allOf".into(), json!([other]));
                return true;
            }
        }
    }
    false
}

/// Keywords that constrain one JSON type only, so that `type: [T, "null"]`
/// and `anyOf: [{type: T, ...}, {type: "null"}]` accept the same values.
const TYPE_SPECIFIC: [&str; 17] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "format",
    "minLength",
    "maxLength",
    "pattern",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "prefixItems",
];

fn nullable_respell(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let ts = types_of(m);
    let annotation = |k: &str| matches!(k, "description" | "title" | "examples" | "default");
    if ts.len() != 2
        || !ts.iter().any(|t| t == "null")
        || !m
            .keys()
            .all(|k| k == "type" || annotation(k) || TYPE_SPECIFIC.contains(&k.as_str()))
    {
        return false;
    }
    let t = ts.iter().find(|t| *t != "null").unwrap().clone();
    let mut inner = serde_json::Map::new();
    inner.insert("type".into(), json!(t));
    for k in TYPE_SPECIFIC {
        if let Some(v) = m.remove(k) {
            inner.insert(k.into(), v);
        }
    }
    m.remove("type");
    m.insert("anyOf".into(), json!([inner, {"type": "null"}]));
    true
}

fn int_format(m: &serde_json::Map<String, Value>) -> Option<(String, usize, bool)> {
    let f = m.get("format")?.as_str()?;
    let f = match f {
        "int" => "int64",
        "uint" => "uint64",
        f => f,
    };
    if let Some(i) = SIGNED.iter().position(|x| *x == f) {
        return Some((f.into(), i, true));
    }
    UNSIGNED
        .iter()
        .position(|x| *x == f)
        .map(|i| (f.into(), i, false))
}

fn format_narrow(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.get("format") == Some(&json!("double")) {
        m.insert("format".into(), json!("float"));
        return true;
    }
    let Some((_, i, signed)) = int_format(m) else {
        return false;
    };
    if i == 0 {
        return false;
    }
    let to = rng.below(i);
    m.insert(
        "format".into(),
        json!(if signed { SIGNED[to] } else { UNSIGNED[to] }),
    );
    true
}

fn format_widen(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.get("format") == Some(&json!("float")) {
        m.insert("format".into(), json!("double"));
        return true;
    }
    let Some((_, i, signed)) = int_format(m) else {
        return false;
    };
    if i + 1 >= SIGNED.len() {
        return false;
    }
    let to = i + 1 + rng.below(SIGNED.len() - i - 1);
    m.insert(
        "format".into(),
        json!(if signed { SIGNED[to] } else { UNSIGNED[to] }),
    );
    true
}

fn format_sign(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some((_, i, signed)) = int_format(m) else {
        return false;
    };
    m.insert(
        "format".into(),
        json!(if signed { UNSIGNED[i] } else { SIGNED[i] }),
    );
    true
}

fn format_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.contains_key("format") || !is_numeric_node(m) {
        return false;
    }
    let f = if has_type(m, "integer") && !has_type(m, "number") || rng.chance(70) {
        let all = [SIGNED, UNSIGNED].concat();
        *rng.pick(&all)
    } else {
        *rng.pick(&["float", "double"])
    };
    m.insert("format".into(), json!(f));
    true
}

fn format_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| {
        let width = m
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| int_range(f).is_some() || f == "float" || f == "double");
        width && m.remove("format").is_some()
    })
}

fn format_string(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_string_node(m) {
        return false;
    }
    let f = *rng.pick(&["date-time", "uuid", "uri", "date", "email"]);
    let before = m.insert("format".into(), json!(f));
    before != Some(json!(f))
}
