//! Arrays: a conjunction of length bounds, per-position schemas (`prefixItems`,
//! `items` from an index on), `contains` counts, uniqueness and their
//! negations.
//!
//! Positions from `K` on (past every index an atom names) are alike, so a
//! satisfying array longer than `K` plus the positions that carry an
//! obligation (a negated `items`, the items counted for a minimum, a
//! duplicate pair) can lose a tail position and still satisfy everything:
//! lengths up to that bound decide. For one length, each position chooses
//! whether its item is in each counted `contains` schema; the items are
//! independent, so the counts reachable are a dynamic program over the
//! positions, each position's choices decided by recursion on the literals
//! its item must satisfy. Uniqueness is built greedily (each item distinct
//! from those before); where that fails the answer is "not known".

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use super::formula::{Atom, Ty, Values};
use super::{check_candidates, excluded_values, positive_values, Ans, Decider, Lit};
use crate::schema::graph::NodeId;

/// Counted `contains` schemas one clause may hold.
const MAX_COUNTED: usize = 3;
/// Longest array the search builds.
const MAX_LENGTH: u64 = 256;

struct Counted {
    node: NodeId,
    min: u64,
    max: Option<u64>,
}

impl Counted {
    /// Counts past this are alike.
    fn cap(&self) -> u64 {
        match self.max {
            Some(m) => self.min.max(m + 1),
            None => self.min,
        }
    }

    fn ok(&self, n: u64) -> bool {
        n >= self.min && self.max.is_none_or(|m| n <= m)
    }
}

