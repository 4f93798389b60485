//! Shrinking a hit to the smallest instance that still shows the change
//! (fewest members, shortest strings, smallest numbers), within a budget.

use std::time::Instant;

use serde_json::{json, Value};

use super::embed::pointer_mut;
use super::search::Search;
use super::values::Hit;
use super::{Proof, Witness};

/// Most instances checked while shrinking one witness.
pub(super) const SHRINK_BUDGET: usize = 300;

impl Search<'_> {
    /// Shrinks a hit (fewest members, shortest strings, smallest numbers) and turns it into a witness.
    pub(super) fn finish(&self, hit: Hit) -> (Option<Witness>, Proof) {
        let ints = self.int_formats();
        let (node_at, kind, tier) = (hit.at.clone(), hit.kind, hit.tier);
        let keeps = |inst: &Value| -> Option<Hit> {
            let h = self.check(inst, &node_at, ints)?;
            (h.kind == kind && h.tier <= tier).then_some(h)
        };
        let mut best = hit;
        let mut budget = self.budget.min(SHRINK_BUDGET);
        loop {
            let mut improved = false;
            for cand in shrinks(&best.inst, &best.at) {
                if budget == 0 || self.deadline.is_some_and(|d| Instant::now() >= d) {
                    budget = 0;
                    break;
                }
                budget -= 1;
                if let Some(h) = keeps(&cand) {
                    best = h;
                    improved = true;
                    break;
                }
            }
            if !improved || budget == 0 {
                break;
            }
        }
        (
            Some(Witness {
                kind: best.kind,
                value: best.inst,
                detail: best.detail,
            }),
            Proof::Proven,
        )
    }
}

/// `inst` with every array on the way to the node `at` holding copies of
/// the item on the way only; `None` when that changes nothing.
pub(super) fn uniform(inst: &Value, at: &[String]) -> Option<Value> {
    let mut out = inst.clone();
    make_uniform(&mut out, at).then_some(out)
}

fn make_uniform(v: &mut Value, at: &[String]) -> bool {
    let Some((head, rest)) = at.split_first() else {
        return false;
    };
    match v {
        Value::Object(m) => m.get_mut(head).is_some_and(|c| make_uniform(c, rest)),
        Value::Array(a) => {
            let Some(i) = head.parse::<usize>().ok().filter(|i| *i < a.len()) else {
                return false;
            };
            let deeper = make_uniform(&mut a[i], rest);
            let item = a[i].clone();
            let mut changed = false;
            for x in a.iter_mut() {
                if *x != item {
                    *x = item.clone();
                    changed = true;
                }
            }
            deeper || changed
        }
        _ => false,
    }
}

/// Smaller variants of `v`, one change each: a member or element dropped
/// (never one on the way to the node), a string shortened, a number moved towards zero.
pub(super) fn shrinks(v: &Value, node: &[String]) -> Vec<Value> {
    let mut out = vec![];
    let mut at = vec![];
    shrinks_at(v, v, node, &mut at, &mut out);
    out
}

fn shrinks_at(
    root: &Value,
    v: &Value,
    node: &[String],
    at: &mut Vec<String>,
    out: &mut Vec<Value>,
) {
    if out.len() > 256 || at.len() > 32 {
        return;
    }
    let on_path = |at: &[String]| at.len() <= node.len() && node[..at.len()] == *at;
    let replace = |at: &[String], with: Option<Value>, out: &mut Vec<Value>| {
        let mut r = root.clone();
        if let Some((last, parent)) = at.split_last() {
            match pointer_mut(&mut r, parent) {
                Some(Value::Object(m)) => match with {
                    Some(w) => {
                        m.insert(last.clone(), w);
                    }
                    None => {
                        m.remove(last);
                    }
                },
                Some(Value::Array(a)) => {
                    let Ok(i) = last.parse::<usize>() else { return };
                    if i >= a.len() {
                        return;
                    }
                    match with {
                        Some(w) => a[i] = w,
                        None => {
                            a.remove(i);
                        }
                    }
                }
                _ => return,
            }
        } else if let Some(w) = with {
            r = w;
        } else {
            return;
        }
        out.push(r);
    };
    match v {
        Value::Object(m) => {
            for k in m.keys() {
                at.push(k.clone());
                if !on_path(at) {
                    replace(at, None, out);
                }
                at.pop();
            }
            for (k, c) in m {
                at.push(k.clone());
                shrinks_at(root, c, node, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for i in (0..a.len()).rev() {
                at.push(i.to_string());
                if !on_path(at) {
                    replace(at, None, out);
                }
                at.pop();
            }
            for (i, c) in a.iter().enumerate() {
                at.push(i.to_string());
                shrinks_at(root, c, node, at, out);
                at.pop();
            }
        }
        Value::String(s) if !s.is_empty() => {
            let n = s.chars().count();
            for keep in [0, n / 2, n - 1] {
                if keep < n {
                    replace(at, Some(Value::String(s.chars().take(keep).collect())), out);
                }
            }
        }
        Value::Number(x) => {
            if let Some(i) = x.as_i64() {
                for t in [0, i / 2, i - i.signum()] {
                    if t != i && t.unsigned_abs() < i.unsigned_abs() {
                        replace(at, Some(json!(t)), out);
                    }
                }
            } else if let Some(f) = x.as_f64() {
                if f.fract() != 0.0 {
                    replace(at, Some(json!(f.trunc() as i64)), out);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_smallest_int64_shrinks_without_overflow() {
        // (an int64 width's lower bound is a boundary candidate)
        let out = shrinks(&json!(i64::MIN), &[]);
        assert!(
            out.contains(&json!(0)) && out.contains(&json!(i64::MIN / 2)),
            "{out:?}"
        );
    }
}
