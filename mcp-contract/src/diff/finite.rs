//! Where the side a break needs accepts a finite list of values (`const`,
//! `enum`), whether any of them is now rejected (inputs) or newly possible
//! (outputs) is decided value by value ([`crate::schema::accepts`]): exact
//! and cheap, and it settles what comparing keyword by keyword cannot (an
//! `enum` of strings relaxed to a bounded or patterned string, a `const`
//! checked against a `oneOf`).

use serde_json::Value;

use super::keywords::effective_enum;
use crate::schema::accepts::accepts;
use crate::schema::shape::Shape;
use crate::schema::types::TypeSet;

/// Lists longer than this are left to the keyword comparison.
const MAX_VALUES: usize = 256;

/// Does the other side accept every value the node `side` (with its
/// normalized shape) lists and itself accepts? `false` when it lists none,
/// lists too many, or any answer is not known.
pub(crate) fn values_within(
    side_root: &Value,
    side: &Shape<'_>,
    side_node: &Value,
    other_root: &Value,
    other_node: &Value,
) -> bool {
    let Some(values) = finite_values(side) else {
        return false;
    };
    if values.is_empty() || values.len() > MAX_VALUES {
        return false;
    }
    values
        .iter()
        // a listed value its own node rejects is no member of it
        .filter(|v| accepts(side_root, side_node, v) != Some(false))
        .all(|v| accepts(other_root, other_node, v) == Some(true))
}

/// The values a node can hold when they are few: its `const`/`enum`, or
/// what its types leave (`null`, the booleans, an array that must be
/// empty, an object that must have no member, a string that must be empty,
/// a number range of one value). `None` when any type it admits has more.
fn finite_values(s: &Shape<'_>) -> Option<Vec<Value>> {
    let types = TypeSet::from_keyword(s.get("type"));
    if let Some(listed) = effective_enum(s, types) {
        return Some(listed);
    }
    let at_most = |k: &str, n: u64| s.get(k).and_then(Value::as_u64).is_some_and(|m| m <= n);
    let mut out = vec![];
    for (t, values) in [
        (TypeSet::NULL, vec![Value::Null]),
        (
            TypeSet::BOOLEAN,
            vec![Value::Bool(true), Value::Bool(false)],
        ),
    ] {
        if types.overlaps(t) {
            out.extend(values);
        }
    }
    if types.overlaps(TypeSet::ARRAY) {
        at_most("maxItems", 0).then(|| out.push(Value::Array(vec![])))?;
    }
    if types.overlaps(TypeSet::OBJECT) {
        at_most("maxProperties", 0).then(|| out.push(Value::Object(Default::default())))?;
    }
    if types.overlaps(TypeSet::STRING) {
        at_most("maxLength", 0).then(|| out.push(Value::String(String::new())))?;
    }
    if types.overlaps(TypeSet::NUMBER) {
        // one value: `minimum` equal to `maximum`
        match (s.get("minimum"), s.get("maximum")) {
            (Some(lo @ Value::Number(a)), Some(Value::Number(b)))
                if crate::schema::numeric::Num::from_number(a)
                    == crate::schema::numeric::Num::from_number(b) =>
            {
                out.push(lo.clone())
            }
            _ => return None,
        }
    }
    Some(out)
}
