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
use super::schema::{Cx, Direction, Effect};
use crate::lockfile::escape_pointer;
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
    if ptr == cx.root_ptr {
        // `arguments` and `structuredContent` are objects by protocol
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
        cx.emit(
            "type-narrowed",
            Effect::Narrowed,
            flip,
            &type_ptr,
            None,
            what,
        );
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
        cx.emit("type-widened", Effect::Widened, flip, &type_ptr, None, what);
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
            cx.emit(
                "enum-narrowed",
                Effect::Narrowed,
                flip,
                &enum_ptr,
                None,
                what,
            );
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
                cx.emit("enum-widened", Effect::Widened, flip, &enum_ptr, None, what);
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
                cx.emit(
                    "enum-narrowed",
                    Effect::Narrowed,
                    flip,
                    &enum_ptr,
                    None,
                    what,
                );
            }
            if !added.is_empty() {
                let what = match cx.dir {
                    Direction::Input => format!("{place} now also accepts {}", values_list(&added)),
                    Direction::Output => format!(
                        "{place} may now be {}: clients with an exhaustive match break",
                        values_list(&added)
                    ),
                };
                cx.emit("enum-widened", Effect::Widened, flip, &enum_ptr, None, what);
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
        compare_numbers(cx, so, sn, ptr, flip);
    }
    if common.overlaps(TypeSet::STRING) {
        compare_strings(cx, so, sn, ptr, flip);
    }
    if common.overlaps(TypeSet::ARRAY) {
        compare_arrays(cx, so, sn, ptr, flip);
    }
    if common.overlaps(TypeSet::OBJECT) {
        compare_objects(cx, so, sn, ptr, flip);
    }
}

// ---- bounds ---------------------------------------------------------------

/// A bound: value and whether it is exclusive.
type Bound = (f64, bool);

/// The tightest of an inclusive bound and an exclusive one (draft-04
/// boolean `exclusiveMinimum`/`exclusiveMaximum` included).
fn bound(
    s: &Shape<'_>,
    inclusive: &str,
    exclusive: &str,
    tighter: fn(f64, f64) -> bool,
) -> Option<Bound> {
    let excl = s.get(exclusive);
    let mut best: Option<Bound> = s
        .get(inclusive)
        .and_then(Value::as_f64)
        .map(|m| (m, excl == Some(&Value::Bool(true))));
    if let Some(e) = excl.and_then(Value::as_f64) {
        if best.is_none_or(|b| e == b.0 || tighter(e, b.0)) {
            best = Some((e, true));
        }
    }
    best
}

fn lower_bound(s: &Shape<'_>) -> Option<Bound> {
    bound(s, "minimum", "exclusiveMinimum", |a, b| a > b)
}

fn upper_bound(s: &Shape<'_>) -> Option<Bound> {
    bound(s, "maximum", "exclusiveMaximum", |a, b| a < b)
}

/// Effect of moving a lower bound from `o` to `n`.
fn lower_effect(o: Option<Bound>, n: Option<Bound>) -> Option<Effect> {
    let rank = |b: Bound| (b.0, b.1 as u8);
    match (o, n) {
        (None, None) => None,
        (None, Some(_)) => Some(Effect::Narrowed),
        (Some(_), None) => Some(Effect::Widened),
        (Some(a), Some(b)) => match rank(b).partial_cmp(&rank(a)) {
            Some(std::cmp::Ordering::Greater) => Some(Effect::Narrowed),
            Some(std::cmp::Ordering::Less) => Some(Effect::Widened),
            _ => None,
        },
    }
}

/// Effect of moving an upper bound from `o` to `n`.
fn upper_effect(o: Option<Bound>, n: Option<Bound>) -> Option<Effect> {
    lower_effect(o.map(|(v, e)| (-v, e)), n.map(|(v, e)| (-v, e)))
}

