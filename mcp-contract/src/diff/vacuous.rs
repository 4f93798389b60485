//! Nodes that accept no value at all, so that no change beneath them can
//! break anyone.
//!
//! A break needs a value: for an input, one the old schema accepted there;
//! for an output, one the new schema allows there (inside `not`, the other
//! side). When that side's node provably accepts nothing (`type`s that do
//! not meet across `allOf`, alternatives none of which can hold, `enum`
//! values none of which has an allowed type, `false`, `not: {}`), every
//! breaking verdict beneath it is a guess that no witness can back (the
//! witness pass found these; issue 13). Only type-level reasoning: sound,
//! cheap and bounded.

use serde_json::Value;

use super::keywords::{effective_enum, effective_types};
use crate::schema::numeric::Num;
use crate::schema::shape::{shape, Shape};
use crate::schema::types::TypeSet;
use crate::schema::values::ValueSet;

/// Deepest `allOf`/`anyOf`/`oneOf` nesting looked into.
const MAX_DEPTH: usize = 16;
/// Most branches looked at per node.
const MAX_BRANCHES: usize = 32;
/// Most nodes one question looks at (through recursive definitions the
/// branches multiply); beyond it the answer is "any type", which filters
/// nothing.
const MAX_NODES: usize = 256;

type Budget = std::cell::Cell<usize>;

fn budget() -> Budget {
    std::cell::Cell::new(MAX_NODES)
}

/// Does the node provably accept no value?
#[cfg(test)]
fn accepts_nothing(root: &Value, s: &Shape<'_>) -> bool {
    types(root, s, 0, &budget()).is_empty()
}

