//! Exact decimal numbers: every JSON number a schema or an instance holds,
//! as `±mantissa × 10^exponent` with no trailing zero in the mantissa, so
//! `1`, `1.0` and `10e-1` are one value, integers past 2^53 stay distinct
//! (`9007199254740993` is not `9007199254740992`) and `multipleOf: 0.1`
//! divides `0.3`.
//!
//! serde_json keeps integers that fit 64 bits exactly and reads every other
//! number as the nearest `f64`; a float is taken as the decimal it is
//! spelled with when printed shortest (`1.0000000001`, `1e300`), which is
//! the decimal written for every number of up to 15 significant digits.
//! Arithmetic that would leave 128 bits (`lcm` of wide multiples, a scale
//! shift of hundreds of digits) answers `None`: callers treat that as not
//! known, never as a verdict.

use std::cmp::Ordering;
use std::fmt;

use serde_json::{Number, Value};

/// An exact decimal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Dec {
    negative: bool,
    /// No trailing decimal zero; 0 only for zero (then `exp` is 0 and `negative` false).
    mant: u128,
    exp: i32,
}

impl Dec {
    pub const ZERO: Dec = Dec {
        negative: false,
        mant: 0,
        exp: 0,
    };
    pub const ONE: Dec = Dec {
        negative: false,
        mant: 1,
        exp: 0,
    };

    pub fn new(negative: bool, mant: u128, exp: i32) -> Dec {
        if mant == 0 {
            return Dec::ZERO;
        }
        let (mut m, mut e) = (mant, exp);
        while m % 10 == 0 {
            m /= 10;
            e += 1;
        }
        Dec {
            negative,
            mant: m,
            exp: e,
        }
    }

    pub fn from_i128(i: i128) -> Dec {
        Dec::new(i < 0, i.unsigned_abs(), 0)
    }

    /// The exact value of a JSON number (see the module doc for floats).
    pub fn from_number(n: &Number) -> Option<Dec> {
        if let Some(u) = n.as_u64() {
            return Some(Dec::new(false, u128::from(u), 0));
        }
        if let Some(i) = n.as_i64() {
            return Some(Dec::from_i128(i128::from(i)));
        }
        Dec::from_f64(n.as_f64()?)
    }

    pub fn from_value(v: &Value) -> Option<Dec> {
        v.as_number().and_then(Dec::from_number)
    }

    pub fn from_f64(f: f64) -> Option<Dec> {
        if !f.is_finite() {
            return None;
        }
        // `{:e}` is the shortest round-trip spelling: "1.0000000001e0"
        let text = format!("{f:e}");
        let (digits, exp) = text.split_once('e')?;
        let exp: i32 = exp.parse().ok()?;
        let negative = digits.starts_with('-');
        let digits = digits.trim_start_matches('-');
        let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
        let mant: u128 = format!("{int}{frac}").parse().ok()?;
        Some(Dec::new(
            negative,
            mant,
            exp - i32::try_from(frac.len()).ok()?,
        ))
    }

    pub fn is_zero(self) -> bool {
        self.mant == 0
    }

    pub fn is_negative(self) -> bool {
        self.negative
    }

    pub fn is_integer(self) -> bool {
        self.exp >= 0
    }

    pub fn negated(self) -> Dec {
        if self.is_zero() {
            self
        } else {
            Dec {
                negative: !self.negative,
                ..self
            }
        }
    }

    pub fn abs(self) -> Dec {
        Dec {
            negative: false,
            ..self
        }
    }

    fn digits(m: u128) -> i32 {
        if m == 0 {
            1
        } else {
            m.ilog10() as i32 + 1
        }
    }

    /// Magnitude order of two non-negative values.
    fn cmp_abs(a: Dec, b: Dec) -> Ordering {
        match (a.mant == 0, b.mant == 0) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        let (da, db) = (Dec::digits(a.mant) + a.exp, Dec::digits(b.mant) + b.exp);
        if da != db {
            return da.cmp(&db);
        }
        // same magnitude: compare the mantissas padded to the same number of digits
        let (la, lb) = (Dec::digits(a.mant), Dec::digits(b.mant));
        let (mut ma, mut mb) = (a.mant, b.mant);
        // at most 39 digits each: padding the shorter one to the longer fits
        if la < lb {
            ma *= 10u128.pow((lb - la) as u32);
        } else {
            mb *= 10u128.pow((la - lb) as u32);
        }
        ma.cmp(&mb)
    }

    /// The integer `self × 10^shift` when it is one and fits `i128`.
    pub fn scaled(self, shift: i32) -> Option<i128> {
        let e = self.exp.checked_add(shift)?;
        if e < 0 {
            return None;
        }
        let m = self.mant.checked_mul(10u128.checked_pow(e as u32)?)?;
        let m = i128::try_from(m).ok()?;
        Some(if self.negative { -m } else { m })
    }

    /// The number of decimal places it has (0 for an integer).
    pub fn scale(self) -> i32 {
        (-self.exp).max(0)
    }

    /// `i / 10^scale` as a decimal.
    pub fn from_scaled(i: i128, scale: i32) -> Dec {
        Dec::new(i < 0, i.unsigned_abs(), -scale)
    }

