//! Proofs by construction: the call of a removed tool, the effective hints
//! before and after, a result the dropped output schema forbade.

use serde_json::{json, Map, Value};

use super::pass::{schema_of, Options};
use super::sample;
use super::validators::{error_detail, Validators};
use super::{Proof, Witness, WitnessKind};
use crate::diff::Change;
use crate::model::Tool;

/// A call of the removed tool by its old name (arguments sampled from its
/// old input schema): the server answers "unknown tool".
pub(super) fn unknown_tool(c: &Change, old: Option<&Tool>) -> (Option<Witness>, Proof) {
    let args = old
        .and_then(|t| schema_of(t, "inputSchema"))
        .map(|s| sample::sample(&s, &s, 0))
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    let detail = match &c.hint {
        Some(h) => format!("unknown tool \"{}\" ({h})", c.tool),
        None => format!("unknown tool \"{}\"", c.tool),
    };
    (
        Some(Witness {
            kind: WitnessKind::Call,
            value: json!({"name": c.tool, "arguments": args}),
            detail,
        }),
        Proof::ByConstruction,
    )
}

/// The annotations before and after, and the effective hints (the
/// specification's defaults applied, as the diff applies them) that moved:
/// the one at `pointer` (the change's own) first, so that the findings one
/// flag caused do not all read the same.
pub(super) fn hint_witness(
    pointer: &str,
    old: Option<&Tool>,
    new: Option<&Tool>,
) -> (Option<Witness>, Proof) {
    use crate::diff::Hints;
    let (oa, na) = (
        old.and_then(|t| t.annotations.as_ref()),
        new.and_then(|t| t.annotations.as_ref()),
    );
    let own = pointer.strip_prefix("/annotations/").unwrap_or("");
    let (eo, en) = (Hints::of(oa).named(), Hints::of(na).named());
    let mut moved: Vec<(bool, String)> = eo
        .iter()
        .zip(en.iter())
        .filter(|(a, b)| a.1 != b.1)
        .map(|(a, b)| (a.0 != own, format!("effective {} {} -> {}", a.0, a.1, b.1)))
        .collect();
    moved.sort_by_key(|(other, _)| *other);
    let moved: Vec<String> = moved.into_iter().map(|(_, m)| m).collect();
    let show = |a: Option<&Map<String, Value>>| Value::Object(a.cloned().unwrap_or_default());
    (
        Some(Witness {
            kind: WitnessKind::Hint,
            value: json!({"old": show(oa), "new": show(na)}),
            detail: if moved.is_empty() {
                "the hint the rule names widened".into()
            } else {
                moved.join(", ")
            },
        }),
        Proof::ByConstruction,
    )
}

/// A value the old output schema forbids: with no new schema, clients may now receive it.
pub(super) fn output_removed(
    c: &Change,
    old: &Tool,
    cache: &mut Validators,
    opts: &Options,
) -> (Option<Witness>, Proof) {
    let Some(os) = old.output_schema.as_ref() else {
        return (None, Proof::ByConstruction);
    };
    let Ok(vo) = cache.get(&c.tool, "outputSchema", false, os) else {
        return (None, Proof::ByConstruction);
    };
    let base = sample::sample(os, os, 0);
    let mut tries: Vec<Value> = vec![json!({})];
    if let Value::Object(m) = &base {
        for k in m.keys() {
            let mut o = m.clone();
            o.remove(k);
            tries.push(Value::Object(o));
            let mut o = m.clone();
            o.insert(k.clone(), Value::Null);
            tries.push(Value::Object(o));
        }
    }
    tries.push(json!({"x": null}));
    for t in tries.into_iter().take(opts.budget) {
        if let Err(e) = vo.validate(&t) {
            let detail = error_detail(&e);
            return (
                Some(Witness {
                    kind: WitnessKind::Unexpected,
                    value: t,
                    detail,
                }),
                Proof::Proven,
            );
        }
    }
    (None, Proof::ByConstruction)
}