/// The idle keywords alone (see [`idle_and_empty`]).
#[cfg(test)]
fn idle_keywords(root: &Value, s: &Shape<'_>) -> Vec<&'static str> {
    idle_for(types(root, s, 0, &budget()), s)
}

/// The node's idle keywords (no value it accepts is subject to them: those
/// of a type it does not admit, `items` where arrays must be empty; a change
/// under them cannot break anyone), and whether it accepts no value at all.
pub(crate) fn idle_and_empty(root: &Value, s: &Shape<'_>) -> (Vec<&'static str>, bool) {
    let t = types(root, s, 0, &budget());
    (idle_for(t, s), t.is_empty())
}

/// The idle keywords of a node's residual `allOf` branches: those of the
/// types the node admits *apart from* those branches. (With them, a branch
/// that empties the node's objects would make its own keywords look idle:
/// a closed branch beside a requirement it rejects would vanish.)
pub(crate) fn idle_beside_all_of(root: &Value, s: &Shape<'_>) -> Vec<&'static str> {
    let mut map = s.map.clone().into_owned();
    map.remove("allOf");
    let apart = Shape {
        map: std::borrow::Cow::Owned(map),
        via: s.via.clone(),
        truncated: s.truncated,
    };
    idle_and_empty(root, &apart).0
}

pub(crate) use crate::schema::types::BY_TYPE;

fn idle_for(t: TypeSet, s: &Shape<'_>) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = vec![];
    for (ty, kws) in BY_TYPE {
        if !t.overlaps(ty) {
            out.extend(kws.iter().copied());
        }
    }
    if s.get("maxItems").and_then(Value::as_u64) == Some(0) {
        out.extend(["items", "prefixItems", "additionalItems", "uniqueItems"]);
    }
    out
}

/// A superset of the types of the values `node` (in `root`) accepts.
pub(crate) fn node_types(root: &Value, node: &Value) -> TypeSet {
    types(root, &shape(root, node), 0, &budget())
}

/// A superset of the types of the values the normalized node `s` (in `root`) accepts.
pub(crate) fn shape_types(root: &Value, s: &Shape<'_>) -> TypeSet {
    types(root, s, 0, &budget())
}

/// Can a value satisfy both the node `s` (in `root`) and the schema `other`
/// (in `other_root`)? False when their types cannot meet: a `not: other`
/// added to or removed from `s` then changes nothing.
pub(crate) fn may_meet(root: &Value, s: &Shape<'_>, other_root: &Value, other: &Value) -> bool {
    let left = budget();
    types(root, s, 0, &left).overlaps(types(other_root, &shape(other_root, other), 0, &left))
}

/// Can a value match both `a` and `b` (in `root`) and one of `other`'s
/// alternatives (in `other_root`)? False when their types cannot meet: an
/// overlap of two `oneOf` branches that the other side's values never reach.
pub(crate) fn may_overlap(
    root: &Value,
    a: &Value,
    b: &Value,
    other_root: &Value,
    other: &[Value],
) -> bool {
    let left = budget();
    let t = |r: &Value, v: &Value| types(r, &shape(r, v), 0, &left);
    let reach = other
        .iter()
        .take(MAX_BRANCHES)
        .fold(TypeSet::NONE, |acc, o| acc.union(t(other_root, o)));
    let reach = if other.len() > MAX_BRANCHES {
        TypeSet::ALL
    } else {
        reach
    };
    !t(root, a).intersect(t(root, b)).intersect(reach).is_empty()
}

/// The types whose values the node's own bounds exclude: an empty number
/// range, `minLength` above `maxLength` (likewise items and members), a
/// `maxLength: 0` whose `pattern` rejects the empty string, a required
/// member whose declared schema accepts nothing, or one a closed object
/// does not declare.
fn empty_by_bounds(root: &Value, s: &Shape<'_>, depth: usize, left: &Budget) -> TypeSet {
    // (exactly: bounds past 2^53 are not rounded together)
    let num = |k: &str| s.get(k).and_then(Num::from_value);
    let mut out = TypeSet::NONE;
    // lower and upper bound, each with whether it is exclusive
    let mut lo = num("minimum").map(|m| (m, false));
    if let Some(e) = num("exclusiveMinimum") {
        if lo.is_none_or(|(m, _)| e.total_cmp(&m).is_ge()) {
            lo = Some((e, true));
        }
    }
    let mut hi = num("maximum").map(|m| (m, false));
    if let Some(e) = num("exclusiveMaximum") {
        if hi.is_none_or(|(m, _)| e.total_cmp(&m).is_le()) {
            hi = Some((e, true));
        }
    }
    if let (Some((l, lx)), Some((h, hx))) = (lo, hi) {
        let ord = l.total_cmp(&h);
        if ord.is_gt() || (ord.is_eq() && (lx || hx)) {
            out = out.union(TypeSet::NUMBER);
        } else if ord.is_eq() && l.decimal().is_some_and(|(_, e)| e >= 0) {
            // a single whole number: no fraction fits
            out = out.union(TypeSet::FRACTION);
        }
    }
    let count = |k: &str| s.get(k).and_then(Value::as_u64);
    let crossed =
        |min: &str, max: &str| matches!((count(min), count(max)), (Some(a), Some(b)) if a > b);
    // only "" fits, and the pattern rejects it
    let only_empty = count("maxLength") == Some(0)
        && s.get("pattern").and_then(Value::as_str).is_some_and(|p| {
            crate::schema::pattern::Compiled::new(Some(p)).is_ok_and(|c| !c.is_match(""))
        });
    if crossed("minLength", "maxLength") || only_empty {
        out = out.union(TypeSet::STRING);
    }
    if crossed("minItems", "maxItems") {
        out = out.union(TypeSet::ARRAY);
    }
    if crossed("minProperties", "maxProperties") {
        out = out.union(TypeSet::OBJECT);
    }
    let required = s.get("required").and_then(Value::as_array);
    // a closed object requiring a member it does not declare (the node and
    // its residual `allOf` branches: any of them may close, any may require)
    let parts: Vec<Shape<'_>> = s
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(MAX_BRANCHES)
        .map(|b| shape(root, b))
        .collect();
    let closed = |s: &Shape<'_>| {
        s.get("additionalProperties") == Some(&Value::Bool(false))
            && s.get("patternProperties").is_none()
    };
    let declared =
        |s: &Shape<'_>, name: &str| s.get("properties").and_then(|p| p.get(name)).is_some();
    let all_required: Vec<&str> = std::iter::once(s)
        .chain(parts.iter())
        .flat_map(|p| {
            p.get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .filter_map(Value::as_str)
        .collect();
    if std::iter::once(s)
        .chain(parts.iter())
        .filter(|p| closed(p))
        .any(|p| all_required.iter().any(|n| !declared(p, n)))
    {
        out = out.union(TypeSet::OBJECT);
    }
    // a required member two of them declare with no type in common
    let member_types = |p: &Shape<'_>, name: &str| {
        p.get("properties")
            .and_then(|ps| ps.get(name))
            .map(|d| effective_types(&shape(root, d)))
    };
    let clash = all_required.iter().any(|n| {
        let ts: Vec<TypeSet> = std::iter::once(s)
            .chain(parts.iter())
            .filter_map(|p| member_types(p, n))
            .collect();
        ts.iter()
            .enumerate()
            .any(|(i, a)| ts[i + 1..].iter().any(|b| !a.overlaps(*b)))
    });
    if clash {
        out = out.union(TypeSet::OBJECT);
    }
    for name in required
        .into_iter()
        .flatten()
        .take(MAX_BRANCHES)
        .filter_map(Value::as_str)
    {
        if let Some(p) = s.get("properties").and_then(|p| p.get(name)) {
            if types(root, &shape(root, p), depth + 1, left).is_empty() {
                out = out.union(TypeSet::OBJECT);
                break;
            }
        }
    }
    out
}

/// A superset of the types of the values the node accepts.
fn types(root: &Value, s: &Shape<'_>, depth: usize, left: &Budget) -> TypeSet {
    let mut t = effective_types(s);
    if t.is_empty() || depth >= MAX_DEPTH {
        return t;
    }
    if left.get() == 0 {
        return TypeSet::ALL;
    }
    left.set(left.get() - 1);
    if let Some(values) = listed(root, s) {
        t = t.intersect(
            values
                .iter()
                .fold(TypeSet::NONE, |acc, v| acc.union(TypeSet::of(v))),
        );
    }
    // `not: {}` / `not: true` (and the `false` schema, which shape spells so)
    if let Some(n) = s.get("not") {
        let never = match n {
            Value::Bool(b) => *b,
            Value::Object(m) => m.is_empty(),
            _ => false,
        };
        if never {
            return TypeSet::NONE;
        }
    }
    // `not` of a schema that says only types excludes exactly those
    if let Some(x) = s.get("not").and_then(|n| exact_types(root, n, depth + 1)) {
        t = t.minus(x);
    }
    t = t.minus(empty_by_bounds(root, s, depth, left));
    // a `multipleOf` that is a whole number admits integers only
    if s.get("multipleOf")
        .and_then(Num::from_value)
        .is_some_and(|m| match m {
            Num::Int(i) => i > 0,
            Num::Float(f) => f >= 1.0 && f.fract() == 0.0,
        })
    {
        t = t.minus(TypeSet::FRACTION);
    }
    let branches = |kw: &str| -> Vec<&Value> {
        s.get(kw)
            .and_then(Value::as_array)
            .map(|a| a.iter().take(MAX_BRANCHES).collect())
            .unwrap_or_default()
    };
    // residual allOf: every branch holds
    for b in branches("allOf") {
        t = t.intersect(types(root, &shape(root, b), depth + 1, left));
    }
    // anyOf/oneOf: some branch holds
    for kw in ["anyOf", "oneOf"] {
        let bs = branches(kw);
        if bs.is_empty() || s.get(kw).and_then(Value::as_array).map_or(0, Vec::len) > MAX_BRANCHES {
            continue;
        }
        // a oneOf of branches that say only types holds exactly for the types one of them names
        let exact: Option<Vec<TypeSet>> = (kw == "oneOf")
            .then(|| bs.iter().map(|b| exact_types(root, b, depth + 1)).collect())
            .flatten();
        if let Some(exact) = exact {
            t = t.intersect(exactly_one(&exact));
            continue;
        }
        let some = bs.into_iter().fold(TypeSet::NONE, |acc, b| {
            acc.union(types(root, &shape(root, b), depth + 1, left))
        });
        t = t.intersect(some);
    }
    t
}

/// The values a node's `enum`/`const` lists that can pass it: listed by
/// every residual `allOf` branch that lists values too, and within the
/// node's own length, range and pattern. `None` when nothing is listed.
fn listed(root: &Value, s: &Shape<'_>) -> Option<Vec<Value>> {
    let mut values = effective_enum(s, TypeSet::ALL);
    for b in s
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .take(MAX_BRANCHES)
    {
        let bs = shape(root, b);
        if bs.truncated {
            continue;
        }
        if let Some(theirs) = effective_enum(&bs, TypeSet::ALL) {
            values = Some(match values {
                None => theirs,
                Some(ours) => {
                    let theirs = ValueSet::new(&theirs);
                    ours.into_iter()
                        .filter(|x| may_be_among(x, &theirs))
                        .collect()
                }
            });
        }
    }
    values.map(|v| v.into_iter().filter(|x| within_bounds(s, x)).collect())
}

/// Can `a` be one of the listed values `theirs`? (numbers by value;
/// containers, which may hold numbers spelled apart, always may)
fn may_be_among(a: &Value, theirs: &ValueSet<'_>) -> bool {
    if matches!(a, Value::Array(_) | Value::Object(_)) {
        return !theirs.is_empty();
    }
    theirs.has_containers() || theirs.contains_by(a, may_equal)
}

/// Can two scalar values be the same JSON value? (numbers by value)
fn may_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Num::from_number(x) == Num::from_number(y),
        _ => a == b,
    }
}

