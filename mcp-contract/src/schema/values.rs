//! Finite sets of JSON values (`enum`, `const`, candidate lists) with
//! constant-time membership. An `enum` of 100,000 strings is published by
//! real servers (country, time-zone and product codes); comparing two of
//! them with `Vec::contains` in a loop is quadratic, so every place that
//! asks "is this value among those" builds a [`ValueSet`] once and asks it.
//!
//! The hash ([`of`]) is structural and consistent with both equalities the
//! engine uses: `Value`'s own `==` and JSON Schema's (numbers by value, `1`
//! is `1.0`): equal values hash alike, so a lookup compares in full only
//! the few values that share its hash.

use std::collections::HashMap;
use std::hash::Hasher;

use serde_json::Value;

/// The hash of `v`: equal values (by `==`, or numbers by value) give equal hashes.
pub fn of(v: &Value) -> u64 {
    let mut h = Fx(0);
    feed(v, &mut h);
    h.finish()
}

fn feed(v: &Value, h: &mut Fx) {
    match v {
        Value::Null => h.write_u8(0),
        Value::Bool(b) => h.write_u8(1 + u8::from(*b)),
        Value::Number(n) => {
            h.write_u8(3);
            // equal numbers have the same f64 (and 0.0 == -0.0)
            let f = n.as_f64().unwrap_or(0.0);
            h.write_u64(if f == 0.0 { 0 } else { f.to_bits() });
        }
        Value::String(s) => {
            h.write_u8(4);
            h.write(s.as_bytes());
        }
        Value::Array(a) => {
            h.write_u8(5);
            h.write_usize(a.len());
            for x in a {
                feed(x, h);
            }
        }
        Value::Object(m) => {
            h.write_u8(6);
            h.write_usize(m.len());
            for (k, x) in m {
                h.write(k.as_bytes());
                feed(x, h);
            }
        }
    }
}

/// Sets this small are scanned: hashing would cost more than it saves.
const SCANNED: usize = 16;

/// A set of borrowed JSON values, looked up by [`of`]'s hash (a small set
/// is scanned).
#[derive(Debug, Default)]
pub struct ValueSet<'a> {
    /// The values, each once (by `==`), in their first order.
    values: Vec<&'a Value>,
    /// Indexes into `values` by hash, for sets larger than [`SCANNED`].
    buckets: HashMap<u64, Vec<u32>, BuildFx>,
    /// Does the set hold an array or an object?
    containers: bool,
}

impl<'a> ValueSet<'a> {
    /// The set of `values` (duplicates kept once by `==`).
    pub fn new(values: impl IntoIterator<Item = &'a Value>) -> Self {
        let mut set = ValueSet::default();
        for v in values {
            set.insert(v);
        }
        set
    }

    /// Adds `v`; `false` when the set held it already.
    pub fn insert(&mut self, v: &'a Value) -> bool {
        if self.contains(v) {
            return false;
        }
        self.containers |= matches!(v, Value::Array(_) | Value::Object(_));
        self.values.push(v);
        if self.values.len() == SCANNED + 1 {
            for (i, x) in self.values.iter().enumerate() {
                self.buckets.entry(of(x)).or_default().push(i as u32);
            }
        } else if self.values.len() > SCANNED + 1 {
            let i = (self.values.len() - 1) as u32;
            self.buckets.entry(of(v)).or_default().push(i);
        }
        true
    }

