//! Mutations of a node's value keywords: `type`, nullability, number
//! widths (`format`), bounds, `multipleOf`, string length and `pattern`,
//! `enum`/`const`, and annotations.

use serde_json::{json, Value};

use super::super::rng::Rng;
use super::super::widths::{int_range, SIGNED, UNSIGNED};
use super::{as_int, has_type, is_numeric_node, is_string_node, node, types_of, Effect, Kind};

const TYPES: [&str; 7] = [
    "string", "integer", "number", "boolean", "object", "array", "null",
];
pub const PATTERNS: [&str; 9] = [
    "^[a-z]+$",
    "^[a-z0-9]+$",
    "^[a-c]+$",
    "^a",
    "b$",
    "^[0-9]{2,4}$",
    "^\\d+$",
    "^(foo|bar)$",
    "x",
];

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
        Kind {
            name: "bound.tighten",
            effect: Narrow,
            apply: bound_tighten,
        },
        Kind {
            name: "bound.relax",
            effect: Widen,
            apply: bound_relax,
        },
        Kind {
            name: "bound.add",
            effect: Narrow,
            apply: bound_add,
        },
        Kind {
            name: "bound.remove",
            effect: Widen,
            apply: bound_remove,
        },
        Kind {
            name: "bound.exclusive",
            effect: Narrow,
            apply: bound_exclusive,
        },
        Kind {
            name: "bound.beyond-f64",
            effect: Narrow,
            apply: bound_beyond_f64,
        },
        Kind {
            name: "multipleOf.add",
            effect: Narrow,
            apply: multiple_add,
        },
        Kind {
            name: "multipleOf.remove",
            effect: Widen,
            apply: multiple_remove,
        },
        Kind {
            name: "length.tighten",
            effect: Narrow,
            apply: length_tighten,
        },
        Kind {
            name: "length.relax",
            effect: Widen,
            apply: length_relax,
        },
        Kind {
            name: "pattern.add",
            effect: Narrow,
            apply: pattern_add,
        },
        Kind {
            name: "pattern.remove",
            effect: Widen,
            apply: pattern_remove,
        },
        Kind {
            name: "pattern.widen",
            effect: Widen,
            apply: pattern_widen,
        },
        Kind {
            name: "pattern.change",
            effect: Mixed,
            apply: pattern_change,
        },
        Kind {
            name: "enum.remove-value",
            effect: Narrow,
            apply: enum_remove_value,
        },
        Kind {
            name: "enum.add-value",
            effect: Widen,
            apply: enum_add_value,
        },
        Kind {
            name: "enum.reorder",
            effect: Same,
            apply: enum_reorder,
        },
        Kind {
            name: "enum.add",
            effect: Narrow,
            apply: enum_add,
        },
        Kind {
            name: "enum.remove",
            effect: Widen,
            apply: enum_remove,
        },
        Kind {
            name: "const.change",
            effect: Mixed,
            apply: const_change,
        },
        Kind {
            name: "const.to-enum",
            effect: Same,
            apply: const_to_enum,
        },
        Kind {
            name: "const.remove",
            effect: Widen,
            apply: const_remove,
        },
        Kind {
            name: "annotation.description",
            effect: Annotation,
            apply: ann_description,
        },
        Kind {
            name: "annotation.title",
            effect: Annotation,
            apply: ann_title,
        },
        Kind {
            name: "annotation.examples",
            effect: Annotation,
            apply: ann_examples,
        },
        Kind {
            name: "annotation.deprecated",
            effect: Annotation,
            apply: ann_deprecated,
        },
        Kind {
            name: "default.change",
            effect: Mixed,
            apply: default_change,
        },
    ]
}

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

const BOUNDS: [&str; 4] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

fn shift_bound(m: &mut serde_json::Map<String, Value>, rng: &mut Rng, tighten: bool) -> bool {
    let present: Vec<&str> = BOUNDS
        .iter()
        .copied()
        .filter(|k| m.get(*k).is_some_and(Value::is_number))
        .collect();
    if present.is_empty() {
        return false;
    }
    let k = *rng.pick(&present);
    let lower = k.contains("inimum");
    let up = lower == tighten; // tightening a lower bound raises it
    let step = [1i128, 1, 2, 10][rng.below(4)];
    let v = &m[k];
    let new = if let Some(i) = as_int(v) {
        super::super::widths::int_value(if up {
            i.saturating_add(step)
        } else {
            i.saturating_sub(step)
        })
    } else {
        let f = v.as_f64().unwrap();
        json!(if up { f + 0.5 } else { f - 0.5 })
    };
    m.insert(k.into(), new);
    true
}

fn bound_tighten(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| shift_bound(m, rng, true))
}

fn bound_relax(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| shift_bound(m, rng, false))
}

fn bound_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_numeric_node(m) {
        return false;
    }
    let k = *rng.pick(&BOUNDS);
    if m.contains_key(k) {
        return false;
    }
    let v = [
        json!(0),
        json!(1),
        json!(-1),
        json!(10),
        json!(255),
        json!(2.5),
    ][rng.below(6)]
    .clone();
    m.insert(k.into(), v);
    true
}

fn bound_remove(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let present: Vec<&str> = BOUNDS
        .iter()
        .copied()
        .filter(|k| m.contains_key(*k))
        .collect();
    !present.is_empty() && m.remove(*rng.pick(&present)).is_some()
}

