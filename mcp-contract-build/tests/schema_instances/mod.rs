//! Instances of a JSON Schema, for tests that need calls a published input
//! schema accepts: small candidate values per node, combined one factor at
//! a time, so every alternative branch (`anyOf`, `oneOf`, `if`/`then`/`else`,
//! each merged with the keywords beside it, as a `#[serde(flatten)]` enum's
//! variants are), every enum value, `null` of a nullable type and every
//! optional field appears in some instance without a product of all
//! choices. Candidates are not promised valid: the caller keeps those its
//! validator accepts. Each instance carries the alternatives it took
//! (`<schema pointer>/<keyword>/<index>`), so a caller can check that each
//! was taken by some valid instance.
//!
//! Shapes: `type` (a list too), `const`, `enum`, `$ref` (local), `allOf`
//! (merged), `anyOf`/`oneOf` (each branch merged with its siblings),
//! `if`/`then`/`else`, `properties`/`required` (names only `required`
//! lists included), `additionalProperties` given as a schema (one extra
//! name), `items`/`prefixItems`/`minItems`, numeric bounds and
//! `multipleOf`, string lengths, a few `format`s, and `pattern` by trying a
//! fixed list of strings against the node.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

/// Deepest nesting of values generated (recursive schemas stop there).
const MAX_DEPTH: usize = 10;
/// Most references followed on the way to one value (without nesting).
const MAX_HOPS: usize = 32;
/// Most candidates one nested node returns.
const NESTED_CAP: usize = 48;

/// A candidate instance and the alternatives it took.
#[derive(Debug, Clone)]
pub struct Instance {
    pub value: Value,
    pub took: BTreeSet<String>,
}

/// Generates instances of schemas inside one document.
pub struct Generator<'a> {
    root: &'a Value,
    /// Every alternative met while generating.
    pub alternatives: BTreeSet<String>,
    /// References followed since the last nesting step.
    hops: usize,
}

impl<'a> Generator<'a> {
    pub fn new(root: &'a Value) -> Self {
        Generator {
            root,
            alternatives: BTreeSet::new(),
            hops: 0,
        }
    }

    /// Candidate instances of the whole document: at the top, every one
    /// factor variant is kept.
    pub fn instances(&mut self) -> Vec<Instance> {
        self.values(self.root, "#", 0, usize::MAX)
    }

    /// The candidates of a value nested one level deeper (a field, an item).
    fn nested(&mut self, s: &Value, ptr: &str, depth: usize) -> Vec<Instance> {
        let hops = std::mem::take(&mut self.hops);
        let out = self.values(s, ptr, depth + 1, NESTED_CAP);
        self.hops = hops;
        out
    }

