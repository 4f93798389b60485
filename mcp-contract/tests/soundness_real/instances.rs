//! Instances guided by a schema: references followed (`$ref`, `#` roots),
//! alternatives picked, objects filled with required and some optional
//! properties, pattern-matching keys and dependent properties, arrays with
//! their tuple prefix and `contains`, numbers at bounds ± 1 and at every
//! integer width's boundaries (sometimes spelled as an integral float,
//! `1.0`, which draft-04 takes for no integer), exact decimal multiples of a
//! `multipleOf` (`0.3` for 0.1, not `0.30000000000000004`), strings matching
//! the patterns in use (as ECMA reads them, through the oracle). Draft-07
//! shapes too: tuple `items` with `additionalItems`, `dependencies` (names
//! or a schema), `id`/`$anchor` references. A few are perturbed (a required
//! field dropped, an undeclared one sent, a value swapped) so that both
//! sides' edges get tried.

use serde_json::{json, Map, Value};

use super::mutate::numbers::{decimal, decimal_value};
use super::mutate::types_of;
use super::oracle::ecma_matches;
use super::rng::Rng;
use super::walk::resolve;
use super::widths::{boundary_values, int_range, int_value};

const MAX_DEPTH: usize = 9;

pub struct Gen<'d> {
    doc: &'d Value,
    boundaries: Vec<Value>,
}

const STRINGS: [&str; 29] = [
    "",
    "a",
    "b",
    "ab",
    "abc",
    "ab1",
    "foo",
    "bar",
    "12",
    "1234",
    "12345",
    "x",
    "zz",
    "A",
    "ba",
    "q",
    "2026-01-01T00:00:00Z",
    "x-trace",
    // what a `-` in a class adds ([a-z-], [+--] is + , -, [a-z--x]), codes
    "-",
    "a-b",
    "A-B",
    "x_y",
    "a.b",
    "USD",
    "+1234567",
    "-1234567",
    ",1234567",
    "1234567",
    "ABC-1234",
];
const KEYS: [&str; 8] = [
    "x-a", "A", "ref_id", "zz", "region", "extra", "Kind", "x-trace",
];

impl<'d> Gen<'d> {
    pub fn new(doc: &'d Value) -> Gen<'d> {
        Gen {
            doc,
            boundaries: boundary_values(),
        }
    }

    pub fn instance(&self, rng: &mut Rng) -> Value {
        let mut v = self.gen(self.doc, rng, 0);
        if rng.chance(25) {
            perturb(&mut v, rng, 0);
        }
        v
    }

    fn gen(&self, s: &Value, rng: &mut Rng, depth: usize) -> Value {
        let Some(m) = s.as_object() else {
            return scalar(rng);
        };
        if depth > MAX_DEPTH {
            return scalar_of(m, rng);
        }
        if let Some(r) = m.get("$ref").and_then(Value::as_str) {
            if rng.chance(90) {
                if let Some(t) = resolve(self.doc, r) {
                    let v = self.gen(t, rng, depth + 1);
                    return self.beside(m, v, rng, depth);
                }
            }
        }
        if let Some(c) = m.get("const") {
            if rng.chance(90) {
                return c.clone();
            }
        }
        if let Some(Value::Array(e)) = m.get("enum") {
            if !e.is_empty() && rng.chance(88) {
                return rng.pick(e).clone();
            }
        }
        for kw in ["anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = m.get(kw) {
                if !bs.is_empty() && rng.chance(85) {
                    let v = self.gen(rng.pick(bs), rng, depth + 1);
                    return self.beside(m, v, rng, depth);
                }
            }
        }
        if let Some(Value::Array(bs)) = m.get("allOf") {
            if !bs.is_empty() && rng.chance(75) {
                let mut parts: Vec<Value> =
                    bs.iter().map(|b| self.gen(b, rng, depth + 1)).collect();
                let mut merged = parts.remove(0);
                for p in parts {
                    merge(&mut merged, p);
                }
                return self.beside(m, merged, rng, depth);
            }
        }
        let mut v = self.by_type(m, rng, depth);
        if let Some(then) = m.get(if rng.chance(50) { "then" } else { "else" }) {
            if v.is_object() && rng.chance(60) {
                let extra = self.gen(then, rng, depth + 1);
                merge(&mut v, extra);
            }
        }
        v
    }

