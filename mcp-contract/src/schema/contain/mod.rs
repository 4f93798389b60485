//! Containment decided, not guessed: does every value one node accepts
//! pass another?
//!
//! `A ⊆ B` holds exactly when no value satisfies `A ∧ ¬B`, so the decision
//! is a satisfiability question over a conjunction of *signed nodes*
//! ([`Lit`]), answered with one of three outcomes ([`Decision`]):
//! contained (no such value exists: proven), not contained (with the value,
//! taken from the search and re-checked by the exact evaluator on both
//! sides), or not known (with the keyword and why). There is no fourth.
//!
//! How a conjunction is decided:
//! 1. Literals are normalised: a node with its own negation, or with the
//!    negation of a node of equal structure ([`facts::same`]), is
//!    unsatisfiable; `true`/`false` nodes fold away.
//! 2. Finite sets are checked value by value: when a positive literal
//!    accepts only values of a known list (`const`, `enum`, a null- or
//!    boolean-only type, alternatives of those), each value is run through
//!    the evaluator against every literal. Exact.
//! 3. Otherwise the question splits by JSON type (null, boolean, number,
//!    string, array, object): each literal restricted to the type is a
//!    formula over that type's atoms ([`formula`]); a depth-first search
//!    over its disjunctions (smallest first) reaches conjunctions of signed
//!    atoms, each decided by the type's solver: numbers as exact intervals
//!    with `multipleOf` lattices ([`number`]), strings as the product of
//!    pattern automata with length and exclusions ([`string`]), arrays by
//!    length, positions and `contains` counts ([`array`]), objects by the
//!    names that must, may or must not be present and the values each must
//!    take ([`object`]); the parts of a value are decided by recursion on
//!    the literals they must satisfy.
//!
//! Every satisfiable answer carries a concrete value, and it is verified
//! against every literal by the evaluator before it is believed; an
//! unsatisfiable answer is given only where the solver's reasoning is
//! complete for the atoms at hand, else the answer is "not known".
//!
//! **Memo and cycles.** Conjunctions are memoized by their sorted literal
//! set (so by (old node, new node, direction, context): the direction is
//! the sign, the context the other literals). A conjunction met again
//! while it is being decided is assumed unsatisfiable — sound for finite
//! JSON values: a smallest witness cannot contain a witness of itself —
//! and what was decided under such an assumption is memoized only once
//! the assumption's own frame has been decided. **Bound**: a decision
//! takes at most [`MAX_STEPS`] solver steps and nests at most
//! [`MAX_NESTING`] conjunctions deep; past either it answers "not known",
//! naming the limit. Within them, each distinct conjunction is decided
//! once, so recursive schemas cost one decision per pair of nodes reached
//! (times the handful of sibling constraints in scope).

mod array;
pub mod atoms;
pub mod formula;
mod number;
mod object;
mod string;

use std::collections::HashMap;
use std::rc::Rc;

use serde_json::Value;

use crate::schema::graph::eval::{accepts, Outcome, Site};
use crate::schema::graph::facts;
use crate::schema::graph::{Body, Graph, NodeId};
use crate::schema::types::TypeSet;
use formula::{Atom, Restrictions, Ty, F};

/// Solver steps one decision may take (formula leaves, values checked).
pub const MAX_STEPS: usize = 200_000;
/// Conjunctions nested inside one another (parts of parts of the value).
pub const MAX_NESTING: usize = 48;

/// What the decision says about `sub ⊆ sup`.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Proven: every value `sub` accepts, `sup` accepts.
    Contained,
    /// A value `sub` accepts and `sup` rejects, with where `sup` rejects it.
    NotContained { witness: Value, site: Option<Site> },
    /// Neither was established: why (naming the keyword and place).
    Unknown(String),
}

/// A signed constraint on one value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lit<'a> {
    /// Accepted (`true`) or rejected (`false`) by the node.
    Node(NodeId, bool),
    /// The atom holds (`true`) or not.
    Atom(Atom<'a>, bool),
    /// Of one of these JSON types.
    Only(u8),
}

