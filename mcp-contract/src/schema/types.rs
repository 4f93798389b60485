//! The set of JSON types a schema admits, with `integer` as a subset of
//! `number` (a number is an integer or a fraction), so that
//! `integer` -> `number` is a widening and `["string","null"]` is a set.
//!
//! Integers are two kinds: written without a fraction (`2`) and written
//! with one (`2.0`). 2019-09 and later count both as `integer`; draft-04
//! (and draft-03) only the first, so their `integer` is read as
//! [`LEXICAL_INTEGER`] and a switch between the two readings is a change
//! of the set like any other.

use serde_json::Value;

/// A set of JSON value kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypeSet(u8);

impl TypeSet {
    pub const NONE: TypeSet = TypeSet(0);
    pub const NULL: TypeSet = TypeSet(1);
    pub const BOOLEAN: TypeSet = TypeSet(2);
    pub const OBJECT: TypeSet = TypeSet(4);
    pub const ARRAY: TypeSet = TypeSet(8);
    pub const STRING: TypeSet = TypeSet(16);
    /// Integers written without a fraction (`2`): draft-04's `integer`.
    pub const WHOLE_WRITTEN: TypeSet = TypeSet(32);
    /// Integers written with a fraction (`2.0`).
    pub const FRACTION_WRITTEN: TypeSet = TypeSet(128);
    /// Integers however written: `integer` since draft-06.
    pub const INTEGER: TypeSet = TypeSet(32 | 128);
    /// Numbers with a fractional part.
    pub const FRACTION: TypeSet = TypeSet(64);
    pub const NUMBER: TypeSet = TypeSet(32 | 64 | 128);
    pub const ALL: TypeSet = TypeSet(255);

