//! Object keywords: `properties`, `required`, what undeclared names may be
//! (`additionalProperties`, or `unevaluatedProperties` where no
//! `additionalProperties` decides), `patternProperties`, `propertyNames`,
//! property counts and `dependentRequired`.
//!
//! A name is governed by exactly one of three things: its declaration, the
//! patterns it matches, or the object's *rest* schema. A change moves names
//! between them, so a pattern added to a closed object widens it and one
//! removed from it narrows it; both are compared against the rest that
//! governed (or now governs) those names.

use std::collections::BTreeSet;

use serde_json::Value;

use super::keywords::compare_counts;
use super::label;
use super::rule::{Aspect, Named, SchemaRule};
use super::schema::{Cx, Direction, Effect};
use crate::lockfile::escape_pointer;
use crate::rules::RuleId;
use crate::schema::shape::Shape;

static ANY: Value = Value::Bool(true);

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

/// What an object says of the names it neither declares nor matches by a
/// pattern: `additionalProperties`, or `unevaluatedProperties` where no
/// `additionalProperties` decides (with it present every name is evaluated,
/// so `unevaluatedProperties` has nothing left to apply to).
#[derive(Clone, Copy, PartialEq)]
enum Rest<'s> {
    Open,
    Closed,
    Schema(&'s Value),
}

static NOTHING: Value = Value::Bool(false);

impl<'s> Rest<'s> {
    fn of(s: &'s Shape<'_>) -> Self {
        match rest_keyword(s).and_then(|k| s.get(k)) {
            None | Some(Value::Bool(true)) => Rest::Open,
            Some(v) if is_false(v) => Rest::Closed,
            Some(Value::Object(m)) if m.is_empty() => Rest::Open,
            Some(v) => Rest::Schema(v),
        }
    }

    fn schema(self) -> &'s Value {
        match self {
            Rest::Open => &ANY,
            Rest::Closed => &NOTHING,
            Rest::Schema(v) => v,
        }
    }

    fn show(self) -> String {
        self.schema().to_string()
    }
}

/// Is the rest `unevaluatedProperties` beside applicators that evaluate
/// names of their own (alternatives, `allOf`, conditionals)? Then those names
/// are not part of the rest, as they would be for `additionalProperties`.
fn rest_spares_applied(s: &Shape<'_>) -> bool {
    rest_keyword(s) == Some("unevaluatedProperties")
        && [
            "allOf",
            "anyOf",
            "oneOf",
            "if",
            "dependentSchemas",
            "$dynamicRef",
            "$recursiveRef",
        ]
        .iter()
        .any(|k| s.get(k).is_some())
}

/// Does the old object take keys it does not name, with any value: a map
/// whose `additionalProperties` is said to be `true` (or `{}`), or a schema
/// that says nothing of objects at all (`{}`, what schemars writes for a
/// JSON value, alone or as an `anyOf` alternative)? An object described
/// by `type`, `properties` or `required`
/// declares its keys: callers send those (the input policy).
fn takes_any_keys(s: &Shape<'_>) -> bool {
    let explicit_any =
        |v: &Value| *v == Value::Bool(true) || v.as_object().is_some_and(|m| m.is_empty());
    if s.get("additionalProperties").is_some_and(explicit_any) {
        return true;
    }
    // alternatives one of which takes anything (`anyOf: [{}, ...]`) took
    // any key with any value too
    let any_branch = s
        .get("anyOf")
        .and_then(Value::as_array)
        .is_some_and(|bs| bs.iter().any(explicit_any));
    // anything else that describes objects (or may, through alternatives
    // or a reference) makes the keys declared ones
    let describes = [
        "properties",
        "patternProperties",
        "required",
        "type",
        "allOf",
        "anyOf",
        "oneOf",
        "$ref",
        "additionalProperties",
    ];
    !describes
        .iter()
        .any(|k| s.get(k).is_some() && !(any_branch && *k == "anyOf"))
}

