//! The types a node accepts every value of: a lower bound, where
//! [`super::vacuous`] gives an upper one.
//!
//! A change inside an `anyOf` branch breaks no one when a sibling branch
//! accepts every value the changed branch (on the side a break needs) can
//! hold; a `oneOf` with a branch that accepts everything is the negation of
//! its other branch. Both need to know that a schema accepts *all* values of
//! some types (`{}`, `type`, `not` of a schema of other types), not just
//! some. Only type-level reasoning: every keyword that constrains values of
//! a type removes that type; keywords not understood remove every type.
//! Sound, cheap and bounded (issue 13).

use serde_json::Value;

use super::vacuous::{node_types, BY_TYPE};
use crate::schema::shape::shape;
use crate::schema::types::TypeSet;

/// Deepest nesting looked into.
const MAX_DEPTH: usize = 12;
/// Most branches looked at per combinator (beyond: "no type").
const MAX_BRANCHES: usize = 32;

/// The types `node` (in `root`) accepts every value of.
pub(crate) fn full_types(root: &Value, node: &Value) -> TypeSet {
    full(root, node, 0)
}

/// [`full_types`] looking only a few levels down (deeper: no type), for
/// questions asked at every node of a comparison.
pub(crate) fn full_types_shallow(root: &Value, node: &Value) -> TypeSet {
    full(root, node, MAX_DEPTH - SHALLOW_LEVELS)
}

/// Levels [`full_types_shallow`] looks down.
const SHALLOW_LEVELS: usize = 3;

/// A keyword of [`BY_TYPE`] whose value constrains nothing (`minLength: 0`, `required: []`,
/// `additionalProperties: true`, `properties` whose members accept anything).
fn vacuous_keyword(root: &Value, k: &str, v: &Value, depth: usize) -> bool {
    match k {
        "minLength" | "minItems" | "minProperties" => v.as_u64() == Some(0),
        "uniqueItems" => v == &Value::Bool(false),
        "required" => v.as_array().is_some_and(Vec::is_empty),
        "items" | "additionalProperties" | "additionalItems" => {
            full(root, v, depth + 1) == TypeSet::ALL
        }
        "properties" | "patternProperties" => v.as_object().is_some_and(|m| {
            m.len() <= MAX_BRANCHES && m.values().all(|p| full(root, p, depth + 1) == TypeSet::ALL)
        }),
        _ => false,
    }
}

