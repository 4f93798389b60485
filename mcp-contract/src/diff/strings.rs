//! String keywords: `minLength`/`maxLength`, `pattern` (inclusion decided
//! on automata where the pattern allows it, see
//! [`crate::schema::pattern`]) and `format` (compared as the sets of
//! strings each format accepts where one is known to hold the other,
//! `ipv4` ⊆ `ip`; any other change of format is reported conservatively).

use serde_json::Value;

use super::keywords::{compare_counts, effective_enum};
use super::label;
use super::rule::{Aspect, SchemaRule};
use super::schema::{Cx, Direction, Effect};
use crate::schema::pattern::{includes, Compiled, Inclusion};
use crate::schema::shape::Shape;
use crate::schema::types::TypeSet;

pub(crate) fn compare_strings(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
) {
    compare_counts(
        cx,
        so,
        sn,
        ptr,
        flip,
        &[
            (Aspect::Length, "minLength", true),
            (Aspect::Length, "maxLength", false),
        ],
    );
    compare_pattern(cx, so, sn, ptr, flip);
    let (o, n) = (so.get("format"), sn.get("format"));
    if o != n {
        let effect = match (o, n) {
            (None, Some(_)) => Effect::Narrowed,
            (Some(_), None) => Effect::Widened,
            (Some(a), Some(b)) if format_within(a, b) => Effect::Widened,
            (Some(a), Some(b)) if format_within(b, a) => Effect::Narrowed,
            _ => Effect::Changed,
        };
        report(
            cx,
            (Aspect::Format, "format"),
            effect,
            (o, n),
            ptr,
            flip,
            None,
        );
    }
}

fn compare_pattern(cx: &mut Cx<'_>, so: &Shape<'_>, sn: &Shape<'_>, ptr: &str, flip: bool) {
    let (o, n) = (so.get("pattern"), sn.get("pattern"));
    if o == n {
        return;
    }
    let (po, pn) = (o.and_then(Value::as_str), n.and_then(Value::as_str));
    let forward = includes(po, pn); // old ⊆ new: nothing rejected now
    let backward = includes(pn, po); // new ⊆ old: nothing new accepted
    let effect = match (&forward, &backward) {
        (Inclusion::Included, Inclusion::Included) => return, // same strings
        (Inclusion::Included, Inclusion::NotIncluded(_)) => Effect::Widened,
        (Inclusion::NotIncluded(_), Inclusion::Included) => Effect::Narrowed,
        (Inclusion::NotIncluded(_), Inclusion::NotIncluded(_)) => Effect::Changed,
        _ => match (o, n) {
            (None, Some(_)) => Effect::Narrowed,
            (Some(_), None) => Effect::Widened,
            _ => Effect::Changed,
        },
    };
    // the side that must lie within the other lists its values, and every
    // string among them matches the other side's pattern: no string it
    // takes is lost (issue 13)
    let src_is_old = (cx.dir == Direction::Input) != flip;
    let (src, other) = if src_is_old { (so, pn) } else { (sn, po) };
    let effect = match (effect, listed_match(src, other)) {
        (Effect::Narrowed, true) if src_is_old => return,
        (Effect::Widened, true) if !src_is_old => return,
        (Effect::Changed, true) if src_is_old => Effect::Widened,
        (Effect::Changed, true) => Effect::Narrowed,
        (e, _) => e,
    };
    let why = [&forward, &backward].into_iter().find_map(|i| match i {
        Inclusion::Unknown(why) => Some(why.clone()),
        _ => None,
    });
    let example = match (cx.dir, effect, &forward, &backward) {
        (Direction::Input, Effect::Narrowed | Effect::Changed, Inclusion::NotIncluded(w), _)
        | (Direction::Output, Effect::Widened | Effect::Changed, _, Inclusion::NotIncluded(w)) => {
            Some(w.clone())
        }
        _ => None,
    };
    let note = match (why, example) {
        (Some(why), _) => Some(format!(" (inclusion not decided: {why})")),
        (None, Some(w)) => Some(format!(" (e.g. {})", Value::String(w))),
        _ => None,
    };
    report(
        cx,
        (Aspect::Pattern, "pattern"),
        effect,
        (o, n),
        ptr,
        flip,
        note,
    );
}

/// Does the node list its values (`const`/`enum`), every string among them
/// matching `pattern` (none: every string does)?
fn listed_match(s: &Shape<'_>, pattern: Option<&str>) -> bool {
    let Some(values) = effective_enum(s, TypeSet::from_keyword(s.get("type"))) else {
        return false;
    };
    let Ok(p) = Compiled::new(pattern) else {
        return false;
    };
    values
        .iter()
        .filter_map(Value::as_str)
        .all(|v| p.is_match(v))
}

fn report(
    cx: &mut Cx<'_>,
    (aspect, kw): (Aspect, &str),
    effect: Effect,
    (o, n): (Option<&Value>, Option<&Value>),
    ptr: &str,
    flip: bool,
    note: Option<String>,
) {
    let place = label::describe(ptr, cx.dir);
    let show = |v: Option<&Value>| v.map_or_else(|| "none".into(), Value::to_string);
    let (from, to) = (show(o), show(n));
    let note = note.unwrap_or_default();
    let what = match (cx.dir, effect) {
        (Direction::Input, Effect::Narrowed | Effect::Changed) => {
            format!("{place}: {kw} {from} -> {to}: strings that do not match are rejected{note}")
        }
        (Direction::Output, Effect::Widened | Effect::Changed) => format!(
            "{place}: {kw} {from} -> {to}: clients may receive strings that do not match what they parse{note}"
        ),
        _ => format!("{place}: {kw} {from} -> {to}{note}"),
    };
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

/// String formats every string of which the other format also accepts:
/// (narrower, wider). schemars writes `ip` for `IpAddr` (an IPv4 or IPv6
/// address); the internationalized forms take every ASCII one; a URI is a
/// URI reference.
const FORMAT_INCLUSIONS: &[(&str, &str)] = &[
    ("ipv4", "ip"),
    ("ipv6", "ip"),
    ("email", "idn-email"),
    ("hostname", "idn-hostname"),
    ("uri", "iri"),
    ("uri", "uri-reference"),
    ("uri", "iri-reference"),
    ("uri-reference", "iri-reference"),
    ("iri", "iri-reference"),
];

/// Does every string format `a` accepts pass format `b`?
fn format_within(a: &Value, b: &Value) -> bool {
    let (Some(a), Some(b)) = (a.as_str(), b.as_str()) else {
        return false;
    };
    FORMAT_INCLUSIONS.contains(&(a, b))
}