    /// Is `self` an integer multiple of `of` (zero is a multiple of anything)?
    pub fn is_multiple_of(self, of: Dec) -> bool {
        if self.is_zero() {
            return true;
        }
        if of.is_zero() {
            return false;
        }
        // self / of = (ma / mb) × 10^(ea - eb)
        let (ma, mb) = (self.mant, of.mant);
        if self.exp < of.exp {
            // ma has no factor 10, so dividing it by mb × 10^k (k ≥ 1) leaves a fraction
            return false;
        }
        let g = gcd(ma, mb);
        let mut rest = mb / g;
        let mut k = self.exp - of.exp;
        // what is left of mb must divide 10^k
        while rest.is_multiple_of(10) && k > 0 {
            rest /= 10;
            k -= 1;
        }
        while k > 0 && (rest.is_multiple_of(2) || rest.is_multiple_of(5)) {
            if rest.is_multiple_of(2) {
                rest /= 2;
            }
            if rest.is_multiple_of(5) {
                rest /= 5;
            }
            k -= 1;
        }
        rest == 1
    }

    /// The JSON number of this value: an integer when it is one and fits 64
    /// bits, else the nearest float (`None` when it has none).
    pub fn to_number(self) -> Option<Number> {
        if let Some(i) = self.scaled(0) {
            if let Ok(u) = u64::try_from(i) {
                return Some(Number::from(u));
            }
            if let Ok(s) = i64::try_from(i) {
                return Some(Number::from(s));
            }
        }
        let f: f64 = self.to_string().parse().ok()?;
        let n = Number::from_f64(f)?;
        // only if the float is this very value
        (Dec::from_f64(f) == Some(self)).then_some(n)
    }

    /// The float spelling of this value (`2.0` for two), when exact.
    pub fn to_float_number(self) -> Option<Number> {
        let f: f64 = self.to_string().parse().ok()?;
        (Dec::from_f64(f) == Some(self))
            .then(|| Number::from_f64(f))
            .flatten()
    }

    pub fn mul_int(self, k: i128) -> Option<Dec> {
        let m = self.mant.checked_mul(k.unsigned_abs())?;
        Some(Dec::new(self.negative != (k < 0), m, self.exp))
    }

    pub fn checked_add(self, o: Dec) -> Option<Dec> {
        let s = self.scale().max(o.scale());
        let (a, b) = (self.scaled(s)?, o.scaled(s)?);
        Some(Dec::from_scaled(a.checked_add(b)?, s))
    }

    pub fn checked_sub(self, o: Dec) -> Option<Dec> {
        self.checked_add(o.negated())
    }
}

pub fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Ord for Dec {
    fn cmp(&self, o: &Dec) -> Ordering {
        match (self.negative, o.negative) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => Dec::cmp_abs(*self, *o),
            (true, true) => Dec::cmp_abs(*o, *self),
        }
    }
}

impl PartialOrd for Dec {
    fn partial_cmp(&self, o: &Dec) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Dec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negative {
            f.write_str("-")?;
        }
        let digits = self.mant.to_string();
        if self.exp >= 0 {
            if self.exp > 40 {
                return write!(f, "{digits}e{}", self.exp);
            }
            f.write_str(&digits)?;
            for _ in 0..self.exp {
                f.write_str("0")?;
            }
            return Ok(());
        }
        let places = (-self.exp) as usize;
        if places > 40 {
            return write!(f, "{digits}e{}", self.exp);
        }
        if digits.len() > places {
            let (i, frac) = digits.split_at(digits.len() - places);
            write!(f, "{i}.{frac}")
        } else {
            write!(f, "0.{}{digits}", "0".repeat(places - digits.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn d(v: Value) -> Dec {
        Dec::from_value(&v).unwrap()
    }

    #[test]
    fn one_value_however_written() {
        assert_eq!(d(json!(1)), d(json!(1.0)));
        assert_eq!(d(json!(10)), Dec::new(false, 1, 1));
        assert_ne!(d(json!(9007199254740993u64)), d(json!(9007199254740992u64)));
        assert!(d(json!(9007199254740993u64)) > d(json!(9007199254740992u64)));
        assert!(d(json!(-2.5)) < d(json!(-2)));
        assert!(d(json!(0.1)) < d(json!(0.11)));
        assert!(d(json!(1e300)) > d(json!(u64::MAX)));
        assert_eq!(d(json!(-0.0)), Dec::ZERO);
        assert_eq!(d(json!(2.5)).to_string(), "2.5");
        assert_eq!(d(json!(0.0001)).to_string(), "0.0001");
        assert_eq!(d(json!(120)).to_string(), "120");
    }

    #[test]
    fn multiples_are_exact() {
        assert!(d(json!(0.3)).is_multiple_of(d(json!(0.1))));
        assert!(!d(json!(1.0000000001)).is_multiple_of(Dec::ONE));
        assert!(d(json!(10)).is_multiple_of(d(json!(2.5))));
        assert!(!d(json!(10)).is_multiple_of(d(json!(3))));
        assert!(d(json!(0)).is_multiple_of(d(json!(3))));
        assert!(d(json!(1e300)).is_multiple_of(d(json!(0.1))));
        assert!(!d(json!(0.05)).is_multiple_of(d(json!(0.1))));
        assert!(d(json!(4.5)).is_multiple_of(d(json!(1.5))));
        assert!(!d(json!(35)).is_multiple_of(d(json!(1.5))));
        assert!(d(json!(9007199254740993u64)).is_multiple_of(d(json!(3))));
        assert!(d(json!(0.0075)).is_multiple_of(d(json!(0.0001))));
        assert!(!d(json!(0.00751)).is_multiple_of(d(json!(0.0001))));
    }

    #[test]
    fn back_to_json() {
        assert_eq!(Dec::ONE.to_number(), Some(Number::from(1u64)));
        assert_eq!(d(json!(2.5)).to_number(), Number::from_f64(2.5));
        assert_eq!(Dec::ONE.to_float_number(), Number::from_f64(1.0));
        assert_eq!(
            d(json!(0.1)).checked_add(d(json!(0.2))),
            Some(d(json!(0.3)))
        );
    }
}
