//! A normalized view of one schema node, so that forms which validate the
//! same values compare as equal:
//! - boolean schemas become `{}` and `{"not": {}}`;
//! - local `$ref`s are followed (sibling keywords merged over the target),
//!   which makes a type moved into or out of `$defs`, or a renamed `$defs`
//!   key, no change at all;
//! - nullable spellings (`anyOf`/`oneOf` of a schema and `{"type":"null"}`)
//!   become a `type` array with `null`;
//! - `allOf` branches that merge without conflict are merged.
//!
//! Only the node itself is normalized; children are normalized when the
//! comparator reaches them, so recursive schemas never loop here.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::refs;
use super::ANNOTATION_KEYWORDS;

/// How many references a single node may chain through before we stop following.
const MAX_REF_CHAIN: usize = 64;
/// How deep nested `allOf`/nullable merging may go.
const MAX_MERGE_DEPTH: usize = 16;

/// A normalized schema node.
#[derive(Debug, Clone)]
pub struct Shape<'a> {
    pub map: Cow<'a, Map<String, Value>>,
    /// The last local reference followed to reach this node, if any.
    pub via: Option<String>,
    /// The reference chain was longer than this view follows: the node
    /// still holds an unfollowed reference and was not compared in full.
    pub truncated: bool,
}

impl Shape<'_> {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key)
    }
}

fn empty() -> &'static Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    EMPTY.get_or_init(Map::new)
}

/// Normalizes `node` (a schema inside the document `root`).
pub fn shape<'a>(root: &'a Value, node: &'a Value) -> Shape<'a> {
    shape_at(root, node, 0)
}

fn shape_at<'a>(root: &'a Value, node: &'a Value, depth: usize) -> Shape<'a> {
    let (map, via, truncated) = follow_refs(root, node);
    let mut shape = Shape {
        map,
        via,
        truncated,
    };
    if depth < MAX_MERGE_DEPTH {
        merge_nullable(root, &mut shape, depth);
        flatten_all_of(root, &mut shape, depth);
    }
    shape
}

fn as_map(node: &Value) -> Cow<'_, Map<String, Value>> {
    match node {
        Value::Object(m) => Cow::Borrowed(m),
        Value::Bool(false) => {
            let mut m = Map::new();
            m.insert("not".into(), Value::Object(Map::new()));
            Cow::Owned(m)
        }
        _ => Cow::Borrowed(empty()),
    }
}

/// The first local reference keyword of a node (`$ref`, then `$dynamicRef`,
/// then `$recursiveRef`) and the reference it makes.
fn local_reference(map: &Map<String, Value>) -> Option<(&'static str, String)> {
    refs::REFERENCE_KEYWORDS.into_iter().find_map(|kw| {
        let r = refs::reference_key(kw, map.get(kw)?)?;
        refs::is_local(&r).then_some((kw, r))
    })
}

/// Follows local references, merging sibling keywords over the target.
/// The third value says the chain was cut at [`MAX_REF_CHAIN`].
type Followed<'a> = (Cow<'a, Map<String, Value>>, Option<String>, bool);

fn follow_refs<'a>(root: &'a Value, node: &'a Value) -> Followed<'a> {
    let mut map = as_map(node);
    let mut via = None;
    for _ in 0..MAX_REF_CHAIN {
        let Some((keyword, reference)) = local_reference(&map) else {
            return (map, via, false);
        };
        let Some(target) = refs::resolve(root, &reference) else {
            return (map, via, false);
        };
        via = Some(reference);
        let target_map = as_map(target);
        let siblings: Vec<(&String, &Value)> =
            map.iter().filter(|(k, _)| k.as_str() != keyword).collect();
        if siblings.is_empty() {
            map = target_map;
            continue;
        }
        let sibling_map: Map<String, Value> = siblings
            .iter()
            .map(|(k, v)| ((*k).clone(), (*v).clone()))
            .collect();
        let mut merged = target_map.into_owned();
        let leftover = merge_exact(&mut merged, &sibling_map, true);
        push_all_of(&mut merged, leftover);
        map = Cow::Owned(merged);
    }
    let truncated = local_reference(&map).is_some();
    (map, via, truncated)
}