/// The answer for one conjunction.
#[derive(Debug, Clone)]
pub enum Ans {
    Sat(Value),
    Unsat,
    Unknown(Rc<str>),
}

impl Ans {
    fn unknown(why: impl Into<Rc<str>>) -> Ans {
        Ans::Unknown(why.into())
    }
}

/// Decides containment questions over one graph (both sides of a
/// comparison compiled into it), sharing what it learns between them.
pub struct Decider<'g, 'a> {
    pub(crate) g: &'g Graph<'a>,
    restrictions: Restrictions<'a>,
    memo: HashMap<Vec<Lit<'a>>, Ans>,
    stack: HashMap<Vec<Lit<'a>>, usize>,
    depth: usize,
    /// The lowest open frame a result so far assumed unsatisfiable.
    open_floor: usize,
    steps: usize,
}

fn mask(t: TypeSet) -> u8 {
    Ty::ALL
        .iter()
        .enumerate()
        .filter(|(_, ty)| t.overlaps(ty.set()))
        .fold(0, |m, (i, _)| m | (1 << i))
}

fn bit(ty: Ty) -> u8 {
    1 << Ty::ALL.iter().position(|t| *t == ty).unwrap_or(0)
}

impl<'g, 'a> Decider<'g, 'a> {
    pub fn new(g: &'g Graph<'a>) -> Decider<'g, 'a> {
        Decider {
            g,
            restrictions: Restrictions::default(),
            memo: HashMap::new(),
            stack: HashMap::new(),
            depth: 0,
            open_floor: usize::MAX,
            steps: 0,
        }
    }

    /// Does every value of the JSON types `only` that `sub` accepts pass `sup`?
    pub fn contained(&mut self, sub: NodeId, sup: NodeId, only: TypeSet) -> Decision {
        if facts::same(self.g, sub, sup) {
            return Decision::Contained;
        }
        self.steps = 0;
        let lits = vec![
            Lit::Node(sub, true),
            Lit::Node(sup, false),
            Lit::Only(mask(only)),
        ];
        match self.sat(lits) {
            Ans::Unsat => Decision::Contained,
            Ans::Unknown(w) => Decision::Unknown(w.to_string()),
            Ans::Sat(v) => match (accepts(self.g, sub, &v), accepts(self.g, sup, &v)) {
                (Outcome::Valid, Outcome::Invalid(site)) => Decision::NotContained {
                    witness: v,
                    site: Some(site),
                },
                _ => {
                    Decision::Unknown("the value the search built did not hold when checked".into())
                }
            },
        }
    }

    /// Is there a value satisfying every literal?
    pub fn sat(&mut self, lits: Vec<Lit<'a>>) -> Ans {
        let Some(lits) = self.normalise(lits) else {
            return Ans::Unsat;
        };
        if let Some(a) = self.memo.get(&lits) {
            return a.clone();
        }
        if let Some(&frame) = self.stack.get(&lits) {
            self.open_floor = self.open_floor.min(frame);
            return Ans::Unsat;
        }
        if self.depth >= MAX_NESTING {
            return Ans::unknown(format!(
                "the values nest deeper than the decision follows ({MAX_NESTING} levels)"
            ));
        }
        let frame = self.depth;
        self.depth += 1;
        self.stack.insert(lits.clone(), frame);
        let saved = std::mem::replace(&mut self.open_floor, usize::MAX);
        let mut ans = self.solve(&lits);
        if let Ans::Sat(v) = &ans {
            if let Some(bad) = self.verify(&lits, v) {
                ans = bad;
            }
        }
        self.stack.remove(&lits);
        self.depth -= 1;
        let floor = self.open_floor;
        // a value is a value whatever was assumed; "none" only once the
        // frames it assumed of are decided
        if floor >= frame || matches!(ans, Ans::Sat(_)) {
            self.memo.insert(lits, ans.clone());
        }
        self.open_floor = saved.min(if floor < frame { floor } else { usize::MAX });
        ans
    }