    /// Keywords beside a `$ref` or alternatives also describe the value: an
    /// object gets their properties too.
    fn beside(&self, m: &Map<String, Value>, mut v: Value, rng: &mut Rng, depth: usize) -> Value {
        if v.is_object()
            && (m.contains_key("properties") || m.contains_key("required"))
            && rng.chance(70)
        {
            let own = self.object(m, rng, depth);
            merge(&mut v, own);
        }
        v
    }

    fn by_type(&self, m: &Map<String, Value>, rng: &mut Rng, depth: usize) -> Value {
        let ts = types_of(m);
        let t = if ts.is_empty() {
            infer_type(m)
                .unwrap_or_else(|| {
                    *rng.pick(&[
                        "string", "integer", "object", "null", "boolean", "array", "number",
                    ])
                })
                .to_string()
        } else {
            rng.pick(&ts).clone()
        };
        match t.as_str() {
            "object" => self.object(m, rng, depth),
            "array" => self.array(m, rng, depth),
            "integer" => self.integer(m, rng),
            "number" => {
                if rng.chance(55) {
                    self.integer(m, rng)
                } else {
                    json!(*rng.pick(&[
                        0.5,
                        -1.5,
                        2.25,
                        1e-3,
                        3.4028234663852886e38,
                        3.5e38,
                        -7.75,
                        0.1,
                        0.3,
                        0.05,
                        1.0,
                        2.0000000002,
                    ]))
                }
            }
            "string" => string(m, rng),
            "boolean" => json!(rng.chance(50)),
            _ => Value::Null,
        }
    }

    fn object(&self, m: &Map<String, Value>, rng: &mut Rng, depth: usize) -> Value {
        let mut out = Map::new();
        let required: Vec<&str> = m
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(Value::Object(ps)) = m.get("properties") {
            for (k, p) in ps {
                if required.contains(&k.as_str()) || rng.chance(55) {
                    out.insert(k.clone(), self.gen(p, rng, depth + 1));
                }
            }
        }
        for k in &required {
            if !out.contains_key(*k) {
                out.insert(k.to_string(), scalar(rng));
            }
        }
        if let Some(Value::Object(pp)) = m.get("patternProperties") {
            for (pat, s) in pp {
                if rng.chance(45) {
                    if let Some(k) = key_matching(pat) {
                        out.insert(k, self.gen(s, rng, depth + 1));
                    }
                }
            }
        }
        if let Some(ap @ Value::Object(_)) = m.get("additionalProperties") {
            if rng.chance(40) {
                out.insert((*rng.pick(&KEYS)).into(), self.gen(ap, rng, depth + 1));
            }
        }
        if let Some(Value::Object(dr)) = m.get("dependentRequired") {
            for (k, needs) in dr {
                if out.contains_key(k) && rng.chance(75) {
                    for n in needs
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                    {
                        out.entry(n.to_string()).or_insert_with(|| scalar(rng));
                    }
                }
            }
        }
        if let Some(Value::Object(ds)) = m.get("dependentSchemas") {
            for (k, s) in ds {
                if out.contains_key(k) && rng.chance(60) {
                    let extra = self.gen(s, rng, depth + 1);
                    merge_keep(&mut out, extra);
                }
            }
        }
        // draft-07 and before: a list of names, or a schema
        if let Some(Value::Object(deps)) = m.get("dependencies") {
            for (k, d) in deps {
                if !out.contains_key(k) || !rng.chance(70) {
                    continue;
                }
                match d {
                    Value::Array(names) => {
                        for n in names.iter().filter_map(Value::as_str) {
                            out.entry(n.to_string()).or_insert_with(|| scalar(rng));
                        }
                    }
                    s => {
                        let extra = self.gen(s, rng, depth + 1);
                        merge_keep(&mut out, extra);
                    }
                }
            }
        }
        Value::Object(out)
    }

