//! The oracle: the `jsonschema` crate, with integer and float `format`s
//! enforced as the ranges serde enforces (`uint32` rejects 4294967296 and
//! -1, `float` rejects what overflows an f32), and the input policy: callers
//! send only the properties the old schema declares (a name listed in
//! `required` counts as declared).
//!
//! Each side is validated in its own dialect: the crate detects the draft
//! from the document's `$schema` (none: 2020-12, MCP's default), so a
//! draft-07 side ignores keywords beside `$ref` and reads tuple `items`,
//! `additionalItems` and `dependencies`, and a draft-04 side reads boolean
//! `exclusiveMinimum`/`exclusiveMaximum`, `id` anchors, and takes `1.0` for
//! no integer. One departure from the crate is corrected here: it applies
//! `dependencies` in 2019-09 and 2020-12 too, where the keyword no longer
//! exists (it split into `dependentRequired`/`dependentSchemas`; the test
//! suite lists the old keyword as optional compatibility), so it is taken
//! off a 2019-09+ side before the crate sees it. Patterns are read by the
//! crate's ECMA 262 translation (`[+--]` is `+` through `-`, `[a-z--x]`
//! adds `-` through `x`), and [`ecma_matches`] gives the generator and the
//! input policy the same reading.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

use jsonschema::paths::Location;
use jsonschema::{Keyword, ValidationError, Validator};
use serde_json::{json, Map, Value};

use super::walk::{resolve, LISTS, MAPS, SINGLE};
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

/// The draft a document's root `$schema` names, as the crate detects it
/// (`None`: no `$schema`, read as 2020-12).
pub fn dialect(doc: &Value) -> Option<&str> {
    doc.get("$schema").and_then(Value::as_str)
}

/// draft-04/06/07: `$ref` overrides its siblings, `dependencies` is a keyword.
pub fn legacy(doc: &Value) -> bool {
    dialect(doc).is_some_and(|u| {
        ["draft-04", "draft-06", "draft-07", "draft-03"]
            .iter()
            .any(|d| u.contains(d))
    })
}

/// `dependencies` taken off every schema of a 2019-09+ document.
fn without_dependencies(v: &mut Value, depth: usize) {
    if depth > 64 {
        return;
    }
    let Value::Object(m) = v else { return };
    m.remove("dependencies");
    for (k, c) in m.iter_mut() {
        if SINGLE.contains(&k.as_str()) {
            without_dependencies(c, depth + 1);
        } else if MAPS.contains(&k.as_str()) {
            if let Value::Object(named) = c {
                named
                    .values_mut()
                    .for_each(|s| without_dependencies(s, depth + 1));
            }
        } else if LISTS.contains(&k.as_str()) || k == "items" {
            if let Value::Array(a) = c {
                a.iter_mut()
                    .for_each(|s| without_dependencies(s, depth + 1));
            }
        }
    }
}

/// A validator for `schema` with widths enforced, in the dialect its
/// `$schema` names, or `None` when the crate does not compile it (nothing
/// to measure then).
pub fn validator(schema: &Value) -> Option<Validator> {
    let options = || jsonschema::options().with_keyword("format", width_keyword);
    if !legacy(schema) && schema.to_string().contains("\"dependencies\"") {
        let mut modern = schema.clone();
        without_dependencies(&mut modern, 0);
        return options().build(&modern).ok();
    }
    options().build(schema).ok()
}

/// Does `s` match `pattern` as the oracle reads it (ECMA 262, through the
/// crate's translation)? An invalid pattern matches nothing.
pub fn ecma_matches(pattern: &str, s: &str) -> bool {
    thread_local! {
        static CACHE: RefCell<HashMap<String, Option<Validator>>> = Default::default();
    }
    CACHE.with(|c| {
        c.borrow_mut()
            .entry(pattern.to_string())
            .or_insert_with(|| {
                jsonschema::options()
                    .build(&json!({"type": "string", "pattern": pattern}))
                    .ok()
            })
            .as_ref()
            .is_some_and(|v| v.is_valid(&json!(s)))
    })
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
/// With `required_declares`, a name listed in `required` (here, in an
/// alternative, a `then`/`else` or a dependent schema; not in an `if`)
/// is declared too, with any value: callers send it.
pub fn declared_only(doc: &Value, inst: &Value, required_declares: bool) -> bool {
    let ctx = Ctx {
        doc,
        legacy: legacy(doc),
        required_declares,
    };
    ctx.check(&[(doc, false)], inst, 0)
}

struct Ctx<'d> {
    doc: &'d Value,
    legacy: bool,
    required_declares: bool,
}

/// A node that judges the value, and whether it was reached through an
/// `if` (what it requires is a condition, not a name callers send).
type Judging<'d> = (&'d Value, bool);