fn show_bound(b: Option<Bound>, lower: bool) -> String {
    match b {
        None => "none".into(),
        Some((v, excl)) => {
            let op = match (lower, excl) {
                (true, false) => ">=",
                (true, true) => ">",
                (false, false) => "<=",
                (false, true) => "<",
            };
            format!("{op} {}", fmt_num(v))
        }
    }
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

fn polar_suffix(aspect: &str, effect: Effect) -> String {
    match effect {
        Effect::Narrowed => format!("{aspect}-narrowed"),
        Effect::Widened => format!("{aspect}-widened"),
        _ => format!("{aspect}-changed"),
    }
}

fn bound_what(cx: &Cx<'_>, place: &str, kw: &str, effect: Effect, from: &str, to: &str) -> String {
    match (cx.dir, effect) {
        (Direction::Input, Effect::Narrowed) => format!("{place}: {kw} {from} -> {to}: calls with values outside the new bounds are rejected"),
        (Direction::Output, Effect::Widened) => format!("{place}: {kw} {from} -> {to}: clients may receive values outside the bounds they were promised"),
        _ => format!("{place}: {kw} {from} -> {to}"),
    }
}

/// One end of a numeric range (`minimum`/`exclusiveMinimum` or the maximum pair).
fn compare_range_end(
    cx: &mut Cx<'_>,
    (so, sn): (&Shape<'_>, &Shape<'_>),
    ptr: &str,
    flip: bool,
    place: &str,
    lower: bool,
) {
    let (o, n, effect) = if lower {
        let (o, n) = (lower_bound(so), lower_bound(sn));
        (o, n, lower_effect(o, n))
    } else {
        let (o, n) = (upper_bound(so), upper_bound(sn));
        (o, n, upper_effect(o, n))
    };
    let Some(effect) = effect else { return };
    let (inclusive, exclusive, end) = if lower {
        ("minimum", "exclusiveMinimum", "lower bound")
    } else {
        ("maximum", "exclusiveMaximum", "upper bound")
    };
    let kw = if sn.get(exclusive).is_some_and(Value::is_number)
        || (n.is_none() && so.get(exclusive).is_some_and(Value::is_number))
    {
        exclusive
    } else {
        inclusive
    };
    let what = bound_what(
        cx,
        place,
        end,
        effect,
        &show_bound(o, lower),
        &show_bound(n, lower),
    );
    cx.emit(
        &polar_suffix("range", effect),
        effect,
        flip,
        &format!("{ptr}/{kw}"),
        None,
        what,
    );
}

fn compare_numbers(cx: &mut Cx<'_>, so: &Shape<'_>, sn: &Shape<'_>, ptr: &str, flip: bool) {
    let place = label::describe(ptr, cx.dir);
    for lower in [true, false] {
        compare_range_end(cx, (so, sn), ptr, flip, &place, lower);
    }
    let (mo, mn) = (
        so.get("multipleOf").and_then(Value::as_f64),
        sn.get("multipleOf").and_then(Value::as_f64),
    );
    let effect = match (mo, mn) {
        (None, Some(_)) => Some(Effect::Narrowed),
        (Some(_), None) => Some(Effect::Widened),
        (Some(a), Some(b)) if a != b => {
            if is_multiple(a, b) {
                Some(Effect::Widened)
            } else if is_multiple(b, a) {
                Some(Effect::Narrowed)
            } else {
                Some(Effect::Changed)
            }
        }
        _ => None,
    };
    if let Some(effect) = effect {
        let show = |m: Option<f64>| m.map(fmt_num).unwrap_or_else(|| "none".into());
        let what = bound_what(cx, &place, "multipleOf", effect, &show(mo), &show(mn));
        let suffix = match effect {
            Effect::Changed => "range-narrowed".to_string(),
            e => polar_suffix("range", e),
        };
        // a multipleOf that is neither a multiple nor a divisor both narrows and widens
        if effect == Effect::Changed {
            cx.emit(
                &suffix,
                Effect::Narrowed,
                flip,
                &format!("{ptr}/multipleOf"),
                None,
                what.clone(),
            );
            cx.emit(
                "range-widened",
                Effect::Widened,
                flip,
                &format!("{ptr}/multipleOf"),
                None,
                what,
            );
        } else {
            cx.emit(
                &suffix,
                effect,
                flip,
                &format!("{ptr}/multipleOf"),
                None,
                what,
            );
        }
    }
}

/// Is `a` an integer multiple of `b`?
fn is_multiple(a: f64, b: f64) -> bool {
    if b == 0.0 {
        return false;
    }
    let q = a / b;
    (q - q.round()).abs() < 1e-9 && q.round() >= 1.0
}

/// Compares a min/max integer pair of keywords (minLength/maxLength, ...).
/// A min/max integer keyword: (rule aspect, keyword, is it a lower bound).
type CountKeyword = (&'static str, &'static str, bool);

fn compare_counts(
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
        so.get(kw).and_then(Value::as_f64),
        sn.get(kw).and_then(Value::as_f64),
    );
    // minX: 0 and maxX absent are no bound at all
    let norm = |v: Option<f64>| if is_min { v.filter(|x| *x > 0.0) } else { v };
    let (o, n) = (norm(o), norm(n));
    let effect = if is_min {
        lower_effect(o.map(|v| (v, false)), n.map(|v| (v, false)))
    } else {
        upper_effect(o.map(|v| (v, false)), n.map(|v| (v, false)))
    };
    if let Some(effect) = effect {
        let show = |v: Option<f64>| v.map(fmt_num).unwrap_or_else(|| "none".into());
        let what = bound_what(
            cx,
            &label::describe(ptr, cx.dir),
            kw,
            effect,
            &show(o),
            &show(n),
        );
        cx.emit(
            &polar_suffix(aspect, effect),
            effect,
            flip,
            &format!("{ptr}/{kw}"),
            None,
            what,
        );
    }
}

