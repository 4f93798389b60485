//! Does one schema node accept one value? Three answers: yes, no, or not
//! known. The comparator asks it where one side accepts a finite set of
//! values (`const`, `enum`): whether every call the old side allowed still
//! passes the new one is then a question of checking each value, which is
//! exact where every keyword met is decided here.
//!
//! Read on documents already in the comparator's dialect
//! ([`super::dialect`]). A keyword this module does not decide (a string
//! `format`, `unevaluated*`, a remote reference, a pattern the automata do
//! not take, a keyword JSON Schema does not define) makes the answer "not
//! known" unless another keyword already said no: callers then fall back
//! to comparing the schemas keyword by keyword. Recursion through
//! references is bounded by [`MAX_DEPTH`].

use serde_json::{Map, Value};

use super::numeric::{format_range, Num};
use super::refs;
use super::types::TypeSet;
use super::ANNOTATION_KEYWORDS;

/// Deepest nesting of schemas (references followed) one answer reads.
const MAX_DEPTH: usize = 64;

/// `Some(true)`: `schema` (inside the document `root`) accepts `value`;
/// `Some(false)`: it rejects it; `None`: not decided here.
pub fn accepts(root: &Value, schema: &Value, value: &Value) -> Option<bool> {
    check(root, schema, value, 0)
}

/// Keywords that take no part in validation.
const INERT: &[&str] = &[
    "$defs",
    "definitions",
    "$anchor",
    "$dynamicAnchor",
    "$comment",
];

fn check(root: &Value, schema: &Value, v: &Value, depth: usize) -> Option<bool> {
    if depth > MAX_DEPTH {
        return None;
    }
    let m = match schema {
        Value::Bool(b) => return Some(*b),
        Value::Object(m) => m,
        _ => return None,
    };
    let mut known = true;
    for (k, x) in m {
        let answer = if ANNOTATION_KEYWORDS.contains(&k.as_str()) || INERT.contains(&k.as_str()) {
            Some(true)
        } else {
            keyword(root, m, k, x, v, depth)
        };
        match answer {
            Some(false) => return Some(false),
            None => known = false,
            Some(true) => {}
        }
    }
    known.then_some(true)
}

