//! Per-keyword comparisons: types and value sets, then the keywords that
//! apply to one JSON type (numeric ranges, string length/pattern/format,
//! array items and sizes, object properties, `required`,
//! `additionalProperties`, `patternProperties`, `propertyNames`,
//! `dependentRequired`). Type-specific keywords are compared only when both
//! sides admit that type: a `minimum` on a schema that admits no numbers
//! changes nothing.

use std::collections::BTreeSet;

use serde_json::Value;

use super::label;
use super::numbers::bound_effect;
use super::schema::{Cx, Direction, Effect};
use crate::lockfile::escape_pointer;
use crate::schema::numeric::{Bound, Num};
use crate::schema::shape::Shape;
use crate::schema::types::TypeSet;

static ANY: Value = Value::Bool(true);

/// The set of types a node admits, narrowed by its `enum`/`const` if any.
pub(crate) fn effective_types(s: &Shape<'_>) -> TypeSet {
    let declared = TypeSet::from_keyword(s.get("type"));
    match effective_enum(s, declared) {
        Some(values) => values
            .iter()
            .fold(TypeSet::NONE, |acc, v| acc.union(TypeSet::of(v)))
            .intersect(declared),
        None => declared,
    }
}

/// The values a node's `enum` and `const` allow (intersected), restricted to its types.
pub(crate) fn effective_enum(s: &Shape<'_>, declared: TypeSet) -> Option<Vec<Value>> {
    let mut values: Option<Vec<Value>> = s.get("enum").and_then(Value::as_array).cloned();
    if let Some(c) = s.get("const") {
        values = Some(match values {
            Some(v) if !v.contains(c) => vec![],
            _ => vec![c.clone()],
        });
    }
    values.map(|v| {
        v.into_iter()
            .filter(|x| declared.contains(TypeSet::of(x)))
            .collect()
    })
}

fn values_list(v: &[&Value]) -> String {
    let shown: Vec<String> = v.iter().take(5).map(|x| x.to_string()).collect();
    if v.len() > 5 {
        format!("{} and {} more", shown.join(", "), v.len() - 5)
    } else {
        shown.join(", ")
    }
}

