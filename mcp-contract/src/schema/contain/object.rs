//! Objects: a conjunction of per-name schemas (`properties`,
//! `patternProperties`, `additionalProperties` and a static
//! `unevaluatedProperties`), `propertyNames`, `required` (present or
//! absent), counts and their negations.
//!
//! The names an object can hold are the *mentioned* ones (named by some
//! atom) and fresh ones, which matter only through the patterns they match
//! (their *signature*). A negated atom is an obligation some present name
//! must carry (a name matching a pattern, outside the declared ones, or
//! rejected by `propertyNames`, with a value its schema rejects). The
//! search places each obligation on a name already present, a mentioned
//! name, or a fresh name of a signature that allows it; then every present
//! name's value is decided by recursion on the literals it must satisfy,
//! fresh names are found as strings of their signature (distinct, none of
//! the mentioned), and a minimum count is filled with whatever names can
//! take a value. Every choice is tried, so "none" is proven; a part not
//! decided makes the answer "not known".

use serde_json::{Map, Value};

use super::formula::{Atom, Known, Ty, Values};
use super::{check_candidates, positive_values, Ans, Decider, Lit};
use crate::schema::graph::eval::{accepts, Outcome};
use crate::schema::graph::{NodeId, PatternId};

/// Patterns one clause may classify fresh names by (signatures are their subsets).
const MAX_PATTERNS: usize = 8;
/// Most names a minimum count may ask the search to add.
const MAX_FILL: u64 = 512;

#[derive(Clone)]
struct Fresh {
    sig: u32,
    /// `propertyNames` schemas that must reject it.
    name_neg: Vec<NodeId>,
    /// Schemas its value must be rejected by.
    value_neg: Vec<NodeId>,
}

#[derive(Clone)]
enum Carrier<'a> {
    Mentioned(&'a str),
    Fresh(usize),
}

#[derive(Clone, Copy)]
enum Obligation<'c, 'a> {
    /// Some name matching the pattern has a value the node rejects.
    Pattern(PatternId, NodeId),
    /// Some name outside `Known` has a value the node rejects.
    Additional(&'c Known<'a>, NodeId),
    /// Some name the node rejects.
    Name(NodeId),
}

