//! Mutations of how numbers are written, that keep or change what they
//! mean: an integral number respelled (`1` ↔ `1.0`, in `enum`, `const`,
//! bounds and `multipleOf`); an integer-only node's exclusive bound made
//! the inclusive one it allows (`exclusiveMinimum: n` ↔ `minimum: n+1`, and
//! draft-04's `minimum: n, exclusiveMinimum: true` ↔ `minimum: n+1`); a
//! bound or a listed value past 2^53 moved by one (equal as f64, not as
//! numbers); `multipleOf` moved among 0.1, 0.01, 1 and 1.0000000001 (read
//! as exact decimals: finer widens, coarser narrows, 1 ↔ 1.0000000001 both).

use serde_json::{json, Map, Value};

use super::super::rng::Rng;
use super::super::widths::int_value;
use super::dialects::draft_of;
use super::{as_int, is_numeric_node, node, Effect, Kind};

pub fn kinds() -> Vec<Kind> {
    use Effect::*;
    vec![
        Kind {
            name: "number.integral-respell",
            effect: Same,
            apply: integral_respell,
        },
        Kind {
            name: "number.exclusive-respell",
            effect: Same,
            apply: exclusive_respell,
        },
        Kind {
            name: "number.past-2^53-tighten",
            effect: Narrow,
            apply: |d, p, r| past_2_53(d, p, r, true),
        },
        Kind {
            name: "number.past-2^53-relax",
            effect: Widen,
            apply: |d, p, r| past_2_53(d, p, r, false),
        },
        Kind {
            name: "number.past-2^53-value",
            effect: Mixed,
            apply: past_2_53_value,
        },
        Kind {
            name: "multipleOf.finer",
            effect: Widen,
            apply: |d, p, r| multiple_move(d, p, r, Move::Finer),
        },
        Kind {
            name: "multipleOf.coarser",
            effect: Narrow,
            apply: |d, p, r| multiple_move(d, p, r, Move::Coarser),
        },
        Kind {
            name: "multipleOf.skew",
            effect: Mixed,
            apply: |d, p, r| multiple_move(d, p, r, Move::Skew),
        },
    ]
}

const TWO_53: i128 = 1 << 53;
const BOUNDS: [&str; 4] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

/// `v` written the other way: an integer as the float it equals (`1.0`),
/// an integral float as the integer (exact below 2^53 only).
fn respelled(v: &Value) -> Option<Value> {
    if let Some(i) = as_int(v) {
        return (i.abs() < TWO_53).then(|| json!(i as f64));
    }
    let f = v.as_f64()?;
    (f.fract() == 0.0 && f.abs() < TWO_53 as f64).then(|| int_value(f as i128))
}

fn integral_respell(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    // (keyword, index in `enum`) of every integral number
    let mut places: Vec<(&str, Option<usize>)> = vec![];
    for k in BOUNDS.iter().copied().chain(["multipleOf", "const"]) {
        if m.get(k).and_then(respelled).is_some() {
            places.push((k, None));
        }
    }
    if let Some(Value::Array(vals)) = m.get("enum") {
        for (i, v) in vals.iter().enumerate() {
            if respelled(v).is_some() {
                places.push(("enum", Some(i)));
            }
        }
    }
    if places.is_empty() {
        return false;
    }
    let (k, i) = *rng.pick(&places);
    let slot = match i {
        Some(i) => &mut m.get_mut(k).unwrap()[i],
        None => m.get_mut(k).unwrap(),
    };
    *slot = respelled(slot).unwrap();
    true
}

/// `type` admits numbers only as integers.
fn integer_only(m: &Map<String, Value>) -> bool {
    match m.get("type") {
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => {
            ts.iter().any(|t| t == "integer") && !ts.iter().any(|t| t == "number")
        }
        _ => false,
    }
}

/// An exact integer, written as an integer or an integral float.
fn int_of(v: &Value) -> Option<i128> {
    as_int(v).or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < TWO_53 as f64)
            .map(|f| f as i128)
    })
}

fn exclusive_respell(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let draft04 = draft_of(doc) == "draft-04";
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !integer_only(m) {
        return false;
    }
    let (inclusive, exclusive, step) = *rng.pick(&[
        ("minimum", "exclusiveMinimum", 1i128),
        ("maximum", "exclusiveMaximum", -1),
    ]);
    if draft04 {
        // `minimum: n, exclusiveMinimum: true` is `minimum: n+1`
        let Some(n) = m.get(inclusive).and_then(int_of) else {
            return false;
        };
        if m.get(exclusive) == Some(&json!(true)) {
            m.remove(exclusive);
            m.insert(inclusive.into(), int_value(n + step));
        } else {
            m.insert(inclusive.into(), int_value(n - step));
            m.insert(exclusive.into(), json!(true));
        }
        return true;
    }
    match (
        m.get(inclusive).and_then(int_of),
        m.get(exclusive).and_then(int_of),
    ) {
        (None, Some(n)) => {
            m.remove(exclusive);
            m.insert(inclusive.into(), int_value(n + step));
            true
        }
        (Some(n), None) if m.get(exclusive).is_none() => {
            m.remove(inclusive);
            m.insert(exclusive.into(), int_value(n - step));
            true
        }
        _ => false,
    }
}