    fn array(&self, m: &Map<String, Value>, rng: &mut Rng, depth: usize) -> Value {
        let mut out = vec![];
        // array-form `items` is a tuple, `additionalItems` the rest
        if let Some(Value::Array(prefix)) = m.get("items") {
            let n = if rng.chance(75) {
                prefix.len()
            } else {
                rng.below(prefix.len() + 1)
            };
            for p in &prefix[..n] {
                out.push(self.gen(p, rng, depth + 1));
            }
            if n == prefix.len() && rng.chance(50) {
                for _ in 0..1 + rng.below(2) {
                    out.push(match m.get("additionalItems") {
                        Some(s @ Value::Object(_)) => self.gen(s, rng, depth + 1),
                        _ => scalar(rng),
                    });
                }
            }
            return Value::Array(out);
        }
        if let Some(Value::Array(prefix)) = m.get("prefixItems") {
            let n = if rng.chance(80) {
                prefix.len()
            } else {
                rng.below(prefix.len() + 1)
            };
            for p in &prefix[..n] {
                out.push(self.gen(p, rng, depth + 1));
            }
        }
        let items = m.get("items").filter(|i| i.is_object());
        let closed = m.get("items") == Some(&json!(false));
        let min = m.get("minItems").and_then(Value::as_u64).unwrap_or(0) as usize;
        let mut n = rng.below(4);
        if rng.chance(30) {
            n = min.saturating_sub(out.len()) + rng.below(2);
        }
        if !closed || rng.chance(10) {
            for _ in 0..n.min(6) {
                out.push(match items {
                    Some(i) => self.gen(i, rng, depth + 1),
                    None => scalar(rng),
                });
            }
        }
        if let Some(c) = m.get("contains") {
            for _ in 0..rng.below(3) {
                out.push(self.gen(c, rng, depth + 1));
            }
        }
        if m.get("uniqueItems") == Some(&json!(true)) && !out.is_empty() && rng.chance(20) {
            out.push(out[0].clone());
        }
        Value::Array(out)
    }

    fn integer(&self, m: &Map<String, Value>, rng: &mut Rng) -> Value {
        let v = self.integer_value(m, rng);
        // an integral float (`1.0`): the same number, but no integer to draft-04
        match v.as_i64() {
            Some(i) if i.unsigned_abs() < 1 << 40 && rng.chance(8) => json!(i as f64),
            _ => v,
        }
    }

    fn integer_value(&self, m: &Map<String, Value>, rng: &mut Rng) -> Value {
        let fmt = m.get("format").and_then(Value::as_str).unwrap_or("");
        match rng.below(10) {
            0..=3 => {
                // at this node's bounds, and one past them
                let bounds: Vec<i128> =
                    ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
                        .iter()
                        .filter_map(|k| m.get(*k))
                        .filter_map(|v| {
                            v.as_i64()
                                .map(i128::from)
                                .or_else(|| v.as_u64().map(i128::from))
                                .or_else(|| v.as_f64().map(|f| f as i128))
                        })
                        .collect();
                if let Some(b) = bounds.get(rng.below(bounds.len().max(1))) {
                    return int_value(b.saturating_add([-1, 0, 1][rng.below(3)]));
                }
                json!(rng.below(12) as i64 - 2)
            }
            4..=5 => {
                if let Some((lo, hi)) = int_range(fmt) {
                    let b = [lo, hi][rng.below(2)];
                    let v = b.saturating_add([-1, 0, 1][rng.below(3)]);
                    if i64::try_from(v).is_ok() || u64::try_from(v).is_ok() {
                        return int_value(v);
                    }
                }
                rng.pick(&self.boundaries).clone()
            }
            6 => rng.pick(&self.boundaries).clone(),
            7 => {
                let i = rng.below(7) as i64 - 1;
                match m.get("multipleOf") {
                    Some(k) => decimal_multiple(k, i),
                    None => json!(i),
                }
            }
            _ => json!(rng.below(14) as i64 - 3),
        }
    }
}

fn infer_type(m: &Map<String, Value>) -> Option<&'static str> {
    let has = |ks: &[&str]| ks.iter().any(|k| m.contains_key(*k));
    if has(&[
        "properties",
        "required",
        "patternProperties",
        "additionalProperties",
        "dependentRequired",
        "propertyNames",
    ]) {
        Some("object")
    } else if has(&["items", "prefixItems", "contains", "minItems", "maxItems"]) {
        Some("array")
    } else if has(&["minLength", "maxLength", "pattern"]) {
        Some("string")
    } else if has(&[
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ]) {
        Some("number")
    } else {
        None
    }
}

