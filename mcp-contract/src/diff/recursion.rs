//! References that lead back to a schema applied at the same place in the
//! value without descending into it (`{"anyOf": [{"$ref": "#"}, …]}`):
//! JSON Schema leaves such a document undefined (a validator loops or
//! refuses it). Found once per document, before any comparison, so the
//! comparator refuses the document at that reference at once instead of
//! meeting the loop in every pairing it tries.

use std::collections::HashMap;

use serde_json::Value;

use super::place::{DESCENDS, IN_PLACE, KEYED};
use crate::schema::refs::{resolve, REFERENCE_KEYWORDS};

/// Schema nodes one document may hold before the search stops (it then
/// finds nothing, and the comparator's own limit on steps in place stays
/// the backstop).
const MAX_NODES: usize = 1 << 20;

/// One step from a node to a child: a keyword, a name or an index.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// Where a node was found: its parent's index and the steps from there
/// (pointers are written only for the reference reported).
type Found<'a> = (usize, [Option<Step<'a>>; 2]);

/// The pointer of a reference that closes a cycle of schemas applied in
/// place, if the document has one reachable from its root.
pub fn unguarded_reference(doc: &Value) -> Option<String> {
    // (no reference, no cycle: most documents stop here)
    if !crate::schema::refs::reaches_reference(doc, usize::MAX) {
        return None;
    }
    let id = |v: &Value| v as *const Value as usize;
    // every node reachable from the root, with where it was found
    let mut nodes: Vec<(&Value, Found<'_>)> = vec![(doc, (usize::MAX, [None, None]))];
    let mut index: HashMap<usize, usize> = HashMap::from([(id(doc), 0)]);
    // in-place edges: (target, site: the node and step of the edge)
    let mut edges: Vec<Vec<(usize, Found<'_>)>> = vec![];
    let mut i = 0;
    while i < nodes.len() {
        if nodes.len() > MAX_NODES {
            return None;
        }
        let v = nodes[i].0;
        let mut in_place = vec![];
        for (child, steps, here) in children(doc, v) {
            let site = (i, steps);
            let j = *index.entry(id(child)).or_insert_with(|| {
                nodes.push((child, site));
                nodes.len() - 1
            });
            if here {
                in_place.push((j, site));
            }
        }
        edges.push(in_place);
        i += 1;
    }
    let (node, steps) = first_cycle(&edges)?;
    let mut tokens: Vec<String> = steps.iter().rev().flatten().map(token).collect();
    let mut at = node;
    while at != usize::MAX {
        let (parent, steps) = nodes[at].1;
        tokens.extend(steps.iter().rev().flatten().map(token));
        at = parent;
    }
    Some(tokens.iter().rev().map(|t| format!("/{t}")).collect())
}

fn token(s: &Step<'_>) -> String {
    match s {
        Step::Key(k) => crate::lockfile::escape_pointer(k),
        Step::Index(i) => i.to_string(),
    }
}

/// Depth-first over in-place edges (iteratively: the document controls
/// the depth); the site of the first edge back to a node on the path.
fn first_cycle<'a>(edges: &[Vec<(usize, Found<'a>)>]) -> Option<Found<'a>> {
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
                1 => return Some(*site),
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

/// A node's subschemas: (schema, steps to it, applied in place). A
/// reference counts as an in-place child found at the reference keyword.
fn children<'a>(doc: &'a Value, v: &'a Value) -> Vec<(&'a Value, [Option<Step<'a>>; 2], bool)> {
    let Value::Object(m) = v else { return vec![] };
    let mut out = vec![];
    for kw in REFERENCE_KEYWORDS {
        if let Some(target) = m
            .get(kw)
            .and_then(Value::as_str)
            .and_then(|r| resolve(doc, r))
        {
            out.push((target, [Some(Step::Key(kw)), None], true));
        }
    }
    for (k, child) in m {
        let key = k.as_str();
        let here = IN_PLACE.contains(&key);
        if !here && !DESCENDS.contains(&key) {
            continue;
        }
        match child {
            // (a keyword followed by a name or an index holds several)
            Value::Array(a) if KEYED.contains(&key) => {
                for (i, x) in a.iter().enumerate() {
                    out.push((x, [Some(Step::Key(key)), Some(Step::Index(i))], here));
                }
            }
            Value::Object(named) if KEYED.contains(&key) => {
                for (name, x) in named {
                    out.push((x, [Some(Step::Key(key)), Some(Step::Key(name))], here));
                }
            }
            _ if !KEYED.contains(&key) => out.push((child, [Some(Step::Key(key)), None], here)),
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
