//! The number widths schemars publishes only through `format`, as serde
//! enforces them when it deserializes: the oracle's extra acceptance rule,
//! and the boundary values the instance generator tries.

use serde_json::{json, Number, Value};

/// Every numeric `format` schemars writes (`int`/`uint` are `isize`/`usize`).
pub const WIDTHS: [&str; 14] = [
    "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "int", "uint",
    "int128", "uint128", "float", "double",
];

/// Integer widths from narrow to wide, signed and unsigned (for narrowing
/// and widening mutations).
pub const SIGNED: [&str; 5] = ["int8", "int16", "int32", "int64", "int128"];
pub const UNSIGNED: [&str; 5] = ["uint8", "uint16", "uint32", "uint64", "uint128"];

/// The inclusive integer range of an integer width.
pub fn int_range(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "int64" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "uint64" | "uint" => (0, u64::MAX.into()),
        "int128" => (i128::MIN, i128::MAX),
        // u128::MAX does not fit an i128; no JSON number serde_json holds comes close
        "uint128" => (0, i128::MAX),
        _ => return None,
    })
}

/// Does serde accept this number for a field of this `format`? Formats that
/// carry no width accept everything.
pub fn serde_accepts(format: &str, n: &Number) -> bool {
    if format == "float" {
        return n.as_f64().is_some_and(|f| f.abs() <= f32::MAX as f64);
    }
    if format == "double" {
        return n.as_f64().is_some_and(f64::is_finite);
    }
    let Some((lo, hi)) = int_range(format) else {
        return true;
    };
    if let Some(i) = n.as_i64() {
        return (lo..=hi).contains(&(i as i128));
    }
    if let Some(u) = n.as_u64() {
        return (lo..=hi).contains(&(u as i128));
    }
    match n.as_f64() {
        Some(f) if f.fract() == 0.0 && f.is_finite() => f >= lo as f64 && f <= hi as f64,
        _ => false,
    }
}

/// A JSON number for an integer, exact when serde_json can hold it exactly.
pub fn int_value(i: i128) -> Value {
    if let Ok(v) = i64::try_from(i) {
        json!(v)
    } else if let Ok(v) = u64::try_from(i) {
        json!(v)
    } else {
        json!(i as f64)
    }
}

/// The values at and just past every width's ends, and a few that only
/// f32/f64 separate: what catches a width narrowed or widened.
pub fn boundary_values() -> Vec<Value> {
    let mut out = vec![];
    for f in WIDTHS {
        if let Some((lo, hi)) = int_range(f) {
            for v in [lo.saturating_sub(1), lo, hi, hi.saturating_add(1)] {
                // beyond u64/i64 serde_json holds only an f64: keep those that are exact
                if i64::try_from(v).is_ok() || u64::try_from(v).is_ok() || v == i128::MIN {
                    out.push(int_value(v));
                }
            }
        }
    }
    out.push(json!(-18446744073709551616.0));
    out.push(json!(18446744073709551616.0));
    out.push(json!(f32::MAX as f64));
    out.push(json!(3.5e38));
    out.push(json!(1e300));
    out.push(json!(9007199254740992u64));
    out.push(json!(9007199254740993u64));
    out.dedup();
    out
}
