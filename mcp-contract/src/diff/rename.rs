//! Probable renames: a removed and an added tool whose schemas are nearly
//! the same. The removal stays breaking; the message just says where the
//! callers probably need to go.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::model::{Surface, Tool};

/// Minimum similarity for a pair to be called a probable rename.
const THRESHOLD: f64 = 0.6;

/// Maps removed tool name -> added tool name for probable renames (one-to-one, best first).
pub(crate) fn probable_renames<'a>(
    old: &'a Surface,
    new: &'a Surface,
    removed: &[&'a str],
    added: &[&'a str],
) -> BTreeMap<&'a str, &'a str> {
    let mut scored = vec![];
    for r in removed {
        for a in added {
            let (Some(rt), Some(at)) = (old.get(r), new.get(a)) else {
                continue;
            };
            let s = similarity(rt, at);
            if s >= THRESHOLD {
                scored.push((s, *r, *a));
            }
        }
    }
    scored.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(y.1)).then(x.2.cmp(y.2)));
    let mut out = BTreeMap::new();
    let mut taken = BTreeSet::new();
    for (_, r, a) in scored {
        if out.contains_key(r) || taken.contains(a) {
            continue;
        }
        out.insert(r, a);
        taken.insert(a);
    }
    out
}

/// 0..=1: how alike two tools are (schema shape first, then name and description).
pub(crate) fn similarity(a: &Tool, b: &Tool) -> f64 {
    let (fa, fb) = (features(&a.input_schema), features(&b.input_schema));
    let schema = if fa.is_empty() && fb.is_empty() {
        if a.input_schema == b.input_schema {
            1.0
        } else {
            0.5
        }
    } else {
        jaccard(&fa, &fb)
    };
    let name = dice(&a.name, &b.name);
    let desc = dice(
        a.description.as_deref().unwrap_or(""),
        b.description.as_deref().unwrap_or(""),
    );
    // Tools without parameters say little by schema: lean on names and descriptions.
    if fa.is_empty() && fb.is_empty() {
        0.2 * schema + 0.4 * name + 0.4 * desc
    } else {
        0.6 * schema + 0.2 * name + 0.2 * desc
    }
}

/// Property paths with their types, e.g. `owner:string`.
fn features(schema: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![(schema, String::new(), 0usize)];
    while let Some((v, path, depth)) = stack.pop() {
        if depth > 8 {
            continue;
        }
        if let Some(props) = v.get("properties").and_then(Value::as_object) {
            for (k, p) in props {
                let ty = p.get("type").map(|t| t.to_string()).unwrap_or_default();
                let here = format!("{path}{k}");
                out.insert(format!("{here}:{ty}"));
                stack.push((p, format!("{here}."), depth + 1));
            }
        }
    }
    out
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let inter = a.intersection(b).count() as f64;
    let union = a.union(b).count() as f64;
    if union == 0.0 {
        1.0
    } else {
        inter / union
    }
}

/// Sørensen–Dice over character bigrams.
fn dice(a: &str, b: &str) -> f64 {
    let grams = |s: &str| -> Vec<(char, char)> {
        let chars: Vec<char> = s.to_lowercase().chars().collect();
        chars.windows(2).map(|w| (w[0], w[1])).collect()
    };
    let (ga, gb) = (grams(a), grams(b));
    if ga.is_empty() && gb.is_empty() {
        return if a == b { 1.0 } else { 0.0 };
    }
    let mut used = vec![false; gb.len()];
    let mut hits = 0;
    for g in &ga {
        if let Some(i) = gb.iter().enumerate().position(|(i, x)| !used[i] && x == g) {
            used[i] = true;
            hits += 1;
        }
    }
    2.0 * hits as f64 / (ga.len() + gb.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_is_one_for_equal_and_low_for_unrelated() {
        assert_eq!(dice("search_docs", "search_docs"), 1.0);
        assert!(dice("search_docs", "delete_repo") < 0.3);
    }
}