pub(super) fn solve<'a>(cx: &mut Decider<'_, 'a>, atoms: &[(Atom<'a>, bool)]) -> Ans {
    if let Some(values) = positive_values(cx.g, atoms, Ty::Arr) {
        return check_candidates(cx, atoms, values);
    }
    let (mut lo, mut hi) = (0u64, u64::MAX);
    let mut unique = None;
    let mut at: Vec<(usize, NodeId, bool)> = vec![]; // Prefix(i, node) ±
    let mut from: Vec<(usize, NodeId)> = vec![]; // Items(from, node) +
    let mut floating: Vec<(usize, NodeId)> = vec![]; // some item from `from` on is not in node
    let mut counts: BTreeMap<NodeId, (u64, Option<u64>)> = BTreeMap::new();
    for (a, s) in atoms {
        match (a, *s) {
            (Atom::MinItems(n), true) => lo = lo.max(*n),
            (Atom::MinItems(n), false) => {
                if *n == 0 {
                    return Ans::Unsat;
                }
                hi = hi.min(n - 1)
            }
            (Atom::MaxItems(n), true) => hi = hi.min(*n),
            (Atom::MaxItems(n), false) => lo = lo.max(n.saturating_add(1)),
            (Atom::Unique, s) => unique = Some(s),
            (Atom::Prefix(i, n), s) => {
                at.push((*i, *n, s));
                if !s {
                    lo = lo.max(*i as u64 + 1);
                }
            }
            (Atom::Items(f, n), true) => from.push((*f, *n)),
            (Atom::Items(f, n), false) => floating.push((*f, *n)),
            (Atom::CountGe(n, k), s) => {
                let e = counts.entry(*n).or_insert((0, None));
                if s {
                    e.0 = e.0.max(*k);
                } else {
                    // fewer than k
                    if *k == 0 {
                        return Ans::Unsat;
                    }
                    e.1 = Some(e.1.map_or(k - 1, |m| m.min(k - 1)));
                }
            }
            (Atom::CountLe(n, k), s) => {
                let e = counts.entry(*n).or_insert((0, None));
                if s {
                    e.1 = Some(e.1.map_or(*k, |m| m.min(*k)));
                } else {
                    e.0 = e.0.max(k.saturating_add(1));
                }
            }
            _ => {}
        }
    }
    let counted: Vec<Counted> = counts
        .into_iter()
        .map(|(node, (min, max))| Counted { node, min, max })
        .collect();
    if counted.iter().any(|c| c.max.is_some_and(|m| m < c.min)) || lo > hi {
        return Ans::Unsat;
    }
    if counted.len() > MAX_COUNTED {
        return Ans::unknown(format!(
            "more than {MAX_COUNTED} `contains` schemas constrain one array"
        ));
    }
    let excluded = excluded_values(cx.g, atoms, Ty::Arr);
    let k = at
        .iter()
        .map(|(i, _, _)| i + 1)
        .chain(from.iter().map(|(f, _)| *f))
        .chain(floating.iter().map(|(f, _)| *f))
        .max()
        .unwrap_or(0) as u64;
    let needed: u64 = counted.iter().map(|c| c.min).sum();
    let bound = lo
        .max(k + floating.len() as u64 + needed + if unique == Some(false) { 2 } else { 0 })
        .saturating_add(excluded.len() as u64);
    let top = hi.min(bound);
    if top > MAX_LENGTH {
        return Ans::unknown(format!(
            "deciding the array takes lengths past {MAX_LENGTH}"
        ));
    }
    let mut unknown: Option<std::rc::Rc<str>> = None;
    let shape = Shape {
        at: &at,
        from: &from,
        counted: &counted,
    };
    for n in lo..=top {
        let n = n as usize;
        // each floating obligation placed at a position at or after its index
        let mut placements: Vec<Vec<usize>> = vec![vec![]];
        for (f, _) in &floating {
            let mut next = vec![];
            for p in &placements {
                for i in *f..n {
                    let mut q = p.clone();
                    q.push(i);
                    next.push(q);
                }
            }
            placements = next;
            if placements.len() > 512 {
                return Ans::unknown("too many ways to place the array's obligations");
            }
        }
        let pairs: Vec<Option<(usize, usize)>> = if unique == Some(false) {
            (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| Some((i, j))))
                .collect()
        } else {
            vec![None]
        };
        for place in &placements {
            for pair in &pairs {
                if !cx.step() {
                    return Decider::out_of_steps();
                }
                let extras: Vec<(usize, NodeId)> = place
                    .iter()
                    .zip(&floating)
                    .map(|(i, (_, node))| (*i, *node))
                    .collect();
                match one_length(cx, &shape, n, &extras, *pair, unique == Some(true)) {
                    Ans::Sat(v) => {
                        if excluded
                            .iter()
                            .any(|x| super::super::graph::eval::json_eq(x, &v))
                        {
                            unknown.get_or_insert_with(|| {
                                "the array built is one of the values excluded".into()
                            });
                            continue;
                        }
                        return Ans::Sat(v);
                    }
                    Ans::Unsat => {}
                    Ans::Unknown(w) => {
                        unknown.get_or_insert(w);
                    }
                }
            }
        }
    }
    match unknown {
        Some(w) => Ans::Unknown(w),
        None => Ans::Unsat,
    }
}

struct Shape<'s> {
    at: &'s [(usize, NodeId, bool)],
    from: &'s [(usize, NodeId)],
    counted: &'s [Counted],
}

