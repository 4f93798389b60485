//! Values to try at the changed node, most telling first.
//!
//! Guided by the change: the node's schemas on both sides (its `$ref`s
//! followed), their `default`/`examples`/`enum`/`const` values, bounds ± 1,
//! lengths around the bounds, strings matching either side's pattern or
//! format, objects with a required member dropped or an undeclared one
//! added, arrays around their size bounds. Then generic material: samples
//! of every branch and sub-schema, and one small value of every type.

use serde_json::{json, Map, Value};

use super::path::Step;
use super::sample::{self, flatten, member_schema, resolve};
use crate::schema::values::{self as hash, ValueSet};

/// Most candidates produced per change.
pub const MAX_CANDIDATES: usize = 400;
/// Most schemas followed to one node.
const MAX_NODES: usize = 24;

/// An ordered set of values, capped (each kept with its hash, compared
/// first: a new value is compared in full only with kept values that hash alike).
pub struct Cands {
    values: Vec<Value>,
    hashes: Vec<u64>,
    cap: usize,
}

impl Default for Cands {
    fn default() -> Self {
        Cands::upto(MAX_CANDIDATES)
    }
}

impl Cands {
    fn upto(cap: usize) -> Self {
        Cands {
            values: vec![],
            hashes: vec![],
            cap,
        }
    }

    /// Once full, every further push is a no-op: building the value can be skipped.
    fn is_full(&self) -> bool {
        self.values.len() >= self.cap
    }

    pub fn push(&mut self, v: Value) {
        if self.is_full() {
            return;
        }
        let h = hash::of(&v);
        if !contains(&self.values, &self.hashes, h, &v) {
            self.values.push(v);
            self.hashes.push(h);
        }
    }
    fn extend(&mut self, vs: impl IntoIterator<Item = Value>) {
        for v in vs {
            self.push(v);
        }
    }
}

/// The schema and its views: itself, then its `allOf`/`anyOf`/`oneOf` branches (resolved, bounded).
fn views<'a>(root: &'a Value, node: &'a Value) -> Vec<&'a Value> {
    let mut out = vec![resolve(root, node)];
    let mut i = 0;
    while i < out.len() && out.len() < MAX_NODES {
        let n = out[i];
        for kw in ["allOf", "anyOf", "oneOf"] {
            for b in n.get(kw).and_then(Value::as_array).into_iter().flatten() {
                let b = resolve(root, b);
                if out.len() < MAX_NODES && !out.iter().any(|x| std::ptr::eq(*x, b)) {
                    out.push(b);
                }
            }
        }
        i += 1;
    }
    out
}

/// Every schema that applies at the end of `steps` inside `root`.
pub fn nodes_at<'a>(root: &'a Value, steps: &[Step]) -> Vec<&'a Value> {
    let mut cur = vec![root];
    for step in steps {
        let mut next: Vec<&Value> = vec![];
        let add = |v: &'a Value, next: &mut Vec<&'a Value>| {
            if next.len() < MAX_NODES && !next.iter().any(|x| std::ptr::eq(*x, v)) {
                next.push(v);
            }
        };
        for &s in &cur {
            if let Step::Branch(kw, i) = step {
                // a side without that branch: the node itself is what applies
                let r = resolve(root, s);
                match r.get(*kw).and_then(|a| a.get(*i)) {
                    Some(b) => add(b, &mut next),
                    None => add(s, &mut next),
                }
                continue;
            }
            for v in views(root, s) {
                let child = match step {
                    Step::Prop(n) => v
                        .get("properties")
                        .and_then(|p| p.get(n))
                        .or_else(|| v.get("additionalProperties").filter(|a| a.is_object())),
                    Step::PatternKey(p) => v.get("patternProperties").and_then(|pp| pp.get(p)),
                    Step::Additional => v.get("additionalProperties"),
                    Step::Item(Some(i), _) => v
                        .get("prefixItems")
                        .and_then(|a| a.get(*i))
                        .or_else(|| v.get("items").and_then(|a| a.get(*i)))
                        .or_else(|| v.get("items").filter(|a| a.is_object()))
                        .or_else(|| v.get("additionalItems")),
                    Step::Item(None, "contains") => v.get("contains"),
                    Step::Item(None, _) => v
                        .get("items")
                        .filter(|a| !a.is_array())
                        .or_else(|| v.get("additionalItems")),
                    Step::Not => v.get("not"),
                    Step::Branch(..) => None,
                };
                if let Some(c) = child {
                    add(c, &mut next);
                }
            }
        }
        cur = next;
    }
    cur
}

