//! Per-keyword comparisons: types and value sets, then the keywords that
//! apply to one JSON type (numeric ranges, string length/pattern/format,
//! array items and sizes; objects live in `objects`). Type-specific
//! keywords are compared only when both
//! sides admit that type: a `minimum` on a schema that admits no numbers
//! changes nothing.

use serde_json::Value;

use super::label;
use super::numbers::bound_effect;
use super::rule::{Aspect, SchemaRule};
use super::schema::{Cx, Direction, Effect};
use crate::schema::numeric::{Bound, Num};
use crate::schema::shape::Shape;
use crate::schema::types::TypeSet;
use crate::schema::values::ValueSet;

static ANY: Value = Value::Bool(true);

/// The set of types a node admits, narrowed by its `enum`/`const` if any.
pub(crate) fn effective_types(s: &Shape<'_>) -> TypeSet {
    let mut declared = TypeSet::from_keyword(s.get("type"));
    // an integer width admits no fraction, whatever `type` says
    if s.get("format")
        .and_then(Value::as_str)
        .is_some_and(crate::schema::numeric::is_integer_format)
    {
        declared = declared.minus(TypeSet::FRACTION);
    }
    // (the types of the listed values, read in place: an `enum` of
    // thousands is not copied to learn that it holds strings)
    let of_values = |values: &mut dyn Iterator<Item = &Value>| {
        values
            .filter(|x| declared.contains(TypeSet::of(x)))
            .fold(TypeSet::NONE, |acc, v| acc.union(TypeSet::of(v)))
            .intersect(declared)
    };
    let listed = s.get("enum").and_then(Value::as_array);
    match (s.get("const"), listed) {
        (Some(c), Some(e)) if !e.contains(c) => TypeSet::NONE,
        (Some(c), _) => of_values(&mut std::iter::once(c)),
        (None, Some(e)) => of_values(&mut e.iter()),
        (None, None) => declared,
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

/// Does `values` hold every value of the types `t` (only `null` and
/// `boolean` are finite)?
fn lists_every_value(t: TypeSet, values: &[Value]) -> bool {
    let finite = TypeSet::NULL.union(TypeSet::BOOLEAN);
    finite.contains(t)
        && [Value::Null, Value::Bool(true), Value::Bool(false)]
            .iter()
            .filter(|v| t.contains(TypeSet::of(v)))
            .all(|v| values.contains(v))
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
    // a type one side declares but provably never accepts (its `not`,
    // `allOf`, alternatives or bounds exclude it) is neither lost nor gained
    let mut lost = to.minus(tn);
    if !lost.is_empty() {
        lost = lost.intersect(super::vacuous::shape_types(cx.old_root, so));
    }
    let mut gained = tn.minus(to);
    if !gained.is_empty() {
        gained = gained.intersect(super::vacuous::shape_types(cx.new_root, sn));
    }
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
            SchemaRule::TypeNarrowed,
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
        if let Some(c) = cx.emit(
            SchemaRule::TypeWidened,
            Effect::Widened,
            flip,
            &type_ptr,
            None,
            what,
        ) {
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
        // an enum listing every value the old side's types hold (`null`,
        // `true`/`false`) restricts nothing
        (None, Some(n)) if lists_every_value(to, n) => {}
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
                SchemaRule::EnumNarrowed,
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
                if let Some(c) = cx.emit(
                    SchemaRule::EnumWidened,
                    Effect::Widened,
                    flip,
                    &enum_ptr,
                    None,
                    what,
                ) {
                    c.detail.values = o.clone();
                }
            }
        }
        (Some(o), Some(n)) => {
            let (os, ns) = (ValueSet::new(o), ValueSet::new(n));
            let removed: Vec<&Value> = o
                .iter()
                .filter(|v| !ns.contains(v) && tn.contains(TypeSet::of(v)))
                .collect();
            let added: Vec<&Value> = n
                .iter()
                .filter(|v| !os.contains(v) && to.contains(TypeSet::of(v)))
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
                    SchemaRule::EnumNarrowed,
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
                if let Some(c) = cx.emit(
                    SchemaRule::EnumWidened,
                    Effect::Widened,
                    flip,
                    &enum_ptr,
                    None,
                    what,
                ) {
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
        super::objects::compare_objects(cx, so, sn, ptr, flip);
    }
}

// ---- shared helpers -----------------------------------------------------

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
pub(crate) type CountKeyword = (Aspect, &'static str, bool);

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
        SchemaRule::polar(aspect, effect),
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
        &[
            (Aspect::Size, "minItems", true),
            (Aspect::Size, "maxItems", false),
        ],
    );
    // (an array of at most one item has no duplicates to reject)
    let unique = |s: &Shape<'_>| {
        s.get("uniqueItems") == Some(&Value::Bool(true))
            && s.get("maxItems")
                .and_then(Value::as_u64)
                .is_none_or(|m| m > 1)
    };
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
            SchemaRule::polar(Aspect::Size, effect),
            effect,
            flip,
            &format!("{ptr}/uniqueItems"),
            None,
            what,
        );
    }
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
                        SchemaRule::ConstraintChanged,
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
    count_change(
        cx,
        ptr,
        flip,
        (Aspect::Size, "minContains", true),
        (mino, minn),
    );
    count_change(
        cx,
        ptr,
        flip,
        (Aspect::Size, "maxContains", false),
        (maxo, maxn),
    );
}
