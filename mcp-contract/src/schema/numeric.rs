//! Exact numbers for bounds, and the value ranges integer and float
//! `format`s carry.
//!
//! schemars says `u8`…`u128`, `i8`…`i128`, `usize`/`isize` and `f32` only
//! through `format` (`uint8`, `int64`, `uint`, `float`, …; unsigned ones
//! also get `minimum: 0`), and serde enforces the range when it
//! deserializes: a `u32` field rejects 4294967296. So a format is a range
//! for the comparator. Bounds compare exactly: `9007199254740993` and
//! `9007199254740992` are different bounds although they are the same `f64`.

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Number, Value};

/// A JSON number, exactly: integers as `i128` (every `i64`/`u64`), the rest as `f64`.
#[derive(Debug, Clone, Copy)]
pub enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    pub fn from_number(n: &Number) -> Num {
        if let Some(i) = n.as_i64() {
            Num::Int(i as i128)
        } else if let Some(u) = n.as_u64() {
            Num::Int(u as i128)
        } else {
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    pub fn from_value(v: &Value) -> Option<Num> {
        v.as_number().map(Num::from_number)
    }

    /// Total order on finite values (JSON has no NaN or infinities).
    pub fn total_cmp(&self, other: &Num) -> Ordering {
        match (*self, *other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(&b),
            (Num::Float(a), Num::Float(b)) => a.total_cmp(&b),
            (Num::Int(a), Num::Float(b)) => cmp_int_float(a, b),
            (Num::Float(a), Num::Int(b)) => cmp_int_float(b, a).reverse(),
        }
    }

    /// Is `self` an integer multiple (>= 1) of `of`? Exact: a float is the
    /// decimal it was written as (its shortest round-trip spelling), so
    /// `1.0000000001` is no multiple of `1`. Numbers whose decimals do not
    /// fit 128 bits at a common scale are answered `false`, which callers
    /// read as "not shown to be a multiple" (the conservative side).
    pub fn is_multiple_of(self, of: Num) -> bool {
        let (Some((ma, ea)), Some((mb, eb))) = (self.decimal(), of.decimal()) else {
            return false;
        };
        let e = ea.min(eb);
        let scale = |m: i128, by: i32| {
            10i128
                .checked_pow(u32::try_from(by).ok()?)
                .and_then(|p| m.checked_mul(p))
        };
        match (scale(ma, ea - e), scale(mb, eb - e)) {
            (Some(a), Some(b)) => b != 0 && a % b == 0 && a / b >= 1,
            _ => false,
        }
    }

    /// The number as `mantissa × 10^exponent`, exactly as written (floats
    /// by their shortest round-trip spelling); `None` past 128 bits.
    pub fn decimal(self) -> Option<(i128, i32)> {
        match self {
            Num::Int(i) => Some((i, 0)),
            Num::Float(f) if !f.is_finite() => None,
            Num::Float(f) => {
                // `{:e}` is the shortest round-trip spelling: "1.0000000001e0"
                let text = format!("{f:e}");
                let (digits, exp) = text.split_once('e')?;
                let exp: i32 = exp.parse().ok()?;
                let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
                let mantissa: i128 = format!("{int}{frac}").parse().ok()?;
                Some((mantissa, exp - i32::try_from(frac.len()).ok()?))
            }
        }
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

fn cmp_int_float(a: i128, b: f64) -> Ordering {
    const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if b.is_nan() {
        return Ordering::Less;
    }
    if b >= TWO_127 {
        return Ordering::Less;
    }
    if b < -TWO_127 {
        return Ordering::Greater;
    }
    let fl = b.floor();
    // |fl| < 2^127: exact as i128
    let fi = fl as i128;
    match a.cmp(&fi) {
        Ordering::Equal if b > fl => Ordering::Less,
        o => o,
    }
}

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        self.total_cmp(other) == Ordering::Equal
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) if x.fract() == 0.0 && x.abs() < 1e15 => write!(f, "{}", *x as i64),
            Num::Float(x) => write!(f, "{x}"),
        }
    }
}

/// One end of a range: the value and whether it is exclusive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    pub value: Num,
    pub exclusive: bool,
}