/// Compares `type`, `enum` and `const`; returns the types both sides admit.
pub(crate) fn compare_types_and_values(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
) -> TypeSet {
    let (mut to, mut tn) = (effective_types(so), effective_types(sn));
    if ptr == cx.root_ptr && cx.dir == Direction::Input {
        // `arguments` are objects by protocol (`structuredContent` may be any
        // value since MCP 2026-07-28: output roots are compared in full)
        to = to.intersect(TypeSet::OBJECT);
        tn = tn.intersect(TypeSet::OBJECT);
    }
    let place = label::describe(ptr, cx.dir);
    let lost = to.minus(tn);
    let gained = tn.minus(to);
    let type_ptr = format!("{ptr}/type");
    if !lost.is_empty() {
        let what = match cx.dir {
            Direction::Input => format!(
                "{place} no longer accepts {} (type {} -> {}): calls that send such values are rejected",
                lost.describe(),
                to.describe(),
                tn.describe()
            ),
            Direction::Output => format!("{place} is no longer {} (type {} -> {})", lost.describe(), to.describe(), tn.describe()),
        };
        if let Some(c) = cx.emit(
            "type-narrowed",
            Effect::Narrowed,
            flip,
            &type_ptr,
            None,
            what,
        ) {
            c.detail.from = Some(to.short());
            c.detail.to = Some(tn.short());
        }
    }
    if !gained.is_empty() {
        let what = match cx.dir {
            Direction::Input => format!(
                "{place} now also accepts {} (type {} -> {})",
                gained.describe(),
                to.describe(),
                tn.describe()
            ),
            Direction::Output => format!(
                "{place} may now be {} (type {} -> {}): clients that read it as {} break",
                gained.describe(),
                to.describe(),
                tn.describe(),
                to.describe()
            ),
        };
        if let Some(c) = cx.emit("type-widened", Effect::Widened, flip, &type_ptr, None, what) {
            c.detail.from = Some(to.short());
            c.detail.to = Some(tn.short());
        }
    }
    let common = to.intersect(tn);
    let (eo, en) = (
        effective_enum(so, TypeSet::from_keyword(so.get("type"))),
        effective_enum(sn, TypeSet::from_keyword(sn.get("type"))),
    );
    let enum_ptr =
        if sn.get("const").is_some() || (sn.get("enum").is_none() && so.get("const").is_some()) {
            format!("{ptr}/const")
        } else {
            format!("{ptr}/enum")
        };
    match (&eo, &en) {
        (None, Some(n)) => {
            let refs: Vec<&Value> = n.iter().collect();
            let what = match cx.dir {
                Direction::Input => format!(
                    "{place} now only accepts {}: calls that send any other value are rejected",
                    values_list(&refs)
                ),
                Direction::Output => format!("{place} is now limited to {}", values_list(&refs)),
            };
            if let Some(c) = cx.emit(
                "enum-narrowed",
                Effect::Narrowed,
                flip,
                &enum_ptr,
                None,
                what,
            ) {
                c.detail.values = n.clone();
            }
        }
        (Some(o), None) => {
            let what = match cx.dir {
                Direction::Input => {
                    format!("{place} no longer restricts its values to a fixed list")
                }
                Direction::Output => {
                    format!("{place} is no longer limited to a fixed list of values: clients with an exhaustive match break")
                }
            };
            // only a widening within the types both sides admit
            if !o.is_empty() || !common.is_empty() {
                if let Some(c) =
                    cx.emit("enum-widened", Effect::Widened, flip, &enum_ptr, None, what)
                {
                    c.detail.values = o.clone();
                }
            }
        }
        (Some(o), Some(n)) => {
            let removed: Vec<&Value> = o
                .iter()
                .filter(|v| !n.contains(v) && tn.contains(TypeSet::of(v)))
                .collect();
            let added: Vec<&Value> = n
                .iter()
                .filter(|v| !o.contains(v) && to.contains(TypeSet::of(v)))
                .collect();
            if !removed.is_empty() {
                let what = match cx.dir {
                    Direction::Input => format!(
                        "{place} no longer accepts {}: calls that send them are rejected",
                        values_list(&removed)
                    ),
                    Direction::Output => {
                        format!("{place} no longer returns {}", values_list(&removed))
                    }
                };
                if let Some(c) = cx.emit(
                    "enum-narrowed",
                    Effect::Narrowed,
                    flip,
                    &enum_ptr,
                    None,
                    what,
                ) {
                    c.detail.values = removed.iter().map(|v| (*v).clone()).collect();
                }
            }
            if !added.is_empty() {
                let what = match cx.dir {
                    Direction::Input => format!("{place} now also accepts {}", values_list(&added)),
                    Direction::Output => format!(
                        "{place} may now be {}: clients with an exhaustive match break",
                        values_list(&added)
                    ),
                };
                if let Some(c) =
                    cx.emit("enum-widened", Effect::Widened, flip, &enum_ptr, None, what)
                {
                    c.detail.values = added.iter().map(|v| (*v).clone()).collect();
                }
            }
        }
        (None, None) => {}
    }
    common
}

/// Compares the keywords that apply to the types both sides admit.
pub(crate) fn compare_type_specific(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
    common: TypeSet,
) {
    if common.overlaps(TypeSet::NUMBER) {
        super::numbers::compare_numbers(cx, so, sn, ptr, flip);
    }
    if common.overlaps(TypeSet::STRING) {
        super::strings::compare_strings(cx, so, sn, ptr, flip);
    }
    if common.overlaps(TypeSet::ARRAY) {
        compare_arrays(cx, so, sn, ptr, flip);
    }
    if common.overlaps(TypeSet::OBJECT) {
        compare_objects(cx, so, sn, ptr, flip);
    }
}

// ---- shared helpers -----------------------------------------------------