fn keyword(
    root: &Value,
    m: &Map<String, Value>,
    k: &str,
    x: &Value,
    v: &Value,
    depth: usize,
) -> Option<bool> {
    let sub = |s: &Value, val: &Value| check(root, s, val, depth + 1);
    match k {
        "$ref" | "$dynamicRef" => {
            let r = x.as_str()?;
            if !refs::is_local(r) {
                return None;
            }
            sub(refs::resolve(root, r)?, v)
        }
        "$recursiveRef" => sub(root, v),
        "type" => {
            let t = TypeSet::from_keyword(Some(x));
            Some(t.contains(TypeSet::written(v)))
        }
        "enum" => Some(x.as_array()?.iter().any(|e| equal(e, v))),
        "const" => Some(equal(x, v)),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
            let Some(n) = Num::from_value(v) else {
                return Some(true);
            };
            let bound = Num::from_value(x)?;
            let ord = n.total_cmp(&bound);
            Some(match k {
                "minimum" => ord.is_ge(),
                "maximum" => ord.is_le(),
                "exclusiveMinimum" => ord.is_gt(),
                _ => ord.is_lt(),
            })
        }
        "multipleOf" => {
            let Some(n) = Num::from_value(v) else {
                return Some(true);
            };
            divides(Num::from_value(x)?, n)
        }
        "minLength" | "maxLength" => {
            let Some(s) = v.as_str() else {
                return Some(true);
            };
            let len = s.chars().count() as u64;
            let limit = x.as_u64()?;
            Some(if k == "minLength" {
                len >= limit
            } else {
                len <= limit
            })
        }
        "pattern" => {
            let Some(s) = v.as_str() else {
                return Some(true);
            };
            matches(x.as_str()?, s)
        }
        "format" => match v {
            Value::Number(n) => {
                let Some((lo, hi)) = format_range(x.as_str()?) else {
                    // (`double`, or a format that says nothing of numbers)
                    return Some(true);
                };
                let n = Num::from_number(n);
                let above = match n.total_cmp(&lo.value) {
                    std::cmp::Ordering::Equal => !lo.exclusive,
                    o => o.is_gt(),
                };
                let below = match n.total_cmp(&hi.value) {
                    std::cmp::Ordering::Equal => !hi.exclusive,
                    o => o.is_lt(),
                };
                let whole = !super::numeric::is_integer_format(x.as_str()?)
                    || n.decimal().is_some_and(|(_, e)| e >= 0)
                    || matches!(n, Num::Int(_));
                Some(above && below && whole)
            }
            // a string format is asserted by servers this engine cannot check here
            Value::String(_) => None,
            _ => Some(true),
        },
        "items" | "prefixItems" => {
            let Value::Array(a) = v else {
                return Some(true);
            };
            let skip = if k == "items" {
                m.get("prefixItems")
                    .and_then(Value::as_array)
                    .map_or(0, Vec::len)
            } else {
                0
            };
            match (k, x) {
                ("prefixItems", Value::Array(schemas)) => {
                    all(schemas.iter().zip(a.iter()).map(|(s, item)| sub(s, item)))
                }
                ("items", s) => all(a.iter().skip(skip).map(|item| sub(s, item))),
                _ => None,
            }
        }
        "contains" | "minContains" | "maxContains" => {
            let Value::Array(a) = v else {
                return Some(true);
            };
            let Some(schema) = m.get("contains") else {
                return Some(true);
            };
            let mut hits = 0u64;
            for item in a {
                match sub(schema, item) {
                    Some(true) => hits += 1,
                    Some(false) => {}
                    None => return None,
                }
            }
            let min = m.get("minContains").map_or(Some(1), Value::as_u64)?;
            let max = m.get("maxContains").map_or(Some(u64::MAX), Value::as_u64)?;
            Some(hits >= min && hits <= max)
        }
        "minItems" | "maxItems" => {
            let Value::Array(a) = v else {
                return Some(true);
            };
            let limit = x.as_u64()?;
            let len = a.len() as u64;
            Some(if k == "minItems" {
                len >= limit
            } else {
                len <= limit
            })
        }
        "uniqueItems" => {
            let Value::Array(a) = v else {
                return Some(true);
            };
            if x != &Value::Bool(true) {
                return Some(true);
            }
            Some(
                a.iter()
                    .enumerate()
                    .all(|(i, p)| a[i + 1..].iter().all(|q| !equal(p, q))),
            )
        }
        "properties" | "patternProperties" | "additionalProperties" => {
            let Value::Object(o) = v else {
                return Some(true);
            };
            object_members(root, m, k, x, o, depth)
        }
        "required" => {
            let Value::Object(o) = v else {
                return Some(true);
            };
            Some(
                x.as_array()?
                    .iter()
                    .all(|n| n.as_str().is_some_and(|n| o.contains_key(n))),
            )
        }
        "minProperties" | "maxProperties" => {
            let Value::Object(o) = v else {
                return Some(true);
            };
            let limit = x.as_u64()?;
            let len = o.len() as u64;
            Some(if k == "minProperties" {
                len >= limit
            } else {
                len <= limit
            })
        }
        "propertyNames" => {
            let Value::Object(o) = v else {
                return Some(true);
            };
            all(o.keys().map(|n| sub(x, &Value::String(n.clone()))))
        }
        "dependentRequired" => {
            let Value::Object(o) = v else {
                return Some(true);
            };
            all(x.as_object()?.iter().map(|(n, names)| {
                if !o.contains_key(n) {
                    return Some(true);
                }
                Some(
                    names
                        .as_array()?
                        .iter()
                        .all(|r| r.as_str().is_some_and(|r| o.contains_key(r))),
                )
            }))
        }
        "dependentSchemas" => {
            let Value::Object(o) = v else {
                return Some(true);
            };
            all(x
                .as_object()?
                .iter()
                .filter(|(n, _)| o.contains_key(n.as_str()))
                .map(|(_, s)| sub(s, v)))
        }
        "allOf" => all(x.as_array()?.iter().map(|s| sub(s, v))),
        "anyOf" => {
            let mut known = true;
            for s in x.as_array()? {
                match sub(s, v) {
                    Some(true) => return Some(true),
                    Some(false) => {}
                    None => known = false,
                }
            }
            known.then_some(false)
        }
        "oneOf" => {
            let mut yes = 0;
            for s in x.as_array()? {
                if sub(s, v)? {
                    yes += 1;
                }
            }
            Some(yes == 1)
        }
        "not" => sub(x, v).map(|b| !b),
        "if" => match sub(x, v) {
            Some(true) => m.get("then").map_or(Some(true), |t| sub(t, v)),
            Some(false) => m.get("else").map_or(Some(true), |e| sub(e, v)),
            None => {
                let then = m.get("then").map_or(Some(true), |t| sub(t, v));
                let els = m.get("else").map_or(Some(true), |e| sub(e, v));
                match (then, els) {
                    (Some(true), Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                }
            }
        },
        // read by `if`
        "then" | "else" => Some(true),
        // what other keywords evaluated: not decided here
        "unevaluatedProperties" | "unevaluatedItems" => match v {
            Value::Object(_) if k == "unevaluatedProperties" => None,
            Value::Array(_) if k == "unevaluatedItems" => None,
            _ => Some(true),
        },
        _ if k.starts_with("x-") => Some(true),
        _ => None,
    }
}