    fn values(&mut self, s: &Value, ptr: &str, depth: usize, cap: usize) -> Vec<Instance> {
        if depth > MAX_DEPTH {
            return vec![];
        }
        let m = match s {
            Value::Bool(true) => return plain(vec![json!("any")]),
            Value::Object(m) => m,
            _ => return vec![],
        };
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            let Some(target) = resolve(self.root, r) else {
                return vec![];
            };
            let mut rest = m.clone();
            rest.remove("$ref");
            if self.hops >= MAX_HOPS {
                return vec![];
            }
            let merged = merge(&resolved(self.root, target), &rest);
            self.hops += 1;
            let out = self.values(&Value::Object(merged), r, depth, cap);
            self.hops -= 1;
            return out;
        }
        if let Some(Value::Array(parts)) = m.get("allOf") {
            let mut merged = m.clone();
            merged.remove("allOf");
            for p in parts {
                merged = merge(&merged, &resolved(self.root, p));
            }
            return self.values(&Value::Object(merged), ptr, depth, cap);
        }
        for kw in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = m.get(kw) {
                let mut base = m.clone();
                base.remove(kw);
                let mut out = vec![];
                for (i, b) in branches.iter().enumerate() {
                    let tag = format!("{ptr}/{kw}/{i}");
                    self.alternatives.insert(tag.clone());
                    let merged = merge(&base, &resolved(self.root, b));
                    for mut inst in self.values(&Value::Object(merged), &tag, depth, cap) {
                        inst.took.insert(tag.clone());
                        out.push(inst);
                    }
                }
                return capped(out, cap);
            }
        }
        if m.contains_key("if") {
            let mut base = m.clone();
            let cond = base.remove("if").unwrap_or(Value::Bool(true));
            let then = base.remove("then");
            let els = base.remove("else");
            let mut out = vec![];
            for (i, branch) in [
                Some(merge(&resolved(self.root, &cond), &as_map(then))),
                els.map(|e| as_map(Some(e))),
            ]
            .into_iter()
            .enumerate()
            {
                let Some(branch) = branch else { continue };
                let tag = format!("{ptr}/if/{i}");
                self.alternatives.insert(tag.clone());
                let merged = merge(&base, &branch);
                for mut inst in self.values(&Value::Object(merged), &tag, depth, cap) {
                    inst.took.insert(tag.clone());
                    out.push(inst);
                }
            }
            return capped(out, cap);
        }
        if let Some(c) = m.get("const") {
            return plain(vec![c.clone()]);
        }
        if let Some(Value::Array(values)) = m.get("enum") {
            return plain(values.iter().take(8).cloned().collect());
        }
        let mut out = vec![];
        for t in types(m) {
            match t.as_str() {
                "null" => out.extend(plain(vec![Value::Null])),
                "boolean" => out.extend(plain(vec![json!(true), json!(false)])),
                "integer" => out.extend(plain(numbers(m, true))),
                "number" => out.extend(plain(numbers(m, false))),
                "string" => out.extend(plain(self.strings(m))),
                "array" => out.extend(self.arrays(m, ptr, depth)),
                "object" => out.extend(self.objects(m, ptr, depth, cap)),
                _ => {}
            }
        }
        capped(out, cap)
    }

    fn strings(&self, m: &Map<String, Value>) -> Vec<Value> {
        let by_format = match m.get("format").and_then(Value::as_str) {
            Some("date-time") => Some("2024-05-01T12:00:00Z"),
            Some("date") => Some("2024-05-01"),
            Some("time") => Some("12:00:00Z"),
            Some("uri" | "url" | "iri") => Some("https://example.com/a"),
            Some("uuid") => Some("123e4567-e89b-12d3-a456-426614174000"),
            Some("email") => Some("ann@example.com"),
            Some("ipv4") => Some("192.0.2.1"),
            Some("ipv6") => Some("2001:db8::1"),
            Some("hostname") => Some("example.com"),
            _ => None,
        };
        if let Some(s) = by_format {
            return vec![json!(s)];
        }
        let min = m.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
        let max = m
            .get("maxLength")
            .and_then(Value::as_u64)
            .map(|n| n as usize);
        let fit = |s: String| -> String {
            let mut s = s;
            while s.chars().count() < min {
                s.push('x');
            }
            match max {
                Some(n) => s.chars().take(n).collect(),
                None => s,
            }
        };
        let Some(pattern) = m.get("pattern") else {
            return vec![json!(fit("x".into()))];
        };
        // (patterns: try fixed strings against the node itself)
        let node = json!({"type": "string", "pattern": pattern});
        let Ok(v) = jsonschema::validator_for(&node) else {
            return vec![];
        };
        [
            "x",
            "a",
            "abc",
            "A",
            "Z",
            "0",
            "1",
            "42",
            "x1",
            "a-b",
            "a_b",
            "a.b",
            "A1",
            "ab12",
            "2024-05-01",
            "12:00",
            "#fff",
            "+1",
            "-1",
            "0.5",
            "a@b.c",
            "http://a.b",
            "/a",
            "",
        ]
        .iter()
        .map(|s| fit(s.to_string()))
        .filter(|s| v.is_valid(&json!(s)))
        .take(1)
        .map(Value::from)
        .collect()
    }

    fn arrays(&mut self, m: &Map<String, Value>, ptr: &str, depth: usize) -> Vec<Instance> {
        let min = m.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let mut prefix: Vec<Instance> = vec![];
        if let Some(Value::Array(tuple)) = m.get("prefixItems") {
            for (i, t) in tuple.iter().enumerate() {
                let at = format!("{ptr}/prefixItems/{i}");
                match self.nested(t, &at, depth).into_iter().next() {
                    Some(inst) => prefix.push(inst),
                    None => return vec![],
                }
            }
        }
        let items = match m.get("items") {
            Some(s) => self.nested(s, &format!("{ptr}/items"), depth),
            None => plain(vec![json!("any")]),
        };
        let mut out = vec![];
        let build = |extra: &[Instance]| -> Instance {
            let mut took = BTreeSet::new();
            let mut value = vec![];
            for inst in prefix.iter().chain(extra) {
                value.push(inst.value.clone());
                took.extend(inst.took.iter().cloned());
            }
            Instance {
                value: Value::Array(value),
                took,
            }
        };
        if prefix.len() >= min {
            out.push(build(&[]));
        }
        let need = min.saturating_sub(prefix.len()).max(1);
        for (i, item) in items.iter().enumerate() {
            // distinct items where there are enough candidates (uniqueItems)
            let mut extra = vec![item.clone()];
            for k in 1..need {
                extra.push(items[(i + k) % items.len()].clone());
            }
            out.push(build(&extra));
        }
        out
    }

    fn objects(
        &mut self,
        m: &Map<String, Value>,
        ptr: &str,
        depth: usize,
        cap: usize,
    ) -> Vec<Instance> {
        let props: Map<String, Value> = m
            .get("properties")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let required: Vec<String> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let extra = m
            .get("additionalProperties")
            .filter(|a| a.is_object())
            .cloned();
        let mut names: Vec<String> = props.keys().cloned().collect();
        for r in &required {
            if !names.contains(r) {
                names.push(r.clone());
            }
        }
        let mut cands: Vec<(String, bool, Vec<Instance>)> = vec![];
        for name in &names {
            let at = format!("{ptr}/properties/{name}");
            let c = match (props.get(name), &extra) {
                (Some(s), _) => self.nested(s, &at, depth),
                (None, Some(a)) => self.nested(a, &at, depth),
                (None, None) => plain(vec![json!("x")]),
            };
            let is_required = required.contains(name);
            if is_required && c.is_empty() {
                return vec![];
            }
            cands.push((name.clone(), is_required, c));
        }
        let object = |picks: &[(&String, &Instance)]| -> Instance {
            let mut value = Map::new();
            let mut took = BTreeSet::new();
            for (n, inst) in picks {
                value.insert((*n).clone(), inst.value.clone());
                took.extend(inst.took.iter().cloned());
            }
            Instance {
                value: Value::Object(value),
                took,
            }
        };
        let base: Vec<(&String, &Instance)> = cands
            .iter()
            .filter(|(_, req, _)| *req)
            .map(|(n, _, c)| (n, &c[0]))
            .collect();
        let mut out = vec![object(&base)];
        let full: Vec<(&String, &Instance)> = cands
            .iter()
            .filter(|(_, _, c)| !c.is_empty())
            .map(|(n, _, c)| (n, &c[0]))
            .collect();
        out.push(object(&full));
        // one factor at a time: each candidate of each field over the base
        for (n, req, c) in &cands {
            let skip = usize::from(*req);
            for inst in c.iter().skip(skip) {
                let mut picks: Vec<(&String, &Instance)> =
                    base.iter().filter(|(b, _)| *b != n).cloned().collect();
                picks.push((n, inst));
                out.push(object(&picks));
            }
        }
        if let Some(a) = &extra {
            let at = format!("{ptr}/additionalProperties");
            if let Some(inst) = self.nested(a, &at, depth).into_iter().next() {
                let key = "extra_key".to_string();
                let mut picks = base.clone();
                picks.push((&key, &inst));
                out.push(object(&picks));
            }
        }
        capped(out, cap)
    }
}