struct Clause<'c, 'a> {
    lo: u64,
    hi: u64,
    required: Vec<&'a str>,
    absent: Vec<&'a str>,
    props: Vec<(&'a str, NodeId, bool)>,
    patprops: Vec<(PatternId, NodeId)>,
    adds: Vec<(&'c Known<'a>, NodeId)>,
    names_pos: Vec<NodeId>,
    mentioned: Vec<&'a str>,
    /// The patterns fresh names are classified by.
    patterns: Vec<PatternId>,
}

pub(super) fn solve<'a>(cx: &mut Decider<'_, 'a>, atoms: &[(Atom<'a>, bool)]) -> Ans {
    if let Some(values) = positive_values(cx.g, atoms, Ty::Obj) {
        return check_candidates(cx, atoms, values);
    }
    let g = cx.g;
    // an object that can hold no name at all is `{}`: checked exactly
    let empty = atoms.iter().any(|(a, s)| {
        *s && match a {
            Atom::MaxProps(0) => true,
            Atom::Add(k, node) => {
                k.names.is_empty() && k.patterns.is_empty() && g.accepts_nothing(*node)
            }
            _ => false,
        }
    });
    if empty {
        return check_candidates(cx, atoms, vec![Value::Object(Map::new())]);
    }
    let (mut lo, mut hi) = (0u64, u64::MAX);
    let mut c = Clause {
        lo: 0,
        hi: 0,
        required: vec![],
        absent: vec![],
        props: vec![],
        patprops: vec![],
        adds: vec![],
        names_pos: vec![],
        mentioned: vec![],
        patterns: vec![],
    };
    let mut obligations: Vec<Obligation<'_, 'a>> = vec![];
    for (a, s) in atoms {
        match (a, *s) {
            (Atom::MinProps(n), true) => lo = lo.max(*n),
            (Atom::MinProps(n), false) => {
                if *n == 0 {
                    return Ans::Unsat;
                }
                hi = hi.min(n - 1)
            }
            (Atom::MaxProps(n), true) => hi = hi.min(*n),
            (Atom::MaxProps(n), false) => lo = lo.max(n.saturating_add(1)),
            (Atom::Req(n), true) => c.required.push(*n),
            (Atom::Req(n), false) => c.absent.push(*n),
            (Atom::Prop(n, node), s) => {
                c.props.push((*n, *node, s));
                if !s {
                    c.required.push(*n);
                }
            }
            (Atom::PatProp(p, node), true) => c.patprops.push((*p, *node)),
            (Atom::PatProp(p, node), false) => obligations.push(Obligation::Pattern(*p, *node)),
            (Atom::Add(k, node), true) => c.adds.push((k, *node)),
            (Atom::Add(k, node), false) => obligations.push(Obligation::Additional(k, *node)),
            (Atom::Names(node), true) => c.names_pos.push(*node),
            (Atom::Names(node), false) => obligations.push(Obligation::Name(*node)),
            _ => {}
        }
    }
    c.lo = lo;
    c.hi = hi;
    if lo > hi {
        return Ans::Unsat;
    }
    c.required.sort();
    c.required.dedup();
    if c.required.iter().any(|r| c.absent.contains(r)) {
        return Ans::Unsat;
    }
    let mut mentioned: Vec<&'a str> = c.required.clone();
    mentioned.extend(c.absent.iter().copied());
    mentioned.extend(c.props.iter().map(|(n, _, _)| *n));
    for (k, _) in &c.adds {
        mentioned.extend(k.names.iter().copied());
    }
    for o in &obligations {
        if let Obligation::Additional(k, _) = o {
            mentioned.extend(k.names.iter().copied());
        }
    }
    mentioned.sort();
    mentioned.dedup();
    c.mentioned = mentioned;
    let mut patterns: Vec<PatternId> = c.patprops.iter().map(|(p, _)| *p).collect();
    for (k, _) in &c.adds {
        patterns.extend(k.patterns.iter().copied());
    }
    for o in &obligations {
        match o {
            Obligation::Pattern(p, _) => patterns.push(*p),
            Obligation::Additional(k, _) => patterns.extend(k.patterns.iter().copied()),
            Obligation::Name(_) => {}
        }
    }
    patterns.sort();
    patterns.dedup();
    for p in &patterns {
        if let Err(why) = g.pattern(*p) {
            return Ans::unknown(format!(
                "`patternProperties` {:?}: {why}",
                g.pattern_source(*p)
            ));
        }
    }
    if patterns.len() > MAX_PATTERNS {
        return Ans::unknown(format!(
            "more than {MAX_PATTERNS} property-name patterns bear on one object"
        ));
    }
    c.patterns = patterns;
    let mut search = Search {
        unknown: None,
        carriers: c.required.iter().map(|n| Carrier::Mentioned(n)).collect(),
        fresh: vec![],
        extra: vec![],
    };
    match search.place(cx, &c, &obligations, 0) {
        Some(v) => Ans::Sat(v),
        None => match search.unknown {
            Some(w) => Ans::unknown(w),
            None => Ans::Unsat,
        },
    }
}

struct Search<'a> {
    unknown: Option<String>,
    /// Names present (mentioned or fresh), the required ones first.
    carriers: Vec<Carrier<'a>>,
    fresh: Vec<Fresh>,
    /// (mentioned name, schema its value must be rejected by), from obligations.
    extra: Vec<(&'a str, NodeId)>,
}

impl<'a> Search<'a> {
    fn note(&mut self, why: impl Into<String>) {
        self.unknown.get_or_insert_with(|| why.into());
    }

    /// Places obligation `i` and the rest, then builds the object.
    fn place(
        &mut self,
        cx: &mut Decider<'_, 'a>,
        c: &Clause<'_, 'a>,
        obligations: &[Obligation<'_, 'a>],
        i: usize,
    ) -> Option<Value> {
        if !cx.step() {
            self.note(format!(
                "the decision stopped at its limit of {} steps",
                super::MAX_STEPS
            ));
            return None;
        }
        let Some(o) = obligations.get(i) else {
            return self.build(cx, c);
        };
        // (a) a name already present
        for ci in 0..self.carriers.len() {
            let carrier = self.carriers[ci].clone();
            match carrier {
                Carrier::Mentioned(n) => {
                    if self.mentioned_takes(cx, c, n, o) {
                        let undo = self.extra.len();
                        if let Some(node) = value_neg(o) {
                            self.extra.push((n, node));
                        }
                        if let Some(v) = self.place(cx, c, obligations, i + 1) {
                            return Some(v);
                        }
                        self.extra.truncate(undo);
                    }
                }
                Carrier::Fresh(f) => {
                    if sig_takes(c, self.fresh[f].sig, o) {
                        let saved = self.fresh[f].clone();
                        push_fresh(&mut self.fresh[f], o);
                        if let Some(v) = self.place(cx, c, obligations, i + 1) {
                            return Some(v);
                        }
                        self.fresh[f] = saved;
                    }
                }
            }
        }
        // (b) a mentioned name not present yet
        for n in c.mentioned.iter().copied() {
            if c.absent.contains(&n)
                || self
                    .carriers
                    .iter()
                    .any(|x| matches!(x, Carrier::Mentioned(m) if *m == n))
            {
                continue;
            }
            if self.mentioned_takes(cx, c, n, o) {
                let undo = self.extra.len();
                if let Some(node) = value_neg(o) {
                    self.extra.push((n, node));
                }
                self.carriers.push(Carrier::Mentioned(n));
                if let Some(v) = self.place(cx, c, obligations, i + 1) {
                    return Some(v);
                }
                self.carriers.pop();
                self.extra.truncate(undo);
            }
        }
        // (c) a fresh name of a signature that allows it
        for sig in 0..(1u32 << c.patterns.len()) {
            if !sig_takes(c, sig, o) {
                continue;
            }
            let mut f = Fresh {
                sig,
                name_neg: vec![],
                value_neg: vec![],
            };
            push_fresh(&mut f, o);
            self.fresh.push(f);
            self.carriers.push(Carrier::Fresh(self.fresh.len() - 1));
            if let Some(v) = self.place(cx, c, obligations, i + 1) {
                return Some(v);
            }
            self.carriers.pop();
            self.fresh.pop();
        }
        None
    }