/// Moves a bound at or past 2^53 (either sign) by one, inward (`tighten`)
/// or outward.
fn past_2_53(doc: &mut Value, ptr: &str, rng: &mut Rng, tighten: bool) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let big: Vec<(&str, i128)> = BOUNDS
        .iter()
        .filter_map(|k| Some((*k, as_int(m.get(*k)?)?)))
        .filter(|(_, v)| v.abs() >= TWO_53 - 1)
        .collect();
    if big.is_empty() {
        return false;
    }
    let (k, v) = *rng.pick(&big);
    let lower = k.contains("inimum");
    let up = lower == tighten;
    m.insert(k.into(), int_value(if up { v + 1 } else { v - 1 }));
    true
}

fn past_2_53_value(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    let step = [1i128, -1][rng.below(2)];
    if let Some(v) = m.get("const").and_then(as_int) {
        if v.abs() >= TWO_53 - 1 {
            m.insert("const".into(), int_value(v + step));
            return true;
        }
    }
    let Some(Value::Array(vals)) = m.get_mut("enum") else {
        return false;
    };
    let big: Vec<usize> = (0..vals.len())
        .filter(|i| as_int(&vals[*i]).is_some_and(|v| v.abs() >= TWO_53 - 1))
        .collect();
    if big.is_empty() {
        return false;
    }
    let i = *rng.pick(&big);
    let moved = int_value(as_int(&vals[i]).unwrap() + step);
    if vals.contains(&moved) {
        return false;
    }
    vals[i] = moved;
    true
}

/// A number as the exact decimal it is written as: `mantissa / 10^scale`.
pub fn decimal(v: &Value) -> Option<(i128, u32)> {
    let text = v.as_number()?.to_string();
    if text.contains(['e', 'E']) {
        return None;
    }
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mantissa: i128 = format!("{whole}{frac}").parse().ok()?;
    Some((mantissa, frac.len() as u32))
}

/// The number `mantissa / 10^scale`, written as that decimal.
pub fn decimal_value(mantissa: i128, scale: u32) -> Value {
    if scale == 0 {
        return int_value(mantissa);
    }
    let sign = if mantissa < 0 { "-" } else { "" };
    let digits = format!(
        "{:0>width$}",
        mantissa.unsigned_abs(),
        width = scale as usize + 1
    );
    let (w, f) = digits.split_at(digits.len() - scale as usize);
    serde_json::from_str(&format!("{sign}{w}.{f}")).unwrap_or(json!(0))
}

/// Is `b` an integer multiple of `a` (both exact decimals)?
pub fn divides(a: (i128, u32), b: (i128, u32)) -> bool {
    let (am, sa) = a;
    let (bm, sb) = b;
    let (Some(num), Some(den)) = (
        10i128.checked_pow(sa).and_then(|p| bm.checked_mul(p)),
        10i128.checked_pow(sb).and_then(|p| am.checked_mul(p)),
    ) else {
        return false;
    };
    den != 0 && num % den == 0
}

#[derive(Clone, Copy, PartialEq)]
enum Move {
    /// to a value the old one is a multiple of (more values pass)
    Finer,
    /// to a multiple of the old value (fewer pass)
    Coarser,
    /// to a value neither divides (some values gained, some lost)
    Skew,
}

fn multiple_move(doc: &mut Value, ptr: &str, rng: &mut Rng, mv: Move) -> bool {
    let Some(m) = node(doc, ptr) else {
        return false;
    };
    if !is_numeric_node(m) && !m.contains_key("multipleOf") {
        return false;
    }
    let Some(old) = m.get("multipleOf").cloned() else {
        return false;
    };
    let Some(o) = decimal(&old) else {
        return false;
    };
    let mut candidates = vec![json!(0.1), json!(0.01), json!(1), json!(1.0000000001)];
    if mv == Move::Coarser {
        // twice and ten times the old value, when the set holds no multiple of it
        candidates.push(decimal_value(o.0 * 2, o.1));
        candidates.push(if o.1 > 0 {
            decimal_value(o.0, o.1 - 1)
        } else {
            decimal_value(o.0 * 10, 0)
        });
    }
    let fits: Vec<Value> = candidates
        .into_iter()
        .filter_map(|c| Some((decimal(&c)?, c)))
        .filter(|(c, _)| !(divides(*c, o) && divides(o, *c)))
        .filter(|(c, _)| match mv {
            Move::Finer => divides(*c, o),
            Move::Coarser => divides(o, *c),
            Move::Skew => !divides(*c, o) && !divides(o, *c),
        })
        .map(|(_, v)| v)
        .collect();
    if fits.is_empty() {
        return false;
    }
    m.insert("multipleOf".into(), rng.pick(&fits).clone());
    true
}
