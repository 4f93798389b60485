//! References that lead back to a schema applied at the same place in the
//! value without descending into it (`{"anyOf": [{"$ref": "#"}, …]}`):
//! JSON Schema leaves such a document undefined (a validator loops or
//! refuses it). Found once per document, before any comparison, so the
//! comparator refuses the document at that reference at once instead of
//! meeting the loop in every pairing it tries.

use std::collections::HashMap;

use serde_json::Value;

use super::refs::{resolve, REFERENCE_KEYWORDS};

/// Keywords whose schemas apply to the value the node applies to.
const IN_PLACE_LISTS: [&str; 3] = ["allOf", "anyOf", "oneOf"];
const IN_PLACE_ONE: [&str; 4] = ["not", "if", "then", "else"];
/// Keywords whose schemas apply to a part of the value.
const DESCENDING_ONE: [&str; 7] = [
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "items",
    "additionalItems",
    "unevaluatedItems",
    "contains",
];

/// Schema nodes one document may hold before the search stops (it then
/// finds nothing, and the comparator's own limit on steps in place stays
/// the backstop).
const MAX_NODES: usize = 1 << 20;

/// The pointer of a reference that closes a cycle of schemas applied in
/// place, if the document has one reachable from its root.
pub fn unguarded_reference(doc: &Value) -> Option<String> {
    let id = |v: &Value| v as *const Value as usize;
    // every node reachable from the root, with the pointer it was found at
    let mut nodes: Vec<(&Value, String)> = vec![(doc, String::new())];
    let mut index: HashMap<usize, usize> = HashMap::from([(id(doc), 0)]);
    let mut edges: Vec<Vec<(usize, String)>> = vec![];
    let mut i = 0;
    while i < nodes.len() {
        if nodes.len() > MAX_NODES {
            return None;
        }
        let (v, p) = (nodes[i].0, nodes[i].1.clone());
        let mut in_place = vec![];
        for (child, at, here) in children(doc, v, &p) {
            let j = *index.entry(id(child)).or_insert_with(|| {
                nodes.push((child, at.clone()));
                nodes.len() - 1
            });
            if here {
                in_place.push((j, at));
            }
        }
        edges.push(in_place);
        i += 1;
    }
    first_cycle(&edges)
}

/// Depth-first over in-place edges (iteratively: the document controls
/// the depth); the site of the first edge back to a node on the path.
fn first_cycle(edges: &[Vec<(usize, String)>]) -> Option<String> {
    // 0: not seen, 1: on the path, 2: done
    let mut color = vec![0u8; edges.len()];
    for start in 0..edges.len() {
        if color[start] != 0 {
            continue;
        }
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        color[start] = 1;
        while let Some((n, next)) = path.last_mut() {
            let n = *n;
            let Some((t, site)) = edges[n].get(*next) else {
                color[n] = 2;
                path.pop();
                continue;
            };
            *next += 1;
            match color[*t] {
                1 => return Some(site.clone()),
                0 => {
                    color[*t] = 1;
                    path.push((*t, 0));
                }
                _ => {}
            }
        }
    }
    None
}

/// A node's subschemas: (schema, pointer, applied in place). A reference
/// counts as an in-place child at the reference's own pointer.
fn children<'a>(doc: &'a Value, v: &'a Value, p: &str) -> Vec<(&'a Value, String, bool)> {
    let Value::Object(m) = v else { return vec![] };
    let mut out = vec![];
    let at = |k: &str| format!("{p}/{}", crate::lockfile::escape_pointer(k));
    for kw in REFERENCE_KEYWORDS {
        if let Some(target) = m
            .get(kw)
            .and_then(Value::as_str)
            .and_then(|r| resolve(doc, r))
        {
            out.push((target, at(kw), true));
        }
    }
    for (k, child) in m {
        let k = k.as_str();
        let here =
            IN_PLACE_LISTS.contains(&k) || IN_PLACE_ONE.contains(&k) || k == "dependentSchemas";
        match child {
            Value::Array(a) if IN_PLACE_LISTS.contains(&k) || k == "prefixItems" => {
                for (i, x) in a.iter().enumerate() {
                    out.push((x, format!("{}/{i}", at(k)), here));
                }
            }
            Value::Object(named)
                if ["properties", "patternProperties", "dependentSchemas"].contains(&k) =>
            {
                for (name, x) in named {
                    let ptr = format!("{}/{}", at(k), crate::lockfile::escape_pointer(name));
                    out.push((x, ptr, here));
                }
            }
            _ if IN_PLACE_ONE.contains(&k) || DESCENDING_ONE.contains(&k) => {
                out.push((child, at(k), here));
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_reference_back_to_the_same_place_is_found() {
        let doc = json!({"allOf": [{"anyOf": [{"$ref": "#"}, {"type": "integer"}]}],
            "items": {"$ref": "#"}});
        assert_eq!(
            unguarded_reference(&doc).as_deref(),
            Some("/allOf/0/anyOf/0/$ref")
        );
        let mutual = json!({"$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]},
            "b": {"not": {"$ref": "#/$defs/a"}}}, "properties": {"x": {"$ref": "#/$defs/a"}}});
        assert!(unguarded_reference(&mutual).is_some());
    }

    #[test]
    fn recursion_through_the_value_is_not() {
        for doc in [
            json!({"type": "array", "items": {"oneOf": [{"$ref": "#"}, {"type": "integer"}]}}),
            json!({"$ref": "#/$defs/T", "$defs": {"T": {"properties": {"c": {"items": {"$ref": "#/$defs/T"}}},
                "anyOf": [{"$ref": "#/$defs/L"}, {"type": "object"}]}, "L": {"type": "object"}}}),
            // (a definition nothing reaches decides nothing)
            json!({"$defs": {"loop": {"allOf": [{"$ref": "#/$defs/loop"}]}}, "type": "object"}),
        ] {
            assert_eq!(unguarded_reference(&doc), None, "{doc}");
        }
    }
}