fn names(m: &Map<String, Value>) -> Vec<&String> {
    let mut out: Vec<&String> = ["properties", "patternProperties"]
        .iter()
        .filter_map(|k| m.get(*k).and_then(Value::as_object))
        .flat_map(|o| o.keys())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Can two schema objects be merged into one without changing meaning?
/// Keywords that look at their own object's other keywords
/// (`additionalProperties` vs `properties`, `items` vs `prefixItems`,
/// `unevaluated*`) forbid it unless both sides agree on what they look at.
pub fn mergeable(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    let unevaluated = |m: &Map<String, Value>| {
        m.contains_key("unevaluatedProperties") || m.contains_key("unevaluatedItems")
    };
    if unevaluated(a) || unevaluated(b) {
        return false;
    }
    let (na, nb) = (names(a), names(b));
    let covers = |x: &[&String], y: &[&String]| y.iter().all(|n| x.contains(n));
    if a.contains_key("additionalProperties") && !covers(&na, &nb) {
        return false;
    }
    if b.contains_key("additionalProperties") && !covers(&nb, &na) {
        return false;
    }
    let has_items =
        |m: &Map<String, Value>| m.contains_key("items") || m.contains_key("additionalItems");
    if (has_items(a) || has_items(b))
        && a.get("prefixItems") != b.get("prefixItems")
        && (a.contains_key("prefixItems") || b.contains_key("prefixItems"))
    {
        return false;
    }
    if (a.contains_key("additionalItems") || b.contains_key("additionalItems"))
        && a.get("items") != b.get("items")
    {
        return false;
    }
    true
}

/// Merges the keywords of `extra` into `base` wherever the result validates
/// exactly the values both accept (`required` lists unite, disjoint
/// `properties` unite, equal keywords are kept once) and returns the
/// keywords that could not be merged, to be kept as an `allOf` branch.
/// `extra_annotations_win` decides whose title/description/... survive.
pub fn merge_exact(
    base: &mut Map<String, Value>,
    extra: &Map<String, Value>,
    extra_annotations_win: bool,
) -> Map<String, Value> {
    let mut leftover = Map::new();
    // `additionalProperties` judges names by the `properties` and
    // `patternProperties` beside it: when those cannot be merged (a name
    // declared differently) it must stay with its own, so all of `extra` does
    let rest = |m: &Map<String, Value>| m.contains_key("additionalProperties");
    let clash = |k: &str| match (base.get(k), extra.get(k)) {
        (Some(Value::Object(a)), Some(Value::Object(b))) if k == "properties" => {
            b.iter().any(|(n, s)| a.get(n).is_some_and(|x| x != s))
        }
        (Some(a), Some(b)) => a != b,
        _ => false,
    };
    let whole = !mergeable(base, extra)
        || ((rest(base) || rest(extra)) && (clash("properties") || clash("patternProperties")));
    for (k, v) in extra {
        let annotation = ANNOTATION_KEYWORDS.contains(&k.as_str());
        if annotation {
            if extra_annotations_win || !base.contains_key(k) {
                base.insert(k.clone(), v.clone());
            }
            continue;
        }
        if whole {
            leftover.insert(k.clone(), v.clone());
            continue;
        }
        match (base.get(k), v) {
            (None, _) => {
                base.insert(k.clone(), v.clone());
            }
            (Some(existing), _) if existing == v => {}
            (Some(Value::Array(a)), Value::Array(b)) if k == "required" => {
                let mut all: Vec<Value> = a.iter().chain(b.iter()).cloned().collect();
                all.sort_by_key(|x| x.to_string());
                all.dedup();
                base.insert(k.clone(), Value::Array(all));
            }
            (Some(Value::Object(a)), Value::Object(b))
                if k == "properties" && b.iter().all(|(n, s)| a.get(n).is_none_or(|x| x == s)) =>
            {
                let mut all = a.clone();
                all.extend(b.iter().map(|(n, s)| (n.clone(), s.clone())));
                base.insert(k.clone(), Value::Object(all));
            }
            _ => {
                leftover.insert(k.clone(), v.clone());
            }
        }
    }
    leftover
}

/// Appends `branch` to `map`'s `allOf` (creating it) unless it is empty.
pub fn push_all_of(map: &mut Map<String, Value>, branch: Map<String, Value>) {
    if branch.is_empty() {
        return;
    }
    if let Value::Array(a) = map.entry("allOf").or_insert_with(|| Value::Array(vec![])) {
        a.push(Value::Object(branch));
    }
}

/// `{type: null}`, with annotations or keywords that constrain other
/// types only (`uniqueItems`, `minLength`, ...): null passes those.
fn is_null_schema(m: &Map<String, Value>) -> bool {
    let other_types = |k: &str| {
        super::types::BY_TYPE
            .iter()
            .any(|(_, kws)| kws.contains(&k))
    };
    m.get("type").and_then(Value::as_str) == Some("null")
        && m.keys()
            .all(|k| k == "type" || ANNOTATION_KEYWORDS.contains(&k.as_str()) || other_types(k))
}

fn admits_null(m: &Map<String, Value>) -> bool {
    super::types::TypeSet::from_keyword(m.get("type")).contains(super::types::TypeSet::NULL)
}

/// `anyOf: [X, {type: null}]` (or oneOf) → X with `null` added to its type.
fn merge_nullable<'a>(root: &'a Value, shape: &mut Shape<'a>, depth: usize) {
    for kw in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = shape.map.get(kw) else {
            continue;
        };
        if branches.len() != 2 {
            continue;
        }
        let b0 = shape_at(root, &branches[0], depth + 1);
        let b1 = shape_at(root, &branches[1], depth + 1);
        let (other, _null) = if is_null_schema(&b1.map) {
            (b0, b1)
        } else if is_null_schema(&b0.map) {
            (b1, b0)
        } else {
            continue;
        };
        // In oneOf a value matching both branches is rejected: merging is only
        // sound when the other branch does not itself admit null.
        if kw == "oneOf" && admits_null(&other.map) {
            continue;
        }
        let blocked = ["anyOf", "oneOf", "allOf", "not", "$ref", "if"];
        if other.map.keys().any(|k| blocked.contains(&k.as_str()))
            || !other.map.contains_key("type")
        {
            continue;
        }
        let parent_keys: Vec<&String> = shape.map.keys().filter(|k| k.as_str() != kw).collect();
        if parent_keys.iter().any(|k| {
            !ANNOTATION_KEYWORDS.contains(&k.as_str()) && other.map.contains_key(k.as_str())
        }) {
            continue;
        }
        let parent: Map<String, Value> = shape
            .map
            .iter()
            .filter(|(k, _)| k.as_str() != kw)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !mergeable(&parent, &other.map) {
            continue;
        }
        let mut merged = other.map.into_owned();
        let mut types: Vec<Value> = match merged.get("type") {
            Some(Value::String(s)) => vec![Value::String(s.clone())],
            Some(Value::Array(a)) => a.clone(),
            _ => vec![],
        };
        if !types.iter().any(|t| t == "null") {
            types.push(Value::String("null".into()));
        }
        merged.insert("type".into(), Value::Array(types));
        if let Some(c) = merged.remove("const") {
            // `const` beside an `enum` admits the const only if the enum has it
            let values = match merged.get("enum") {
                Some(Value::Array(e)) if !e.contains(&c) => vec![],
                _ => vec![c],
            };
            merged.insert("enum".into(), Value::Array(values));
        }
        if let Some(Value::Array(values)) = merged.get_mut("enum") {
            if !values.iter().any(Value::is_null) {
                values.push(Value::Null);
            }
        }
        for (k, v) in shape.map.iter() {
            if k != kw {
                merged.insert(k.clone(), v.clone());
            }
        }
        shape.map = Cow::Owned(merged);
        return;
    }
}