/// Does a listed string or number pass the node's own length, pattern and
/// range keywords? (other values: true)
fn within_bounds(s: &Shape<'_>, v: &Value) -> bool {
    let num = |k: &str| s.get(k).and_then(Num::from_value);
    match v {
        Value::String(text) => {
            let n = text.chars().count() as u64;
            let len = |k: &str| s.get(k).and_then(Value::as_u64);
            if len("minLength").is_some_and(|m| n < m) || len("maxLength").is_some_and(|m| n > m) {
                return false;
            }
            // (where validators may disagree on a match, it may be one)
            match s.get("pattern").and_then(Value::as_str) {
                Some(p) => crate::schema::accepts::matches(p, text).unwrap_or(true),
                None => true,
            }
        }
        Value::Number(x) => {
            let x = Num::from_number(x);
            let below = |b: Num, exclusive: bool| {
                let o = x.total_cmp(&b);
                o.is_lt() || (exclusive && o.is_eq())
            };
            let above = |b: Num, exclusive: bool| {
                let o = x.total_cmp(&b);
                o.is_gt() || (exclusive && o.is_eq())
            };
            !(num("minimum").is_some_and(|m| below(m, false))
                || num("exclusiveMinimum").is_some_and(|m| below(m, true))
                || num("maximum").is_some_and(|m| above(m, false))
                || num("exclusiveMaximum").is_some_and(|m| above(m, true)))
        }
        _ => true,
    }
}