/// `properties`, `patternProperties` and `additionalProperties` of one
/// object node, each answering for the members it governs.
fn object_members(
    root: &Value,
    m: &Map<String, Value>,
    k: &str,
    x: &Value,
    o: &Map<String, Value>,
    depth: usize,
) -> Option<bool> {
    let sub = |s: &Value, val: &Value| check(root, s, val, depth + 1);
    let props = m.get("properties").and_then(Value::as_object);
    // which patterns each member name matches, decided for every name
    let pp: Vec<(&String, &Value)> = match m.get("patternProperties") {
        Some(Value::Object(pp)) => pp.iter().collect(),
        _ => vec![],
    };
    let mut matched: Vec<(&String, Vec<&Value>)> = vec![];
    for n in o.keys() {
        let mut schemas = vec![];
        for (p, s) in &pp {
            if matches(p, n)? {
                schemas.push(*s);
            }
        }
        matched.push((n, schemas));
    }
    match k {
        "properties" => all(o
            .iter()
            .filter_map(|(n, val)| Some((x.as_object()?.get(n)?, val)))
            .map(|(s, val)| sub(s, val))),
        "patternProperties" => all(matched
            .iter()
            .flat_map(|(n, schemas)| schemas.iter().map(move |s| sub(s, &o[n.as_str()])))),
        _ => all(matched
            .iter()
            .filter(|(n, schemas)| {
                schemas.is_empty() && !props.is_some_and(|p| p.contains_key(n.as_str()))
            })
            .map(|(n, _)| sub(x, &o[n.as_str()]))),
    }
}

/// Does `pattern` match somewhere in `s`? Not decided where validators
/// disagree: ECMA reads `\w`, `\d`, `\s` and `\b` as ASCII, many
/// validators as Unicode, so for a string with other characters the answer
/// depends on the server's library.
pub(crate) fn matches(pattern: &str, s: &str) -> Option<bool> {
    let class_escape = ["\\w", "\\W", "\\d", "\\D", "\\s", "\\S", "\\b", "\\B"];
    if !s.is_ascii() && class_escape.iter().any(|e| pattern.contains(e)) {
        return None;
    }
    let c = super::pattern::Compiled::new(Some(pattern)).ok()?;
    Some(c.is_match(s))
}

/// All of the answers: no if any is no, else not known if any is.
fn all(answers: impl Iterator<Item = Option<bool>>) -> Option<bool> {
    let mut known = true;
    for a in answers {
        match a {
            Some(false) => return Some(false),
            None => known = false,
            Some(true) => {}
        }
    }
    known.then_some(true)
}