pub(crate) fn polar_suffix(aspect: &str, effect: Effect) -> String {
    match effect {
        Effect::Narrowed => format!("{aspect}-narrowed"),
        Effect::Widened => format!("{aspect}-widened"),
        _ => format!("{aspect}-changed"),
    }
}

pub(crate) fn bound_what(
    cx: &Cx<'_>,
    place: &str,
    kw: &str,
    effect: Effect,
    from: &str,
    to: &str,
) -> String {
    match (cx.dir, effect) {
        (Direction::Input, Effect::Narrowed) => format!("{place}: {kw} {from} -> {to}: calls with values outside the new bounds are rejected"),
        (Direction::Output, Effect::Widened) => format!("{place}: {kw} {from} -> {to}: clients may receive values outside the bounds they were promised"),
        _ => format!("{place}: {kw} {from} -> {to}"),
    }
}

/// Compares a min/max integer pair of keywords (minLength/maxLength, ...).
/// A min/max integer keyword: (rule aspect, keyword, is it a lower bound).
pub(crate) type CountKeyword = (&'static str, &'static str, bool);

pub(crate) fn compare_counts(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
    keywords: &[CountKeyword],
) {
    for &(aspect, kw, is_min) in keywords {
        compare_count(cx, (so, sn), ptr, flip, (aspect, kw, is_min));
    }
}

fn compare_count(
    cx: &mut Cx<'_>,
    (so, sn): (&Shape<'_>, &Shape<'_>),
    ptr: &str,
    flip: bool,
    (aspect, kw, is_min): CountKeyword,
) {
    let (o, n) = (
        so.get(kw).and_then(Num::from_value),
        sn.get(kw).and_then(Num::from_value),
    );
    count_change(cx, ptr, flip, (aspect, kw, is_min), (o, n));
}

/// Reports a min/max count keyword moving from `o` to `n` (values already
/// defaulted by the caller where the keyword has a default).
pub(crate) fn count_change(
    cx: &mut Cx<'_>,
    ptr: &str,
    flip: bool,
    (aspect, kw, is_min): CountKeyword,
    (o, n): (Option<Num>, Option<Num>),
) {
    // minX: 0 and maxX absent are no bound at all
    let zero = Num::Int(0);
    let norm = |v: Option<Num>| {
        if is_min {
            v.filter(|x| x.total_cmp(&zero).is_gt())
        } else {
            v
        }
    };
    let (o, n) = (norm(o), norm(n));
    let bound = |v: Num| Bound {
        value: v,
        exclusive: false,
    };
    let Some(effect) = bound_effect(o.map(bound), n.map(bound), is_min) else {
        return;
    };
    let show = |v: Option<Num>| v.map_or("none".into(), |v| v.to_string());
    let (from, to) = (show(o), show(n));
    let what = bound_what(cx, &label::describe(ptr, cx.dir), kw, effect, &from, &to);
    if let Some(c) = cx.emit(
        &polar_suffix(aspect, effect),
        effect,
        flip,
        &format!("{ptr}/{kw}"),
        None,
        what,
    ) {
        c.detail.from = Some(from);
        c.detail.to = Some(to);
    }
}

/// Splits array keywords into positional items and the schema for the rest
/// (draft 2020-12 `prefixItems`/`items`, or draft-07 array `items`/`additionalItems`).
fn array_parts<'s>(
    s: &'s Shape<'_>,
) -> (
    Vec<&'s Value>,
    Option<&'s Value>,
    &'static str,
    &'static str,
) {
    match s.get("items") {
        Some(Value::Array(prefix)) => (
            prefix.iter().collect(),
            s.get("additionalItems"),
            "items",
            "additionalItems",
        ),
        items => {
            let prefix = s
                .get("prefixItems")
                .and_then(Value::as_array)
                .map(|a| a.iter().collect())
                .unwrap_or_default();
            (prefix, items, "prefixItems", "items")
        }
    }
}