/// The single JSON kinds a [`TypeSet`] is made of.
const KINDS: [TypeSet; 8] = [
    TypeSet::NULL,
    TypeSet::BOOLEAN,
    TypeSet::OBJECT,
    TypeSet::ARRAY,
    TypeSet::STRING,
    TypeSet::WHOLE_WRITTEN,
    TypeSet::FRACTION_WRITTEN,
    TypeSet::FRACTION,
];

/// The kinds exactly one of `sets` holds.
fn exactly_one(sets: &[TypeSet]) -> TypeSet {
    KINDS
        .into_iter()
        .filter(|k| sets.iter().filter(|s| s.contains(*k)).count() == 1)
        .fold(TypeSet::NONE, TypeSet::union)
}

/// The types a schema that says nothing but types accepts, exactly: `{}`,
/// `type`, and `not`/`anyOf`/`oneOf`/`allOf` of such schemas (annotations
/// aside). `None` when the schema says anything else.
fn exact_types(root: &Value, v: &Value, depth: usize) -> Option<TypeSet> {
    if depth >= MAX_DEPTH {
        return None;
    }
    let s = shape(root, v);
    if s.truncated {
        return None;
    }
    let branches = |b: &Value| -> Option<Vec<TypeSet>> {
        let bs = b.as_array()?;
        if bs.len() > MAX_BRANCHES {
            return None;
        }
        bs.iter().map(|b| exact_types(root, b, depth + 1)).collect()
    };
    let mut t = TypeSet::ALL;
    for (k, val) in s.map.iter() {
        t = match k.as_str() {
            k if crate::schema::ANNOTATION_KEYWORDS.contains(&k) => t,
            "type" => t.intersect(TypeSet::from_keyword(Some(val))),
            "not" => t.minus(exact_types(root, val, depth + 1)?),
            "anyOf" => t.intersect(
                branches(val)?
                    .into_iter()
                    .fold(TypeSet::NONE, TypeSet::union),
            ),
            "allOf" => branches(val)?.into_iter().fold(t, TypeSet::intersect),
            "oneOf" => t.intersect(exactly_one(&branches(val)?)),
            _ => return None,
        };
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn nothing(v: Value) -> bool {
        let root = json!({"$defs": {"S": {"type": "string"}}});
        accepts_nothing(&root, &shape(&root, &v))
    }

    #[test]
    fn type_level_emptiness() {
        assert!(nothing(
            json!({"allOf": [{"type": "number"}, {"type": "string"}]})
        ));
        assert!(nothing(
            json!({"allOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]})
        ));
        assert!(nothing(json!({"type": "integer", "enum": ["a", true]})));
        assert!(nothing(
            json!({"type": "object", "additionalProperties": false, "properties": {"b": {}}, "required": ["a"]})
        ));
        assert!(!nothing(
            json!({"type": "object", "additionalProperties": false, "properties": {"a": {}}, "required": ["a"]})
        ));
        assert!(nothing(
            json!({"anyOf": [{"type": "string", "const": 1}, {"allOf": [{"type": "null"}, {"type": "array"}]}]})
        ));
        assert!(nothing(
            json!({"type": "object", "oneOf": [{"type": "string"}, {"type": "null"}]})
        ));
        assert!(nothing(json!(false)));
        assert!(nothing(json!({"not": {}})));
        // integer is a number
        assert!(!nothing(
            json!({"allOf": [{"type": "number"}, {"type": "integer"}]})
        ));
        assert!(!nothing(
            json!({"anyOf": [{"type": "string"}, {"type": "null"}], "type": "null"})
        ));
        assert!(!nothing(json!({"not": {"type": "string"}})));
        assert!(!nothing(json!({})));
        // bounds that cross
        assert!(nothing(
            json!({"type": "integer", "minimum": 4, "maximum": 2})
        ));
        assert!(nothing(
            json!({"type": "number", "exclusiveMinimum": 2, "maximum": 2})
        ));
        assert!(!nothing(
            json!({"type": "number", "minimum": 2, "maximum": 2})
        ));
        assert!(nothing(
            json!({"type": "string", "minLength": 2, "maxLength": 1})
        ));
        assert!(!nothing(
            json!({"type": ["string", "null"], "minLength": 2, "maxLength": 1})
        ));
        assert!(nothing(
            json!({"type": "array", "minItems": 2, "maxItems": 1})
        ));
        assert!(nothing(
            json!({"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {"type": "null"}]}}, "required": ["a"]})
        ));
        assert!(!nothing(
            json!({"type": "object", "properties": {"a": {"allOf": [{"type": "string"}, {"type": "null"}]}}})
        ));
    }

    #[test]
    fn keywords_of_absent_types_are_idle() {
        let root = json!({});
        let idle = |v: Value| idle_keywords(&root, &shape(&root, &v));
        assert!(idle(json!({"type": "number"})).contains(&"minLength"));
        assert!(!idle(json!({"type": "number"})).contains(&"minimum"));
        assert!(idle(json!({"type": "array", "maxItems": 0})).contains(&"items"));
        assert!(
            idle(json!({"anyOf": [{"type": "string"}, {"type": "null"}]})).contains(&"properties")
        );
        assert!(idle(json!({})).is_empty());
    }

    #[test]
    fn disjoint_negations_change_nothing() {
        let root = json!({});
        let meet = |a: Value, b: Value| may_meet(&root, &shape(&root, &a), &root, &b);
        assert!(!meet(json!({"type": "number"}), json!({"type": "boolean"})));
        assert!(!meet(
            json!({"type": "array"}),
            json!({"anyOf": [{"const": "x"}, {"type": "null"}]})
        ));
        assert!(meet(json!({"type": "number"}), json!({"type": "integer"})));
        assert!(meet(json!({}), json!({"type": "boolean"})));
    }
}
