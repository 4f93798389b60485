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

/// The string formats the policy asserts (kept where the runtime layer,
/// which links no graph, reads them too).
pub use crate::schema::vocabulary::ASSERTED_FORMATS as ASSERTED;

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
        h = h.checked_sub(Dec::ONE).unwrap_or(h);
    }
    Some((l, h, integral))
}

/// Is the encoding one [`content`] decodes?
pub fn content_known(encoding: Option<&str>) -> bool {
    encoding.is_none_or(|e| e == "base64")
}

/// draft-07's content keywords on a string: `base64` must decode, and
/// `application/json` must then parse. `None` for encodings and media
/// types this reading does not check (they hold).
pub fn content(encoding: Option<&str>, media: Option<&str>, s: &str) -> Option<bool> {
    let bytes = match encoding {
        Some("base64") => match base64(s) {
            Some(b) => b,
            None => return Some(false),
        },
        Some(_) => return None,
        None => s.as_bytes().to_vec(),
    };
    match media {
        Some("application/json") => {
            Some(serde_json::from_slice::<serde_json::Value>(&bytes).is_ok())
        }
        _ => Some(true),
    }
}

/// Standard base64 (RFC 4648, padding required), decoded.
fn base64(s: &str) -> Option<Vec<u8>> {
    let s = s.as_bytes();
    if !s.len().is_multiple_of(4) {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    for (i, chunk) in s.chunks(4).enumerate() {
        let last = i + 1 == s.len() / 4;
        let pad = chunk.iter().rev().take_while(|c| **c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = (n << 6) | val(c)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

/// Is `s` a `format` string in `draft`? `None` when this build cannot tell.
pub fn check(draft: Draft, format: &str, s: &str) -> Option<bool> {
    imp::check(draft, format, s)
}

/// Is `v` a valid schema of `draft` (its meta-schema accepts it)? `None`
/// when this build cannot tell.
pub fn meta(draft: Draft, v: &serde_json::Value) -> Option<bool> {
    imp::meta(draft, v)
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

    pub fn meta(draft: Draft, v: &Value) -> Option<bool> {
        Some(match draft {
            Draft::D4 => jsonschema::draft4::meta::is_valid(v),
            Draft::D6 => jsonschema::draft6::meta::is_valid(v),
            Draft::D7 => jsonschema::draft7::meta::is_valid(v),
            Draft::D2019 => jsonschema::draft201909::meta::is_valid(v),
            Draft::D2020 => jsonschema::draft202012::meta::is_valid(v),
        })
    }
}

#[cfg(not(feature = "validate"))]
mod imp {
    use super::Draft;

    pub fn check(_: Draft, _: &str, _: &str) -> Option<bool> {
        None
    }

    pub fn meta(_: Draft, _: &serde_json::Value) -> Option<bool> {
        None
    }
}