fn compare_arrays(cx: &mut Cx<'_>, so: &Shape<'_>, sn: &Shape<'_>, ptr: &str, flip: bool) {
    let (po, ro, _, _) = array_parts(so);
    let (pn, rn, prefix_kw, rest_kw) = array_parts(sn);
    let n = po.len().max(pn.len());
    for i in 0..n {
        let o = po.get(i).copied().or(ro).unwrap_or(&ANY);
        let nn = pn.get(i).copied().or(rn).unwrap_or(&ANY);
        cx.cmp(o, nn, &format!("{ptr}/{prefix_kw}/{i}"), flip);
    }
    cx.cmp(
        ro.unwrap_or(&ANY),
        rn.unwrap_or(&ANY),
        &format!("{ptr}/{rest_kw}"),
        flip,
    );
    compare_contains(cx, so, sn, ptr, flip);
    compare_counts(
        cx,
        so,
        sn,
        ptr,
        flip,
        &[("size", "minItems", true), ("size", "maxItems", false)],
    );
    let unique = |s: &Shape<'_>| s.get("uniqueItems") == Some(&Value::Bool(true));
    if unique(so) != unique(sn) {
        let effect = if unique(sn) {
            Effect::Narrowed
        } else {
            Effect::Widened
        };
        let what = format!(
            "{}: uniqueItems {} -> {}",
            label::describe(ptr, cx.dir),
            unique(so),
            unique(sn)
        );
        cx.emit(
            &polar_suffix("size", effect),
            effect,
            flip,
            &format!("{ptr}/uniqueItems"),
            None,
            what,
        );
    }
}

fn required(s: &Shape<'_>) -> BTreeSet<String> {
    s.get("required")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// `contains` with its counts: `minContains` defaults to 1 where `contains`
/// is present (and means nothing without it), `maxContains` likewise.
fn compare_contains(cx: &mut Cx<'_>, so: &Shape<'_>, sn: &Shape<'_>, ptr: &str, flip: bool) {
    let counts = |s: &Shape<'_>| -> (Option<Num>, Option<Num>) {
        if s.get("contains").is_none() {
            return (None, None);
        }
        let min = s
            .get("minContains")
            .and_then(Num::from_value)
            .unwrap_or(Num::Int(1));
        (Some(min), s.get("maxContains").and_then(Num::from_value))
    };
    let ((mino, maxo), (minn, maxn)) = (counts(so), counts(sn));
    match (so.get("contains"), sn.get("contains")) {
        (Some(o), Some(n)) => {
            if maxo.is_some() || maxn.is_some() {
                // more matching items count against the maximum: a wider
                // `contains` both helps the minimum and hurts the maximum
                if !cx.equiv.same(o, n) {
                    let what = format!(
                        "the `contains` schema of {} changed while a `maxContains` limits matching items",
                        label::describe(ptr, cx.dir)
                    );
                    cx.emit(
                        "constraint-changed",
                        Effect::Changed,
                        flip,
                        &format!("{ptr}/contains"),
                        None,
                        what,
                    );
                }
            } else {
                cx.cmp(o, n, &format!("{ptr}/contains"), flip);
            }
        }
        (None, None) => return,
        _ => {}
    }
    count_change(cx, ptr, flip, ("size", "minContains", true), (mino, minn));
    count_change(cx, ptr, flip, ("size", "maxContains", false), (maxo, maxn));
}

/// `additionalProperties` as: None = open, Some(false) = closed, Some(schema).
fn additional<'s>(s: &'s Shape<'_>) -> Option<&'s Value> {
    match s.get("additionalProperties") {
        None | Some(Value::Bool(true)) => None,
        Some(v) => Some(v),
    }
}

