//! When may two textually equal sub-schemas be skipped?
//!
//! Text equality is not equality of what a schema accepts: `{"$ref":
//! "#/$defs/Address"}` means something else once `$defs/Address` changed.
//! [`RefEquiv`] decides, for a pair of documents, which references resolve to
//! schemas that accept exactly the same values on both sides (the target is
//! textually equal and every reference inside it is, recursively, equal in
//! the same sense: a greatest fixed point, so recursive definitions that did
//! not change are equal). A node may then be skipped only when it is
//! textually equal *and* every reference it contains is equal.

use std::collections::HashMap;

use serde_json::Value;

use super::{refs, DATA_KEYWORDS};

/// Which references of an (old, new) document pair resolve alike.
#[derive(Debug, Default)]
pub struct RefEquiv {
    /// Reference string → equal on both sides.
    equal: HashMap<String, bool>,
    /// Every reference resolves alike (or there are none): equal text is
    /// then equal meaning everywhere, and no node needs walking.
    all_equal: bool,
}

/// Every reference a schema node contains (outside instance data), in the
/// form [`refs::resolve`] takes (see [`refs::reference_key`]).
pub(crate) fn references(v: &Value) -> Vec<String> {
    let mut out = vec![];
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    if let Some(r) = refs::reference_key(k, child) {
                        out.push(r);
                    } else if !DATA_KEYWORDS.contains(&k.as_str()) {
                        stack.push(child);
                    }
                }
            }
            Value::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    out
}

impl RefEquiv {
    /// Computes the equal references of `old` and `new` (whole documents).
    pub fn new(old: &Value, new: &Value) -> Self {
        let mut all: Vec<String> = references(old);
        all.extend(references(new));
        all.sort();
        all.dedup();
        // direct equality and the references inside each target
        let mut equal: HashMap<String, bool> = HashMap::with_capacity(all.len());
        let mut inside: HashMap<String, Vec<String>> = HashMap::with_capacity(all.len());
        for r in &all {
            let (o, n) = (refs::resolve(old, r), refs::resolve(new, r));
            let same = match (o, n) {
                (Some(o), Some(n)) => o == n,
                // remote references: the same text is all we can know
                (None, None) => !refs::is_local(r),
                _ => false,
            };
            if same {
                if let Some(o) = o {
                    inside.insert(r.clone(), references(o));
                }
            }
            equal.insert(r.clone(), same);
        }
        // greatest fixed point: a reference is unequal once anything it reaches is
        loop {
            let mut changed = false;
            for r in &all {
                if !equal[r] {
                    continue;
                }
                let bad = inside
                    .get(r)
                    .is_some_and(|rs| rs.iter().any(|s| !equal.get(s).copied().unwrap_or(false)));
                if bad {
                    equal.insert(r.clone(), false);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let all_equal = equal.values().all(|v| *v);
        RefEquiv { equal, all_equal }
    }

    /// Do `old` and `new` (nodes of the two documents) accept the same values
    /// for a reason this check can see: equal text, equal references?
    pub fn same(&self, old: &Value, new: &Value) -> bool {
        old == new && self.refs_equal(old)
    }

    /// [`Self::same`] for two optional keyword values.
    pub fn same_opt(&self, old: Option<&Value>, new: Option<&Value>) -> bool {
        match (old, new) {
            (Some(o), Some(n)) => self.same(o, n),
            (None, None) => true,
            _ => false,
        }
    }

    /// Does every reference inside `v` resolve alike on both sides?
    pub fn refs_equal(&self, v: &Value) -> bool {
        self.all_equal
            || references(v)
                .iter()
                .all(|r| self.equal.get(r).copied().unwrap_or(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn equal_text_with_a_changed_target_is_not_same() {
        let a = json!({"properties": {"x": {"$ref": "#/$defs/A"}}});
        let b = json!({"items": {"$ref": "#/$defs/B"}});
        let old =
            json!({"$defs": {"A": {"type": "string"}, "B": {"type": "integer"}}, "anyOf": [a, b]});
        let new =
            json!({"$defs": {"A": {"type": "integer"}, "B": {"type": "integer"}}, "anyOf": [a, b]});
        let eq = RefEquiv::new(&old, &new);
        assert!(!eq.same(&a, &a));
        assert!(eq.same(&b, &b));
    }

    #[test]
    fn a_change_deep_in_a_chain_reaches_the_top() {
        let old = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"items": {"$ref": "#/$defs/C"}}, "C": {"type": "string"}}, "items": {"$ref": "#/$defs/A"}});
        let mut new = old.clone();
        new["$defs"]["C"] = json!({"type": "integer"});
        let eq = RefEquiv::new(&old, &new);
        assert!(!eq.same(&json!({"$ref": "#/$defs/A"}), &json!({"$ref": "#/$defs/A"})));
    }

    #[test]
    fn unchanged_recursion_is_same() {
        let old = json!({"$defs": {"N": {"properties": {"next": {"$ref": "#/$defs/N"}}}}, "x": 1, "items": {"$ref": "#/$defs/N"}});
        let new = json!({"$defs": {"N": {"properties": {"next": {"$ref": "#/$defs/N"}}}}, "x": 2, "items": {"$ref": "#/$defs/N"}});
        let eq = RefEquiv::new(&old, &new);
        assert!(eq.same(&json!({"$ref": "#/$defs/N"}), &json!({"$ref": "#/$defs/N"})));
    }
}
