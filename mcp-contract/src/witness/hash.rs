//! A cheap structural hash of a JSON value, consistent with `Value`'s
//! equality (equal values hash alike), so that the candidate list can skip
//! a duplicate by comparing hashes first: without it, de-duplicating a few
//! hundred candidates compares every new one with every kept one, whole
//! objects at a time.

use std::hash::Hasher;

use serde_json::Value;

/// The hash of `v`: equal values (by `==`) give equal hashes.
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

    use super::of;

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
}