fn compare_objects(cx: &mut Cx<'_>, so: &Shape<'_>, sn: &Shape<'_>, ptr: &str, flip: bool) {
    let empty = serde_json::Map::new();
    let po = so
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let pn = sn
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let (ao, an) = (additional(so), additional(sn));
    let (ro, rn) = (required(so), required(sn));
    let closed_new = an == Some(&Value::Bool(false));
    let names: BTreeSet<&String> = po.keys().chain(pn.keys()).collect();
    for name in names {
        let at = format!("{ptr}/properties/{}", escape_pointer(name));
        match (po.get(name), pn.get(name)) {
            (Some(o), Some(n)) => {
                cx.cmp(o, n, &at, flip);
            }
            (Some(o), None) => {
                let renamed = pn
                    .iter()
                    .find(|(k, v)| !po.contains_key(*k) && **v == *o)
                    .map(|(k, _)| k.clone());
                let hint = renamed
                    .as_ref()
                    .map(|r| format!(" (probably renamed to \"{r}\")"))
                    .unwrap_or_default();
                let what = match cx.dir {
                    Direction::Input if closed_new => {
                        format!("\"{name}\" was removed{hint} and the object is closed: calls that still send it are rejected")
                    }
                    Direction::Input => format!(
                        "\"{name}\" was removed{hint}: calls that still send it are silently ignored and the handler runs without it"
                    ),
                    Direction::Output => format!("\"{name}\" was removed{hint}: clients that read it get nothing"),
                };
                cx.emit(
                    "property-removed",
                    Effect::Changed,
                    flip,
                    &at,
                    Some(name),
                    what,
                );
            }
            (None, Some(n)) => {
                let decls = old_declarations(cx, so, name);
                // the old object may already constrain this name by a pattern
                // (compiled once: the pattern's automaton is not free)
                match (old_pattern_schema(so, name), ao) {
                    (Some(schema), _) => cx.cmp(schema, n, &at, flip),
                    (None, Some(ap)) if ap.is_object() => cx.cmp(ap, n, &at, flip),
                    _ if closed(so) && decls.is_empty() => {
                        let what = match cx.dir {
                            Direction::Input => format!("field \"{name}\" was added to a closed object: calls may now send it"),
                            Direction::Output => format!("field \"{name}\" was added to an object that promised no other fields (additionalProperties: false): strict clients reject it"),
                        };
                        let suffix = match cx.dir {
                            Direction::Input => "property-added",
                            Direction::Output => "closed-property-added",
                        };
                        cx.emit(suffix, Effect::Widened, flip, &at, Some(name), what);
                    }
                    _ if !decls.is_empty() => {
                        let old_decl = if decls.len() == 1 {
                            decls[0].clone()
                        } else {
                            serde_json::json!({ "anyOf": decls })
                        };
                        cx.cmp(&old_decl, n, &at, flip);
                    }
                    _ => {
                        let what = match cx.dir {
                            Direction::Input if rn.contains(name.as_str()) => {
                                format!("required field \"{name}\" was added")
                            }
                            Direction::Input => format!("optional field \"{name}\" was added"),
                            Direction::Output => format!("field \"{name}\" was added"),
                        };
                        cx.emit(
                            "property-added",
                            Effect::Widened,
                            flip,
                            &at,
                            Some(name),
                            what,
                        );
                    }
                }
            }
            (None, None) => {}
        }
    }
    let req_ptr = format!("{ptr}/required");
    for name in rn.difference(&ro) {
        let what = match cx.dir {
            Direction::Input => {
                format!("\"{name}\" is now required: calls made without it are rejected")
            }
            Direction::Output => format!("\"{name}\" is now always present"),
        };
        cx.emit(
            "required-added",
            Effect::Narrowed,
            flip,
            &req_ptr,
            Some(name),
            what,
        );
    }
    for name in ro.difference(&rn) {
        if !pn.contains_key(name) && po.contains_key(name) {
            continue; // reported as property-removed
        }
        let what = match cx.dir {
            Direction::Input => format!("\"{name}\" is no longer required"),
            Direction::Output => {
                format!("\"{name}\" may now be missing: clients that read it unconditionally break")
            }
        };
        cx.emit(
            "required-removed",
            Effect::Widened,
            flip,
            &req_ptr,
            Some(name),
            what,
        );
    }
    let place = label::describe(ptr, cx.dir);
    let ap_ptr = format!("{ptr}/additionalProperties");
    let before = cx.out.len();
    let show = |v: Option<&Value>| v.map_or_else(|| "true".to_string(), Value::to_string);
    let (ap_from, ap_to) = (show(ao), show(an));
    match (ao, an) {
        (None, Some(Value::Bool(false))) => {
            let what = match cx.dir {
                Direction::Input => format!("{place} is now closed (additionalProperties: false): calls with undeclared fields are rejected"),
                Direction::Output => format!("{place} is now closed (additionalProperties: false)"),
            };
            cx.emit(
                "additional-properties-narrowed",
                Effect::Narrowed,
                flip,
                &ap_ptr,
                None,
                what,
            );
        }
        (Some(Value::Bool(false)), None) => {
            let what = match cx.dir {
                Direction::Input => format!("{place} now accepts undeclared fields"),
                Direction::Output => format!(
                    "{place} is no longer closed: strict clients may receive fields they reject"
                ),
            };
            cx.emit(
                "additional-properties-widened",
                Effect::Widened,
                flip,
                &ap_ptr,
                None,
                what,
            );
        }
        (Some(Value::Bool(false)), Some(n)) if n.is_object() => {
            let what = format!("{place} now accepts undeclared fields matching a schema");
            cx.emit(
                "additional-properties-widened",
                Effect::Widened,
                flip,
                &ap_ptr,
                None,
                what,
            );
        }
        (Some(o), Some(Value::Bool(false))) if o.is_object() => {
            let what = format!("{place} no longer accepts undeclared fields");
            cx.emit(
                "additional-properties-narrowed",
                Effect::Narrowed,
                flip,
                &ap_ptr,
                None,
                what,
            );
        }
        (None, None) | (Some(Value::Bool(false)), Some(Value::Bool(false))) => {}
        (o, n) => {
            cx.cmp(o.unwrap_or(&ANY), n.unwrap_or(&ANY), &ap_ptr, flip);
        }
    }
    for c in &mut cx.out[before..] {
        if c.pointer == ap_ptr && c.detail.is_empty() {
            c.detail.from = Some(ap_from.clone());
            c.detail.to = Some(ap_to.clone());
        }
    }
    let eo = serde_json::Map::new();
    let ppo = so
        .get("patternProperties")
        .and_then(Value::as_object)
        .unwrap_or(&eo);
    let ppn = sn
        .get("patternProperties")
        .and_then(Value::as_object)
        .unwrap_or(&eo);
    let patterns: BTreeSet<&String> = ppo.keys().chain(ppn.keys()).collect();
    for p in patterns {
        let at = format!("{ptr}/patternProperties/{}", escape_pointer(p));
        match (ppo.get(p), ppn.get(p)) {
            (Some(o), Some(n)) => {
                cx.cmp(o, n, &at, flip);
            }
            (None, Some(_)) => {
                let what =
                    format!("fields of {place} whose names match {p:?} must now satisfy a schema");
                cx.emit(
                    "pattern-properties-narrowed",
                    Effect::Narrowed,
                    flip,
                    &at,
                    Some(p),
                    what,
                );
            }
            (Some(_), None) => {
                let what =
                    format!("fields of {place} whose names match {p:?} are no longer constrained");
                cx.emit(
                    "pattern-properties-widened",
                    Effect::Widened,
                    flip,
                    &at,
                    Some(p),
                    what,
                );
            }
            (None, None) => {}
        }
    }
    if so.get("propertyNames") != sn.get("propertyNames") {
        cx.cmp(
            so.get("propertyNames").unwrap_or(&ANY),
            sn.get("propertyNames").unwrap_or(&ANY),
            &format!("{ptr}/propertyNames"),
            flip,
        );
    }
    compare_counts(
        cx,
        so,
        sn,
        ptr,
        flip,
        &[
            ("size", "minProperties", true),
            ("size", "maxProperties", false),
        ],
    );
    compare_dependent_required(cx, so, sn, ptr, flip);
}

