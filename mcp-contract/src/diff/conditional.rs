//! Keywords that apply a schema only under a condition, or to what other
//! keywords left over: `if`/`then`/`else`, `dependentSchemas` (and draft-07
//! schema `dependencies`), `unevaluatedItems`, and
//! references the comparator cannot follow (remote `$ref`s).
//!
//! Removing a whole constraint only widens what is accepted and adding one
//! only narrows it, so those are decided exactly. Under an unchanged
//! condition the applied schemas are compared like any other; what the
//! engine cannot decide is reported as changed, conservatively.

use serde_json::Value;

use super::label;
use super::rule::SchemaRule;
use super::schema::{Cx, Effect};
use crate::lockfile::escape_pointer;
use crate::schema::shape::Shape;

static ANY: Value = Value::Bool(true);

pub(crate) fn compare_conditionals(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
) {
    compare_if_then_else(cx, so, sn, ptr, flip);
    for kw in ["dependentSchemas", "dependencies"] {
        compare_dependent_schemas(cx, so, sn, ptr, flip, kw);
    }
    // `unevaluatedProperties` is the rest of an object where no
    // `additionalProperties` decides: compared in `objects`.
    for kw in ["unevaluatedItems", "$ref", "$dynamicRef", "$recursiveRef"] {
        let (o, n) = (so.get(kw), sn.get(kw));
        if !cx.equiv.same_opt(o, n) {
            let what = format!("`{kw}` of {}", label::describe(ptr, cx.dir));
            whole_constraint(cx, (o, n), &format!("{ptr}/{kw}"), flip, what);
        }
    }
}

/// A constraint added, removed or changed as a whole.
fn whole_constraint(
    cx: &mut Cx<'_>,
    (o, n): (Option<&Value>, Option<&Value>),
    at: &str,
    flip: bool,
    what: String,
) {
    let (suffix, effect, verb) = match (o, n) {
        (Some(_), None) => (
            SchemaRule::ConstraintRemoved,
            Effect::Widened,
            "was removed",
        ),
        (None, Some(_)) => (SchemaRule::ConstraintAdded, Effect::Narrowed, "was added"),
        _ => (
            SchemaRule::ConstraintChanged,
            Effect::Changed,
            "changed in a way the engine does not decide",
        ),
    };
    let show = |v: Option<&Value>| v.map_or_else(|| "none".to_string(), Value::to_string);
    if let Some(c) = cx.emit(suffix, effect, flip, at, None, format!("{what} {verb}")) {
        c.detail.from = Some(show(o));
        c.detail.to = Some(show(n));
    }
}

/// Does `if` apply anything (is there an `if` with a `then` or an `else`)?
fn conditional(s: &Shape<'_>) -> bool {
    s.get("if").is_some() && (s.get("then").is_some() || s.get("else").is_some())
}

fn compare_if_then_else(cx: &mut Cx<'_>, so: &Shape<'_>, sn: &Shape<'_>, ptr: &str, flip: bool) {
    let place = label::describe(ptr, cx.dir);
    let group = |s: &Shape<'_>| {
        conditional(s).then(
            || serde_json::json!({"if": s.get("if"), "then": s.get("then"), "else": s.get("else")}),
        )
    };
    let (go, gn) = (group(so), group(sn));
    match (&go, &gn) {
        (None, None) => {}
        (Some(_), None) | (None, Some(_)) => {
            let what = format!("the `if`/`then`/`else` condition of {place}");
            whole_constraint(
                cx,
                (go.as_ref(), gn.as_ref()),
                &format!("{ptr}/if"),
                flip,
                what,
            );
        }
        (Some(_), Some(_)) => {
            if cx.equiv.same_opt(so.get("if"), sn.get("if")) {
                // the same values take each branch on both sides; a branch no
                // value takes (`if: {}` never reaches `else`) is not compared
                let cond = so.get("if").unwrap_or(&ANY);
                let always = *cond == ANY || cond.as_object().is_some_and(|m| m.is_empty());
                let never = *cond == Value::Bool(false);
                let taken = |kw: &str| !(kw == "else" && always || kw == "then" && never);
                for kw in ["then", "else"].into_iter().filter(|kw| taken(kw)) {
                    // a property the branch adds constrains what the object
                    // itself declared under that name
                    cx.pending_decls = own_declarations(so);
                    cx.cmp(
                        so.get(kw).unwrap_or(&ANY),
                        sn.get(kw).unwrap_or(&ANY),
                        &format!("{ptr}/{kw}"),
                        flip,
                    );
                    cx.pending_decls = None;
                }
            } else if !cx.equiv.same_opt(go.as_ref(), gn.as_ref()) {
                let what = format!("the `if` condition of {place}");
                whole_constraint(
                    cx,
                    (so.get("if"), sn.get("if")),
                    &format!("{ptr}/if"),
                    flip,
                    what,
                );
            }
        }
    }
}

/// Schema-valued entries of `dependentSchemas` (or draft-07 `dependencies`).
fn schema_entries<'s>(s: &'s Shape<'_>, kw: &str) -> Vec<(&'s String, &'s Value)> {
    s.get(kw)
        .and_then(Value::as_object)
        .map(|m| m.iter().filter(|(_, v)| !v.is_array()).collect())
        .unwrap_or_default()
}

fn compare_dependent_schemas(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
    kw: &str,
) {
    let (eo, en) = (schema_entries(so, kw), schema_entries(sn, kw));
    let mut names: Vec<&String> = eo.iter().chain(en.iter()).map(|(k, _)| *k).collect();
    names.sort();
    names.dedup();
    let find = |e: &[(&String, &'_ Value)], k: &String| -> Option<Value> {
        e.iter().find(|(x, _)| *x == k).map(|(_, v)| (*v).clone())
    };
    for name in names {
        let (o, n) = (find(&eo, name), find(&en, name));
        let at = format!("{ptr}/{kw}/{}", escape_pointer(name));
        match (&o, &n) {
            // applied to the same values (those with `name`): compare them
            (Some(o), Some(n)) => {
                cx.pending_decls = own_declarations(so);
                cx.cmp(o, n, &at, flip);
                cx.pending_decls = None;
            }
            _ => {
                let what = format!(
                    "the schema {} must satisfy when \"{name}\" is present",
                    label::describe(ptr, cx.dir)
                );
                whole_constraint(cx, (o.as_ref(), n.as_ref()), &at, flip, what);
            }
        }
    }
}

/// The object's own property declarations, for a conjunct applied to it
/// (`then`, `else`, `dependentSchemas`): a property such a conjunct adds is
/// a constraint on the declared one, not a new field.
fn own_declarations(s: &Shape<'_>) -> Option<super::schema::Decls> {
    let props = s.get("properties")?.as_object()?;
    let decls = props
        .iter()
        .map(|(k, v)| (k.clone(), vec![v.clone()]))
        .collect();
    Some(std::rc::Rc::new(decls))
}