impl<'d> Ctx<'d> {
    fn closure(&self, nodes: &[Judging<'d>], out: &mut Vec<Judging<'d>>, depth: usize) {
        if depth > 12 {
            return;
        }
        for &(n, via_if) in nodes {
            let Some(m) = n.as_object() else { continue };
            if out.iter().any(|(o, _)| std::ptr::eq(*o, n)) {
                continue;
            }
            let target = m
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| resolve(self.doc, r));
            // draft-07 and before: keywords beside a `$ref` are ignored
            if self.legacy && m.contains_key("$ref") {
                if let Some(t) = target {
                    self.closure(&[(t, via_if)], out, depth + 1);
                }
                continue;
            }
            out.push((n, via_if));
            let mut next: Vec<Judging<'d>> = vec![];
            if let Some(t) = target {
                next.push((t, via_if));
            }
            for kw in ["allOf", "anyOf", "oneOf"] {
                if let Some(Value::Array(bs)) = m.get(kw) {
                    next.extend(bs.iter().map(|b| (b, via_if)));
                }
            }
            for kw in ["if", "then", "else"] {
                if let Some(s) = m.get(kw) {
                    next.push((s, via_if || kw == "if"));
                }
            }
            let mut dependents = vec!["dependentSchemas"];
            if self.legacy {
                dependents.push("dependencies");
            }
            for kw in dependents {
                if let Some(Value::Object(ds)) = m.get(kw) {
                    next.extend(ds.values().filter(|d| d.is_object()).map(|d| (d, via_if)));
                }
            }
            self.closure(&next, out, depth + 1);
        }
    }

    fn check(&self, nodes: &[Judging<'d>], inst: &Value, depth: usize) -> bool {
        if depth > 24 {
            return true;
        }
        let mut all = vec![];
        self.closure(nodes, &mut all, 0);
        match inst {
            Value::Object(obj) => {
                // an object the schema describes (type object, properties,
                // required) declares its keys; only a rest with a schema
                // (what schemars writes for maps) or a schema that says
                // nothing about objects (`{}`: any value) takes keys it does
                // not name (`additionalProperties: true` is the same as
                // leaving it out: it declares nothing)
                let declares = all.iter().any(|(n, _)| {
                    n.get("properties").is_some()
                        || n.get("patternProperties").is_some()
                        || n.get("required").is_some()
                        || match n.get("type") {
                            Some(Value::String(t)) => t == "object",
                            Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
                            _ => false,
                        }
                });
                let open_schema = all
                    .iter()
                    .any(|(n, _)| matches!(n.get("additionalProperties"), Some(Value::Object(_))));
                let required: BTreeSet<&str> = if self.required_declares {
                    all.iter()
                        .filter(|(_, via_if)| !via_if)
                        .filter_map(|(n, _)| n.get("required").and_then(Value::as_array))
                        .flatten()
                        .filter_map(Value::as_str)
                        .collect()
                } else {
                    BTreeSet::new()
                };
                for (k, v) in obj {
                    let mut children: Vec<Judging<'d>> = vec![];
                    for (n, _) in &all {
                        if let Some(p) = n.get("properties").and_then(|p| p.get(k)) {
                            children.push((p, false));
                        }
                        if let Some(Value::Object(pp)) = n.get("patternProperties") {
                            for (pat, s) in pp {
                                if ecma_matches(pat, k) {
                                    children.push((s, false));
                                }
                            }
                        }
                        if let Some(ap @ Value::Object(_)) = n.get("additionalProperties") {
                            children.push((ap, false));
                        }
                    }
                    if children.is_empty() {
                        if declares && !open_schema && !required.contains(k.as_str()) {
                            return false;
                        }
                        continue;
                    }
                    if !self.check(&children, v, depth + 1) {
                        return false;
                    }
                }
                true
            }
            Value::Array(items) => items.iter().enumerate().all(|(i, v)| {
                let mut children: Vec<Judging<'d>> = vec![];
                for (n, _) in &all {
                    // a tuple (`prefixItems`, or array-form `items` with
                    // `additionalItems` for the rest), then what applies past it
                    let (tuple, rest) = match (n.get("prefixItems"), n.get("items")) {
                        (Some(Value::Array(p)), rest) => (Some(p), rest),
                        (_, Some(Value::Array(p))) => (Some(p), n.get("additionalItems")),
                        (_, rest) => (None, rest),
                    };
                    match tuple.and_then(|t| t.get(i)) {
                        Some(p) => children.push((p, false)),
                        None => {
                            if let Some(s @ Value::Object(_)) = rest {
                                children.push((s, false));
                            }
                        }
                    }
                    for kw in ["contains", "unevaluatedItems"] {
                        if let Some(s @ Value::Object(_)) = n.get(kw) {
                            children.push((s, false));
                        }
                    }
                }
                children.is_empty() || self.check(&children, v, depth + 1)
            }),
            _ => true,
        }
    }
}
