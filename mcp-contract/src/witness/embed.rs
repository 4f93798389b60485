//! Whole instances built around the changed node: a sample of the schema
//! along the change's steps with a chosen value at the node, and the
//! instance pointers the search writes through.

use serde_json::{Map, Value};

use super::path::Step;
use super::sample::{self, flatten, member_schema, resolve};

pub(super) fn pointer<'v>(v: &'v Value, at: &[String]) -> Option<&'v Value> {
    let mut cur = v;
    for t in at {
        cur = match cur {
            Value::Object(m) => m.get(t)?,
            Value::Array(a) => a.get(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

pub(super) fn pointer_mut<'v>(v: &'v mut Value, at: &[String]) -> Option<&'v mut Value> {
    let mut cur = v;
    for t in at {
        cur = match cur {
            Value::Object(m) => m.get_mut(t)?,
            Value::Array(a) => a.get_mut(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

pub(super) fn to_pointer(at: &[String]) -> String {
    at.iter()
        .map(|t| format!("/{}", crate::lockfile::escape_pointer(t)))
        .collect()
}

/// Builds an instance of `root` along `steps` with `leaf` at the end
/// (when `keep_node` is false the node is left as sampled); returns it and
/// the concrete instance path of the node.
pub(super) fn embed(
    root: &Value,
    steps: &[Step],
    leaf: Value,
    variant: usize,
    keep_node: bool,
) -> (Value, Vec<String>) {
    let mut at = vec![];
    let v = embed_at(root, root, steps, leaf, variant, keep_node, &mut at, 0);
    (v, at)
}

#[allow(clippy::too_many_arguments)]
fn embed_at(
    root: &Value,
    node: &Value,
    steps: &[Step],
    leaf: Value,
    variant: usize,
    keep_node: bool,
    at: &mut Vec<String>,
    depth: usize,
) -> Value {
    if steps.is_empty() || depth > 64 {
        return if keep_node {
            sample::sample(root, node, variant)
        } else {
            leaf
        };
    }
    let flat = flatten(root, node, variant);
    match &steps[0] {
        Step::Branch(kw, i) => {
            let r = resolve(root, node);
            let child = r.get(*kw).and_then(|a| a.get(*i)).unwrap_or(node);
            let mut v = embed_at(
                root,
                child,
                &steps[1..],
                leaf,
                variant,
                keep_node,
                at,
                depth + 1,
            );
            // the parent's own required members still apply
            if let Value::Object(m) = &mut v {
                let parent = flatten(root, &strip_alternatives(r), variant);
                fill_required(root, &parent, m, variant);
            }
            v
        }
        Step::Not => {
            let child = flat.get("not").cloned().unwrap_or(Value::Bool(true));
            embed_at(
                root,
                &child,
                &steps[1..],
                leaf,
                variant,
                keep_node,
                at,
                depth + 1,
            )
        }
        Step::Prop(_) | Step::PatternKey(_) | Step::Additional => {
            let key = match &steps[0] {
                Step::Prop(n) => n.clone(),
                Step::PatternKey(p) => super::pattern::matching(p)
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| "x".into()),
                _ => {
                    let mut k = "x".to_string();
                    while flat.get("properties").and_then(|p| p.get(&k)).is_some() {
                        k.push('x');
                    }
                    k
                }
            };
            let mut base = match sample::of_type(root, &flat, "object", variant, 0) {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            let child = member_schema(&flat, &key).clone();
            at.push(key.clone());
            let v = embed_at(
                root,
                &child,
                &steps[1..],
                leaf,
                variant,
                keep_node,
                at,
                depth + 1,
            );
            base.insert(key, v);
            Value::Object(base)
        }
        Step::Item(i, kw) => {
            let mut base = match sample::of_type(root, &flat, "array", variant, 0) {
                Value::Array(a) => a,
                _ => vec![],
            };
            let idx = i.unwrap_or(0);
            let child = match (kw, i) {
                (&"contains", _) => flat.get("contains").cloned(),
                (_, Some(i)) => flat
                    .get("prefixItems")
                    .and_then(|a| a.get(*i))
                    .or_else(|| flat.get("items").and_then(|a| a.get(*i)))
                    .or_else(|| flat.get("items").filter(|a| a.is_object()))
                    .cloned(),
                _ => flat.get("items").filter(|a| !a.is_array()).cloned(),
            }
            .unwrap_or(Value::Bool(true));
            while base.len() <= idx && base.len() < 256 {
                base.push(sample::sample(root, &child, 0));
            }
            at.push(idx.to_string());
            let v = embed_at(
                root,
                &child,
                &steps[1..],
                leaf,
                variant,
                keep_node,
                at,
                depth + 1,
            );
            if idx < base.len() {
                base[idx] = v;
            }
            Value::Array(base)
        }
    }
}

pub(super) fn strip_alternatives(r: &Value) -> Value {
    match r {
        Value::Object(m) => {
            let mut m = m.clone();
            for k in ["anyOf", "oneOf", "allOf"] {
                m.remove(k);
            }
            Value::Object(m)
        }
        v => v.clone(),
    }
}

pub(super) fn fill_required(
    root: &Value,
    flat: &Map<String, Value>,
    m: &mut Map<String, Value>,
    variant: usize,
) {
    for k in flat
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !m.contains_key(k) {
            m.insert(
                k.to_string(),
                sample::sample(root, member_schema(flat, k), variant),
            );
        }
    }
}

/// The first complaint of `v` about `before` that `after` no longer
/// draws (same keyword, same place): the one the difference explains.
/// The node a comparator pointer names: its segments read in the document,
/// through the references on the way (the comparator's pointers are
/// places, and a place may lie behind a `$ref`).
pub(super) fn place_node<'v>(root: &'v Value, segments: &[String]) -> Option<&'v Value> {
    let mut cur = root;
    for seg in segments {
        let mut hops = 0;
        cur = loop {
            let here = match cur {
                Value::Object(m) => m.get(seg.as_str()),
                Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            };
            if let Some(x) = here {
                break x;
            }
            let r = cur.get("$ref").and_then(Value::as_str)?;
            hops += 1;
            if hops > 64 {
                return None;
            }
            cur = crate::schema::refs::resolve(root, r)?;
        };
    }
    Some(cur)
}