fn plain(values: Vec<Value>) -> Vec<Instance> {
    values
        .into_iter()
        .map(|value| Instance {
            value,
            took: BTreeSet::new(),
        })
        .collect()
}

/// At most `cap`, keeping every alternative's first instance first.
fn capped(mut out: Vec<Instance>, cap: usize) -> Vec<Instance> {
    if out.len() <= cap {
        return out;
    }
    let mut seen = BTreeSet::new();
    let (mut first, mut rest): (Vec<Instance>, Vec<Instance>) = (vec![], vec![]);
    for inst in out.drain(..) {
        if inst.took.iter().any(|t| seen.insert(t.clone())) {
            first.push(inst);
        } else {
            rest.push(inst);
        }
    }
    first.extend(rest);
    first.truncate(cap);
    first
}

/// The types a node admits (inferred from its keywords when it names none).
fn types(m: &Map<String, Value>) -> Vec<String> {
    match m.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ if m.contains_key("properties") || m.contains_key("required") => vec!["object".into()],
        _ if m.contains_key("items") || m.contains_key("prefixItems") => vec!["array".into()],
        _ => vec!["string".into()],
    }
}

/// Numbers inside the bounds: the lowest allowed, and one above it.
fn numbers(m: &Map<String, Value>, integer: bool) -> Vec<Value> {
    let f = |k: &str| m.get(k).and_then(Value::as_f64);
    let lo = match (f("minimum"), f("exclusiveMinimum")) {
        (Some(a), Some(b)) => a.max(b + 1.0),
        (Some(a), None) => a,
        (None, Some(b)) => b + 1.0,
        (None, None) => 0f64.min(f("maximum").unwrap_or(0.0)),
    };
    let step = f("multipleOf").unwrap_or(1.0);
    let lo = (lo / step).ceil() * step;
    let mut out = vec![lo, lo + step];
    if !integer {
        out.push(lo + step / 2.0);
    }
    out.into_iter()
        .map(|x| {
            if integer || x.fract() == 0.0 {
                json!(x as i64)
            } else {
                json!(x)
            }
        })
        .collect()
}