/// What the search knows about the change.
pub struct Focus<'a> {
    pub keyword: Option<&'a str>,
    pub key: Option<&'a str>,
    pub subject: Option<&'a str>,
    /// The side whose instances must be valid (old for inputs, new for outputs).
    pub src_root: &'a Value,
    pub src_nodes: Vec<&'a Value>,
    pub other_root: &'a Value,
    pub other_nodes: Vec<&'a Value>,
    /// Whole-schema samples shared by the verdicts of the tool (when both
    /// roots are the tool's own schemas).
    pub samples: Option<&'a sample::RootSamples>,
}

impl Focus<'_> {
    /// [`sample::sample`], through the shared samples when there are some.
    fn sample(&self, root: &Value, node: &Value, variant: usize) -> Value {
        match self.samples {
            Some(s) => s.sample(root, node, variant),
            None => sample::sample(root, node, variant),
        }
    }
}

/// The candidate values for the changed node, guided by the changed keyword.
pub fn focused(f: &Focus<'_>) -> Vec<Value> {
    focused_upto(f, MAX_CANDIDATES)
}

/// The first `cap` of [`focused`] (at most [`MAX_CANDIDATES`]): a value's
/// place in the list depends only on the values before it, so this is a
/// prefix of the whole list, built without the values after it.
pub fn focused_upto(f: &Focus<'_>, cap: usize) -> Vec<Value> {
    let mut c = Cands::upto(cap.min(MAX_CANDIDATES));
    let both = || {
        f.src_nodes
            .iter()
            .map(|n| (f.src_root, *n))
            .chain(f.other_nodes.iter().map(|n| (f.other_root, *n)))
    };
    let src_objects = || {
        f.src_nodes.iter().flat_map(|n| {
            (0..4).filter_map(|v| match f.sample(f.src_root, n, v) {
                Value::Object(m) => Some(m),
                _ => None,
            })
        })
    };
    match f.keyword {
        Some("required") | Some("property-removed") => {
            let name = f.subject.unwrap_or_default();
            let mut bases: Vec<Map<String, Value>> = src_objects().collect();
            // members both sides want: the call must pass the other schema but
            // for the field (where several become required at once, the
            // others are sent: only this one is missing)
            let others: Vec<Map<String, Value>> = f
                .other_nodes
                .iter()
                .flat_map(|n| {
                    (0..2).filter_map(|v| match f.sample(f.other_root, n, v) {
                        Value::Object(m) => Some(m),
                        _ => None,
                    })
                })
                .collect();
            for m in bases.clone().iter().take(2) {
                for o in &others {
                    let mut u = m.clone();
                    for (k, v) in o {
                        u.entry(k.clone()).or_insert_with(|| v.clone());
                    }
                    bases.insert(0, u);
                }
            }
            // values for the member: samples of its schema on either side, then one of every type
            let mut members: Vec<Value> = vec![];
            if f.keyword == Some("property-removed") {
                for (root, n) in both() {
                    let flat = flatten(root, n, 0);
                    let member = member_schema(&flat, name);
                    for v in 0..3 {
                        let x = sample::sample(root, member, v);
                        if !members.contains(&x) {
                            members.push(x);
                        }
                    }
                }
                members.extend(sample::exemplars());
            }
            for m in bases {
                if c.is_full() {
                    break;
                }
                let mut without = m;
                without.remove(name);
                for x in &members {
                    if c.is_full() {
                        break;
                    }
                    let mut with = without.clone();
                    with.insert(name.to_string(), x.clone());
                    c.push(Value::Object(with));
                }
                c.push(Value::Object(without));
            }
        }
        Some("dependentRequired") | Some("dependencies") => {
            let k = f.key.or(f.subject).unwrap_or_default();
            let mut deps: Vec<String> = vec![];
            for (root, n) in both() {
                let flat = flatten(root, n, 0);
                for kw in ["dependentRequired", "dependencies"] {
                    for d in flat
                        .get(kw)
                        .and_then(|m| m.get(k))
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        deps.push(d.to_string());
                    }
                }
            }
            for m in src_objects().collect::<Vec<_>>() {
                let flat = flatten(f.src_root, f.src_nodes[0], 0);
                let mut o = m.clone();
                if !o.contains_key(k) {
                    o.insert(
                        k.to_string(),
                        sample::sample(f.src_root, member_schema(&flat, k), 0),
                    );
                }
                for d in &deps {
                    if d != k {
                        o.remove(d);
                    }
                }
                c.push(Value::Object(o));
            }
        }
        Some("dependentSchemas") => {
            let mut keys: Vec<String> = vec![];
            for (root, n) in both() {
                let flat = flatten(root, n, 0);
                for k in flat
                    .get("dependentSchemas")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                    .map(|(k, _)| k)
                {
                    if !keys.contains(k) {
                        keys.push(k.clone());
                    }
                }
            }
            let flat = f
                .src_nodes
                .first()
                .map(|n| flatten(f.src_root, n, 0))
                .unwrap_or_default();
            for m in src_objects().collect::<Vec<_>>() {
                for k in keys.iter().take(8) {
                    for v in 0..3 {
                        let mut o = m.clone();
                        o.insert(
                            k.clone(),
                            sample::sample(f.src_root, member_schema(&flat, k), v),
                        );
                        c.push(Value::Object(o));
                    }
                }
            }
        }
        Some("additionalProperties")
        | Some("patternProperties")
        | Some("propertyNames")
        | Some("unevaluatedProperties") => {
            let mut keys: Vec<String> = vec![];
            if let Some(p) = f.key {
                keys.extend(super::pattern::matching(p));
            }
            keys.extend([
                "x".to_string(),
                "a".into(),
                "".into(),
                "A".into(),
                "0".into(),
            ]);
            for m in src_objects().collect::<Vec<_>>() {
                for k in keys.iter().take(6) {
                    if m.contains_key(k) {
                        continue;
                    }
                    for e in [json!("a"), json!(null), json!(0), json!({}), json!(true)] {
                        let mut o = m.clone();
                        o.insert(k.clone(), e);
                        c.push(Value::Object(o));
                    }
                }
            }
        }
        Some("minProperties") | Some("maxProperties") => {
            for m in src_objects().collect::<Vec<_>>() {
                let mut o = m.clone();
                for i in 0..6 {
                    c.push(Value::Object(o.clone()));
                    o.insert(format!("x{i}"), json!(0));
                }
                c.push(Value::Object(Map::new()));
            }
        }
        Some("minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf") => {
            let mut xs: Vec<f64> = vec![0.0, 1.0, -1.0, 0.5];
            for (root, n) in both() {
                let flat = flatten(root, n, 0);
                for k in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
                    if let Some(b) = flat.get(k).and_then(Value::as_f64) {
                        xs.extend([b, b - 1.0, b + 1.0, b - 0.5, b + 0.5, b.floor(), b.ceil()]);
                    }
                }
                if let Some(m) = flat.get("multipleOf").and_then(Value::as_f64) {
                    xs.extend([m, 2.0 * m, 3.0 * m, m / 2.0, -m]);
                }
            }
            let mut ys: Vec<f64> = xs.into_iter().filter(|x| x.is_finite()).collect();
            ys.sort_by(|a, b| a.abs().total_cmp(&b.abs()).then(b.total_cmp(a)));
            ys.dedup();
            c.extend(ys.into_iter().map(sample::num));
        }
        Some("minLength" | "maxLength" | "pattern" | "format") => {
            // a string in the source pattern's language, within its lengths, outside the other's
            let pat =
                |m: &Map<String, Value>| m.get("pattern").and_then(Value::as_str).map(String::from);
            for sn in f.src_nodes.iter().take(3) {
                let sf = flatten(f.src_root, sn, 0);
                let len = |k: &str| {
                    sf.get(k)
                        .and_then(Value::as_u64)
                        .map(|l| l.min(4096) as usize)
                };
                for on in f.other_nodes.iter().take(3) {
                    let of = flatten(f.other_root, on, 0);
                    if let Some(d) = super::pattern::difference(
                        pat(&sf).as_deref(),
                        pat(&of).as_deref(),
                        len("minLength").unwrap_or(0),
                        len("maxLength"),
                    ) {
                        c.push(Value::String(d));
                    }
                }
            }
            let mut bases: Vec<String> = vec![];
            let mut lens: Vec<usize> = vec![0, 1, 2];
            for (root, n) in both() {
                let flat = flatten(root, n, 0);
                for s in sample::strings(&flat) {
                    if let Value::String(s) = s {
                        bases.push(s);
                    }
                }
                for k in ["minLength", "maxLength"] {
                    if let Some(l) = flat.get(k).and_then(Value::as_u64) {
                        let l = l.min(4096) as usize;
                        lens.extend([l.saturating_sub(1), l, l + 1]);
                    }
                }
                if let Some(fmt) = flat.get("format").and_then(Value::as_str) {
                    bases.extend(sample::format_examples(fmt).iter().map(|s| s.to_string()));
                }
            }
            bases.extend(["a", "", "0", "A", " ", "a b", "2024-01-01", "x.y"].map(String::from));
            for b in &bases {
                c.push(Value::String(b.clone()));
            }
            lens.sort();
            lens.dedup();
            for b in bases.iter().take(4) {
                let pad = b.chars().last().unwrap_or('a');
                for &l in &lens {
                    let mut s: String = b.chars().take(l).collect();
                    while s.chars().count() < l {
                        s.push(pad);
                    }
                    c.push(Value::String(s));
                }
            }
        }
        Some(
            "minItems" | "maxItems" | "uniqueItems" | "minContains" | "maxContains" | "contains"
            | "items" | "prefixItems",
        ) => {
            let mut lens: Vec<usize> = vec![0, 1, 2];
            let mut elems: Vec<Value> = vec![];
            for (root, n) in both() {
                let flat = flatten(root, n, 0);
                for k in ["minItems", "maxItems", "minContains", "maxContains"] {
                    if let Some(l) = flat.get(k).and_then(Value::as_u64) {
                        let l = l.min(256) as usize;
                        lens.extend([l.saturating_sub(1), l, l + 1]);
                    }
                }
                for kw in ["items", "contains"] {
                    if let Some(s) = flat.get(kw).filter(|s| !s.is_array()) {
                        for v in 0..3 {
                            elems.push(sample::sample(root, s, v));
                        }
                    }
                }
            }
            elems.extend([json!(0), json!("a"), json!(null)]);
            lens.sort();
            lens.dedup();
            for e in elems.iter().take(6) {
                for &l in &lens {
                    c.push(Value::Array(vec![e.clone(); l]));
                }
            }
            for &l in &lens {
                c.push(Value::Array(
                    elems.iter().cycle().take(l).cloned().collect(),
                ));
            }
        }
        Some("enum" | "const") => {
            let listed = |root: &Value, n: &Value| -> Vec<Value> {
                let flat = flatten(root, n, 0);
                let mut out: Vec<Value> = flat.get("const").cloned().into_iter().collect();
                if let Some(Value::Array(e)) = flat.get("enum") {
                    out.extend(e.iter().cloned());
                }
                out
            };
            let per_node: Vec<(bool, Vec<Value>)> = f
                .src_nodes
                .iter()
                .map(|n| (true, listed(f.src_root, n)))
                .chain(
                    f.other_nodes
                        .iter()
                        .map(|n| (false, listed(f.other_root, n))),
                )
                .collect();
            // the values the source side lists and the other does not come
            // first: in an enum of thousands, the one value removed is the
            // witness, wherever it sits in the list
            let other = ValueSet::new(
                per_node
                    .iter()
                    .filter(|(src, _)| !src)
                    .flat_map(|(_, vs)| vs.iter()),
            );
            for (_, vs) in per_node.iter().filter(|(src, _)| *src) {
                for v in vs.iter().filter(|v| !other.contains(v)) {
                    c.push(v.clone());
                }
            }
            for (_, vs) in &per_node {
                for v in vs {
                    if c.is_full() {
                        break;
                    }
                    c.push(v.clone());
                }
            }
        }
        Some("oneOf" | "anyOf") => {
            // values meant to match two branches at once (a oneOf overlap), then each branch
            for (root, n) in both() {
                let r = resolve(root, n);
                let bs: Vec<&Value> = ["oneOf", "anyOf"]
                    .iter()
                    .filter_map(|k| r.get(*k).and_then(Value::as_array))
                    .flatten()
                    .take(6)
                    .collect();
                for i in 0..bs.len() {
                    for j in i + 1..bs.len() {
                        let both = json!({"allOf": [bs[i], bs[j]]});
                        for v in 0..4 {
                            c.push(sample::sample(root, &both, v));
                        }
                    }
                }
                for b in &bs {
                    for v in 0..4 {
                        c.push(sample::sample(root, b, v));
                    }
                }
                // numbers just outside each branch's bounds (a fraction among them):
                // where one branch stops taking values and another still does
                for b in &bs {
                    let flat = flatten(root, b, 0);
                    for k in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
                        if let Some(x) = flat.get(k).and_then(Value::as_f64) {
                            c.extend([x - 1.0, x + 1.0, x - 0.5, x + 0.5].map(sample::num));
                        }
                    }
                }
            }
        }
        Some("type") => {
            for n in &f.src_nodes {
                let flat = flatten(f.src_root, n, 0);
                for t in [
                    "string", "integer", "number", "boolean", "null", "object", "array",
                ] {
                    c.push(sample::of_type(f.src_root, &flat, t, 0, 0));
                }
            }
            c.push(json!(0.5));
        }
        _ => {}
    }
    c.values
}