/// Does the object admit no undeclared property (`additionalProperties:
/// false`, or `unevaluatedProperties: false` with nothing else deciding)?
fn closed(s: &Shape<'_>) -> bool {
    let is_false = |v: Option<&Value>| {
        v == Some(&Value::Bool(false))
            || v.and_then(Value::as_object).is_some_and(|m| {
                m.len() == 1
                    && m.get("not")
                        .is_some_and(|n| n.as_object().is_some_and(|x| x.is_empty()))
            })
    };
    is_false(s.get("additionalProperties"))
        || (s.get("additionalProperties").is_none() && is_false(s.get("unevaluatedProperties")))
}

/// The old `patternProperties` schema a property name falls under, if any
/// (a pattern that cannot be compiled is assumed to match: comparing with
/// its schema is the conservative reading).
fn old_pattern_schema<'s>(s: &'s Shape<'_>, name: &str) -> Option<&'s Value> {
    let pp = s.get("patternProperties")?.as_object()?;
    pp.iter()
        .find(|(p, _)| {
            crate::schema::pattern::Compiled::new(Some(p)).map_or(true, |c| c.is_match(name))
        })
        .map(|(_, schema)| schema)
}

/// Where the old schema already declared `name` at this object level: in
/// the alternatives it was paired within, or in its own alternatives.
fn old_declarations(cx: &Cx<'_>, so: &Shape<'_>, name: &str) -> Vec<Value> {
    let mut out: Vec<Value> = cx
        .level_decls
        .as_ref()
        .and_then(|d| d.get(name).cloned())
        .unwrap_or_default();
    for kw in ["anyOf", "oneOf", "allOf"] {
        if let Some(bs) = so.get(kw).and_then(Value::as_array) {
            if let Some(found) = super::alternatives::declarations(cx.old_root, bs).remove(name) {
                out.extend(found);
            }
        }
    }
    out
}