    /// Spends one step; false when the budget is gone.
    fn step(&mut self) -> bool {
        self.steps += 1;
        self.steps <= MAX_STEPS
    }

    fn out_of_steps() -> Ans {
        Ans::unknown(format!(
            "the decision stopped at its limit of {MAX_STEPS} steps"
        ))
    }

    /// Sorted, folded literals; `None` when they contradict on their face.
    fn normalise(&self, lits: Vec<Lit<'a>>) -> Option<Vec<Lit<'a>>> {
        let mut out: Vec<Lit<'a>> = Vec::with_capacity(lits.len());
        let mut only = u8::MAX >> 2;
        for l in lits {
            match l {
                Lit::Node(n, pos) => match &self.g.node(n).body {
                    Body::Bool(b) if *b == pos => {}
                    Body::Bool(_) => return None,
                    _ => out.push(Lit::Node(n, pos)),
                },
                Lit::Only(m) => only &= m,
                other => out.push(other),
            }
        }
        if only == 0 {
            return None;
        }
        if only != u8::MAX >> 2 {
            out.push(Lit::Only(only));
        }
        out.sort();
        out.dedup();
        let pos: Vec<NodeId> = out
            .iter()
            .filter_map(|l| match l {
                Lit::Node(n, true) => Some(*n),
                _ => None,
            })
            .collect();
        for l in &out {
            match l {
                Lit::Node(n, false)
                    if pos.iter().any(|p| {
                        p == n
                            || (self.g.hash(*p) == self.g.hash(*n) && facts::same(self.g, *p, *n))
                    }) =>
                {
                    return None;
                }
                Lit::Atom(a, s) if out.binary_search(&Lit::Atom(a.clone(), !s)).is_ok() => {
                    return None;
                }
                _ => {}
            }
        }
        Some(out)
    }

    /// Does `v` satisfy every literal? `None` when it does; else the answer to give.
    fn verify(&self, lits: &[Lit<'a>], v: &Value) -> Option<Ans> {
        match self.holds_all(lits, v) {
            Some(true) => None,
            Some(false) => Some(Ans::unknown(
                "the value the search built did not hold when checked",
            )),
            None => Some(Ans::unknown(self.why_unknown(lits, v))),
        }
    }

    fn why_unknown(&self, lits: &[Lit<'a>], v: &Value) -> String {
        for l in lits {
            if let Lit::Node(n, _) = l {
                if let Outcome::Unknown(w) = accepts(self.g, *n, v) {
                    return w;
                }
            }
        }
        "a value was found, but whether it holds is not decided".into()
    }

    /// `Some(true)`: `v` satisfies every literal; `Some(false)`: one fails.
    pub(crate) fn holds_all(&self, lits: &[Lit<'a>], v: &Value) -> Option<bool> {
        let mut known = true;
        for l in lits {
            let r = match l {
                Lit::Node(n, pos) => accepts(self.g, *n, v).known().map(|b| b == *pos),
                Lit::Atom(a, pos) => atoms::holds(self.g, a, v).map(|b| b == *pos),
                Lit::Only(m) => Some(
                    Ty::ALL
                        .iter()
                        .any(|t| m & bit(*t) != 0 && t.set().overlaps(TypeSet::of(v))),
                ),
            };
            match r {
                Some(false) => return Some(false),
                None => known = false,
                Some(true) => {}
            }
        }
        known.then_some(true)
    }

    /// Tries each candidate value: the first that satisfies every literal.
    fn try_values<'v>(
        &mut self,
        lits: &[Lit<'a>],
        values: impl IntoIterator<Item = &'v Value>,
    ) -> Ans {
        let mut unknown: Option<Rc<str>> = None;
        for v in values {
            if !self.step() {
                return Decider::out_of_steps();
            }
            match self.holds_all(lits, v) {
                Some(true) => return Ans::Sat(v.clone()),
                Some(false) => {}
                None => {
                    unknown.get_or_insert_with(|| self.why_unknown(lits, v).into());
                }
            }
        }
        match unknown {
            Some(w) => Ans::Unknown(w),
            None => Ans::Unsat,
        }
    }

    fn solve(&mut self, lits: &[Lit<'a>]) -> Ans {
        let g = self.g;
        // the types left: those of every positive node, and of `Only`
        let mut types = TypeSet::ALL;
        for l in lits {
            match l {
                Lit::Node(n, true) => types = types.intersect(g.types(*n)),
                Lit::Only(m) => {
                    let allowed = Ty::ALL
                        .iter()
                        .filter(|t| m & bit(**t) != 0)
                        .fold(TypeSet::NONE, |acc, t| acc.union(t.set()));
                    types = types.intersect(allowed);
                }
                _ => {}
            }
        }
        if types.is_empty() {
            return Ans::Unsat;
        }
        // a positive node that accepts only a few values: check each
        let finite = lits
            .iter()
            .filter_map(|l| match l {
                Lit::Node(n, true) => g.finite(*n),
                _ => None,
            })
            .min_by_key(|f| f.len());
        if let Some(values) = finite {
            return self.try_values(lits, values.iter());
        }
        let mut unknown: Option<Rc<str>> = None;
        for ty in Ty::ALL {
            if !types.overlaps(ty.set()) {
                continue;
            }
            let ans = match ty {
                Ty::Null => self.try_values(lits, [&Value::Null]),
                Ty::Bool => self.try_values(lits, [&Value::Bool(false), &Value::Bool(true)]),
                _ => {
                    let parts: Vec<F<'a>> = lits.iter().map(|l| self.restrict(l, ty)).collect();
                    self.search(parts, vec![], None, ty)
                }
            };
            match ans {
                Ans::Sat(v) => return Ans::Sat(v),
                Ans::Unsat => {}
                Ans::Unknown(w) => {
                    unknown.get_or_insert(w);
                }
            }
        }
        match unknown {
            Some(w) => Ans::Unknown(w),
            None => Ans::Unsat,
        }
    }

    fn restrict(&mut self, l: &Lit<'a>, ty: Ty) -> F<'a> {
        match l {
            Lit::Node(n, pos) => self.restrictions.get(self.g, *n, *pos, ty),
            Lit::Only(m) => {
                if m & bit(ty) != 0 {
                    F::True
                } else {
                    F::False
                }
            }
            Lit::Atom(a, pos) => {
                if atoms::applies(a, ty) {
                    F::A(a.clone(), *pos)
                } else if *pos {
                    F::True
                } else {
                    F::False
                }
            }
        }
    }

    /// Depth-first over the disjunctions of a conjunction of formulas, to
    /// conjunctions of atoms, each decided by the type's solver.
    fn search(
        &mut self,
        mut todo: Vec<F<'a>>,
        mut atoms: Vec<(Atom<'a>, bool)>,
        mut unknown: Option<Rc<str>>,
        ty: Ty,
    ) -> Ans {
        let mut ors: Vec<Rc<[F<'a>]>> = vec![];
        if absorb(&mut todo, &mut atoms, &mut ors, &mut unknown).is_err() {
            return Ans::Unsat;
        }
        // unit propagation: a disjunction with an alternative the atoms
        // already imply holds; an alternative they refute is dropped; one
        // left with a single alternative is a conjunct
        loop {
            let mut units: Vec<F<'a>> = vec![];
            let mut kept: Vec<Rc<[F<'a>]>> = Vec::with_capacity(ors.len());
            for alts in ors {
                let mut left: Vec<F<'a>> = vec![];
                let mut holds = false;
                for alt in alts.iter() {
                    match self.implied(&atoms, alt) {
                        Some(true) => {
                            holds = true;
                            break;
                        }
                        Some(false) => {}
                        None => left.push(alt.clone()),
                    }
                }
                if holds {
                    continue;
                }
                match left.len() {
                    0 => return Ans::Unsat,
                    1 => units.extend(left),
                    n if n == alts.len() => kept.push(alts),
                    _ => kept.push(left.into()),
                }
            }
            ors = kept;
            if units.is_empty() {
                break;
            }
            todo.extend(units);
            if absorb(&mut todo, &mut atoms, &mut ors, &mut unknown).is_err() {
                return Ans::Unsat;
            }
        }
        if !self.step() {
            return Decider::out_of_steps();
        }
        if ors.is_empty() {
            let ans = match ty {
                Ty::Num => number::solve(self, &atoms),
                Ty::Str => string::solve(self, &atoms),
                Ty::Arr => array::solve(self, &atoms),
                Ty::Obj => object::solve(self, &atoms),
                Ty::Null | Ty::Bool => Ans::Unsat,
            };
            return match (ans, unknown) {
                // a value built without the undecided parts: the caller checks it
                (Ans::Sat(v), _) => Ans::Sat(v),
                (Ans::Unsat, _) => Ans::Unsat,
                (Ans::Unknown(w), _) => Ans::Unknown(w),
            };
        }
        // branch on the smallest disjunction
        let i = (0..ors.len()).min_by_key(|i| ors[*i].len()).unwrap_or(0);
        let chosen = ors.swap_remove(i);
        let rest: Vec<F<'a>> = ors.into_iter().map(F::Or).collect();
        let mut result = Ans::Unsat;
        for alt in chosen.iter() {
            let mut t = rest.clone();
            t.push(alt.clone());
            match self.search(t, atoms.clone(), unknown.clone(), ty) {
                Ans::Sat(v) => return Ans::Sat(v),
                Ans::Unsat => {}
                Ans::Unknown(w) => {
                    if matches!(result, Ans::Unsat) {
                        result = Ans::Unknown(w);
                    }
                }
            }
        }
        result
    }
}

/// Takes the formulas of `todo` into the conjunction: atoms into `atoms`
/// (once each), disjunctions into `ors`, the first undecided part's reason
/// into `unknown`; `Err` when the conjunction is already contradictory.
#[allow(clippy::type_complexity)]
fn absorb<'a>(
    todo: &mut Vec<F<'a>>,
    atoms: &mut Vec<(Atom<'a>, bool)>,
    ors: &mut Vec<Rc<[F<'a>]>>,
    unknown: &mut Option<Rc<str>>,
) -> Result<(), ()> {
    while let Some(f) = todo.pop() {
        match f {
            F::True => {}
            F::False => return Err(()),
            F::Unknown(w) => {
                unknown.get_or_insert(w);
            }
            F::And(parts) => todo.extend(parts.iter().cloned()),
            F::Or(alts) => ors.push(alts),
            F::A(a, s) => {
                if atoms.iter().any(|(b, t)| *b == a && *t != s) {
                    return Err(());
                }
                if !atoms.iter().any(|(b, t)| *b == a && *t == s) {
                    atoms.push((a, s));
                }
            }
        }
    }
    Ok(())
}

impl<'a> Decider<'_, 'a> {
    /// Does the conjunction of `atoms` settle formula `f` (`Some(true)`:
    /// implies it, `Some(false)`: contradicts it)? Cheap and incomplete:
    /// `None` is always allowed.
    fn implied(&self, atoms: &[(Atom<'a>, bool)], f: &F<'a>) -> Option<bool> {
        match f {
            F::True => Some(true),
            F::False => Some(false),
            F::Unknown(_) | F::Or(_) => None,
            F::And(parts) => {
                let mut all = true;
                for p in parts.iter() {
                    match self.implied(atoms, p) {
                        Some(false) => return Some(false),
                        Some(true) => {}
                        None => all = false,
                    }
                }
                all.then_some(true)
            }
            F::A(a, s) => self.implied_atom(atoms, a).map(|holds| holds == *s),
        }
    }

    /// Is atom `a` true (`Some(true)`) or false under `atoms`?
    fn implied_atom(&self, atoms: &[(Atom<'a>, bool)], a: &Atom<'a>) -> Option<bool> {
        if let Some((_, s)) = atoms.iter().find(|(b, _)| b == a) {
            return Some(*s);
        }
        let g = self.g;
        let nothing = |n: NodeId| g.accepts_nothing(n);
        match a {
            // a name nothing may hold is absent; one a negated property needs is present
            Atom::Req(name) => {
                for (b, s) in atoms {
                    match (b, *s) {
                        (Atom::Prop(n, _), false) if n == name => return Some(true),
                        (Atom::Prop(n, node), true) if n == name && nothing(*node) => {
                            return Some(false)
                        }
                        (Atom::Add(k, node), true)
                            if nothing(*node)
                                && !k.names.contains(name)
                                && k.patterns
                                    .iter()
                                    .all(|p| g.pattern(*p).is_ok_and(|c| !c.is_match(name))) =>
                        {
                            return Some(false)
                        }
                        (Atom::MaxProps(0), true) => return Some(false),
                        _ => {}
                    }
                }
                None
            }
            // a property that must be absent holds any schema
            Atom::Prop(name, _) => {
                let absent = self.implied_atom(atoms, &Atom::Req(name)) == Some(false);
                absent.then_some(true)
            }
            _ => None,
        }
    }
}

/// The values of the positive `const`/`enum`/`In` atoms of a clause of type
/// `ty`, when it has any: its values are among them.
pub(crate) fn positive_values<'a>(
    g: &Graph<'a>,
    atoms: &[(Atom<'a>, bool)],
    ty: Ty,
) -> Option<Vec<Value>> {
    let mut best: Option<Vec<Value>> = None;
    for (a, s) in atoms {
        if !*s {
            continue;
        }
        let values: Vec<Value> = match a {
            Atom::Const(n) => g
                .keywords(*n)
                .and_then(|k| k.constant)
                .into_iter()
                .cloned()
                .collect(),
            Atom::Enum(n) => g
                .keywords(*n)
                .and_then(|k| k.enumeration)
                .map(<[Value]>::to_vec)
                .unwrap_or_default(),
            Atom::In(vs) => vs.values.as_ref().clone(),
            _ => continue,
        };
        let values: Vec<Value> = values
            .into_iter()
            .filter(|v| ty.set().overlaps(TypeSet::of(v)))
            .collect();
        if best.as_ref().is_none_or(|b| values.len() < b.len()) {
            best = Some(values);
        }
    }
    best
}

/// The values of the negative `const`/`enum`/`In` atoms of type `ty`: the
/// value must be none of them.
pub(crate) fn excluded_values<'a>(g: &Graph<'a>, atoms: &[(Atom<'a>, bool)], ty: Ty) -> Vec<Value> {
    let mut out = vec![];
    for (a, s) in atoms {
        if *s {
            continue;
        }
        match a {
            Atom::Const(n) => out.extend(g.keywords(*n).and_then(|k| k.constant).cloned()),
            Atom::Enum(n) => out.extend(
                g.keywords(*n)
                    .and_then(|k| k.enumeration)
                    .into_iter()
                    .flatten()
                    .cloned(),
            ),
            Atom::In(vs) => out.extend(vs.values.iter().cloned()),
            _ => {}
        }
    }
    out.retain(|v| ty.set().overlaps(TypeSet::of(v)));
    out
}

/// Checks a clause on finitely many candidates (its positive value atoms).
pub(crate) fn check_candidates<'a>(
    cx: &mut Decider<'_, 'a>,
    atoms: &[(Atom<'a>, bool)],
    values: Vec<Value>,
) -> Ans {
    let mut unknown: Option<Rc<str>> = None;
    for v in values {
        if !cx.step() {
            return Decider::out_of_steps();
        }
        match atoms::holds_clause(cx.g, atoms, &v) {
            Some(true) => return Ans::Sat(v),
            Some(false) => {}
            None => {
                unknown.get_or_insert_with(|| {
                    format!(
                        "whether {} satisfies the schema is not decided",
                        crate::witness::compact(&v)
                    )
                    .into()
                });
            }
        }
    }
    match unknown {
        Some(w) => Ans::Unknown(w),
        None => Ans::Unsat,
    }
}

#[cfg(test)]
mod tests;