    /// The kinds with a single `type` name of their own (numbers aside).
    const NAMED: [(TypeSet, &'static str); 5] = [
        (TypeSet::NULL, "null"),
        (TypeSet::BOOLEAN, "boolean"),
        (TypeSet::OBJECT, "object"),
        (TypeSet::ARRAY, "array"),
        (TypeSet::STRING, "string"),
    ];

    pub fn union(self, o: TypeSet) -> TypeSet {
        TypeSet(self.0 | o.0)
    }
    pub fn intersect(self, o: TypeSet) -> TypeSet {
        TypeSet(self.0 & o.0)
    }
    pub fn minus(self, o: TypeSet) -> TypeSet {
        TypeSet(self.0 & !o.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn contains(self, o: TypeSet) -> bool {
        self.0 & o.0 == o.0
    }
    pub fn overlaps(self, o: TypeSet) -> bool {
        self.0 & o.0 != 0
    }

    /// The type named by a `type` keyword entry; unknown names admit nothing.
    pub fn from_name(name: &str) -> TypeSet {
        match name {
            "null" => TypeSet::NULL,
            "boolean" => TypeSet::BOOLEAN,
            "object" => TypeSet::OBJECT,
            "array" => TypeSet::ARRAY,
            "string" => TypeSet::STRING,
            "integer" => TypeSet::INTEGER,
            "number" => TypeSet::NUMBER,
            LEXICAL_INTEGER => TypeSet::WHOLE_WRITTEN,
            _ => TypeSet::NONE,
        }
    }

    /// A `type` keyword admitting at least this set (fractions alone widen
    /// to `number`: the keyword cannot name them).
    pub fn keyword(self) -> Value {
        let mut names: Vec<Value> = TypeSet::NAMED
            .iter()
            .filter(|(bit, _)| self.contains(*bit))
            .map(|(_, name)| Value::from(*name))
            .collect();
        if self.overlaps(TypeSet::FRACTION) {
            names.push(Value::from("number"));
        } else if self.overlaps(TypeSet::INTEGER) {
            names.push(Value::from("integer"));
        }
        Value::Array(names)
    }

    /// The set a `type` keyword value admits (`None` keyword admits everything).
    pub fn from_keyword(v: Option<&Value>) -> TypeSet {
        match v {
            None => TypeSet::ALL,
            Some(Value::String(s)) => TypeSet::from_name(s),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .fold(TypeSet::NONE, |acc, s| acc.union(TypeSet::from_name(s))),
            Some(_) => TypeSet::ALL,
        }
    }

    /// The kind of one JSON value (1.0 counts as an integer, as validators do).
    pub fn of(v: &Value) -> TypeSet {
        match v {
            Value::Null => TypeSet::NULL,
            Value::Bool(_) => TypeSet::BOOLEAN,
            Value::Object(_) => TypeSet::OBJECT,
            Value::Array(_) => TypeSet::ARRAY,
            Value::String(_) => TypeSet::STRING,
            Value::Number(n) => {
                if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                    TypeSet::INTEGER
                } else {
                    TypeSet::FRACTION
                }
            }
        }
    }

    /// The kind of one JSON value as written: `2` and `2.0` are apart
    /// (what draft-04's `integer` tells apart); [`TypeSet::of`] is the
    /// kind of every value equal to it.
    pub fn written(v: &Value) -> TypeSet {
        match v {
            Value::Number(n) if n.is_f64() && TypeSet::of(v) == TypeSet::INTEGER => {
                TypeSet::FRACTION_WRITTEN
            }
            Value::Number(n) if !n.is_f64() => TypeSet::WHOLE_WRITTEN,
            _ => TypeSet::of(v),
        }
    }

    /// Human names, e.g. `["integer", "null"]` or `"string"`.
    pub fn describe(self) -> String {
        let names = self.names();
        match names.len() {
            0 => "nothing".into(),
            1 => format!("\"{}\"", names[0]),
            _ => format!(
                "[{}]",
                names
                    .iter()
                    .map(|n| format!("\"{n}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }

    /// The names joined with `|` (`integer|null`, `nothing` when empty): a
    /// change's `from`/`to` in migration entries.
    pub fn short(self) -> String {
        let names = self.names();
        if names.is_empty() {
            "nothing".into()
        } else {
            names.join("|")
        }
    }

    fn names(self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = TypeSet::NAMED
            .iter()
            .filter(|(bit, _)| self.contains(*bit))
            .map(|(_, name)| *name)
            .collect();
        if self.contains(TypeSet::NUMBER) {
            names.push("number");
            return names;
        }
        if self.contains(TypeSet::INTEGER) {
            names.push("integer");
        } else if self.contains(TypeSet::WHOLE_WRITTEN) {
            names.push("integer written without a fraction");
        } else if self.contains(TypeSet::FRACTION_WRITTEN) {
            names.push("integer written with a fraction (such as 2.0)");
        }
        if self.contains(TypeSet::FRACTION) {
            names.push("non-integer number");
        }
        names
    }
}

/// The `type` name draft-04's `integer` is read as: integers written
/// without a fraction (`2.0` is a number there, not an integer).
pub const LEXICAL_INTEGER: &str = "integer (draft-04: written without a fraction)";

/// Keywords that constrain values of one type only.
pub const BY_TYPE: [(TypeSet, &[&str]); 4] = [
    (TypeSet::STRING, &["minLength", "maxLength", "pattern"]),
    (
        TypeSet::NUMBER,
        &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        ],
    ),
    (
        TypeSet::ARRAY,
        &[
            "items",
            "prefixItems",
            "additionalItems",
            "contains",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minContains",
            "maxContains",
            "unevaluatedItems",
        ],
    ),
    (
        TypeSet::OBJECT,
        &[
            "properties",
            "additionalProperties",
            "patternProperties",
            "propertyNames",
            "required",
            "minProperties",
            "maxProperties",
            "dependentRequired",
            "dependentSchemas",
            "dependencies",
            "unevaluatedProperties",
        ],
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integer_is_a_subset_of_number() {
        let int = TypeSet::from_keyword(Some(&json!("integer")));
        let num = TypeSet::from_keyword(Some(&json!("number")));
        assert!(num.contains(int) && !int.contains(num));
        assert_eq!(TypeSet::of(&json!(2.0)), TypeSet::INTEGER);
        assert_eq!(TypeSet::written(&json!(2.0)), TypeSet::FRACTION_WRITTEN);
        assert_eq!(TypeSet::written(&json!(2)), TypeSet::WHOLE_WRITTEN);
        let draft4 = TypeSet::from_name(LEXICAL_INTEGER);
        assert!(int.contains(draft4) && !draft4.contains(TypeSet::written(&json!(2.0))));
        assert_eq!(
            int.minus(draft4).describe(),
            "\"integer written with a fraction (such as 2.0)\""
        );
        assert_eq!(TypeSet::of(&json!(2.5)), TypeSet::FRACTION);
        assert_eq!(
            TypeSet::from_keyword(Some(&json!(["string", "null"]))).describe(),
            "[\"null\", \"string\"]"
        );
    }
}
