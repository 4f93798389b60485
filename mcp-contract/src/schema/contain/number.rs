//! Numbers: a conjunction of bounds, `multipleOf`s (and their negations),
//! integer-ness and excluded values is decided on an exact lattice.
//!
//! Everything is scaled to integers at the largest number of decimal
//! places any of its numbers has (one more when no multiple is required,
//! so that a point strictly between two bounds exists there). The values
//! allowed are then `k·L` (`L` the least common multiple of the required
//! multiples) for `k` in a range; `k·L` is a multiple of a forbidden `m`
//! exactly when `k` is a multiple of `m / gcd(L, m)`, so the allowed `k`
//! are periodic with finitely many points taken out. The range is walked
//! from its end; a whole period (times the excluded points, plus one) seen
//! without an allowed `k` proves there is none.

use serde_json::{Number, Value};

use super::formula::{Atom, Ty};
use super::{check_candidates, excluded_values, positive_values, Ans, Decider};
use crate::schema::graph::decimal::gcd;
use crate::schema::graph::Dec;

/// Lattice points tried before the period argument must decide.
const MAX_TRIES: i128 = 20_000;
/// Decimal places the lattice is built at, at most.
const MAX_SCALE: i32 = 30;

pub(super) fn solve<'a>(cx: &mut Decider<'_, 'a>, atoms: &[(Atom<'a>, bool)]) -> Ans {
    if let Some(values) = positive_values(cx.g, atoms, Ty::Num) {
        return check_candidates(cx, atoms, values);
    }
    // lower and upper bounds as (value, exclusive)
    let mut lo: Option<(Dec, bool)> = None;
    let mut hi: Option<(Dec, bool)> = None;
    let raise = |lo: &mut Option<(Dec, bool)>, b: (Dec, bool)| {
        if lo.is_none_or(|(v, e)| b.0 > v || (b.0 == v && b.1 && !e)) {
            *lo = Some(b);
        }
    };
    let lower = |hi: &mut Option<(Dec, bool)>, b: (Dec, bool)| {
        if hi.is_none_or(|(v, e)| b.0 < v || (b.0 == v && b.1 && !e)) {
            *hi = Some(b);
        }
    };
    let mut required: Vec<Dec> = vec![];
    let mut forbidden: Vec<Dec> = vec![];
    let mut float_spelling = false;
    for (a, s) in atoms {
        match (a, *s) {
            (Atom::Min(m), true) => raise(&mut lo, (*m, false)),
            (Atom::Min(m), false) => lower(&mut hi, (*m, true)),
            (Atom::ExMin(m), true) => raise(&mut lo, (*m, true)),
            (Atom::ExMin(m), false) => lower(&mut hi, (*m, false)),
            (Atom::Max(m), true) => lower(&mut hi, (*m, false)),
            (Atom::Max(m), false) => raise(&mut lo, (*m, true)),
            (Atom::ExMax(m), true) => lower(&mut hi, (*m, true)),
            (Atom::ExMax(m), false) => raise(&mut lo, (*m, false)),
            (Atom::Mult(m), true) => required.push(*m),
            (Atom::Mult(m), false) => forbidden.push(*m),
            (Atom::Int | Atom::IntWhole, true) => required.push(Dec::ONE),
            (Atom::Int, false) => forbidden.push(Dec::ONE),
            // written with a fraction: any value can be spelled so
            (Atom::IntWhole, false) => float_spelling = true,
            _ => {}
        }
    }
    // an empty interval needs no lattice (and no scaling of huge bounds)
    if let (Some((a, ae)), Some((b, be))) = (lo, hi) {
        if a > b || (a == b && (ae || be)) {
            return Ans::Unsat;
        }
    }
    let points: Vec<Dec> = excluded_values(cx.g, atoms, Ty::Num)
        .iter()
        .filter_map(Dec::from_value)
        .collect();
    let all: Vec<Dec> = lo
        .iter()
        .chain(hi.iter())
        .map(|(d, _)| *d)
        .chain(required.iter().copied())
        .chain(forbidden.iter().copied())
        .chain(points.iter().copied())
        .collect();
    let mut scale = all.iter().map(|d| d.scale()).max().unwrap_or(0);
    if required.is_empty() {
        scale += 1;
    }
    if scale > MAX_SCALE {
        return Ans::unknown(format!(
            "numbers with more than {MAX_SCALE} decimal places are not decided"
        ));
    }
    let too_wide = || Ans::unknown("numbers this large are not decided exactly");
    let at = |d: Dec| d.scaled(scale);
    let mut l: i128 = 1;
    for m in &required {
        let Some(m) = at(*m) else { return too_wide() };
        let g = gcd(l.unsigned_abs(), m.unsigned_abs()) as i128;
        let Some(next) = (l / g).checked_mul(m) else {
            return too_wide();
        };
        l = next;
    }
    // k·l is a multiple of m exactly when k is a multiple of q
    let mut periods: Vec<i128> = vec![];
    for m in &forbidden {
        let Some(m) = at(*m) else { return too_wide() };
        let q = m / gcd(l.unsigned_abs(), m.unsigned_abs()) as i128;
        if q == 1 {
            return Ans::Unsat;
        }
        periods.push(q);
    }
    let div_floor = |a: i128, b: i128| a.div_euclid(b);
    let div_ceil = |a: i128, b: i128| -((-a).div_euclid(b));
    let kmin = match lo {
        None => None,
        Some((d, excl)) => {
            let Some(x) = at(d) else { return too_wide() };
            let Some(x) = (if excl { x.checked_add(1) } else { Some(x) }) else {
                return too_wide();
            };
            Some(div_ceil(x, l))
        }
    };
    let kmax = match hi {
        None => None,
        Some((d, excl)) => {
            let Some(x) = at(d) else { return too_wide() };
            let Some(x) = (if excl { x.checked_sub(1) } else { Some(x) }) else {
                return too_wide();
            };
            Some(div_floor(x, l))
        }
    };
    if let (Some(a), Some(b)) = (kmin, kmax) {
        if a > b {
            return Ans::Unsat;
        }
    }
    let mut excluded_k: Vec<i128> = vec![];
    for p in &points {
        if let Some(x) = at(*p) {
            if x % l == 0 {
                excluded_k.push(x / l);
            }
        }
    }
    let allowed = |k: i128| periods.iter().all(|q| k % q != 0) && !excluded_k.contains(&k);
    let make = |k: i128| -> Ans {
        let Some(x) = k.checked_mul(l) else {
            return too_wide();
        };
        let d = Dec::from_scaled(x, scale);
        let n: Option<Number> = if float_spelling {
            d.to_float_number()
        } else {
            d.to_number()
        };
        match n {
            Some(n) => Ans::Sat(Value::Number(n)),
            None => Ans::unknown(format!("the number {d} has no exact JSON spelling here")),
        }
    };
    // the walk: from the lower end up, the upper end down, or out from 0
    let range = match (kmin, kmax) {
        (Some(a), Some(b)) => Some(b - a + 1),
        _ => None,
    };
    let tries = range.map_or(MAX_TRIES, |r| r.min(MAX_TRIES));
    let mut spelled: Option<Ans> = None;
    for t in 0..tries {
        if t % 256 == 0 && !cx.step() {
            return Decider::out_of_steps();
        }
        let k = match (kmin, kmax) {
            (Some(a), _) => a + t,
            (None, Some(b)) => b - t,
            (None, None) => {
                // 0, 1, -1, 2, -2, ... (0 first: the simplest value)
                if t % 2 == 0 {
                    -(t / 2)
                } else {
                    t / 2 + 1
                }
            }
        };
        if allowed(k) {
            match make(k) {
                Ans::Sat(v) => return Ans::Sat(v),
                // (a point a float cannot spell: the next one may do)
                other => spelled = spelled.or(Some(other)),
            }
        }
    }
    if let Some(other) = spelled {
        return other;
    }
    if range.is_some_and(|r| r <= MAX_TRIES) {
        return Ans::Unsat;
    }
    // a whole period (per excluded point) walked without an allowed k: none
    let mut period: i128 = 1;
    for q in &periods {
        let g = gcd(period.unsigned_abs(), q.unsigned_abs()) as i128;
        match (period / g).checked_mul(*q) {
            Some(p) if p <= MAX_TRIES => period = p,
            _ => return Ans::unknown("the `multipleOf` values leave a period too long to walk"),
        }
    }
    let needed = period.saturating_mul(excluded_k.len() as i128 + 1);
    let walked = if kmin.is_none() && kmax.is_none() {
        tries / 2
    } else {
        tries
    };
    if needed <= walked {
        Ans::Unsat
    } else {
        Ans::unknown("the numbers allowed were not found within the walk")
    }
}
