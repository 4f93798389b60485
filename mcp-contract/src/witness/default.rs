//! A default reinterpreted: arguments that omit the field whose `default`
//! changed, which the handler now fills with another value.

use jsonschema::Validator;
use serde_json::Value;

use super::candidates;
use super::embed::{embed, pointer_mut};
use super::path::{Site, Step};
use super::sample::resolve;
use super::{Proof, Witness, WitnessKind};
use crate::diff::Change;

/// `arguments` that omit the field whose default changed.
pub(super) fn default_changed(
    c: &Change,
    site: &Site,
    os: &Value,
    ns: &Value,
    vo: &Validator,
) -> (Option<Witness>, Proof) {
    let mut steps = site.steps.clone();
    let Some(Step::Prop(name)) = steps.pop() else {
        return (None, Proof::ByConstruction);
    };
    let node_default = |root: &Value| {
        candidates::nodes_at(root, &site.steps)
            .into_iter()
            .find_map(|n| resolve(root, n).get("default").cloned())
    };
    let (od, nd) = (node_default(os), node_default(ns));
    for variant in 0..4 {
        let (mut inst, at) = embed(os, &steps, Value::Null, variant, true);
        if let Some(Value::Object(m)) = pointer_mut(&mut inst, &at) {
            m.remove(&name);
        } else {
            continue;
        }
        if vo.is_valid(&inst) {
            let show =
                |v: &Option<Value>| v.as_ref().map(|v| v.to_string()).unwrap_or("none".into());
            return (
                Some(Witness {
                    kind: WitnessKind::Reinterpreted,
                    value: inst,
                    detail: format!(
                        "\"{name}\" is omitted: the handler applied {}, now {}",
                        show(&od),
                        show(&nd)
                    ),
                }),
                Proof::ByConstruction,
            );
        }
    }
    let _ = c;
    (None, Proof::ByConstruction)
}