fn string(m: &Map<String, Value>, rng: &mut Rng) -> Value {
    if let Some(p) = m.get("pattern").and_then(Value::as_str) {
        if rng.chance(60) {
            let matching: Vec<&str> = STRINGS.iter().copied().filter(|s| matches(p, s)).collect();
            if !matching.is_empty() {
                return json!(rng.pick(&matching));
            }
        }
    }
    let len_bound = ["minLength", "maxLength"]
        .iter()
        .filter_map(|k| m.get(*k).and_then(Value::as_u64))
        .collect::<Vec<_>>();
    if !len_bound.is_empty() && rng.chance(40) {
        let n = *rng.pick(&len_bound) as i64 + [-1i64, 0, 1][rng.below(3)];
        return json!("a".repeat(n.clamp(0, 64) as usize));
    }
    json!(rng.pick(&STRINGS))
}

fn matches(pattern: &str, s: &str) -> bool {
    ecma_matches(pattern, s)
}

/// `i` times the number `k`, exactly as decimals (`0.1` × 3 is `0.3`):
/// what a decimal `multipleOf` admits. Falls back to f64 for exponents.
fn decimal_multiple(k: &Value, i: i64) -> Value {
    match decimal(k) {
        Some((m, s)) => decimal_value(m * i as i128, s),
        None => json!(k.as_f64().unwrap_or(1.0) * i as f64),
    }
}

fn key_matching(pattern: &str) -> Option<String> {
    KEYS.iter()
        .find(|k| matches(pattern, k))
        .map(|k| k.to_string())
}

fn scalar(rng: &mut Rng) -> Value {
    [
        json!(null),
        json!(true),
        json!(0),
        json!(1),
        json!(-1),
        json!(2.5),
        json!(""),
        json!("a"),
        json!("foo"),
        json!([]),
        json!({}),
    ][rng.below(11)]
    .clone()
}

fn scalar_of(m: &Map<String, Value>, rng: &mut Rng) -> Value {
    match types_of(m).first().map(String::as_str) {
        Some("string") => json!("a"),
        Some("integer") | Some("number") => json!(1),
        Some("boolean") => json!(true),
        Some("array") => json!([]),
        Some("object") => json!({}),
        Some("null") => Value::Null,
        _ => scalar(rng),
    }
}

/// Object parts of `extra` added to `into` (first one wins).
fn merge(into: &mut Value, extra: Value) {
    if let (Value::Object(a), Value::Object(b)) = (into, extra) {
        merge_keep(a, Value::Object(b));
    }
}

fn merge_keep(into: &mut Map<String, Value>, extra: Value) {
    if let Value::Object(b) = extra {
        for (k, v) in b {
            into.entry(k).or_insert(v);
        }
    }
}

/// One small edit somewhere in the value.
fn perturb(v: &mut Value, rng: &mut Rng, depth: usize) {
    match v {
        Value::Object(m) if !m.is_empty() && depth < 4 && rng.chance(60) => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let k = rng.pick(&keys).clone();
            perturb(m.get_mut(&k).unwrap(), rng, depth + 1);
        }
        Value::Object(m) => match rng.below(3) {
            0 if !m.is_empty() => {
                let keys: Vec<String> = m.keys().cloned().collect();
                m.remove(rng.pick(&keys));
            }
            _ => {
                m.insert((*rng.pick(&KEYS)).into(), scalar(rng));
            }
        },
        Value::Array(a) if !a.is_empty() && depth < 4 && rng.chance(60) => {
            let i = rng.below(a.len());
            perturb(&mut a[i], rng, depth + 1);
        }
        Value::Array(a) => {
            if rng.chance(50) && !a.is_empty() {
                a.pop();
            } else {
                a.push(scalar(rng));
            }
        }
        Value::Number(n) => {
            *v = if let Some(i) = n.as_i64() {
                int_value(i as i128 + [-1, 1][rng.below(2)])
            } else {
                json!(0.5)
            };
        }
        _ => *v = scalar(rng),
    }
}