/// The range a numeric `format` confines values to, as serde enforces it
/// when it deserializes the Rust type schemars derived the format from:
/// (lower, upper). `None` for formats that carry no range (`double`, and
/// any format that is not a number width).
/// Is `format` one of the integer widths (serde then rejects any fraction,
/// even where the schema says `type: number`)?
pub fn is_integer_format(format: &str) -> bool {
    format_range(format).is_some_and(|(lo, _)| matches!(lo.value, Num::Int(_)))
}

pub fn format_range(format: &str) -> Option<(Bound, Bound)> {
    const TWO_128: f64 = 340_282_366_920_938_463_463_374_607_431_768_211_456.0;
    let inc = |v: i128| Bound {
        value: Num::Int(v),
        exclusive: false,
    };
    Some(match format {
        "int8" => (inc(i8::MIN.into()), inc(i8::MAX.into())),
        "uint8" => (inc(0), inc(u8::MAX.into())),
        "int16" => (inc(i16::MIN.into()), inc(i16::MAX.into())),
        "uint16" => (inc(0), inc(u16::MAX.into())),
        "int32" => (inc(i32::MIN.into()), inc(i32::MAX.into())),
        "uint32" => (inc(0), inc(u32::MAX.into())),
        "int64" | "int" => (inc(i64::MIN.into()), inc(i64::MAX.into())),
        "uint64" | "uint" => (inc(0), inc(u64::MAX.into())),
        "int128" => (inc(i128::MIN), inc(i128::MAX)),
        "uint128" => (
            inc(0),
            Bound {
                value: Num::Float(TWO_128),
                exclusive: true,
            },
        ),
        // serde turns a larger f64 into infinity: the value silently means something else
        "float" => (
            Bound {
                value: Num::Float(-(f32::MAX as f64)),
                exclusive: false,
            },
            Bound {
                value: Num::Float(f32::MAX as f64),
                exclusive: false,
            },
        ),
        _ => return None,
    })
}

/// Is `format` one whose meaning for numbers is a range (see [`format_range`]),
/// or `double` (the full range)?
pub fn is_width_format(format: &str) -> bool {
    format == "double" || format_range(format).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers_beyond_two_to_the_53_stay_distinct() {
        let a = Num::from_value(&json!(9007199254740993u64)).unwrap();
        let b = Num::from_value(&json!(9007199254740992u64)).unwrap();
        assert_eq!(a.total_cmp(&b), Ordering::Greater);
        assert_eq!(
            Num::Int(9007199254740993).total_cmp(&Num::Float(9007199254740992.0)),
            Ordering::Greater
        );
        assert_eq!(Num::Int(3).total_cmp(&Num::Float(2.5)), Ordering::Greater);
        assert_eq!(Num::Int(2).total_cmp(&Num::Float(2.5)), Ordering::Less);
        assert_eq!(Num::Int(-3).total_cmp(&Num::Float(-2.5)), Ordering::Less);
        assert_eq!(Num::Int(5), Num::Float(5.0));
    }

    #[test]
    fn multiples_are_exact_decimals() {
        let f = |x: f64| Num::Float(x);
        assert!(!f(1.0000000001).is_multiple_of(Num::Int(1)));
        assert!(f(0.3).is_multiple_of(f(0.1)));
        assert!(f(1.5).is_multiple_of(f(0.5)));
        assert!(!f(1.5).is_multiple_of(f(0.2)));
        assert!(Num::Int(10).is_multiple_of(f(2.5)));
        assert!(Num::Int(9007199254740993).is_multiple_of(Num::Int(3)));
        assert!(!Num::Int(9007199254740993).is_multiple_of(Num::Int(2)));
        assert_eq!(f(1.0000000001).decimal(), Some((10000000001, -10)));
        assert_eq!(f(-2.5e-7).decimal(), Some((-25, -8)));
        assert_eq!(f(1e300).decimal(), Some((1, 300)));
        assert!(!f(1e300).is_multiple_of(f(0.1)));
    }

    #[test]
    fn widths() {
        let (lo, hi) = format_range("uint32").unwrap();
        assert_eq!(lo.value, Num::Int(0));
        assert_eq!(hi.value, Num::Int(4_294_967_295));
        assert!(format_range("double").is_none());
        assert!(is_width_format("double"));
        assert!(format_range("email").is_none());
    }
}