/// Is `v` (whose hash is `h`) among `values` (whose hashes are `hashes`)?
fn contains(values: &[Value], hashes: &[u64], h: u64, v: &Value) -> bool {
    hashes
        .iter()
        .zip(values)
        .any(|(kh, kv)| *kh == h && kv == v)
}

/// Generic candidates (tried when the focused ones found nothing), without `seen` ones.
pub fn generic_candidates(f: &Focus<'_>, seen: &[Value]) -> Vec<Value> {
    let mut c = Cands::default();
    generic(f, &mut c);
    let seen_hashes: Vec<u64> = seen.iter().map(hash::of).collect();
    let Cands { values, hashes, .. } = c;
    values
        .into_iter()
        .zip(hashes)
        .filter(|(v, h)| !contains(seen, &seen_hashes, *h, v))
        .map(|(v, _)| v)
        .collect()
}

/// Samples of both sides and every sub-schema, values the schemas name, small values of every type.
fn generic(f: &Focus<'_>, c: &mut Cands) {
    let sides = [(f.src_root, &f.src_nodes), (f.other_root, &f.other_nodes)];
    for (root, nodes) in sides {
        for n in nodes.iter() {
            for v in 0..6 {
                c.push(f.sample(root, n, v));
            }
        }
    }
    for (root, nodes) in sides {
        for n in nodes.iter() {
            let r = resolve(root, n);
            for key in ["default", "const"] {
                if let Some(v) = r.get(key) {
                    c.push(v.clone());
                }
            }
            for key in ["examples", "enum"] {
                for v in r
                    .get(key)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .take(8)
                {
                    c.push(v.clone());
                }
            }
            let mut subs: Vec<&Value> = vec![];
            for kw in ["anyOf", "oneOf", "allOf"] {
                subs.extend(r.get(kw).and_then(Value::as_array).into_iter().flatten());
            }
            for kw in ["not", "if", "then", "else"] {
                subs.extend(r.get(kw));
            }
            if let Some(ds) = r.get("dependentSchemas").and_then(Value::as_object) {
                subs.extend(ds.values());
            }
            for s in subs.into_iter().take(12) {
                for v in 0..3 {
                    c.push(sample::sample(root, s, v));
                }
            }
        }
    }
    // mutations of the first samples: a member dropped, set to other types, one added
    let firsts: Vec<Value> = f
        .src_nodes
        .iter()
        .map(|n| f.sample(f.src_root, n, 0))
        .take(3)
        .collect();
    for s in firsts {
        if let Value::Object(m) = &s {
            for k in m.keys() {
                let mut o = m.clone();
                o.remove(k);
                c.push(Value::Object(o));
            }
            for k in m.keys() {
                for e in sample::exemplars() {
                    let mut o = m.clone();
                    o.insert(k.clone(), e);
                    c.push(Value::Object(o));
                }
            }
            let mut o = m.clone();
            o.insert("x".into(), json!(0));
            c.push(Value::Object(o));
        }
    }
    c.extend(sample::exemplars());
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The search builds the first candidates, then the rest only when it
    /// gets to them: that must be the list built in one go.
    #[test]
    fn a_capped_list_is_a_prefix_of_the_whole() {
        let old = json!({"type": "object", "properties": {
            "a": {"type": "string"}, "b": {"type": "integer", "minimum": 0},
            "c": {"$ref": "#/$defs/C"}}, "required": ["a"],
            "$defs": {"C": {"type": "array", "items": {"type": "string"}}}});
        let new = json!({"type": "object", "properties": {
            "a": {"type": "string"}, "c": {"$ref": "#/$defs/C"}}, "required": ["a"],
            "$defs": {"C": {"type": "array", "items": {"type": "string"}}}});
        for (keyword, subject) in [
            ("property-removed", "b"),
            ("required", "b"),
            ("additionalProperties", "b"),
        ] {
            let f = Focus {
                keyword: Some(keyword),
                key: None,
                subject: Some(subject),
                src_root: &old,
                src_nodes: nodes_at(&old, &[]),
                other_root: &new,
                other_nodes: nodes_at(&new, &[]),
                samples: None,
            };
            let whole = focused(&f);
            // (the removed property's list is long enough for the caps to cut it)
            assert!(
                !whole.is_empty() && (keyword != "property-removed" || whole.len() > 8),
                "{keyword}: {}",
                whole.len()
            );
            for cap in [0, 1, 5, 8, whole.len(), MAX_CANDIDATES + 1] {
                let part = focused_upto(&f, cap);
                assert_eq!(part, whole[..cap.min(whole.len())], "{keyword} cap {cap}");
            }
        }
    }
}
