//! Plausible instances of a schema node: the raw material of the search.
//!
//! [`flatten`] resolves local `$ref`s and merges `allOf` branches and one
//! chosen `anyOf`/`oneOf` branch into a single keyword map; [`sample`] turns
//! that map into a small value meant to be valid (required members filled,
//! bounds and lengths met, `const`/`enum`/pattern/format honoured).
//! Nothing here decides validity: the validator does. All recursion is
//! bounded.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::{json, Map, Value};

use super::pattern;

/// Deepest nesting sampled.
const MAX_DEPTH: usize = 12;
/// Most `$ref` hops and merged branches per node.
const MAX_MERGE: usize = 32;
/// Longest array or string built.
const MAX_LEN: usize = 64;

/// Follows a local `$ref` (`#...` JSON pointer, percent-decoded) in `root`.
pub fn resolve<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    let mut cur = node;
    for _ in 0..MAX_MERGE {
        let Some(r) = cur.get("$ref").and_then(Value::as_str) else {
            break;
        };
        let Some(ptr) = r.strip_prefix('#') else {
            break;
        };
        let ptr = percent_decode(ptr);
        match root.pointer(&ptr) {
            Some(t) if !std::ptr::eq(t, cur) => cur = t,
            _ => break,
        }
    }
    cur
}