fn rest_keyword(s: &Shape<'_>) -> Option<&'static str> {
    ["additionalProperties", "unevaluatedProperties"]
        .into_iter()
        .find(|k| s.get(k).is_some())
}

/// `false` or a schema nothing satisfies (`{"not": {}}`).
fn is_false(v: &Value) -> bool {
    *v == Value::Bool(false)
        || v.as_object().is_some_and(|m| {
            m.len() == 1
                && m.get("not")
                    .is_some_and(|n| n.as_object().is_some_and(|x| x.is_empty()))
        })
}

/// Does the pattern match the name? (A pattern the engine cannot compile is
/// assumed to: the conservative reading.)
fn pattern_matches(p: &str, name: &str) -> bool {
    crate::schema::pattern::Compiled::new(Some(p)).map_or(true, |c| c.is_match(name))
}

pub(crate) fn compare_objects(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
) {
    let empty = serde_json::Map::new();
    let po = so
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let pn = sn
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let (rest_old, rest_new) = (Rest::of(so), Rest::of(sn));
    let (ro, rn) = (required(so), required(sn));
    let closed_new = rest_new == Rest::Closed;
    let names: BTreeSet<&String> = po.keys().chain(pn.keys()).collect();
    for name in names {
        let at = format!("{ptr}/properties/{}", escape_pointer(name));
        match (po.get(name), pn.get(name)) {
            (Some(o), Some(n)) => {
                cx.cmp(o, n, &at, flip);
            }
            // declared now by the node's alternatives instead: compared
            // there, with this declaration in scope
            (Some(_), None) if declared_in_branches(cx.new_root, sn, name) => {}
            (Some(o), None) => {
                let renamed = pn
                    .iter()
                    .find(|(k, v)| !po.contains_key(*k) && **v == *o)
                    .map(|(k, _)| k.clone());
                let hint = renamed
                    .as_ref()
                    .map(|r| format!(" (probably renamed to \"{r}\")"))
                    .unwrap_or_default();
                // an optional field a closed result object no longer has:
                // clients already coped with its absence and never get it now
                if cx.dir == Direction::Output
                    && !flip
                    && sn.get("additionalProperties") == Some(&Value::Bool(false))
                    && !ro.contains(name.as_str())
                    && old_pattern_schema(sn, name).is_none()
                {
                    let what = format!("optional field \"{name}\" was removed from an object that allows no other fields: clients never receive it now");
                    cx.emit(
                        RuleId::OutputOptionalPropertyRemoved,
                        Effect::Narrowed,
                        flip,
                        &at,
                        Some(name),
                        what,
                    );
                    continue;
                }
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
                    SchemaRule::PropertyRemoved,
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
                match (old_pattern_schema(so, name), rest_old) {
                    (Some(schema), _) => cx.cmp(schema, n, &at, flip),
                    (None, Rest::Schema(ap)) => cx.cmp(ap, n, &at, flip),
                    // (where a widening breaks, a name the closed old object
                    // rejected is new here even if a sibling alternative
                    // declared it: values with it matched only that one)
                    (None, Rest::Closed)
                        if decls.is_empty() || (cx.dir == Direction::Output) != flip =>
                    {
                        let what = match cx.dir {
                            Direction::Input => format!("field \"{name}\" was added to a closed object: calls may now send it"),
                            Direction::Output => format!("field \"{name}\" was added to an object that promised no other fields: strict clients reject it"),
                        };
                        let suffix = match cx.dir {
                            Direction::Input => Named::from(SchemaRule::PropertyAdded),
                            Direction::Output => RuleId::OutputClosedPropertyAdded.into(),
                        };
                        cx.emit(suffix, Effect::Widened, flip, &at, Some(name), what);
                    }
                    // an open old object took this name with any value (a
                    // sibling alternative's declaration does not bind it):
                    // where a narrowing breaks, that is what it is compared with
                    _ if rest_old == Rest::Open
                        && !decls.is_empty()
                        && (cx.dir == Direction::Input) != flip =>
                    {
                        cx.cmp(&ANY, n, &at, flip)
                    }
                    _ if !decls.is_empty() => {
                        let old_decl = if decls.len() == 1 {
                            decls[0].clone()
                        } else {
                            serde_json::json!({ "anyOf": decls })
                        };
                        let outer = cx.stand_in_at.replace(at.clone());
                        cx.cmp(&old_decl, n, &at, flip);
                        cx.stand_in_at = outer;
                    }
                    // a map (`additionalProperties: true` said outright) or a
                    // schema that says nothing of objects (`{}`, any value)
                    // took this name with any value before
                    _ if takes_any_keys(so) => cx.cmp(&ANY, n, &at, flip),
                    // inside `not` the policies for open objects (callers
                    // send declared fields, clients ignore unknown ones) would
                    // read backwards: the old object took this name with any
                    // value, so the declaration is compared as it validates
                    _ if flip => cx.cmp(&ANY, n, &at, flip),
                    _ => {
                        let what = match cx.dir {
                            Direction::Input if rn.contains(name.as_str()) => {
                                format!("required field \"{name}\" was added")
                            }
                            Direction::Input => format!("optional field \"{name}\" was added"),
                            Direction::Output => format!("field \"{name}\" was added"),
                        };
                        cx.emit(
                            SchemaRule::PropertyAdded,
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
            SchemaRule::RequiredAdded,
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
            SchemaRule::RequiredRemoved,
            Effect::Widened,
            flip,
            &req_ptr,
            Some(name),
            what,
        );
    }
    let place = label::describe(ptr, cx.dir);
    let rest_kw = rest_keyword(sn)
        .or_else(|| rest_keyword(so))
        .unwrap_or("additionalProperties");
    let ap_ptr = format!("{ptr}/{rest_kw}");
    let before = cx.out.len();
    let (ap_from, ap_to) = (rest_old.show(), rest_new.show());
    let narrowed = |cx: &mut Cx<'_>, what: String| {
        cx.emit(
            SchemaRule::AdditionalPropertiesNarrowed,
            Effect::Narrowed,
            flip,
            &ap_ptr,
            None,
            what,
        );
    };
    let widened = |cx: &mut Cx<'_>, what: String| {
        cx.emit(
            SchemaRule::AdditionalPropertiesWidened,
            Effect::Widened,
            flip,
            &ap_ptr,
            None,
            what,
        );
    };
    match (rest_old, rest_new) {
        (Rest::Open, Rest::Closed) => narrowed(
            cx,
            match cx.dir {
                Direction::Input => format!("{place} is now closed ({rest_kw}: false): calls with undeclared fields are rejected"),
                Direction::Output => format!("{place} is now closed ({rest_kw}: false)"),
            },
        ),
        (Rest::Closed, Rest::Open) => widened(
            cx,
            match cx.dir {
                Direction::Input => format!("{place} now accepts undeclared fields"),
                Direction::Output => format!(
                    "{place} is no longer closed: strict clients may receive fields they reject"
                ),
            },
        ),
        (Rest::Closed, Rest::Schema(_)) => widened(
            cx,
            format!("{place} now accepts undeclared fields matching a schema"),
        ),
        (Rest::Schema(_), Rest::Closed) => {
            narrowed(cx, format!("{place} no longer accepts undeclared fields"))
        }
        (Rest::Closed, Rest::Closed) => match (rest_spares_applied(so), rest_spares_applied(sn)) {
            (true, false) => narrowed(
                cx,
                format!("{place} now rejects the fields its alternatives or conditions declare ({rest_kw}: false applies to them)"),
            ),
            (false, true) => widened(
                cx,
                format!("{place} now accepts the fields its alternatives or conditions declare"),
            ),
            _ => {}
        },
        (Rest::Open, Rest::Open) => {}
        (o, n) => cx.cmp(o.schema(), n.schema(), &ap_ptr, flip),
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
    let declared_match = |p: &str| po.keys().chain(pn.keys()).any(|k| pattern_matches(p, k));
    for p in patterns {
        let at = format!("{ptr}/patternProperties/{}", escape_pointer(p));
        // names matching both `p` and another pattern `q` that stays: they
        // answered to both before (and after), whatever the rest says
        for (q, nq) in ppn
            .iter()
            .filter(|(q, _)| *q != p && !surely_disjoint(p, q))
        {
            let at_q = format!("{ptr}/patternProperties/{}", escape_pointer(q));
            let both = |a: &Value, b: &Value| serde_json::json!({"allOf": [a, b]});
            match (ppo.get(p), ppn.get(p), ppo.get(q)) {
                (Some(o), None, Some(oq)) => cx.cmp(&both(o, oq), nq, &at_q, flip),
                (None, Some(n), Some(oq)) => cx.cmp(oq, &both(n, nq), &at_q, flip),
                _ => {}
            }
        }
        match (ppo.get(p), ppn.get(p)) {
            (Some(o), Some(n)) => {
                cx.cmp(o, n, &at, flip);
            }
            (None, Some(n)) => match rest_old {
                // names the old object left open now have a schema
                Rest::Open => pattern_narrowed(cx, &at, p, flip, format!("fields of {place} whose names match {p:?} must now satisfy a schema")),
                // names the old object rejected are now accepted
                Rest::Closed => {
                    pattern_widened(cx, &at, p, flip, format!("fields of {place} whose names match {p:?} are now accepted (undeclared fields were rejected)"));
                    if declared_match(p) {
                        pattern_narrowed(cx, &at, p, flip, format!("declared fields of {place} whose names match {p:?} must now also satisfy a schema"));
                    }
                }
                Rest::Schema(ap) => cx.cmp(ap, n, &at, flip),
            },
            (Some(o), None) => match rest_new {
                Rest::Open => pattern_widened(cx, &at, p, flip, format!("fields of {place} whose names match {p:?} are no longer constrained")),
                Rest::Closed => pattern_narrowed(cx, &at, p, flip, format!("fields of {place} whose names match {p:?} are now rejected (undeclared fields are not accepted)")),
                Rest::Schema(ap) => cx.cmp(o, ap, &at, flip),
            },
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
            (Aspect::Size, "minProperties", true),
            (Aspect::Size, "maxProperties", false),
        ],
    );
    compare_dependent_required(cx, so, sn, ptr, flip);
}

/// Does one of the node's `anyOf`/`oneOf`/`allOf` branches declare `name`?
fn declared_in_branches(root: &Value, s: &Shape<'_>, name: &str) -> bool {
    ["anyOf", "oneOf", "allOf"].iter().any(|kw| {
        s.get(kw)
            .and_then(Value::as_array)
            .is_some_and(|bs| super::alternatives::declarations(root, bs).contains_key(name))
    })
}

/// Can no name match both patterns? Only said where both are anchored
/// literals at the start that part ways (`^x-` and `^y-`); anything else
/// may overlap.
fn surely_disjoint(p: &str, q: &str) -> bool {
    let prefix = |s: &str| -> Option<String> {
        let rest = s.strip_prefix('^')?;
        Some(
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '@'))
                .collect(),
        )
    };
    match (prefix(p), prefix(q)) {
        (Some(a), Some(b)) => !a.starts_with(&b) && !b.starts_with(&a),
        _ => false,
    }
}

/// The old `patternProperties` schema a property name falls under, if any
/// (a pattern that cannot be compiled is assumed to match: comparing with
/// its schema is the conservative reading).
fn old_pattern_schema<'s>(s: &'s Shape<'_>, name: &str) -> Option<&'s Value> {
    let pp = s.get("patternProperties")?.as_object()?;
    pp.iter()
        .find(|(p, _)| pattern_matches(p, name))
        .map(|(_, schema)| schema)
}

/// Where the old schema already declared `name` at this object level: in
/// the alternatives it was paired within, or in its own alternatives.
fn old_declarations(cx: &Cx<'_>, so: &Shape<'_>, name: &str) -> Vec<Value> {
    use super::alternatives::{declarations, ANY_NAME};
    let mut out: Vec<Value> = vec![];
    let mut take = |d: &std::collections::BTreeMap<String, Vec<Value>>| {
        for key in [name, ANY_NAME] {
            for v in d.get(key).into_iter().flatten() {
                if !out.contains(v) {
                    out.push(v.clone());
                }
            }
        }
    };
    if let Some(d) = cx.level_decls.as_ref() {
        take(d);
    }
    for kw in ["anyOf", "oneOf", "allOf"] {
        if let Some(bs) = so.get(kw).and_then(Value::as_array) {
            take(&declarations(cx.old_root, bs));
        }
    }
    // an open alternative that says nothing of the name took it with any
    // value (only such a plain branch: one with alternatives, conditions
    // or patterns of its own may still constrain it)
    let silent = |b: &Value| {
        let bs = crate::schema::shape::shape(cx.old_root, b);
        let plain = [
            "anyOf",
            "oneOf",
            "allOf",
            "if",
            "not",
            "const",
            "enum",
            "patternProperties",
            "additionalProperties",
            "propertyNames",
            "unevaluatedProperties",
            "dependentSchemas",
            "maxProperties",
        ]
        .iter()
        .all(|k| bs.get(k).is_none());
        let objects = crate::schema::types::TypeSet::from_keyword(bs.get("type"))
            .contains(crate::schema::types::TypeSet::OBJECT);
        let declares = bs
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| p.contains_key(name));
        plain && objects && !declares
    };
    let open_node = Rest::of(so) == Rest::Open;
    for kw in ["anyOf", "oneOf"] {
        if let Some(bs) = so.get(kw).and_then(Value::as_array) {
            if open_node && !out.is_empty() && bs.iter().any(silent) && !out.contains(&ANY) {
                out.push(ANY.clone());
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
                SchemaRule::DependentRequiredNarrowed,
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
                SchemaRule::DependentRequiredWidened,
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

fn pattern_narrowed(cx: &mut Cx<'_>, at: &str, p: &str, flip: bool, what: String) {
    cx.emit(
        SchemaRule::PatternPropertiesNarrowed,
        Effect::Narrowed,
        flip,
        at,
        Some(p),
        what,
    );
}

fn pattern_widened(cx: &mut Cx<'_>, at: &str, p: &str, flip: bool, what: String) {
    cx.emit(
        SchemaRule::PatternPropertiesWidened,
        Effect::Widened,
        flip,
        at,
        Some(p),
        what,
    );
}