fn bound_exclusive(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let (from, to) = *rng.pick(&[
        ("minimum", "exclusiveMinimum"),
        ("maximum", "exclusiveMaximum"),
    ]);
    if m.contains_key(to) {
        return false;
    }
    match m.remove(from) {
        Some(v) => {
            m.insert(to.into(), v);
            true
        }
        None => false,
    }
}

/// A bound one past 2^53 lowered by one: equal as `f64`, different as numbers.
fn bound_beyond_f64(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if let Some(i) = m.get("maximum").and_then(as_int) {
        if i > 9_007_199_254_740_992 {
            m.insert("maximum".into(), super::super::widths::int_value(i - 1));
            return true;
        }
    }
    false
}

fn multiple_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_numeric_node(m) || m.contains_key("multipleOf") {
        return false;
    }
    m.insert(
        "multipleOf".into(),
        [json!(2), json!(3), json!(0.5)][rng.below(3)].clone(),
    );
    true
}

fn multiple_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("multipleOf").is_some())
}

fn length_tighten(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_string_node(m) {
        return false;
    }
    if rng.chance(50) {
        let v = m
            .get("minLength")
            .and_then(Value::as_u64)
            .map_or(1, |v| v + 1);
        m.insert("minLength".into(), json!(v));
    } else {
        let v = m
            .get("maxLength")
            .and_then(Value::as_u64)
            .map_or(3, |v| v.saturating_sub(1));
        m.insert("maxLength".into(), json!(v));
    }
    true
}

fn length_relax(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let k = if rng.chance(50) {
        "minLength"
    } else {
        "maxLength"
    };
    let Some(v) = m.get(k).and_then(Value::as_u64) else {
        return false;
    };
    if rng.chance(40) {
        m.remove(k);
    } else if k == "minLength" {
        if v == 0 {
            return false;
        }
        m.insert(k.into(), json!(v - 1));
    } else {
        m.insert(k.into(), json!(v + 1));
    }
    true
}

fn pattern_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_string_node(m) || m.contains_key("pattern") {
        return false;
    }
    m.insert("pattern".into(), json!(rng.pick(&PATTERNS)));
    true
}

fn pattern_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("pattern").is_some())
}

fn pattern_widen(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some(p) = m.get("pattern").and_then(Value::as_str).map(String::from) else {
        return false;
    };
    let wider = match p.as_str() {
        "^[a-z]+$" => "^[a-z0-9]+$".to_string(),
        "^[a-c]+$" => "^[a-z]+$".to_string(),
        "^[0-9]{2,4}$" => "^\\d+$".to_string(),
        _ => format!("(?:{p})|^{}$", ["zz", "q"][rng.below(2)]),
    };
    m.insert("pattern".into(), json!(wider));
    true
}

fn pattern_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !m.contains_key("pattern") {
        return false;
    }
    m.insert("pattern".into(), json!(rng.pick(&PATTERNS)));
    true
}

fn enum_remove_value(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(Value::Array(vals)) = node(doc, ptr).and_then(|m| m.get_mut("enum")) else {
        return false;
    };
    if vals.len() < 2 {
        return false;
    }
    vals.remove(rng.below(vals.len()));
    true
}

fn fresh_like(v: Option<&Value>, rng: &mut Rng) -> Value {
    match v {
        Some(Value::Number(_)) => json!(1000 + rng.below(50) as i64),
        Some(Value::Bool(b)) => json!(!b),
        Some(Value::Null) => json!("none"),
        _ => json!(["zz_new", "Other", "b", ""][rng.below(4)]),
    }
}

fn enum_add_value(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(Value::Array(vals)) = node(doc, ptr).and_then(|m| m.get_mut("enum")) else {
        return false;
    };
    let v = fresh_like(vals.first(), rng);
    if vals.contains(&v) {
        return false;
    }
    vals.push(v);
    true
}

fn enum_reorder(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(Value::Array(vals)) = node(doc, ptr).and_then(|m| m.get_mut("enum")) else {
        return false;
    };
    vals.reverse();
    true
}

fn enum_add(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.contains_key("enum") || m.contains_key("const") {
        return false;
    }
    let vals = if is_string_node(m) {
        json!(["a", "foo", "abc"][..1 + rng.below(3)])
    } else if is_numeric_node(m) {
        json!([0, 1, 255][..1 + rng.below(3)])
    } else {
        return false;
    };
    m.insert("enum".into(), vals);
    true
}

fn enum_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("enum").is_some())
}

fn const_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let Some(c) = m.get("const").cloned() else {
        return false;
    };
    m.insert("const".into(), fresh_like(Some(&c), rng));
    true
}

fn const_to_enum(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.contains_key("enum") {
        return false;
    }
    match m.remove("const") {
        Some(c) => {
            m.insert("enum".into(), json!([c]));
            true
        }
        None => false,
    }
}

fn const_remove(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    node(doc, ptr).is_some_and(|m| m.remove("const").is_some())
}

fn ann_description(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if m.contains_key("description") && rng.chance(30) {
        m.remove("description");
    } else {
        m.insert(
            "description".into(),
            json!(format!("edited {}", rng.below(100))),
        );
    }
    true
}

fn ann_title(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    m.insert("title".into(), json!(format!("Title {}", rng.below(100))));
    true
}

fn ann_examples(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    m.insert("examples".into(), json!([rng.below(5), "x"]));
    true
}

fn ann_deprecated(doc: &mut Value, ptr: &str, _: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let now = !m
        .get("deprecated")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    m.insert("deprecated".into(), json!(now));
    true
}

fn default_change(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let d = m.get("default").cloned();
    m.insert("default".into(), fresh_like(d.as_ref(), rng));
    true
}