fn resolve<'v>(root: &'v Value, r: &str) -> Option<&'v Value> {
    let fragment = r.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some(root);
    }
    root.pointer(fragment)
}

/// A branch with its `$ref` chain followed, as an object.
fn resolved(root: &Value, v: &Value) -> Map<String, Value> {
    let mut v = v;
    for _ in 0..16 {
        match v
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| resolve(root, r))
        {
            Some(t) if v.as_object().is_some_and(|m| m.len() == 1) => v = t,
            _ => break,
        }
    }
    as_map(Some(v.clone()))
}

fn as_map(v: Option<Value>) -> Map<String, Value> {
    match v {
        Some(Value::Object(m)) => m,
        Some(Value::Bool(false)) => [("not".to_string(), json!({}))].into_iter().collect(),
        _ => Map::new(),
    }
}

/// Two schemas for one value as one: `properties` and `required` joined,
/// `type` intersected, the rest taken from whichever has it.
fn merge(a: &Map<String, Value>, b: &Map<String, Value>) -> Map<String, Value> {
    let mut out = a.clone();
    for (k, v) in b {
        match (k.as_str(), out.get_mut(k)) {
            ("properties", Some(Value::Object(p))) => {
                if let Value::Object(q) = v {
                    for (name, s) in q {
                        p.entry(name.clone()).or_insert_with(|| s.clone());
                    }
                }
            }
            ("required", Some(Value::Array(r))) => {
                for n in v.as_array().into_iter().flatten() {
                    if !r.contains(n) {
                        r.push(n.clone());
                    }
                }
            }
            ("type", Some(t)) => {
                let mine: Vec<String> =
                    types(&[("type".to_string(), t.clone())].into_iter().collect());
                let theirs: Vec<String> =
                    types(&[("type".to_string(), v.clone())].into_iter().collect());
                // (`integer` is the part of `number` both admit)
                let mut both: Vec<Value> = vec![];
                for x in &mine {
                    let kept = if theirs.contains(x) {
                        x.as_str()
                    } else if (x == "number" && theirs.iter().any(|t| t == "integer"))
                        || (x == "integer" && theirs.iter().any(|t| t == "number"))
                    {
                        "integer"
                    } else {
                        continue;
                    };
                    if !both.contains(&Value::from(kept)) {
                        both.push(Value::from(kept));
                    }
                }
                *t = Value::Array(both);
            }
            ("additionalProperties", Some(x)) if v == &Value::Bool(false) => *x = v.clone(),
            (_, Some(_)) => {}
            (_, None) => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    out
}