fn dependent_required(s: &Shape<'_>) -> Vec<(String, BTreeSet<String>)> {
    let mut out = vec![];
    for kw in ["dependentRequired", "dependencies"] {
        if let Some(m) = s.get(kw).and_then(Value::as_object) {
            for (k, v) in m {
                if let Some(a) = v.as_array() {
                    out.push((
                        k.clone(),
                        a.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect(),
                    ));
                }
            }
        }
    }
    out
}

fn compare_dependent_required(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
) {
    let (o, n) = (dependent_required(so), dependent_required(sn));
    let get = |v: &[(String, BTreeSet<String>)], k: &str| -> BTreeSet<String> {
        v.iter()
            .filter(|(x, _)| x == k)
            .flat_map(|(_, s)| s.iter().cloned())
            .collect()
    };
    let keys: BTreeSet<&String> = o
        .iter()
        .map(|(k, _)| k)
        .chain(n.iter().map(|(k, _)| k))
        .collect();
    for k in keys {
        let (od, nd) = (get(&o, k), get(&n, k));
        let at = format!("{ptr}/dependentRequired/{}", escape_pointer(k));
        let added: Vec<&String> = nd.difference(&od).collect();
        let removed: Vec<&String> = od.difference(&nd).collect();
        if !added.is_empty() {
            let what = match cx.dir {
                Direction::Input => format!("when \"{k}\" is given, {added:?} must now be given too: calls without them are rejected"),
                Direction::Output => format!("when \"{k}\" is present, {added:?} are now always present too"),
            };
            if let Some(c) = cx.emit(
                "dependent-required-narrowed",
                Effect::Narrowed,
                flip,
                &at,
                Some(k),
                what,
            ) {
                c.detail.values = added.iter().map(|n| Value::String((*n).clone())).collect();
            }
        }
        if !removed.is_empty() {
            let what = match cx.dir {
                Direction::Input => format!("when \"{k}\" is given, {removed:?} are no longer required"),
                Direction::Output => format!("when \"{k}\" is present, {removed:?} may now be missing: clients that read them break"),
            };
            if let Some(c) = cx.emit(
                "dependent-required-widened",
                Effect::Widened,
                flip,
                &at,
                Some(k),
                what,
            ) {
                c.detail.values = removed
                    .iter()
                    .map(|n| Value::String((*n).clone()))
                    .collect();
            }
        }
    }
}
