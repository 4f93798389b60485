//! The oracle: the `jsonschema` crate, with integer and float `format`s
//! enforced as the ranges serde enforces (`uint32` rejects 4294967296 and
//! -1, `float` rejects what overflows an f32), and the input policy: callers
//! send only the properties the old schema declares.

use jsonschema::paths::Location;
use jsonschema::{Keyword, ValidationError, Validator};
use serde_json::{Map, Value};

use super::walk::resolve;
use super::widths::serde_accepts;

struct Width(String);

impl<'i> Keyword<'i> for Width {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            Ok(())
        } else {
            Err(ValidationError::custom(format!(
                "serde rejects this number for `{}`",
                self.0
            )))
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        match instance {
            Value::Number(n) => serde_accepts(&self.0, n),
            _ => true,
        }
    }
}

fn width_keyword<'a>(
    _parent: &'a Map<String, Value>,
    value: &'a Value,
    _path: Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    Ok(Box::new(Width(value.as_str().unwrap_or("").to_string())))
}

/// A validator for `schema` with widths enforced, or `None` when the crate
/// does not compile it (nothing to measure then).
pub fn validator(schema: &Value) -> Option<Validator> {
    jsonschema::options()
        .with_keyword("format", width_keyword)
        .build(schema)
        .ok()
}

/// Which side rejects a counterexample, and the validator's reason (NEW
/// for an input, OLD for an output).
pub fn why_rejected(old: &Value, new: &Value, inst: &Value, input: bool) -> String {
    let (side, schema) = if input { ("NEW", new) } else { ("OLD", old) };
    let reason = validator(schema)
        .and_then(|v| {
            v.validate(inst)
                .err()
                .map(|e| format!("{e} at {:?}", e.instance_path().as_str()))
        })
        .unwrap_or_else(|| "nothing (no longer a counterexample?)".into());
    format!("{side} rejects the instance: {reason}")
}

/// Does `inst` use only property names the schema `doc` mentions at each
/// place (through references, alternatives, conditionals, pattern and
/// additional properties)? `{"type": "object"}` declares no keys (a tool
/// without arguments); a map (`additionalProperties` open) or `{}` takes any.
pub fn declared_only(doc: &Value, inst: &Value) -> bool {
    check(doc, &[doc], inst, 0)
}

fn closure<'d>(doc: &'d Value, nodes: &[&'d Value], out: &mut Vec<&'d Value>, depth: usize) {
    if depth > 12 {
        return;
    }
    for n in nodes {
        let Some(m) = n.as_object() else { continue };
        if out.iter().any(|o| std::ptr::eq(*o, *n)) {
            continue;
        }
        out.push(n);
        let mut next: Vec<&Value> = vec![];
        if let Some(t) = m
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve(doc, r))
        {
            next.push(t);
        }
        for kw in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = m.get(kw) {
                next.extend(bs.iter());
            }
        }
        for kw in ["if", "then", "else"] {
            if let Some(s) = m.get(kw) {
                next.push(s);
            }
        }
        if let Some(Value::Object(ds)) = m.get("dependentSchemas") {
            next.extend(ds.values());
        }
        closure(doc, &next, out, depth + 1);
    }
}

fn check(doc: &Value, nodes: &[&Value], inst: &Value, depth: usize) -> bool {
    if depth > 24 {
        return true;
    }
    let mut all = vec![];
    closure(doc, nodes, &mut all, 0);
    match inst {
        Value::Object(obj) => {
            // an object the schema describes (type object, properties,
            // required) declares its keys; only an explicitly open rest
            // (`additionalProperties` true or a schema: what schemars
            // writes for maps) or a schema that says nothing about objects
            // (`{}`: any value) takes keys it does not name
            let declares = all.iter().any(|n| {
                n.get("properties").is_some()
                    || n.get("patternProperties").is_some()
                    || n.get("required").is_some()
                    || match n.get("type") {
                        Some(Value::String(t)) => t == "object",
                        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
                        _ => false,
                    }
            });
            let open_schema = all.iter().any(|n| {
                matches!(
                    n.get("additionalProperties"),
                    Some(Value::Object(_)) | Some(Value::Bool(true))
                )
            });
            for (k, v) in obj {
                let mut children: Vec<&Value> = vec![];
                for n in &all {
                    if let Some(p) = n.get("properties").and_then(|p| p.get(k)) {
                        children.push(p);
                    }
                    if let Some(Value::Object(pp)) = n.get("patternProperties") {
                        for (pat, s) in pp {
                            if regex::Regex::new(pat).is_ok_and(|r| r.is_match(k)) {
                                children.push(s);
                            }
                        }
                    }
                    if let Some(ap @ Value::Object(_)) = n.get("additionalProperties") {
                        children.push(ap);
                    }
                }
                if children.is_empty() {
                    if declares && !open_schema {
                        return false;
                    }
                    continue;
                }
                if !check(doc, &children, v, depth + 1) {
                    return false;
                }
            }
            true
        }
        Value::Array(items) => items.iter().enumerate().all(|(i, v)| {
            let mut children: Vec<&Value> = vec![];
            for n in &all {
                if let Some(p) = n.get("prefixItems").and_then(|p| p.get(i)) {
                    children.push(p);
                }
                for kw in ["items", "contains", "unevaluatedItems"] {
                    if let Some(s @ Value::Object(_)) = n.get(kw) {
                        children.push(s);
                    }
                }
            }
            children.is_empty() || check(doc, &children, v, depth + 1)
        }),
        _ => true,
    }
}