fn percent_decode(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('%') {
        return std::borrow::Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let Some(v) = std::str::from_utf8(&b[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    std::borrow::Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// The node's keywords with `$ref`s followed (siblings kept), `allOf`
/// merged and branch `choice` of its `anyOf`/`oneOf` merged in.
pub fn flatten(root: &Value, node: &Value, choice: usize) -> Map<String, Value> {
    let mut out = Map::new();
    let mut budget = MAX_MERGE;
    merge_into(&mut out, root, node, choice, &mut budget, 0);
    out
}

fn merge_into(
    out: &mut Map<String, Value>,
    root: &Value,
    node: &Value,
    choice: usize,
    budget: &mut usize,
    depth: usize,
) {
    if *budget == 0 || depth > MAX_DEPTH {
        return;
    }
    *budget -= 1;
    let node = match node {
        Value::Bool(false) => {
            out.insert("not".into(), json!({}));
            return;
        }
        Value::Object(_) => node,
        _ => return,
    };
    let Some(m) = node.as_object() else { return };
    for (k, v) in m {
        match k.as_str() {
            "$ref" => {
                let target = resolve(root, node);
                if !std::ptr::eq(target, node) {
                    merge_into(out, root, target, choice, budget, depth + 1);
                }
            }
            "allOf" => {
                for b in v.as_array().into_iter().flatten() {
                    merge_into(out, root, b, choice, budget, depth + 1);
                }
            }
            "anyOf" | "oneOf" => {
                if let Some(bs) = v.as_array().filter(|a| !a.is_empty()) {
                    // prefer a non-null branch for the first choice
                    let order: Vec<&Value> = bs
                        .iter()
                        .filter(|b| !is_null_only(root, b))
                        .chain(bs.iter().filter(|b| is_null_only(root, b)))
                        .collect();
                    let b = order[choice % order.len()];
                    merge_into(out, root, b, choice / order.len(), budget, depth + 1);
                }
            }
            // where the document keeps things, and words: nothing a sample needs
            "$defs" | "definitions" | "description" | "title" | "$comment" | "$schema" => {}
            _ => merge_keyword(out, k, v),
        }
    }
}

fn is_null_only(root: &Value, b: &Value) -> bool {
    resolve(root, b).get("type") == Some(&json!("null"))
}

fn merge_keyword(out: &mut Map<String, Value>, k: &str, v: &Value) {
    match (k, out.get_mut(k)) {
        ("properties", Some(Value::Object(have))) => {
            if let Value::Object(add) = v {
                for (n, s) in add {
                    have.entry(n.clone()).or_insert_with(|| s.clone());
                }
            }
        }
        ("required", Some(Value::Array(have))) => {
            for n in v.as_array().into_iter().flatten() {
                if !have.contains(n) {
                    have.push(n.clone());
                }
            }
        }
        ("type", Some(have)) => {
            // intersect the type sets
            let set = |t: &Value| -> Vec<String> {
                match t {
                    Value::String(s) => vec![s.clone()],
                    Value::Array(a) => a
                        .iter()
                        .filter_map(|x| x.as_str().map(String::from))
                        .collect(),
                    _ => vec![],
                }
            };
            let (a, b) = (set(have), set(v));
            let mut both: Vec<Value> = vec![];
            for t in &a {
                let meet = if b.contains(t) {
                    Some(t.as_str())
                } else if (t == "number" && b.iter().any(|x| x == "integer"))
                    || (t == "integer" && b.iter().any(|x| x == "number"))
                {
                    Some("integer")
                } else {
                    None
                };
                if let Some(m) = meet {
                    if !both.contains(&json!(m)) {
                        both.push(json!(m));
                    }
                }
            }
            if !both.is_empty() {
                *have = Value::Array(both);
            }
        }
        (_, Some(_)) => {}
        (_, None) => {
            out.insert(k.to_string(), v.clone());
        }
    }
}

/// The JSON types a flattened node admits, in the order a sample tries them.
pub fn types(m: &Map<String, Value>) -> Vec<&'static str> {
    const ALL: [&str; 7] = [
        "object", "string", "integer", "number", "boolean", "array", "null",
    ];
    let named = |s: &str| ALL.iter().copied().find(|t| *t == s);
    let declared: Vec<&'static str> = match m.get("type") {
        Some(Value::String(s)) => named(s).into_iter().collect(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|v| v.as_str().and_then(named))
            .collect(),
        _ => vec![],
    };
    if !declared.is_empty() {
        let mut d = declared;
        // null last: a witness is more readable with a real value
        d.sort_by_key(|t| *t == "null");
        return d;
    }
    let has = |k: &str| m.contains_key(k);
    let mut inferred = vec![];
    if has("properties") || has("required") || has("additionalProperties") || has("minProperties") {
        inferred.push("object");
    }
    if has("items") || has("prefixItems") || has("minItems") || has("contains") {
        inferred.push("array");
    }
    if has("minLength") || has("maxLength") || has("pattern") || has("format") {
        inferred.push("string");
    }
    if has("minimum")
        || has("maximum")
        || has("multipleOf")
        || has("exclusiveMinimum")
        || has("exclusiveMaximum")
    {
        inferred.push("integer");
    }
    for t in ALL {
        if !inferred.contains(&t) {
            inferred.push(t);
        }
    }
    inferred
}

/// Samples of whole schemas (a root sampled as itself), kept while the
/// verdicts of one tool are proved: each starts from the same few samples of
/// the same schemas. Keyed by the root's address, so only schemas that stay
/// in place (borrowed from the surfaces) may be sampled through it.
#[derive(Default)]
pub struct RootSamples {
    tool: String,
    map: RefCell<HashMap<(usize, usize), Value>>,
}

impl RootSamples {
    /// Forgets the samples of the previous tool.
    pub fn for_tool(&mut self, tool: &str) {
        if self.tool != tool {
            self.map.get_mut().clear();
            self.tool = tool.to_string();
        }
    }

    /// [`sample`], remembered when `node` is `root`.
    pub fn sample(&self, root: &Value, node: &Value, variant: usize) -> Value {
        if !std::ptr::eq(root, node) {
            return sample(root, node, variant);
        }
        let key = (root as *const Value as usize, variant);
        if let Some(v) = self.map.borrow().get(&key) {
            return v.clone();
        }
        let v = sample(root, node, variant);
        self.map.borrow_mut().insert(key, v.clone());
        v
    }
}

/// A value meant to be valid under `node`; `variant` picks other branches,
/// enum values and types.
pub fn sample(root: &Value, node: &Value, variant: usize) -> Value {
    sample_at(root, node, variant, 0)
}

fn sample_at(root: &Value, node: &Value, variant: usize, depth: usize) -> Value {
    let m = flatten(root, node, variant);
    if let Some(c) = m.get("const") {
        return c.clone();
    }
    if let Some(e) = m
        .get("enum")
        .and_then(Value::as_array)
        .filter(|e| !e.is_empty())
    {
        return e[variant % e.len()].clone();
    }
    if depth > MAX_DEPTH {
        return Value::Null;
    }
    let ts = types(&m);
    let t = ts[(variant / 3) % ts.len().max(1)];
    of_type(root, &m, t, variant, depth)
}

/// A value of type `t` meant to satisfy the flattened node `m`.
pub fn of_type(
    root: &Value,
    m: &Map<String, Value>,
    t: &str,
    variant: usize,
    depth: usize,
) -> Value {
    match t {
        "object" => object(root, m, variant, depth),
        "array" => array(root, m, variant, depth),
        "string" => pick(strings(m), variant).unwrap_or_else(|| json!("a")),
        "integer" => pick(numbers(m, true), variant).unwrap_or(json!(0)),
        "number" => pick(numbers(m, false), variant).unwrap_or(json!(0)),
        "boolean" => json!(variant % 2 == 1),
        _ => Value::Null,
    }
}

/// The `variant`-th value (wrapping), so that other variants give other values.
fn pick(v: Vec<Value>, variant: usize) -> Option<Value> {
    let n = v.len();
    v.into_iter().nth(variant % n.max(1))
}

fn names(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// The schema a member `name` of an object node must satisfy.
pub fn member_schema<'a>(m: &'a Map<String, Value>, name: &str) -> &'a Value {
    static ANY: Value = Value::Bool(true);
    if let Some(s) = m.get("properties").and_then(|p| p.get(name)) {
        return s;
    }
    if let Some(pp) = m.get("patternProperties").and_then(Value::as_object) {
        for (p, s) in pp {
            if regex_matches(p, name) {
                return s;
            }
        }
    }
    match m.get("additionalProperties") {
        Some(s @ Value::Object(_)) => s,
        _ => &ANY,
    }
}

/// Does `name` match pattern `p` (linear-time engine; a bad pattern never matches)?
pub fn regex_matches(p: &str, name: &str) -> bool {
    regex_lite_match(p, name)
}

fn regex_lite_match(p: &str, s: &str) -> bool {
    // regex is already in the build through jsonschema's linear-time option
    regex::RegexBuilder::new(p)
        .size_limit(1 << 20)
        .build()
        .map(|r| r.is_match(s))
        .unwrap_or(false)
}

fn object(root: &Value, m: &Map<String, Value>, variant: usize, depth: usize) -> Value {
    let mut out = Map::new();
    let mut want = names(m.get("required"));
    // dependentRequired closure
    let deps = |k: &str| -> Vec<String> {
        ["dependentRequired", "dependencies"]
            .iter()
            .flat_map(|kw| names(m.get(*kw).and_then(|d| d.get(k))))
            .collect()
    };
    let mut i = 0;
    while i < want.len() && i < 64 {
        for d in deps(&want[i]) {
            if !want.contains(&d) {
                want.push(d);
            }
        }
        i += 1;
    }
    // every other pair of variants: the optional members too
    if (variant / 2) % 2 == 1 {
        for k in m
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
            .take(16)
        {
            if !want.contains(k) {
                want.push(k.clone());
            }
        }
    }
    let min = m.get("minProperties").and_then(Value::as_u64).unwrap_or(0) as usize;
    if want.len() < min {
        if let Some(ps) = m.get("properties").and_then(Value::as_object) {
            for k in ps.keys() {
                if want.len() >= min {
                    break;
                }
                if !want.contains(k) {
                    want.push(k.clone());
                }
            }
        }
        let mut n = 0;
        while want.len() < min.min(MAX_LEN) {
            n += 1;
            want.push(format!("x{n}"));
        }
    }
    for k in want {
        let s = member_schema(m, &k);
        out.insert(k, sample_at(root, s, variant % 2, depth + 1));
    }
    Value::Object(out)
}

fn array(root: &Value, m: &Map<String, Value>, variant: usize, depth: usize) -> Value {
    static ANY: Value = Value::Bool(true);
    let prefix: Vec<&Value> = match m.get("prefixItems").or(m.get("items")) {
        Some(Value::Array(a)) => a.iter().collect(),
        _ => vec![],
    };
    let rest: &Value = match m.get("items") {
        Some(Value::Array(_)) => m.get("additionalItems").unwrap_or(&ANY),
        Some(s) => s,
        None => &ANY,
    };
    let min = m
        .get("minItems")
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .max(m.get("minContains").and_then(Value::as_u64).unwrap_or(0)) as usize;
    let mut n = min.max(if variant % 2 == 1 { 1 } else { 0 });
    if m.contains_key("contains") {
        n = n.max(1);
    }
    let n = n.min(MAX_LEN);
    let unique = m.get("uniqueItems") == Some(&Value::Bool(true));
    let mut out: Vec<Value> = vec![];
    for i in 0..n {
        let s = if i == 0 && m.contains_key("contains") && prefix.is_empty() {
            &m["contains"]
        } else {
            prefix.get(i).copied().unwrap_or(rest)
        };
        let mut v = sample_at(root, s, if unique { i } else { 0 }, depth + 1);
        if unique && out.contains(&v) {
            for k in 1..8 {
                let alt = sample_at(root, s, i + k * 3, depth + 1);
                if !out.contains(&alt) {
                    v = alt;
                    break;
                }
            }
        }
        out.push(v);
    }
    Value::Array(out)
}

/// Strings for a flattened string node: from its pattern and format first,
/// fitted to its length bounds.
pub fn strings(m: &Map<String, Value>) -> Vec<Value> {
    let min = m.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = m
        .get("maxLength")
        .and_then(Value::as_u64)
        .map(|v| v as usize);
    let mut base: Vec<String> = vec![];
    if let Some(p) = m.get("pattern").and_then(Value::as_str) {
        base.extend(pattern::matching(p));
    }
    if let Some(f) = m.get("format").and_then(Value::as_str) {
        base.extend(format_examples(f).iter().map(|s| s.to_string()));
    }
    base.extend(["a".to_string(), String::new(), "b".to_string()]);
    let mut out = vec![];
    for s in base {
        let len = s.chars().count();
        let fitted = if len < min {
            let pad = s.chars().last().unwrap_or('a');
            let mut t = s.clone();
            t.extend(std::iter::repeat_n(pad, (min - len).min(MAX_LEN * 4)));
            t
        } else {
            match max {
                Some(mx) if len > mx => s.chars().take(mx).collect(),
                _ => s,
            }
        };
        let v = Value::String(fitted);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Example strings for well-known formats.
pub fn format_examples(f: &str) -> &'static [&'static str] {
    match f {
        "date-time" => &["2024-01-01T00:00:00Z"],
        "date" => &["2024-01-01"],
        "time" => &["00:00:00Z"],
        "duration" => &["P1D"],
        "email" | "idn-email" => &["a@example.com"],
        "hostname" | "idn-hostname" => &["example.com"],
        "ipv4" => &["127.0.0.1"],
        "ipv6" => &["::1"],
        "uri" | "iri" => &["https://example.com"],
        "uri-reference" | "iri-reference" => &["/a"],
        "uri-template" => &["/a/{b}"],
        "uuid" => &["00000000-0000-0000-0000-000000000000"],
        "json-pointer" => &["/a"],
        "relative-json-pointer" => &["0"],
        "regex" => &["a"],
        _ => &[],
    }
}

/// Numbers for a flattened numeric node: inside its bounds, on its
/// `multipleOf`, smallest magnitude first.
pub fn numbers(m: &Map<String, Value>, integer: bool) -> Vec<Value> {
    let f = |k: &str| m.get(k).and_then(Value::as_f64);
    let excl_bool = |k: &str| m.get(k) == Some(&Value::Bool(true));
    let mut lo = f("minimum");
    let mut lo_ex = excl_bool("exclusiveMinimum");
    if let Some(e) = f("exclusiveMinimum") {
        if lo.is_none_or(|l| e >= l) {
            lo = Some(e);
            lo_ex = true;
        }
    }
    let mut hi = f("maximum");
    let mut hi_ex = excl_bool("exclusiveMaximum");
    if let Some(e) = f("exclusiveMaximum") {
        if hi.is_none_or(|h| e <= h) {
            hi = Some(e);
            hi_ex = true;
        }
    }
    let step = f("multipleOf").filter(|s| *s > 0.0 && s.is_finite());
    let ok = |x: f64| {
        lo.is_none_or(|l| if lo_ex { x > l } else { x >= l })
            && hi.is_none_or(|h| if hi_ex { x < h } else { x <= h })
            && step.is_none_or(|s| ((x / s) - (x / s).round()).abs() < 1e-9)
            && (!integer || x.fract() == 0.0)
    };
    let mut cands: Vec<f64> = vec![0.0, 1.0, -1.0, 2.0];
    for b in [lo, hi].into_iter().flatten() {
        for d in [0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0] {
            cands.push(b + d);
        }
        if let Some(s) = step {
            let k = (b / s).ceil();
            cands.extend([k * s, (k + 1.0) * s, (k - 1.0) * s]);
        }
    }
    if let Some(s) = step {
        cands.extend([s, 2.0 * s, -s]);
    }
    cands.retain(|x| x.is_finite() && ok(*x));
    cands.sort_by(|a, b| a.abs().total_cmp(&b.abs()).then(b.total_cmp(a)));
    cands.dedup();
    cands.into_iter().map(num).collect()
}

/// A number as JSON: an integer when it is one.
pub fn num(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        json!(x as i64)
    } else {
        serde_json::Number::from_f64(x)
            .map(Value::Number)
            .unwrap_or(Value::Null)
    }
}

/// One small value of every JSON type.
pub fn exemplars() -> Vec<Value> {
    vec![
        json!(null),
        json!(false),
        json!(true),
        json!(0),
        json!(1),
        json!(-1),
        json!(0.5),
        json!(""),
        json!("a"),
        json!([]),
        json!({}),
        json!([null]),
    ]
}
