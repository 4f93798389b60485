//! Seeded random instances of a schema: the search's last resort.
//!
//! The focused candidates follow the changed keyword; when the break hides
//! behind a combination (an alternative picked elsewhere, an optional member
//! that must be present, a value of another type), a guided random walk
//! finds it more often than another hand-written rule. The walk follows the
//! schema (references, one alternative, `const`/`enum`, required members and
//! some optional ones, the node's pattern, bounds and formats) and strays
//! from it on purpose now and then (another type, an undeclared member), so
//! that values only the other side forbids come up. The generator is a
//! xorshift seeded from the change, so the same input gives the same
//! instances; sizes and depth are bounded.

use serde_json::{json, Map, Value};

use super::sample::{self, flatten, member_schema};

/// Deepest nesting generated.
const MAX_DEPTH: usize = 10;
/// Most members or elements generated per value.
const MAX_WIDTH: usize = 6;

/// A small deterministic generator (xorshift64).
pub struct Rng(u64);

impl Rng {
    /// Seeded from any text (the change's pointer and rule).
    pub fn seeded(seed: &str) -> Rng {
        // FNV-1a: stable across runs and platforms
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in seed.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        Rng(h | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % (n.max(1) as u64)) as usize
    }
    /// A number below `n` (0 when `n` is 0).
    pub fn below_pub(&mut self, n: usize) -> usize {
        self.below(n)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<T: Clone>(&mut self, v: &[T]) -> Option<T> {
        (!v.is_empty()).then(|| v[self.below(v.len())].clone())
    }
}

/// One random instance of `node` inside `root`.
pub fn instance(root: &Value, node: &Value, r: &mut Rng) -> Value {
    gen(root, node, r, 0)
}

fn gen(root: &Value, node: &Value, r: &mut Rng, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return stray(r);
    }
    // a branch of each alternative, chosen at random; `allOf` merged
    let m = flatten(root, node, r.below(64));
    if r.chance(6) {
        return stray(r);
    }
    if let Some(c) = m.get("const") {
        if !r.chance(5) {
            return c.clone();
        }
    }
    if let Some(e) = m.get("enum").and_then(Value::as_array) {
        if !e.is_empty() && !r.chance(5) {
            return e[r.below(e.len())].clone();
        }
    }
    let types = sample::types(&m);
    // mostly the declared types, now and then any type
    let t = if r.chance(85) {
        r.pick(&types).unwrap_or("null")
    } else {
        [
            "object", "string", "integer", "number", "boolean", "array", "null",
        ][r.below(7)]
    };
    match t {
        "object" => object(root, &m, r, depth),
        "array" => array(root, &m, r, depth),
        "string" => {
            let mut pool = sample::strings(&m);
            pool.extend(["", "a", "b", "ab", "ba", "abc", "x", "aab"].map(|s| json!(s)));
            r.pick(&pool).unwrap_or(json!("a"))
        }
        "integer" | "number" => {
            let mut pool = sample::numbers(&m, t == "integer");
            let bounds: Vec<f64> = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]
                .iter()
                .filter_map(|k| m.get(*k).and_then(Value::as_f64))
                .collect();
            // (a fraction beside a bound: what an integer branch elsewhere does not take)
            let steps: &[f64] = if t == "number" {
                &[-1.0, -0.5, 0.0, 0.5, 1.0]
            } else {
                &[-1.0, 0.0, 1.0]
            };
            for b in bounds {
                for d in steps {
                    pool.push(sample::num(b + d));
                }
            }
            for x in [-3i64, -2, -1, 0, 1, 2, 3, 4, 6, 9, 10, 12] {
                pool.push(json!(x));
            }
            if t == "number" {
                pool.extend([0.5, 2.5, -1.5, 4.5, 10.5].map(sample::num));
            }
            r.pick(&pool).unwrap_or(json!(0))
        }
        "boolean" => json!(r.chance(50)),
        _ => Value::Null,
    }
}

/// Any small value, whatever the schema says.
fn stray(r: &mut Rng) -> Value {
    r.pick(&sample::exemplars()).unwrap_or(Value::Null)
}

fn object(root: &Value, m: &Map<String, Value>, r: &mut Rng, depth: usize) -> Value {
    let mut out = Map::new();
    let declared: Vec<String> = m
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().take(16).cloned().collect())
        .unwrap_or_default();
    let required: Vec<String> = m
        .get("required")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .take(16)
                .collect()
        })
        .unwrap_or_default();
    for k in declared.iter().chain(required.iter()) {
        if out.contains_key(k) || out.len() >= MAX_WIDTH * 3 {
            continue;
        }
        let must = required.contains(k) && !r.chance(5);
        if must || r.chance(50) {
            let v = gen(root, member_schema(m, k), r, depth + 1);
            out.insert(k.clone(), v);
        }
    }
    // undeclared members: through patternProperties, additionalProperties, or anything
    if r.chance(25) {
        let mut keys: Vec<String> =
            vec!["x".into(), "z".into(), "a".into(), "b".into(), "c".into()];
        if let Some(pp) = m.get("patternProperties").and_then(Value::as_object) {
            for p in pp.keys().take(4) {
                keys.extend(super::pattern::matching(p).into_iter().take(2));
            }
        }
        if let Some(k) = r.pick(&keys) {
            if !out.contains_key(&k) {
                let v = gen(root, member_schema(m, &k), r, depth + 1);
                out.insert(k, v);
            }
        }
    }
    Value::Object(out)
}

fn array(root: &Value, m: &Map<String, Value>, r: &mut Rng, depth: usize) -> Value {
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
    let bound = |k: &str| m.get(k).and_then(Value::as_u64).map(|v| v.min(64) as usize);
    let lo = bound("minItems").unwrap_or(0);
    let hi = bound("maxItems").unwrap_or(lo.max(3)).max(lo);
    let mut n = lo + r.below(hi - lo + 2);
    if r.chance(90) {
        n = n.min(hi);
    }
    let n = n.min(MAX_WIDTH.max(lo));
    let contains = m.get("contains");
    let mut out = vec![];
    for i in 0..n {
        let s = match (contains, prefix.get(i)) {
            (_, Some(p)) => *p,
            (Some(c), None) if r.chance(50) => c,
            _ => rest,
        };
        out.push(gen(root, s, r, depth + 1));
    }
    Value::Array(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_instances_and_mostly_valid() {
        let root = json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 2}, "b": {"enum": ["x", "y"]}, "c": {"type": "array", "items": {"type": "string"}, "maxItems": 2}}, "required": ["a"]});
        let v = jsonschema::validator_for(&root).unwrap();
        let run = || {
            let mut r = Rng::seeded("/inputSchema/properties/a");
            (0..200)
                .map(|_| instance(&root, &root, &mut r))
                .collect::<Vec<_>>()
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b);
        let valid = a.iter().filter(|i| v.is_valid(i)).count();
        assert!(valid > 60, "{valid} of 200 valid");
        assert!(valid < 200, "the walk never strays");
    }
}