/// Arrays of length `n`: the floating obligations at their positions, and
/// items `pair.1` a copy of `pair.0` when a duplicate is needed.
fn one_length<'a>(
    cx: &mut Decider<'_, 'a>,
    shape: &Shape<'_>,
    n: usize,
    extras: &[(usize, NodeId)],
    pair: Option<(usize, usize)>,
    unique: bool,
) -> Ans {
    // the literals of each position's item
    let mut items: Vec<Vec<Lit<'a>>> = (0..n)
        .map(|i| {
            let mut lits: Vec<Lit<'a>> = vec![];
            for (j, node, s) in shape.at {
                if *j == i {
                    lits.push(Lit::Node(*node, *s));
                }
            }
            for (f, node) in shape.from {
                if i >= *f {
                    lits.push(Lit::Node(*node, true));
                }
            }
            for (j, node) in extras {
                if *j == i {
                    lits.push(Lit::Node(*node, false));
                }
            }
            lits
        })
        .collect();
    let mut weight = vec![1u64; n];
    let mut copy_of: Vec<Option<usize>> = vec![None; n];
    if let Some((p, q)) = pair {
        let moved = std::mem::take(&mut items[q]);
        items[p].extend(moved);
        weight[p] = 2;
        weight[q] = 0;
        copy_of[q] = Some(p);
    }
    let c = shape.counted.len();
    // each position's choices: which counted schemas its item is in
    let mut options: Vec<Vec<(usize, Ans)>> = vec![];
    for i in 0..n {
        if weight[i] == 0 {
            options.push(vec![]);
            continue;
        }
        let mut here = vec![];
        for m in 0..(1usize << c) {
            let mut lits = items[i].clone();
            for (j, ct) in shape.counted.iter().enumerate() {
                lits.push(Lit::Node(ct.node, m & (1 << j) != 0));
            }
            let ans = cx.sat(lits);
            if !matches!(ans, Ans::Unsat) {
                here.push((m, ans));
            }
        }
        if here.is_empty() {
            return Ans::Unsat;
        }
        options.push(here);
    }
    // counts reachable position by position (capped), with how they were reached
    type Counts = Vec<u64>;
    let caps: Vec<u64> = shape.counted.iter().map(Counted::cap).collect();
    let mut layer: HashMap<Counts, (bool, Vec<usize>)> = HashMap::new();
    layer.insert(vec![0; c], (true, vec![]));
    for i in 0..n {
        if weight[i] == 0 {
            continue;
        }
        let mut next: HashMap<Counts, (bool, Vec<usize>)> = HashMap::new();
        for (counts, (sure, path)) in &layer {
            for (oi, (m, ans)) in options[i].iter().enumerate() {
                let mut nc = counts.clone();
                for j in 0..c {
                    if m & (1 << j) != 0 {
                        nc[j] = (nc[j] + weight[i]).min(caps[j]);
                    }
                }
                let s = *sure && matches!(ans, Ans::Sat(_));
                let keep = match next.get(&nc) {
                    None => true,
                    Some((old, _)) => s && !old,
                };
                if keep {
                    let mut p = path.clone();
                    p.push(oi);
                    next.insert(nc, (s, p));
                }
            }
        }
        layer = next;
        if !cx.step() {
            return Decider::out_of_steps();
        }
    }
    let good = |counts: &Counts| shape.counted.iter().zip(counts).all(|(ct, n)| ct.ok(*n));
    let mut maybe = false;
    let mut chosen = None;
    for (counts, (sure, path)) in &layer {
        if good(counts) {
            if *sure {
                chosen = Some(path.clone());
                break;
            }
            maybe = true;
        }
    }
    let Some(path) = chosen else {
        return if maybe {
            Ans::unknown("whether some item of the array can be built is not decided")
        } else {
            Ans::Unsat
        };
    };
    // the items: each position's witness (distinct from the others when unique)
    let mut out: Vec<Value> = Vec::with_capacity(n);
    let mut next_choice = path.into_iter();
    let mut chosen_m: Vec<usize> = vec![0; n];
    for i in 0..n {
        if let Some(p) = copy_of[i] {
            let v = out[p].clone();
            out.push(v);
            continue;
        }
        let Some(oi) = next_choice.next() else {
            return Ans::unknown("the array's items could not be assembled");
        };
        let (m, ans) = &options[i][oi];
        chosen_m[i] = *m;
        let Ans::Sat(mut v) = ans.clone() else {
            return Ans::unknown("the array's items could not be assembled");
        };
        if unique
            && out
                .iter()
                .any(|x| super::super::graph::eval::json_eq(x, &v))
        {
            let mut lits = items[i].clone();
            for (j, ct) in shape.counted.iter().enumerate() {
                lits.push(Lit::Node(ct.node, m & (1 << j) != 0));
            }
            lits.push(Lit::Atom(Atom::In(Values::new(out.clone())), false));
            match cx.sat(lits) {
                Ans::Sat(w) => v = w,
                _ => {
                    return Ans::unknown(
                        "distinct items for `uniqueItems` were not found (the search builds them one by one)",
                    )
                }
            }
        }
        out.push(v);
    }
    Ans::Sat(Value::Array(out))
}