    /// Can mentioned name `n` carry obligation `o` (its name alone)?
    fn mentioned_takes(
        &mut self,
        cx: &Decider<'_, 'a>,
        c: &Clause<'_, 'a>,
        n: &str,
        o: &Obligation<'_, 'a>,
    ) -> bool {
        let g = cx.g;
        let _ = c;
        match o {
            Obligation::Pattern(p, _) => g.pattern(*p).is_ok_and(|x| x.is_match(n)),
            Obligation::Additional(k, _) => {
                !k.names.contains(&n)
                    && !k
                        .patterns
                        .iter()
                        .any(|p| g.pattern(*p).is_ok_and(|x| x.is_match(n)))
            }
            Obligation::Name(node) => match accepts(g, *node, &Value::String(n.to_string())) {
                Outcome::Invalid(_) => true,
                Outcome::Valid => false,
                Outcome::Unknown(w) => {
                    self.note(w);
                    false
                }
            },
        }
    }

    /// The literals the value of a present name must satisfy.
    fn value_lits(
        &self,
        cx: &Decider<'_, 'a>,
        c: &Clause<'_, 'a>,
        name: &str,
        sig: Option<u32>,
    ) -> Vec<Lit<'a>> {
        let g = cx.g;
        let matches = |p: PatternId| match sig {
            Some(s) => c
                .patterns
                .iter()
                .position(|q| *q == p)
                .is_some_and(|i| s & (1 << i) != 0),
            None => g.pattern(p).is_ok_and(|x| x.is_match(name)),
        };
        let mut lits = vec![];
        if sig.is_none() {
            for (n, node, s) in &c.props {
                if *n == name {
                    lits.push(Lit::Node(*node, *s));
                }
            }
        }
        for (p, node) in &c.patprops {
            if matches(*p) {
                lits.push(Lit::Node(*node, true));
            }
        }
        for (k, node) in &c.adds {
            let declared = sig.is_none() && k.names.contains(&name);
            if !declared && !k.patterns.iter().any(|p| matches(*p)) {
                lits.push(Lit::Node(*node, true));
            }
        }
        lits
    }

    /// Does mentioned name `n` pass `propertyNames`?
    fn name_ok(&mut self, cx: &Decider<'_, 'a>, c: &Clause<'_, 'a>, n: &str) -> bool {
        for node in &c.names_pos {
            match accepts(cx.g, *node, &Value::String(n.to_string())) {
                Outcome::Valid => {}
                Outcome::Invalid(_) => return false,
                Outcome::Unknown(w) => {
                    self.note(w);
                    return false;
                }
            }
        }
        true
    }

    /// The string of a fresh name: its signature, `propertyNames`, none of `taken`.
    fn fresh_name(
        &mut self,
        cx: &mut Decider<'_, 'a>,
        c: &Clause<'_, 'a>,
        f: &Fresh,
        taken: &[String],
    ) -> Result<Option<String>, ()> {
        let mut lits: Vec<Lit<'a>> = vec![Lit::Only(1 << 2)];
        for node in &c.names_pos {
            lits.push(Lit::Node(*node, true));
        }
        for node in &f.name_neg {
            lits.push(Lit::Node(*node, false));
        }
        for (i, p) in c.patterns.iter().enumerate() {
            lits.push(Lit::Atom(Atom::Pattern(*p), f.sig & (1 << i) != 0));
        }
        let mut out: Vec<Value> = c
            .mentioned
            .iter()
            .map(|n| Value::String((*n).to_string()))
            .collect();
        out.extend(taken.iter().map(|t| Value::String(t.clone())));
        lits.push(Lit::Atom(Atom::In(Values::new(out)), false));
        match cx.sat(lits) {
            Ans::Sat(Value::String(s)) => Ok(Some(s)),
            Ans::Sat(_) | Ans::Unsat => Ok(None),
            Ans::Unknown(w) => {
                self.note(w.to_string());
                Err(())
            }
        }
    }

    /// Builds the object once every obligation has its carrier.
    fn build(&mut self, cx: &mut Decider<'_, 'a>, c: &Clause<'_, 'a>) -> Option<Value> {
        if (self.carriers.len() as u64) > c.hi {
            return None;
        }
        let mut out = Map::new();
        let mut fresh_names: Vec<String> = vec![];
        for carrier in self.carriers.clone() {
            match carrier {
                Carrier::Mentioned(n) => {
                    if !self.name_ok(cx, c, n) {
                        return None;
                    }
                    let mut lits = self.value_lits(cx, c, n, None);
                    lits.extend(
                        self.extra
                            .iter()
                            .filter(|(m, _)| *m == n)
                            .map(|(_, node)| Lit::Node(*node, false)),
                    );
                    let v = self.value(cx, lits)?;
                    out.insert(n.to_string(), v);
                }
                Carrier::Fresh(fi) => {
                    let f = self.fresh[fi].clone();
                    let Ok(Some(name)) = self.fresh_name(cx, c, &f, &fresh_names) else {
                        return None;
                    };
                    let mut lits = self.value_lits(cx, c, &name, Some(f.sig));
                    lits.extend(f.value_neg.iter().map(|n| Lit::Node(*n, false)));
                    let v = self.value(cx, lits)?;
                    fresh_names.push(name.clone());
                    out.insert(name, v);
                }
            }
        }
        // a minimum count: more names, mentioned ones first
        let mut count = out.len() as u64;
        if count < c.lo {
            if c.lo - count > MAX_FILL {
                self.note(format!(
                    "the object must hold more than {MAX_FILL} properties"
                ));
                return None;
            }
            for n in c.mentioned.iter().copied() {
                if count >= c.lo {
                    break;
                }
                if out.contains_key(n) || c.absent.contains(&n) || !self.name_ok(cx, c, n) {
                    continue;
                }
                let lits = self.value_lits(cx, c, n, None);
                if let Some(v) = self.value(cx, lits) {
                    out.insert(n.to_string(), v);
                    count += 1;
                }
            }
            for sig in 0..(1u32 << c.patterns.len()) {
                if count >= c.lo {
                    break;
                }
                let f = Fresh {
                    sig,
                    name_neg: vec![],
                    value_neg: vec![],
                };
                let lits = self.value_lits(cx, c, "", Some(sig));
                let Some(v) = self.value(cx, lits) else {
                    continue;
                };
                while count < c.lo {
                    match self.fresh_name(cx, c, &f, &fresh_names) {
                        Ok(Some(name)) => {
                            fresh_names.push(name.clone());
                            out.insert(name, v.clone());
                            count += 1;
                        }
                        Ok(None) => break,
                        Err(()) => return None,
                    }
                }
            }
            if count < c.lo {
                return None;
            }
        }
        Some(Value::Object(out))
    }

    fn value(&mut self, cx: &mut Decider<'_, 'a>, lits: Vec<Lit<'a>>) -> Option<Value> {
        match cx.sat(lits) {
            Ans::Sat(v) => Some(v),
            Ans::Unsat => None,
            Ans::Unknown(w) => {
                self.note(w.to_string());
                None
            }
        }
    }
}

fn value_neg(o: &Obligation<'_, '_>) -> Option<NodeId> {
    match o {
        Obligation::Pattern(_, n) | Obligation::Additional(_, n) => Some(*n),
        Obligation::Name(_) => None,
    }
}

fn push_fresh(f: &mut Fresh, o: &Obligation<'_, '_>) {
    match o {
        Obligation::Pattern(_, n) | Obligation::Additional(_, n) => f.value_neg.push(*n),
        Obligation::Name(n) => f.name_neg.push(*n),
    }
}

/// Can a fresh name of signature `sig` carry obligation `o`?
fn sig_takes(c: &Clause<'_, '_>, sig: u32, o: &Obligation<'_, '_>) -> bool {
    let has = |p: &PatternId| {
        c.patterns
            .iter()
            .position(|q| q == p)
            .is_some_and(|i| sig & (1 << i) != 0)
    };
    match o {
        Obligation::Pattern(p, _) => has(p),
        Obligation::Additional(k, _) => !k.patterns.iter().any(has),
        Obligation::Name(_) => true,
    }
}