fn compare_strings(cx: &mut Cx<'_>, so: &Shape<'_>, sn: &Shape<'_>, ptr: &str, flip: bool) {
    compare_counts(
        cx,
        so,
        sn,
        ptr,
        flip,
        &[
            ("length", "minLength", true),
            ("length", "maxLength", false),
        ],
    );
    let place = label::describe(ptr, cx.dir);
    for kw in ["pattern", "format"] {
        let (o, n) = (so.get(kw), sn.get(kw));
        if o == n {
            continue;
        }
        let effect = match (o, n) {
            (None, Some(_)) => Effect::Narrowed,
            (Some(_), None) => Effect::Widened,
            _ => Effect::Changed,
        };
        let show = |v: Option<&Value>| v.map(|x| x.to_string()).unwrap_or_else(|| "none".into());
        let what = match (cx.dir, effect) {
            (Direction::Input, Effect::Narrowed | Effect::Changed) => {
                format!(
                    "{place}: {kw} {} -> {}: strings that do not match are rejected",
                    show(o),
                    show(n)
                )
            }
            (Direction::Output, Effect::Widened | Effect::Changed) => {
                format!("{place}: {kw} {} -> {}: clients may receive strings that do not match what they parse", show(o), show(n))
            }
            _ => format!("{place}: {kw} {} -> {}", show(o), show(n)),
        };
        cx.emit(
            &polar_suffix(kw, effect),
            effect,
            flip,
            &format!("{ptr}/{kw}"),
            None,
            what,
        );
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
    match (so.get("contains"), sn.get("contains")) {
        (None, Some(_)) => {
            let what = format!(
                "{} now must contain a matching item",
                label::describe(ptr, cx.dir)
            );
            cx.emit(
                "size-narrowed",
                Effect::Narrowed,
                flip,
                &format!("{ptr}/contains"),
                None,
                what,
            );
        }
        (Some(_), None) => {
            let what = format!(
                "{} no longer must contain a matching item",
                label::describe(ptr, cx.dir)
            );
            cx.emit(
                "size-widened",
                Effect::Widened,
                flip,
                &format!("{ptr}/contains"),
                None,
                what,
            );
        }
        (Some(o), Some(n)) => {
            cx.cmp(o, n, &format!("{ptr}/contains"), flip);
        }
        _ => {}
    }
    compare_counts(
        cx,
        so,
        sn,
        ptr,
        flip,
        &[
            ("size", "minItems", true),
            ("size", "maxItems", false),
            ("size", "minContains", true),
            ("size", "maxContains", false),
        ],
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
                match ao {
                    Some(ap) if ap.is_object() => cx.cmp(ap, n, &at, flip),
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
            cx.emit(
                "dependent-required-narrowed",
                Effect::Narrowed,
                flip,
                &at,
                Some(k),
                what,
            );
        }
        if !removed.is_empty() {
            let what = match cx.dir {
                Direction::Input => format!("when \"{k}\" is given, {removed:?} are no longer required"),
                Direction::Output => format!("when \"{k}\" is present, {removed:?} may now be missing: clients that read them break"),
            };
            cx.emit(
                "dependent-required-widened",
                Effect::Widened,
                flip,
                &at,
                Some(k),
                what,
            );
        }
    }
}