    /// How many distinct values the set holds.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Is the set empty?
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Does the set hold `v` (by `Value`'s `==`)?
    pub fn contains(&self, v: &Value) -> bool {
        self.contains_by(v, |a, b| a == b)
    }

    /// Does the set hold a value equal to `v` under `eq` (an equality
    /// [`of`] is consistent with: `==`, or numbers by value)?
    pub fn contains_by(&self, v: &Value, eq: impl Fn(&Value, &Value) -> bool) -> bool {
        if self.values.len() <= SCANNED {
            return self.values.iter().any(|x| eq(x, v));
        }
        self.buckets
            .get(&of(v))
            .into_iter()
            .flatten()
            .any(|&i| eq(self.values[i as usize], v))
    }

    /// Does the set hold an array or an object?
    pub fn has_containers(&self) -> bool {
        self.containers
    }

    /// The values, each once, in their first order.
    pub fn iter(&self) -> impl Iterator<Item = &'a Value> + '_ {
        self.values.iter().copied()
    }
}

/// Do `a` and `b` have a value in common (by `==`)?
pub fn intersect(a: &[Value], b: &[Value]) -> bool {
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let large = ValueSet::new(large);
    small.iter().any(|v| large.contains(v))
}

/// The [`Fx`] hasher for maps keyed by hashes already computed (the key
/// is mixed once more, which costs a multiply).
#[derive(Debug, Default, Clone, Copy)]
struct BuildFx;

impl std::hash::BuildHasher for BuildFx {
    type Hasher = Fx;
    fn build_hasher(&self) -> Fx {
        Fx(0)
    }
}

/// The multiply-rotate hash of rustc's `FxHasher`: a few instructions per
/// word, good enough to tell candidates apart (a collision only costs a
/// full comparison).
struct Fx(u64);

impl Fx {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        last[..rest.len()].copy_from_slice(rest);
        // the length tells "a" from "a\0"
        self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{of, ValueSet, SCANNED};

    #[test]
    fn equal_values_hash_alike() {
        let a = json!({"b": [1, "x", null], "a": {"c": true}});
        let b = json!({"a": {"c": true}, "b": [1, "x", null]});
        assert_eq!(a, b);
        assert_eq!(of(&a), of(&b));
        assert_eq!(of(&json!(0.0)), of(&json!(-0.0)));
        assert_eq!(json!(0.0), json!(-0.0));
    }

    #[test]
    fn different_values_mostly_differ() {
        let vs = [
            json!(null),
            json!(false),
            json!(true),
            json!(0),
            json!(1),
            json!(0.5),
            json!(""),
            json!("a"),
            json!("a\u{0}"),
            json!([]),
            json!([null]),
            json!({}),
            json!({"a": null}),
            json!({"a": 0}),
            json!({"b": null}),
            json!(["a", "b"]),
            json!(["ab"]),
        ];
        for (i, x) in vs.iter().enumerate() {
            for y in &vs[i + 1..] {
                assert_ne!(of(x), of(y), "{x} {y}");
            }
        }
    }

    #[test]
    fn a_set_finds_what_it_holds_and_only_that() {
        let held: Vec<_> = (0..1000).map(|i| json!(format!("v{i}"))).collect();
        let set = ValueSet::new(held.iter().chain(held.iter().take(10)));
        assert_eq!(set.len(), 1000, "duplicates are kept once");
        assert!(set.iter().eq(held.iter()), "in their first order");
        assert!(held.iter().all(|v| set.contains(v)));
        assert!(!set.contains(&json!("v1000")));
        assert!(!set.contains(&json!(1)));
        assert!(!set.has_containers());
        // numbers by value: `1.0` is found with an equality that says so
        let nums = [json!(1), json!(2.5)];
        let set = ValueSet::new(&nums);
        assert!(!set.contains(&json!(1.0)));
        let by_value = |a: &serde_json::Value, b: &serde_json::Value| a.as_f64() == b.as_f64();
        assert!(set.contains_by(&json!(1.0), by_value));
        assert!(ValueSet::new(&[json!([1])]).has_containers());
        // small sets are scanned, large ones hashed: the same answers
        for n in [0, 1, SCANNED, SCANNED + 1, 3 * SCANNED] {
            let set = ValueSet::new(&held[..n]);
            assert_eq!(set.len(), n);
            assert!(held[..n].iter().all(|v| set.contains(v)));
            assert!(held[n..].iter().all(|v| !set.contains(v)));
            assert!(!super::intersect(&held[..n], &held[n..]));
            assert_eq!(super::intersect(&held[..n], &held), n > 0);
        }
    }
}
