//! Strict JSON reading: like `serde_json::from_str::<Value>`, but a key that
//! appears twice in one object is an error (with its line and column) rather
//! than silently keeping the last value. A lockfile with a tool listed twice
//! after a bad merge must not quietly lose one of them.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

/// Parses `text`, rejecting duplicate object keys.
pub fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = StrictValue.deserialize(&mut de)?;
    de.end()?;
    Ok(v)
}

struct StrictValue;

impl<'de> DeserializeSeed<'de> for StrictValue {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(StrictValue)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            match out.entry(key) {
                Entry::Occupied(e) => {
                    return Err(de::Error::custom(format_args!(
                        "duplicate key `{}`",
                        e.key()
                    )));
                }
                Entry::Vacant(e) => {
                    e.insert(map.next_value_seed(StrictValue)?);
                }
            }
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn rejects_duplicate_keys_with_position() {
        let err = super::from_str("{\n  \"a\": 1,\n  \"a\": 2\n}").unwrap_err();
        assert!(err.to_string().contains("duplicate key `a`"), "{err}");
        assert_eq!(err.line(), 3);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(10_000) + &"]".repeat(10_000);
        let err = super::from_str(&text).unwrap_err();
        assert!(err.to_string().contains("recursion limit"), "{err}");
    }

    #[test]
    fn parses_like_serde_json() {
        let text = r#"{"a":[1,2.5,-3,"x",null,true,{"b":{}}]}"#;
        assert_eq!(
            super::from_str(text).unwrap(),
            serde_json::from_str::<serde_json::Value>(text).unwrap()
        );
    }
}