fn full(root: &Value, node: &Value, depth: usize) -> TypeSet {
    match node {
        Value::Bool(b) => return if *b { TypeSet::ALL } else { TypeSet::NONE },
        Value::Object(_) => {}
        _ => return TypeSet::NONE,
    }
    if depth >= MAX_DEPTH {
        return TypeSet::NONE;
    }
    let s = shape(root, node);
    if s.truncated {
        return TypeSet::NONE;
    }
    let branches = |v: &Value| -> Option<Vec<Value>> {
        v.as_array()
            .filter(|a| a.len() <= MAX_BRANCHES)
            .map(|a| a.to_vec())
    };
    let mut t = TypeSet::ALL;
    for (k, v) in s.map.iter() {
        let k = k.as_str();
        if crate::schema::ANNOTATION_KEYWORDS.contains(&k) || matches!(k, "$defs" | "definitions") {
            continue;
        }
        if let Some((ty, _)) = BY_TYPE.iter().find(|(_, kws)| kws.contains(&k)) {
            if !vacuous_keyword(root, k, v, depth) {
                t = t.minus(*ty);
            }
            continue;
        }
        t = t.intersect(match k {
            "type" => TypeSet::from_keyword(Some(v)),
            // a `not` accepts every value of the types its schema never accepts
            "not" => TypeSet::ALL.minus(node_types(root, v)),
            "anyOf" => match branches(v) {
                Some(bs) => bs
                    .iter()
                    .fold(TypeSet::NONE, |acc, b| acc.union(full(root, b, depth + 1))),
                None => TypeSet::NONE,
            },
            "allOf" => match branches(v) {
                Some(bs) => bs.iter().fold(TypeSet::ALL, |acc, b| {
                    acc.intersect(full(root, b, depth + 1))
                }),
                None => TypeSet::NONE,
            },
            // every value of a type one branch accepts in full and no other can hold
            "oneOf" => match branches(v) {
                Some(bs) => {
                    let fulls: Vec<TypeSet> = bs.iter().map(|b| full(root, b, depth + 1)).collect();
                    let reach: Vec<TypeSet> = bs.iter().map(|b| node_types(root, b)).collect();
                    (0..bs.len()).fold(TypeSet::NONE, |acc, i| {
                        let others = (0..bs.len())
                            .filter(|j| *j != i)
                            .fold(TypeSet::NONE, |o, j| o.union(reach[j]));
                        acc.union(fulls[i].minus(others))
                    })
                }
                None => TypeSet::NONE,
            },
            // `null` and `boolean` are the only types a list can hold in full
            "enum" | "const" => {
                let listed: Vec<&Value> = match (k, v) {
                    ("const", c) => vec![c],
                    (_, Value::Array(a)) => a.iter().collect(),
                    _ => vec![],
                };
                let mut f = TypeSet::NONE;
                if listed.contains(&&Value::Null) {
                    f = f.union(TypeSet::NULL);
                }
                if listed.contains(&&Value::Bool(true)) && listed.contains(&&Value::Bool(false)) {
                    f = f.union(TypeSet::BOOLEAN);
                }
                f
            }
            _ => TypeSet::NONE,
        });
        if t.is_empty() {
            break;
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn f(v: Value) -> TypeSet {
        let root = json!({"$defs": {"S": {"type": "string"}}});
        full_types(&root, &v)
    }

    #[test]
    fn lower_bounds_of_accepted_types() {
        assert_eq!(f(json!({})), TypeSet::ALL);
        assert_eq!(f(json!(true)), TypeSet::ALL);
        assert_eq!(f(json!(false)), TypeSet::NONE);
        assert_eq!(
            f(json!({"type": ["string", "null"]})),
            TypeSet::STRING.union(TypeSet::NULL)
        );
        assert_eq!(f(json!({"$ref": "#/$defs/S"})), TypeSet::STRING);
        // a constraint on numbers leaves every other type in full
        assert_eq!(
            f(json!({"minimum": 2})),
            TypeSet::ALL.minus(TypeSet::NUMBER)
        );
        assert_eq!(
            f(json!({"type": "string", "minLength": 0})),
            TypeSet::STRING
        );
        assert_eq!(f(json!({"type": "string", "minLength": 1})), TypeSet::NONE);
        // `not` of integers from 2 and null: every other type in full
        assert_eq!(
            f(json!({"not": {"anyOf": [{"type": "integer", "minimum": 2}, {"type": "null"}]}})),
            TypeSet::ALL.minus(TypeSet::INTEGER).minus(TypeSet::NULL)
        );
        assert_eq!(f(json!({"anyOf": [{"type": "integer"}, {}]})), TypeSet::ALL);
        assert_eq!(
            f(json!({"allOf": [{"type": "integer"}, {}]})),
            TypeSet::INTEGER
        );
        // oneOf: a type both branches may hold is not accepted in full
        assert_eq!(
            f(json!({"oneOf": [{"type": ["string", "null"]}, {"type": "string", "minLength": 2}]})),
            TypeSet::NULL
        );
        assert_eq!(
            f(json!({"enum": [true, false, null, 1]})),
            TypeSet::BOOLEAN.union(TypeSet::NULL)
        );
        assert_eq!(f(json!({"const": 1})), TypeSet::NONE);
        // keywords not understood constrain every type
        assert_eq!(
            f(json!({"if": {"type": "string"}, "then": false})),
            TypeSet::NONE
        );
        assert_eq!(f(json!({"format": "int32"})), TypeSet::NONE);
    }
}