/// JSON equality, numbers by value (`1` is `1.0`).
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Num::from_number(x) == Num::from_number(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, p)| y.get(k).is_some_and(|q| equal(p, q)))
        }
        _ => a == b,
    }
}

/// Is `n` a whole multiple (any sign, zero included) of `m`? Exact on the
/// decimals as written; `None` where they do not fit 128 bits.
fn divides(m: Num, n: Num) -> Option<bool> {
    let (mm, em) = m.decimal()?;
    let (mn, en) = n.decimal()?;
    if mm == 0 {
        return None;
    }
    let e = em.min(en);
    let scale = |x: i128, by: i32| {
        10i128
            .checked_pow(u32::try_from(by).ok()?)
            .and_then(|p| x.checked_mul(p))
    };
    let (a, b) = (scale(mn, en - e)?, scale(mm, em - e)?);
    Some(a % b == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn yes(schema: Value, v: Value) -> Option<bool> {
        accepts(&schema, &schema, &v)
    }

    #[test]
    fn decides_the_common_keywords() {
        assert_eq!(yes(json!({"maxItems": 2}), json!([1])), Some(true));
        assert_eq!(yes(json!({"maxLength": 2}), json!("f")), Some(true));
        assert_eq!(yes(json!({"items": false}), json!([])), Some(true));
        assert_eq!(yes(json!({"items": false}), json!([1])), Some(false));
        assert_eq!(
            yes(
                json!({"oneOf": [{"enum": [1, 2, 3]}, {"enum": [1, 2]}]}),
                json!(3)
            ),
            Some(true)
        );
        assert_eq!(
            yes(
                json!({"oneOf": [{"enum": [1, 2, 3]}, {"enum": [1, 2]}]}),
                json!(1)
            ),
            Some(false)
        );
        assert_eq!(
            yes(json!({"enum": [0, 1], "minimum": 1}), json!(1.0)),
            Some(true)
        );
        assert_eq!(yes(json!({"type": "integer"}), json!(1.0)), Some(true));
        assert_eq!(yes(json!({"multipleOf": 0.1}), json!(0.3)), Some(true));
        assert_eq!(yes(json!({"multipleOf": 2}), json!(-4)), Some(true));
        assert_eq!(yes(json!({"multipleOf": 2}), json!(0)), Some(true));
        assert_eq!(yes(json!({"multipleOf": 2}), json!(3)), Some(false));
        assert_eq!(
            yes(json!({"type": "integer", "format": "uint8"}), json!(256)),
            Some(false)
        );
        assert_eq!(
            yes(
                json!({"properties": {"a": {"type": "string"}}, "additionalProperties": false}),
                json!({"a": "x"})
            ),
            Some(true)
        );
        assert_eq!(
            yes(
                json!({"properties": {"a": {"type": "string"}}, "additionalProperties": false}),
                json!({"b": 1})
            ),
            Some(false)
        );
        assert_eq!(
            yes(
                json!({"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s"}),
                json!(1)
            ),
            Some(false)
        );
    }

    #[test]
    fn undecided_keywords_say_so() {
        // ECMA's `\w` is ASCII, many validators' is not
        assert_eq!(yes(json!({"pattern": "\\wcole"}), json!("l'école")), None);
        assert_eq!(
            yes(json!({"pattern": "\\wcole"}), json!("cole")),
            Some(false)
        );
        assert_eq!(
            yes(
                json!({"patternProperties": {"^\\d+$": false}}),
                json!({"৪২": 1})
            ),
            None
        );
        assert_eq!(yes(json!({"format": "ipv6"}), json!("::")), None);
        assert_eq!(yes(json!({"format": "ipv6"}), json!(1)), Some(true));
        assert_eq!(yes(json!({"nullable": true}), json!(1)), None);
        assert_eq!(
            yes(json!({"$ref": "https://example.com/s"}), json!(1)),
            None
        );
        // a no elsewhere decides anyway
        assert_eq!(
            yes(json!({"format": "ipv6", "maxLength": 1}), json!("::")),
            Some(false)
        );
        assert_eq!(
            yes(json!({"unevaluatedProperties": false}), json!({"a": 1})),
            None
        );
    }
}