/// Merges `allOf` branches into the node when their keywords do not collide.
fn flatten_all_of<'a>(root: &'a Value, shape: &mut Shape<'a>, depth: usize) {
    let Some(Value::Array(branches)) = shape.map.get("allOf") else {
        return;
    };
    let branches = branches.clone();
    let mut merged = shape.map.clone().into_owned();
    merged.remove("allOf");
    let mut residual = vec![];
    for b in &branches {
        let mut branch = shape_at(root, b, depth + 1).map.into_owned();
        // a branch's own residual allOf joins ours rather than replacing it
        if let Some(Value::Array(inner)) = branch.remove("allOf") {
            residual.extend(inner);
        }
        let leftover = merge_exact(&mut merged, &branch, false);
        if !leftover.is_empty() {
            residual.push(Value::Object(leftover));
        }
    }
    if !residual.is_empty() {
        merged.insert("allOf".into(), Value::Array(residual));
    }
    shape.map = Cow::Owned(merged);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ref_and_inline_normalize_alike() {
        let root = json!({"$defs": {"K": {"type": "string", "enum": ["a", "b"]}}});
        let by_ref = json!({"$ref": "#/$defs/K", "description": "kind"});
        let s = shape(&root, &by_ref);
        assert_eq!(
            Value::Object(s.map.into_owned()),
            json!({"type": "string", "enum": ["a", "b"], "description": "kind"})
        );
    }

    #[test]
    fn nullable_any_of_becomes_type_array() {
        let root = json!({"$defs": {"S": {"type": "object", "properties": {"x": {}}}}});
        let node = json!({"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}], "description": "d"});
        let s = shape(&root, &node);
        assert_eq!(s.map["type"], json!(["object", "null"]));
        assert_eq!(s.map["description"], json!("d"));
    }

    #[test]
    fn non_colliding_all_of_is_merged() {
        let root = json!({});
        let node = json!({"allOf": [{"type": "object"}, {"required": ["a"]}]});
        let s = shape(&root, &node);
        assert_eq!(
            Value::Object(s.map.into_owned()),
            json!({"type": "object", "required": ["a"]})
        );
    }

    /// soundness.rs, seed 23: a closed branch whose `properties` collide
    /// with the node's stays whole (its `additionalProperties` beside the
    /// node's declarations alone would judge other names).
    #[test]
    fn a_closed_branch_whose_properties_collide_stays_whole() {
        let root = json!({});
        let closed = json!({"additionalProperties": false, "properties": {"b": {}, "c": {"type": "object"}}});
        let node = json!({"allOf": [{"properties": {"c": {}}, "type": "object"}, closed]});
        let s = shape(&root, &node);
        assert_eq!(
            Value::Object(s.map.into_owned()),
            json!({"properties": {"c": {}}, "type": "object", "allOf": [closed]})
        );
    }
}
