//! The shapes schemars publishes that the soundness-style generator does
//! not draw: integer leaves with a width `format` (and `minimum: 0` on the
//! unsigned ones), nullable `["T", "null"]` types, `$ref`s to `$defs` as
//! `oneOf`/`anyOf` branches; and the mutation that changes a width. Drawn
//! from a stream of their own, so a pair left without them is the
//! soundness-style pair it was.
//!
//! The `jsonschema` crate does not enforce these formats (they are
//! annotations to it), so a width witness cannot be re-checked as it is:
//! [`strict`] spells every width out as the bounds serde enforces, and the
//! re-check validates against that.

use serde_json::{json, Map, Value};

use super::widths::{int_range, int_value};
use super::Rng;

/// The integer widths schemars writes for `i8`..`i64`, `u8`..`u64`.
const INT_FORMATS: [&str; 8] = [
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
];

fn unsigned(format: &str) -> bool {
    format.starts_with('u')
}

/// Is the node's type `integer`, alone or with `null`?
fn integer_typed(m: &Map<String, Value>) -> bool {
    match m.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(a)) => {
            a.contains(&json!("integer")) && a.iter().all(|t| t == "integer" || t == "null")
        }
        _ => false,
    }
}

/// Sets a width as schemars writes it (unsigned: `minimum: 0` unless a
/// higher minimum is there; signed after unsigned: that zero dropped).
fn set_width(m: &mut Map<String, Value>, format: &str) {
    let was_unsigned = m
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(unsigned);
    m.insert("format".into(), json!(format));
    let min = m.get("minimum").and_then(Value::as_f64);
    if unsigned(format) {
        if min.is_none_or(|v| v < 0.0) {
            m.insert("minimum".into(), json!(0));
        }
    } else if was_unsigned && min == Some(0.0) {
        m.remove("minimum");
    }
}

/// Decorates a generated schema in place with schemars' shapes; referenced
/// branches go to `defs` (named `S0`, `S1`, ...).
pub fn decorate(v: &mut Value, r: &mut Rng, defs: &mut Map<String, Value>) {
    let Value::Object(m) = v else { return };
    for (k, child) in m.iter_mut() {
        match k.as_str() {
            "properties" => {
                for p in child
                    .as_object_mut()
                    .into_iter()
                    .flat_map(|p| p.values_mut())
                {
                    decorate(p, r, defs);
                }
            }
            "items" | "not" | "additionalProperties" | "allOf" => {
                for c in children(child) {
                    decorate(c, r, defs);
                }
            }
            "anyOf" | "oneOf" => {
                for b in children(child) {
                    decorate(b, r, defs);
                    // an enum or struct type as a branch is a reference
                    if b.as_object().is_some_and(|b| !b.is_empty()) && r.chance(40) {
                        let name = format!("S{}", defs.len());
                        defs.insert(name.clone(), b.take());
                        *b = json!({"$ref": format!("#/$defs/{name}")});
                    }
                }
            }
            _ => {}
        }
    }
    // Option<T> of a plain type
    if let Some(Value::String(t)) = m.get("type") {
        if t != "null" && r.chance(15) {
            let t = t.clone();
            m.insert("type".into(), json!([t, "null"]));
        }
    }
    if integer_typed(m) && !m.contains_key("format") && r.chance(70) {
        set_width(m, INT_FORMATS[r.below(8) as usize]);
    }
}

/// The node itself (an object) or the branches (an array).
fn children(v: &mut Value) -> Vec<&mut Value> {
    match v {
        Value::Array(a) => a.iter_mut().collect(),
        v => vec![v],
    }
}

/// Every node carrying an integer width, anywhere in `v`.
fn width_nodes<'v>(v: &'v mut Value, out: &mut Vec<&'v mut Map<String, Value>>) {
    match v {
        Value::Object(m) => {
            let width = m
                .get("format")
                .and_then(Value::as_str)
                .is_some_and(|f| INT_FORMATS.contains(&f));
            if width {
                out.push(m);
            } else {
                for c in m.values_mut() {
                    width_nodes(c, out);
                }
            }
        }
        Value::Array(a) => {
            for c in a {
                width_nodes(c, out);
            }
        }
        _ => {}
    }
}

/// Changes one width of `new` (both directions: `uint32 -> uint8`,
/// `int32 -> int64`, signed to unsigned); true when one changed.
pub fn mutate_width(new: &mut Value, r: &mut Rng) -> bool {
    let mut nodes = vec![];
    width_nodes(new, &mut nodes);
    if nodes.is_empty() {
        return false;
    }
    let i = r.below(nodes.len() as u64) as usize;
    let m = &mut nodes[i];
    let now = m.get("format").and_then(Value::as_str).unwrap_or_default();
    let others: Vec<&str> = INT_FORMATS.iter().copied().filter(|f| *f != now).collect();
    let to = others[r.below(others.len() as u64) as usize];
    set_width(m, to);
    true
}

/// `v` with every integer width spelled out as the bounds serde enforces
/// (an integer within the width's range: no fraction).
pub fn strict(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut out: Map<String, Value> =
                m.iter().map(|(k, c)| (k.clone(), strict(c))).collect();
            if let Some((lo, hi)) = m.get("format").and_then(Value::as_str).and_then(int_range) {
                let bound =
                    json!({"minimum": int_value(lo), "maximum": int_value(hi), "multipleOf": 1});
                match out.get_mut("allOf") {
                    Some(Value::Array(a)) => a.push(bound),
                    _ => {
                        out.insert("allOf".into(), json!([bound]));
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(strict).collect()),
        v => v.clone(),
    }
}
