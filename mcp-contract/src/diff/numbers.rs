//! Numeric keywords: the range a number may take (`minimum`, `maximum`,
//! their exclusive forms (draft-04 booleans were read as these when the
//! document was read), and the range an
//! integer or float `format` carries — see [`crate::schema::numeric`]) and
//! `multipleOf`. Bounds compare exactly, never through `f64`.

use std::cmp::Ordering;

use serde_json::Value;

use super::keywords::{bound_what, effective_enum};
use super::label;
use super::rule::{Aspect, SchemaRule};
use super::schema::{Cx, Direction, Effect};
use crate::schema::numeric::{format_range, Bound, Num};
use crate::schema::shape::Shape;
use crate::schema::types::TypeSet;

/// The tightest lower (or upper) bound of a node and the keyword it comes from.
fn effective_bound(s: &Shape<'_>, lower: bool) -> Option<(Bound, &'static str)> {
    let (inclusive, exclusive) = if lower {
        ("minimum", "exclusiveMinimum")
    } else {
        ("maximum", "exclusiveMaximum")
    };
    let excl = s.get(exclusive);
    let mut candidates: Vec<(Bound, &'static str)> = vec![];
    if let Some(v) = s.get(inclusive).and_then(Num::from_value) {
        candidates.push((
            Bound {
                value: v,
                exclusive: false,
            },
            inclusive,
        ));
    }
    if let Some(v) = excl.and_then(Num::from_value) {
        candidates.push((
            Bound {
                value: v,
                exclusive: true,
            },
            exclusive,
        ));
    }
    if let Some((lo, hi)) = s
        .get("format")
        .and_then(Value::as_str)
        .and_then(format_range)
    {
        candidates.push((if lower { lo } else { hi }, "format"));
    }
    candidates
        .into_iter()
        .reduce(|a, b| if tighter(b.0, a.0, lower) { b } else { a })
}

/// Is `a` a strictly tighter bound than `b`?
fn tighter(a: Bound, b: Bound, lower: bool) -> bool {
    let ord = a.value.total_cmp(&b.value);
    let ord = if lower { ord } else { ord.reverse() };
    match ord {
        Ordering::Greater => true,
        Ordering::Less => false,
        Ordering::Equal => a.exclusive && !b.exclusive,
    }
}

/// How moving a bound from `o` to `n` changes the accepted values.
pub(crate) fn bound_effect(o: Option<Bound>, n: Option<Bound>, lower: bool) -> Option<Effect> {
    match (o, n) {
        (None, None) => None,
        (None, Some(_)) => Some(Effect::Narrowed),
        (Some(_), None) => Some(Effect::Widened),
        (Some(a), Some(b)) if tighter(b, a, lower) => Some(Effect::Narrowed),
        (Some(a), Some(b)) if tighter(a, b, lower) => Some(Effect::Widened),
        _ => None,
    }
}

fn show_bound(b: Option<(Bound, &str)>, lower: bool) -> String {
    match b {
        None => "none".into(),
        Some((b, kw)) => {
            let op = match (lower, b.exclusive) {
                (true, false) => ">=",
                (true, true) => ">",
                (false, false) => "<=",
                (false, true) => "<",
            };
            if kw == "format" {
                format!("{op} {} (format)", b.value)
            } else {
                format!("{op} {}", b.value)
            }
        }
    }
}

/// One end of a numeric range.
fn compare_range_end(
    cx: &mut Cx<'_>,
    (so, sn): (&Shape<'_>, &Shape<'_>),
    ptr: &str,
    flip: bool,
    lower: bool,
    skip: &dyn Fn(Effect) -> bool,
) {
    let (o, n) = (effective_bound(so, lower), effective_bound(sn, lower));
    let Some(effect) = bound_effect(o.map(|b| b.0), n.map(|b| b.0), lower) else {
        return;
    };
    if skip(effect) {
        return;
    }
    let end = if lower { "lower bound" } else { "upper bound" };
    // point at the keyword that now decides the bound (or decided it before)
    let kw = n.or(o).map_or("minimum", |b| b.1);
    let (from, to) = (show_bound(o, lower), show_bound(n, lower));
    let mut what = bound_what(cx, &label::describe(ptr, cx.dir), end, effect, &from, &to);
    if kw == "format" {
        let fmt = |s: &Shape<'_>| s.get("format").map_or("none".into(), |f| f.to_string());
        what = format!("{what} (format {} -> {})", fmt(so), fmt(sn));
    }
    if let Some(c) = cx.emit(
        SchemaRule::polar(Aspect::Range, effect),
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

/// Is there a multiple of `m` that one of the bounds `a`, `b` (the same
/// end of a range: lower when `lower`) admits and the other does not? Whole numbers only (any
/// other case: assumed so).
fn multiple_between(a: Bound, b: Bound, m: Num, lower: bool) -> bool {
    let (Num::Int(x), Num::Int(y), Num::Int(m)) = (a.value, b.value, m) else {
        return true;
    };
    if m <= 0 {
        return true;
    }
    // the values admitted by exactly one bound lie in [lo, hi], whole numbers
    let admits = |bd: &Bound, v: i128| match (lower, v.cmp(&bd_value(bd))) {
        (_, Ordering::Equal) => !bd.exclusive,
        (true, o) => o == Ordering::Greater,
        (false, o) => o == Ordering::Less,
    };
    // (bounds at the ends of i128, as `int128` carries, saturate)
    let (lo, hi) = (x.min(y).saturating_sub(1), x.max(y).saturating_add(1));
    if hi.checked_sub(lo).is_none_or(|gap| gap > 4096) {
        // (a wide gap: the first multiple at or after lo is checked)
        return lo
            .checked_add((m - lo.rem_euclid(m)) % m)
            .is_none_or(|first| first <= hi);
    }
    (lo..=hi)
        .filter(|v| v.rem_euclid(m) == 0)
        .any(|v| admits(&a, v) != admits(&b, v))
}

fn bd_value(b: &Bound) -> i128 {
    match b.value {
        Num::Int(i) => i,
        Num::Float(f) => f as i128,
    }
}

/// Does the node `src` list its values (`const`/`enum`), every number among
/// them within the bounds and `multipleOf` of `other`?
fn listed_within(src: &Shape<'_>, other: &Shape<'_>) -> bool {
    let Some(values) = effective_enum(src, TypeSet::from_keyword(src.get("type"))) else {
        return false;
    };
    let step = other.get("multipleOf").and_then(Num::from_value);
    let (lo, hi) = (effective_bound(other, true), effective_bound(other, false));
    values.iter().filter_map(Num::from_value).all(|x| {
        let above = lo.is_none_or(|(b, _)| match x.total_cmp(&b.value) {
            Ordering::Greater => true,
            Ordering::Equal => !b.exclusive,
            Ordering::Less => false,
        });
        let below = hi.is_none_or(|(b, _)| match x.total_cmp(&b.value) {
            Ordering::Less => true,
            Ordering::Equal => !b.exclusive,
            Ordering::Greater => false,
        });
        above && below && step.is_none_or(|m| x.is_multiple_of(m))
    })
}

pub(crate) fn compare_numbers(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
) {
    // the side that must stay within the other lists numbers the other
    // side's range all takes: a narrowing (input) or widening (output) of
    // the range loses none of them (issue 13)
    let src_is_old = (cx.dir == Direction::Input) != flip;
    let covered = if src_is_old {
        listed_within(so, sn)
    } else {
        listed_within(sn, so)
    };
    let harmful = if src_is_old {
        Effect::Narrowed
    } else {
        Effect::Widened
    };
    let skip = |e: Effect| covered && e == harmful;
    // the values the harmful move lets through (or turns away) are those
    // between the two bounds: when the source side's `multipleOf` has no
    // multiple there, the move changes nothing
    let src_step = if src_is_old { so } else { sn }
        .get("multipleOf")
        .and_then(Num::from_value);
    for lower in [true, false] {
        let (o, n) = (effective_bound(so, lower), effective_bound(sn, lower));
        let idle = match (o, n, src_step) {
            (Some((o, _)), Some((n, _)), Some(m)) => {
                let effect = bound_effect(Some(o), Some(n), lower);
                effect == Some(harmful) && !multiple_between(o, n, m, lower)
            }
            _ => false,
        };
        if idle {
            continue;
        }
        compare_range_end(cx, (so, sn), ptr, flip, lower, &skip);
    }
    let (mo, mn) = (
        so.get("multipleOf").and_then(Num::from_value),
        sn.get("multipleOf").and_then(Num::from_value),
    );
    let effect = match (mo, mn) {
        (None, Some(_)) => Some(Effect::Narrowed),
        (Some(_), None) => Some(Effect::Widened),
        (Some(a), Some(b)) if a != b => {
            if a.is_multiple_of(b) {
                Some(Effect::Widened)
            } else if b.is_multiple_of(a) {
                Some(Effect::Narrowed)
            } else {
                Some(Effect::Changed)
            }
        }
        _ => None,
    };
    let Some(effect) = effect else { return };
    let show = |m: Option<Num>| m.map_or("none".into(), |v| v.to_string());
    let (from, to) = (show(mo), show(mn));
    let place = label::describe(ptr, cx.dir);
    let what = bound_what(cx, &place, "multipleOf", effect, &from, &to);
    let at = format!("{ptr}/multipleOf");
    // a multipleOf that is neither a multiple nor a divisor both narrows and widens
    let effects: &[Effect] = if effect == Effect::Changed {
        &[Effect::Narrowed, Effect::Widened]
    } else {
        &[effect]
    };
    for &e in effects.iter().filter(|e| !skip(**e)) {
        if let Some(c) = cx.emit(
            SchemaRule::polar(Aspect::Range, e),
            e,
            flip,
            &at,
            None,
            what.clone(),
        ) {
            c.detail.from = Some(from.clone());
            c.detail.to = Some(to.clone());
        }
    }
}
