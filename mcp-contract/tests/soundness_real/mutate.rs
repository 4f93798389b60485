//! The mutation kinds: each changes one schema node (or, for reference
//! kinds, the document around it) the way an edit to a Rust type or a
//! hand-written schema would, and says which way it moves the accepted set.
//! Kinds live by area in `mutate/`; this file is the table and the driver.

#[path = "mutate/arrays.rs"]
mod arrays;
#[path = "mutate/classes.rs"]
mod classes;
#[path = "mutate/dialects.rs"]
pub mod dialects;
#[path = "mutate/literals.rs"]
mod literals;
#[path = "mutate/numbers.rs"]
pub mod numbers;
#[path = "mutate/objects.rs"]
mod objects;
#[path = "mutate/ranges.rs"]
mod ranges;
#[path = "mutate/structure.rs"]
mod structure;
#[path = "mutate/types.rs"]
mod types;

use serde_json::{Map, Value};

use super::rng::Rng;
use super::walk::{self, Site};

/// How a kind moves the set of values the document accepts (at a monotone
/// place; elsewhere it may do anything).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Accepts exactly the same values (a renamed `$defs` type, a respelling).
    Same,
    /// Only annotations change.
    Annotation,
    /// Only removes or relaxes a constraint.
    Widen,
    /// Only adds or tightens a constraint.
    Narrow,
    /// Either, or both.
    Mixed,
}

pub type Apply = fn(&mut Value, &str, &mut Rng) -> bool;

pub struct Kind {
    pub name: &'static str,
    pub effect: Effect,
    pub apply: Apply,
}

/// Every kind, in a fixed order (pairs cycle through them).
pub fn kinds() -> Vec<Kind> {
    let mut out = vec![];
    out.extend(types::kinds());
    out.extend(ranges::kinds());
    out.extend(literals::kinds());
    out.extend(objects::kinds());
    out.extend(arrays::kinds());
    out.extend(structure::kinds());
    out.extend(dialects::kinds());
    out.extend(numbers::kinds());
    out.extend(classes::kinds());
    out
}

/// A mutated copy of `old` by `kind` at one of its sites, or `None` when the
/// kind applies nowhere in it.
pub fn mutate(old: &Value, kind: &Kind, rng: &mut Rng) -> Option<(Value, Site)> {
    let sites = walk::sites(old);
    if sites.is_empty() {
        return None;
    }
    let start = rng.below(sites.len());
    for i in 0..sites.len().min(48) {
        let site = &sites[(start + i * 7919) % sites.len()];
        let mut new = old.clone();
        let mut local = Rng::new(rng.next());
        if (kind.apply)(&mut new, &site.ptr, &mut local) && new != *old {
            return Some((new, site.clone()));
        }
    }
    None
}

/// The node at `ptr` as an object.
pub fn node<'v>(doc: &'v mut Value, ptr: &str) -> Option<&'v mut Map<String, Value>> {
    walk::at_mut(doc, ptr).and_then(Value::as_object_mut)
}

/// The JSON types a node names with `type` (empty when it names none).
pub fn types_of(m: &Map<String, Value>) -> Vec<String> {
    match m.get("type") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|t| t.as_str().map(String::from))
            .collect(),
        _ => vec![],
    }
}

pub fn has_type(m: &Map<String, Value>, t: &str) -> bool {
    types_of(m)
        .iter()
        .any(|x| x == t || (t == "number" && x == "integer"))
}

/// Does the node look like it describes objects (by `type` or keywords)?
pub fn is_object_node(m: &Map<String, Value>) -> bool {
    has_type(m, "object")
        || (m.get("type").is_none() && (m.contains_key("properties") || m.contains_key("required")))
}

pub fn is_array_node(m: &Map<String, Value>) -> bool {
    has_type(m, "array")
        || (m.get("type").is_none() && (m.contains_key("items") || m.contains_key("prefixItems")))
}

pub fn is_numeric_node(m: &Map<String, Value>) -> bool {
    has_type(m, "number") || has_type(m, "integer")
}

pub fn is_string_node(m: &Map<String, Value>) -> bool {
    has_type(m, "string")
}

/// The property names an object node declares.
pub fn declared(m: &Map<String, Value>) -> Vec<String> {
    m.get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

pub fn required(m: &Map<String, Value>) -> Vec<String> {
    m.get("required")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// A small schema of a random scalar type (what an edit puts in).
pub fn small_schema(rng: &mut Rng) -> Value {
    use serde_json::json;
    match rng.below(7) {
        0 => json!({"type": "string"}),
        1 => json!({"type": "integer", "format": "uint32", "minimum": 0}),
        2 => json!({"type": "boolean"}),
        3 => json!({"type": "number", "format": "double"}),
        4 => json!({"type": ["string", "null"]}),
        5 => json!({"type": "integer", "format": "int8"}),
        _ => json!({"type": "string", "enum": ["a", "b"]}),
    }
}

/// The number in a bound, as an exact integer when it is one.
pub fn as_int(v: &Value) -> Option<i128> {
    v.as_i64()
        .map(i128::from)
        .or_else(|| v.as_u64().map(i128::from))
}

/// Tightens a `min*`/`max*` count pair (`keys`): raises the minimum or
/// lowers the maximum (`max_default` when there was none).
pub fn tighten_count(
    m: &mut Map<String, Value>,
    keys: (&str, &str),
    max_default: u64,
    rng: &mut Rng,
) {
    let (min, max) = keys;
    if rng.chance(50) {
        let v = m.get(min).and_then(Value::as_u64).map_or(1, |v| v + 1);
        m.insert(min.into(), serde_json::json!(v));
    } else {
        let v = m
            .get(max)
            .and_then(Value::as_u64)
            .map_or(max_default, |v| v.saturating_sub(1));
        m.insert(max.into(), serde_json::json!(v));
    }
}

/// Relaxes one of a `min*`/`max*` count pair: removes it, or moves it
/// outward by one. False when the chosen keyword is absent or already 0.
pub fn relax_count(m: &mut Map<String, Value>, keys: (&str, &str), rng: &mut Rng) -> bool {
    let (min, max) = keys;
    let k = if rng.chance(50) { min } else { max };
    let Some(v) = m.get(k).and_then(Value::as_u64) else {
        return false;
    };
    if rng.chance(40) {
        m.remove(k);
    } else if k == min {
        if v == 0 {
            return false;
        }
        m.insert(k.into(), serde_json::json!(v - 1));
    } else {
        m.insert(k.into(), serde_json::json!(v + 1));
    }
    true
}
