//! One candidate instance checked: a hit when the source side accepts it
//! and the other rejects it, with how surely it shows this change.

use serde_json::Value;

use super::attribution::attributable;
use super::embed::{pointer_mut, to_pointer};
use super::ints::{serde_admits, IntWidths};
use super::search::Search;
use super::validators::error_detail;
use super::WitnessKind;

/// How surely a found instance shows this change: undoing the change alone
/// makes the other side accept it (1), the validator's complaint is at or
/// below the node (2), elsewhere but caused by the node's value (3).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Tier {
    /// The complaint is the changed keyword at its place, or with only this
    /// change undone the other side accepts the instance.
    Undone,
    AtNode,
    Elsewhere,
}

pub(super) struct Hit {
    pub(super) inst: Value,
    pub(super) at: Vec<String>,
    pub(super) kind: WitnessKind,
    pub(super) detail: String,
    pub(super) tier: Tier,
}

impl Search<'_> {
    /// Checks one instance: a hit when the source side accepts it and the
    /// other rejects it (integer widths enforced on both sides: under a
    /// `not` or beside another `oneOf` branch a width decides acceptance
    /// either way).
    pub(super) fn check(
        &self,
        inst: &Value,
        at: &[String],
        ints: &Option<IntWidths>,
    ) -> Option<Hit> {
        let (_, vo) = self.other();
        if !self.src_accepts(inst) {
            return None;
        }
        if self.own_branch && !self.in_own_branch(inst, at) {
            return None;
        }
        if self.site.keyword.as_deref() == Some("property-removed") {
            return self.check_removed(inst, at);
        }
        let kind = if self.input {
            WitnessKind::Rejected
        } else {
            WitnessKind::Unexpected
        };
        if self.other_accepts(inst) {
            return None;
        }
        if !vo.is_valid(inst) {
            // an overlap of oneOf branches shows as a value that matches more than one
            // (else, second best: the changed oneOf itself rejects it, and with
            // the old alternatives back the instance passes)
            if self.overlap {
                let here = to_pointer(at);
                let multiple = vo.iter_errors(inst).take(16).find(|e| {
                    matches!(
                        e.kind(),
                        jsonschema::error::ValidationErrorKind::OneOfMultipleValid { .. }
                    ) && e.instance_path().as_str() == here
                });
                if let Some(e) = multiple {
                    return Some(Hit {
                        inst: inst.clone(),
                        at: at.to_vec(),
                        kind,
                        detail: error_detail(&e),
                        tier: Tier::Undone,
                    });
                }
                // (where the pointer runs through merged branches, nothing can
                // be undone: a oneOf at the node rejecting it must then say so)
                let undone = self.undone();
                if undone.is_some_and(|u| !u.is_valid(inst)) {
                    return None;
                }
                // (a combinator above the oneOf may report it in its own name)
                let at_one_of = vo.iter_errors(inst).take(16).find(|e| {
                    e.instance_path().as_str() == here
                        && e.evaluation_path().as_str().ends_with("/oneOf")
                });
                let e = match undone {
                    Some(_) => at_one_of.or_else(|| vo.iter_errors(inst).next())?,
                    // (or a combinator enclosing it, at the same place)
                    None => at_one_of.or_else(|| {
                        vo.iter_errors(inst).take(16).find(|e| {
                            e.instance_path().as_str() == here
                                && attributable(
                                    self.site,
                                    &self.pointer_tail,
                                    e.evaluation_path().as_str(),
                                )
                        })
                    })?,
                };
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind,
                    detail: error_detail(&e),
                    tier: Tier::AtNode,
                });
            }
            // the validator's complaint is the changed keyword itself, at the changed place
            // (for one name of a `required` list: about that name, and the
            // only reason, i.e. with that name put back the other side accepts)
            let exact = vo.iter_errors(inst).take(16).find(|e| {
                let eval = e.evaluation_path().as_str();
                self.about_subject(e)
                    && eval
                        .split('/')
                        .skip(1)
                        .filter(|t| *t != "$ref")
                        .map(|t| t.replace("~1", "/").replace("~0", "~"))
                        .eq(self.pointer_tail.iter().cloned())
            });
            let alone =
                self.required_name().is_none() || self.undone().is_some_and(|u| u.is_valid(inst));
            if let Some(e) = exact.filter(|_| alone) {
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind,
                    detail: error_detail(&e),
                    tier: Tier::Undone,
                });
            }
            // with the change undone, the other side accepts: this change is the cause
            if self.undone().is_some_and(|u| u.is_valid(inst)) {
                let detail = vo
                    .iter_errors(inst)
                    .take(16)
                    .find(|e| {
                        self.about_subject(e)
                            && attributable(
                                self.site,
                                &self.pointer_tail,
                                e.evaluation_path().as_str(),
                            )
                    })
                    .or_else(|| vo.iter_errors(inst).next())
                    .map(|e| error_detail(&e))
                    .unwrap_or_default();
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind,
                    detail,
                    tier: Tier::Undone,
                });
            }
            // the error that this change explains, if the validator names one
            let mut first: Option<String> = None;
            for e in vo.iter_errors(inst).take(16) {
                let eval = e.evaluation_path().as_str().to_string();
                if self.about_subject(&e) && attributable(self.site, &self.pointer_tail, &eval) {
                    return Some(Hit {
                        inst: inst.clone(),
                        at: at.to_vec(),
                        kind,
                        detail: error_detail(&e),
                        tier: Tier::AtNode,
                    });
                }
                first.get_or_insert_with(|| error_detail(&e));
            }
            return Some(Hit {
                inst: inst.clone(),
                at: at.to_vec(),
                kind,
                detail: first.unwrap_or_default(),
                tier: Tier::Elsewhere,
            });
        }
        // integer widths: only serde's ranges (which the plain validator
        // ignores) reject it; the node's value must lie where the widths differ
        if let Some(w) = ints {
            let mut node = inst.clone();
            let Value::Number(n) = pointer_mut(&mut node, at)? else {
                return None;
            };
            let (in_src, in_other) = (
                serde_admits(w.src.as_ref(), n),
                serde_admits(w.other.as_ref(), n),
            );
            if in_src != in_other {
                let (was, now) = if self.input {
                    (&w.src_name, &w.other_name)
                } else {
                    (&w.other_name, &w.src_name)
                };
                let detail = match (self.input, in_src) {
                    (true, true) => format!("{n} is outside `format: {now}` (was `{was}`): deserializing it into the new integer type fails"),
                    (false, true) => format!("{n} is outside `format: {was}` (now `{now}`): old clients deserializing into the old integer type fail"),
                    // (the width sits under a `not`, or beside an overlapping `oneOf` branch)
                    (true, false) => format!("{n} is now within `format: {now}` (was `{was}`), where the new schema excludes that width: the new schema rejects the call"),
                    (false, false) => format!("{n} was within `format: {was}` (now `{now}`), where the old schema excludes that width: old clients reject it"),
                };
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind,
                    detail,
                    tier: Tier::AtNode,
                });
            }
        }
        None
    }
}
