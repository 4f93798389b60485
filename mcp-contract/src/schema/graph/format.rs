//! The `format` policy the graph reads.
//!
//! - The formats JSON Schema defines for strings (`date-time`, `email`,
//!   `uuid`, `ipv4`, …) are **asserted**, in every draft, as servers built
//!   on zod, pydantic or `validator` do: a string that is not one is
//!   rejected. Whether a string is one is decided by the same checker the
//!   witness pass validates with (the `jsonschema` crate, with format
//!   assertion on, in the node's draft); a build without that checker
//!   (the `validate` feature off) answers "not known" for every such
//!   string, and the decision says so instead of guessing.
//! - The integer and float widths schemars writes (`int32`, `uint8`,
//!   `float`, …) are the ranges serde enforces ([`width`]).
//! - Any other format (`double`, custom names) is an annotation.

use super::{Dec, Draft};
use crate::schema::numeric::{format_range, is_integer_format, Num};

/// The string formats the policy asserts.
pub const ASSERTED: &[&str] = &[
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "idn-email",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "iri",
    "iri-reference",
    "json-pointer",
    "regex",
    "relative-json-pointer",
    "time",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
];

/// Is `format` one the policy asserts for strings?
pub fn asserted(format: &str) -> bool {
    ASSERTED.contains(&format)
}

/// The range (low, high, integers only) a numeric width format confines
/// numbers to; both ends inclusive (`uint128`'s exclusive 2^128 is read as
/// its last integer).
pub fn width(format: &str) -> Option<(Dec, Dec, bool)> {
    let (lo, hi) = format_range(format)?;
    let dec = |n: Num| match n {
        Num::Int(i) => Some(Dec::from_i128(i)),
        Num::Float(f) => Dec::from_f64(f),
    };
    let (l, mut h) = (dec(lo.value)?, dec(hi.value)?);
    let integral = is_integer_format(format);
    if hi.exclusive && integral {
        h = h.sub(Dec::ONE).unwrap_or(h);
    }
    Some((l, h, integral))
}

/// Is `s` a `format` string in `draft`? `None` when this build cannot tell.
pub fn check(draft: Draft, format: &str, s: &str) -> Option<bool> {
    imp::check(draft, format, s)
}

#[cfg(feature = "validate")]
mod imp {
    use std::cell::RefCell;
    use std::collections::HashMap;

    use serde_json::{json, Value};

    use super::Draft;

    thread_local! {
        static CHECKERS: RefCell<HashMap<(Draft, String), Option<jsonschema::Validator>>> =
            RefCell::new(HashMap::new());
    }

    pub fn check(draft: Draft, format: &str, s: &str) -> Option<bool> {
        CHECKERS.with(|c| {
            let mut c = c.borrow_mut();
            let v = c
                .entry((draft, format.to_string()))
                .or_insert_with(|| {
                    jsonschema::options()
                        .should_validate_formats(true)
                        .build(&json!({"$schema": draft.uri(), "format": format}))
                        .ok()
                })
                .as_ref()?;
            Some(v.is_valid(&Value::String(s.to_string())))
        })
    }
}

#[cfg(not(feature = "validate"))]
mod imp {
    use super::Draft;

    pub fn check(_: Draft, _: &str, _: &str) -> Option<bool> {
        None
    }
}
