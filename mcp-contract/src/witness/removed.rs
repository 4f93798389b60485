//! A removed property: the witness must be about that member, a call that
//! sends it and is rejected only because of it, or one whose member is now
//! silently ignored (an open object); for outputs, a value whose member the
//! old schema forbids.

use jsonschema::Validator;
use serde_json::Value;

use super::candidates;
use super::embed::{pointer, pointer_mut, to_pointer};
use super::path::Step;
use super::sample;
use super::search::Search;
use super::validators::error_detail;
use super::values::{Hit, Tier};
use super::WitnessKind;

impl Search<'_> {
    /// A removed property: the witness must be about that member. An input
    /// call that sends it and is rejected only because of it (without the
    /// member the new schema accepts the call), or, from an open object, a
    /// call that sends it and is silently ignored. An output value whose
    /// member the old schema forbids (or misses when the old one required
    /// it), and that the old schema accepts once the member is put right.
    pub(super) fn check_removed(&self, inst: &Value, at: &[String]) -> Option<Hit> {
        let name = self.subject?;
        let (other_root, vo) = self.other();
        let node = pointer(inst, at)?.as_object()?;
        let sends = node.contains_key(name);
        let rejected = !self.other_accepts(inst);
        if self.input {
            if !sends {
                return None;
            }
            if !rejected {
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind: WitnessKind::Ignored,
                    detail: format!(
                        "\"{name}\" is no longer declared, so the handler runs without it"
                    ),
                    tier: Tier::AtNode,
                });
            }
            // without the member, one of the new schema's complaints goes away
            let mut without = inst.clone();
            if let Some(Value::Object(m)) = pointer_mut(&mut without, at) {
                m.remove(name);
            }
            // (or, when the complaint is a whole alternative's, the declaration put back lets it pass)
            let detail = vanished(vo, inst, &without)
                .or_else(|| unexpected_member(vo, inst, at, name))
                .or_else(|| {
                    self.undone()
                        .filter(|u| u.is_valid(inst))
                        .and_then(|_| vo.iter_errors(inst).next().map(|e| error_detail(&e)))
                })?;
            Some(Hit {
                inst: inst.clone(),
                at: at.to_vec(),
                kind: WitnessKind::Rejected,
                detail,
                tier: Tier::AtNode,
            })
        } else {
            if !rejected {
                return None;
            }
            // the old side's view of the member: put right, the old schema accepts
            let mut fixes: Vec<Value> = vec![];
            let mut steps = self.site.steps.clone();
            steps.push(Step::Prop(name.to_string()));
            for n in candidates::nodes_at(other_root, &steps).into_iter().take(4) {
                for v in 0..3 {
                    fixes.push(sample::sample(other_root, n, v));
                }
            }
            let fixed = |with: Option<&Value>| {
                let mut f = inst.clone();
                if let Some(Value::Object(m)) = pointer_mut(&mut f, at) {
                    match with {
                        Some(v) => m.insert(name.to_string(), v.clone()),
                        None => m.remove(name),
                    };
                }
                // (the new side may reject it: a `oneOf` whose branches now
                // both match; the old side's complaint is what is shown)
                vo.is_valid(&f).then_some(f)
            };
            let put_right = sends
                .then(|| fixed(None))
                .flatten()
                .or_else(|| fixes.iter().find_map(|v| fixed(Some(v))))?;
            let detail = vanished(vo, inst, &put_right)?;
            Some(Hit {
                inst: inst.clone(),
                at: at.to_vec(),
                kind: WitnessKind::Unexpected,
                detail,
                tier: Tier::AtNode,
            })
        }
    }
}

/// The new side's complaint that names `name` among the members a closed
/// object did not expect (one complaint for all of them: removing one
/// member leaves it standing, naming the others).
pub(super) fn unexpected_member(
    v: &Validator,
    inst: &Value,
    at: &[String],
    name: &str,
) -> Option<String> {
    let here = to_pointer(at);
    v.iter_errors(inst)
        .take(32)
        .find(|e| {
            e.instance_path().as_str() == here
                && matches!(
                    e.kind(),
                    jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected }
                        if unexpected.iter().any(|u| u == name)
                )
        })
        .map(|e| error_detail(&e))
}

pub(super) fn vanished(v: &Validator, before: &Value, after: &Value) -> Option<String> {
    let key = |e: &jsonschema::ValidationError<'_>| {
        (
            e.evaluation_path().as_str().to_string(),
            e.instance_path().as_str().to_string(),
        )
    };
    let remaining: Vec<(String, String)> = v.iter_errors(after).take(32).map(|e| key(&e)).collect();
    v.iter_errors(before)
        .take(32)
        .find(|e| !remaining.contains(&key(e)))
        .map(|e| error_detail(&e))
}
