//! Facts cached per node once a document is compiled: the JSON types it
//! can accept, a finite list its values are among (when its keywords
//! leave only few), and a structural hash; and the exact structural
//! equality ([`same`]) the hash stands for.
//!
//! The type sets are a greatest fixed point computed downwards from
//! "every type" (so an intermediate answer is always an over-approximation
//! of what the node accepts); the finite lists are read through
//! references and `allOf`/`anyOf`/`oneOf` with cycles answered "not
//! finite" (no claim); the hash is refined a few rounds over the edges.

use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use serde_json::Value;

use super::eval::json_eq;
use super::{Body, Graph, Keywords, NodeId};
use crate::schema::types::TypeSet;

/// A finite list longer than this is not kept (the node is then "not finite").
const MAX_FINITE: usize = 250_000;
/// Passes of the type fixed point (each only narrows; stopping early stays sound).
const MAX_TYPE_PASSES: usize = 64;
/// Rounds of hash refinement over the edges, at most (refinement stops
/// earlier, once a round tells no more nodes apart).
const MAX_HASH_ROUNDS: usize = 512;

#[derive(Debug, Default)]
pub struct Facts<'a> {
    pub types: Vec<TypeSet>,
    pub finite: Vec<Option<Vec<Value>>>,
    pub hash: Vec<u64>,
    /// How many nodes the facts cover (the rest were added since).
    done: usize,
    /// Pairs [`same`] has settled (it is asked again and again of the same
    /// pairs: every conjunction holding a node and a negation).
    same: RefCell<HashMap<(NodeId, NodeId), bool>>,
    _p: std::marker::PhantomData<&'a ()>,
}

/// Computes the facts of the nodes added since the last call.
pub fn compute(g: &mut Graph<'_>) {
    let from = g.facts.done;
    let n = g.nodes.len();
    g.facts.types.resize(n, TypeSet::ALL);
    g.facts.finite.resize(n, None);
    g.facts.hash.resize(n, 0);
    types(g, from);
    finite(g, from);
    hashes(g, from);
    g.facts.done = n;
}

/// The types one value of `v` has, however written (`1` and `1.0` alike).
fn value_types(v: &Value) -> TypeSet {
    TypeSet::of(v)
}

fn types(g: &mut Graph<'_>, from: usize) {
    for _ in 0..MAX_TYPE_PASSES {
        let mut changed = false;
        for i in (from..g.nodes.len()).rev() {
            let t = node_types(g, i);
            if t != g.facts.types[i] {
                g.facts.types[i] = t;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}

fn node_types(g: &Graph<'_>, i: usize) -> TypeSet {
    let k = match &g.nodes[i].body {
        Body::Bool(true) | Body::Unresolved(_) | Body::Meta(_) => return TypeSet::ALL,
        Body::Bool(false) => return TypeSet::NONE,
        Body::Schema(k) => k,
    };
    let t = |id: NodeId| g.facts.types[id.index()];
    let mut out = k.types.unwrap_or(TypeSet::ALL);
    if let Some(c) = k.constant {
        out = out.intersect(value_types(c));
    }
    if let Some(e) = k.enumeration {
        out = out.intersect(
            e.iter()
                .fold(TypeSet::NONE, |acc, v| acc.union(value_types(v))),
        );
    }
    for id in k
        .all_of
        .iter()
        .chain(k.reference.iter())
        .chain(k.dynamic_reference.iter())
    {
        out = out.intersect(t(*id));
    }
    for list in [&k.any_of, &k.one_of] {
        if !list.is_empty() {
            out = out.intersect(list.iter().fold(TypeSet::NONE, |acc, id| acc.union(t(*id))));
        }
    }
    if let Some(n) = k.not {
        if matches!(g.nodes[n.index()].body, Body::Bool(true)) {
            out = TypeSet::NONE;
        }
    }
    if k.if_.is_some() {
        let branch = |b: Option<NodeId>| b.map_or(TypeSet::ALL, t);
        out = out.intersect(branch(k.then_).union(branch(k.else_)));
    }
    out.minus(empty_kinds(g, k))
}

/// The kinds whose values a node's own keywords leave none of.
fn empty_kinds(g: &Graph<'_>, k: &Keywords<'_>) -> TypeSet {
    let mut out = TypeSet::NONE;
    if matches!((k.min_length, k.max_length), (Some(a), Some(b)) if a > b) {
        out = out.union(TypeSet::STRING);
    }
    if matches!((k.min_items, k.max_items), (Some(a), Some(b)) if a > b) {
        out = out.union(TypeSet::ARRAY);
    }
    if matches!((k.min_properties, k.max_properties), (Some(a), Some(b)) if a > b) {
        out = out.union(TypeSet::OBJECT);
    }
    let lo = k
        .minimum
        .map(|m| (m, false))
        .into_iter()
        .chain(k.exclusive_minimum.map(|m| (m, true)))
        .max();
    let hi = k
        .maximum
        .map(|m| (m, false))
        .into_iter()
        .chain(k.exclusive_maximum.map(|m| (m, true)))
        .min();
    if let (Some((a, ae)), Some((b, be))) = (lo, hi) {
        if a > b || (a == b && (ae || be)) {
            out = out.union(TypeSet::NUMBER);
        }
    }
    // a required property declared `false`
    let closed = |name: &str| {
        k.properties
            .iter()
            .any(|(n, id)| *n == name && matches!(g.nodes[id.index()].body, Body::Bool(false)))
    };
    if k.required.iter().any(|r| closed(r)) {
        out = out.union(TypeSet::OBJECT);
    }
    out
}

fn finite(g: &mut Graph<'_>, from: usize) {
    let mut memo: HashMap<NodeId, Option<Vec<Value>>> = HashMap::new();
    for i in from..g.nodes.len() {
        let mut on_path = HashSet::new();
        let f = finite_of(g, NodeId(i as u32), &mut memo, &mut on_path, 0);
        g.facts.finite[i] = f;
    }
}

fn finite_of(
    g: &Graph<'_>,
    id: NodeId,
    memo: &mut HashMap<NodeId, Option<Vec<Value>>>,
    on_path: &mut HashSet<NodeId>,
    depth: usize,
) -> Option<Vec<Value>> {
    if let Some(f) = memo.get(&id) {
        return f.clone();
    }
    if depth > 64 || !on_path.insert(id) {
        return None;
    }
    let t = g.facts.types[id.index()];
    let keep = |v: &Vec<Value>| -> Vec<Value> {
        v.iter()
            .filter(|x| t.overlaps(value_types(x)))
            .cloned()
            .collect()
    };
    let out = match &g.nodes[id.index()].body {
        Body::Bool(false) => Some(vec![]),
        Body::Bool(true) | Body::Unresolved(_) | Body::Meta(_) => None,
        Body::Schema(k) => 'f: {
            if let Some(c) = k.constant {
                break 'f Some(keep(&vec![c.clone()]));
            }
            if let Some(e) = k.enumeration {
                if e.len() <= MAX_FINITE {
                    break 'f Some(keep(&e.to_vec()));
                }
            }
            if !t.is_empty() && TypeSet::NULL.union(TypeSet::BOOLEAN).contains(t) {
                let mut v = vec![];
                if t.contains(TypeSet::NULL) {
                    v.push(Value::Null);
                }
                if t.contains(TypeSet::BOOLEAN) {
                    v.push(Value::Bool(true));
                    v.push(Value::Bool(false));
                }
                break 'f Some(v);
            }
            if t.is_empty() {
                break 'f Some(vec![]);
            }
            let mut best: Option<Vec<Value>> = None;
            for c in k
                .all_of
                .iter()
                .chain(k.reference.iter())
                .chain(k.dynamic_reference.iter())
            {
                if let Some(f) = finite_of(g, *c, memo, on_path, depth + 1) {
                    if best.as_ref().is_none_or(|b| f.len() < b.len()) {
                        best = Some(f);
                    }
                }
            }
            for list in [&k.any_of, &k.one_of] {
                if list.is_empty() {
                    continue;
                }
                let mut all = Some(vec![]);
                for c in list {
                    match (finite_of(g, *c, memo, on_path, depth + 1), &mut all) {
                        (Some(f), Some(acc)) if acc.len() + f.len() <= MAX_FINITE => acc.extend(f),
                        _ => {
                            all = None;
                            break;
                        }
                    }
                }
                if let Some(f) = all {
                    if best.as_ref().is_none_or(|b| f.len() < b.len()) {
                        best = Some(f);
                    }
                }
            }
            best.map(|b| keep(&b))
        }
    };
    on_path.remove(&id);
    memo.insert(id, out.clone());
    out
}

fn hash_value(v: &Value, h: &mut DefaultHasher) {
    match v {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Number(n) => (2u8, super::Dec::from_number(n)).hash(h),
        Value::String(s) => (3u8, s).hash(h),
        Value::Array(a) => {
            (4u8, a.len()).hash(h);
            for x in a {
                hash_value(x, h);
            }
        }
        Value::Object(m) => {
            (5u8, m.len()).hash(h);
            for (k, x) in m {
                k.hash(h);
                hash_value(x, h);
            }
        }
    }
}

/// The node's own content (not its edges' targets), hashed.
fn local_hash(g: &Graph<'_>, id: NodeId) -> u64 {
    let mut h = DefaultHasher::new();
    let n = &g.nodes[id.index()];
    n.draft.hash(&mut h);
    match &n.body {
        Body::Bool(b) => (0u8, b).hash(&mut h),
        Body::Unresolved(why) => (1u8, why).hash(&mut h),
        Body::Meta(d) => (3u8, d).hash(&mut h),
        Body::Schema(k) => {
            2u8.hash(&mut h);
            local_key(k).hash(&mut h);
            for v in k.enumeration.into_iter().flatten().chain(k.constant) {
                hash_value(v, &mut h);
            }
        }
    }
    h.finish()
}

/// The names of a list of `(name, edge)` pairs (the edges' targets are
/// compared through the edges).
struct Names<'k, N>(&'k [(N, NodeId)]);

impl<N: Hash> Hash for Names<'_, N> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.len().hash(h);
        for (n, _) in self.0 {
            n.hash(h);
        }
    }
}

impl<N: PartialEq> PartialEq for Names<'_, N> {
    fn eq(&self, o: &Self) -> bool {
        self.0.len() == o.0.len() && self.0.iter().zip(o.0).all(|(a, b)| a.0 == b.0)
    }
}

impl<N: Eq> Eq for Names<'_, N> {}

/// Everything of a node but its enum/const values and the targets of its
/// edges (how many edges of each kind it has included), borrowed: equal
/// keys, equal local meaning. (Patterns are interned by source, so equal
/// ids are equal patterns.)
#[allow(clippy::type_complexity)]
fn local_key<'k, 'a>(k: &'k Keywords<'a>) -> impl Hash + Eq + 'k {
    let count = |e: Option<NodeId>| u8::from(e.is_some());
    (
        (
            k.types,
            k.enumeration.map(<[Value]>::len),
            k.constant.is_some(),
            (
                k.minimum,
                k.exclusive_minimum,
                k.maximum,
                k.exclusive_maximum,
            ),
            k.multiple_of,
            k.width,
            (k.min_length, k.max_length, k.pattern, k.format, k.content),
        ),
        (
            (k.min_contains, k.max_contains, k.min_items, k.max_items),
            k.unique_items,
            k.prefix_items.len(),
            [
                count(k.items),
                count(k.contains),
                count(k.unevaluated_items),
            ],
        ),
        (
            Names(&k.properties),
            Names(&k.pattern_properties),
            &k.required,
            &k.dependent_required,
            Names(&k.dependent_schemas),
            (k.min_properties, k.max_properties),
            [
                count(k.additional_properties),
                count(k.property_names),
                count(k.unevaluated_properties),
            ],
        ),
        (
            &k.malformed,
            [k.all_of.len(), k.any_of.len(), k.one_of.len()],
            [
                count(k.not),
                count(k.if_),
                count(k.then_),
                count(k.else_),
                count(k.reference),
                count(k.dynamic_reference),
            ],
        ),
    )
}

/// The edges of a node, in a fixed order (the order [`local_key`] counts them in).
pub fn edges(k: &Keywords<'_>) -> Vec<NodeId> {
    let mut e = vec![];
    e.extend(k.prefix_items.iter().copied());
    e.extend(k.items);
    e.extend(k.contains);
    e.extend(k.unevaluated_items);
    e.extend(k.properties.iter().map(|(_, id)| *id));
    e.extend(k.pattern_properties.iter().map(|(_, id)| *id));
    e.extend(k.additional_properties);
    e.extend(k.property_names);
    e.extend(k.dependent_schemas.iter().map(|(_, id)| *id));
    e.extend(k.unevaluated_properties);
    e.extend(k.all_of.iter().copied());
    e.extend(k.any_of.iter().copied());
    e.extend(k.one_of.iter().copied());
    e.extend(k.not);
    e.extend(k.if_);
    e.extend(k.then_);
    e.extend(k.else_);
    e.extend(k.reference);
    e.extend(k.dynamic_reference);
    e
}

fn hashes(g: &mut Graph<'_>, from: usize) {
    let n = g.nodes.len();
    let local: Vec<u64> = (from..n).map(|i| local_hash(g, NodeId(i as u32))).collect();
    g.facts.hash[from..n].copy_from_slice(&local);
    // refined until a round tells no more nodes apart (a partition that
    // stops splitting is stable: nodes are then as distinct as hashes of
    // their whole reachable structure would make them), so that a long
    // self-similar chain does not leave its links all alike
    let classes = |h: &[u64]| {
        let mut v = h.to_vec();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    let mut distinct = classes(&local);
    // the edges of every node, read once: (start, end) into one list
    let mut targets: Vec<usize> = vec![];
    let spans: Vec<(usize, usize)> = (from..n)
        .map(|i| {
            let start = targets.len();
            if let Body::Schema(k) = &g.nodes[i].body {
                targets.extend(edges(k).into_iter().map(NodeId::index));
            }
            (start, targets.len())
        })
        .collect();
    for _ in 0..MAX_HASH_ROUNDS {
        let next: Vec<u64> = spans
            .iter()
            .zip(&local)
            .map(|(&(a, b), own)| {
                let mut h = DefaultHasher::new();
                own.hash(&mut h);
                for e in &targets[a..b] {
                    g.facts.hash[*e].hash(&mut h);
                }
                h.finish()
            })
            .collect();
        g.facts.hash[from..n].copy_from_slice(&next);
        let now = classes(&next);
        if now <= distinct {
            break;
        }
        distinct = now;
    }
}

/// Do `a` and `b` mean the same, structurally (equal keywords, and edges to
/// nodes that mean the same, coinductively)? Sound: equal structure
/// accepts equal values. Bounded by `budget` node pairs (false past it).
/// Each pair is settled once per graph: a "no" never rests on an
/// assumption, so every "no" is kept; the pairs assumed on the way to a
/// "yes" are kept once the whole question is answered yes.
pub fn same(g: &Graph<'_>, a: NodeId, b: NodeId) -> bool {
    if a == b {
        return true;
    }
    if g.facts.hash[a.index()] != g.facts.hash[b.index()] {
        return false;
    }
    if let Some(known) = g.facts.same.borrow().get(&(a, b)) {
        return *known;
    }
    let mut assumed = HashSet::new();
    let mut budget = 20_000usize;
    let yes = same_in(g, a, b, &mut assumed, &mut budget);
    if yes {
        let mut memo = g.facts.same.borrow_mut();
        memo.extend(assumed.into_iter().map(|p| (p, true)));
    }
    yes
}

/// A node's `enum` values, then its `const`.
fn values<'k>(k: &'k Keywords<'_>) -> impl Iterator<Item = &'k Value> {
    k.enumeration.into_iter().flatten().chain(k.constant)
}

fn same_in(
    g: &Graph<'_>,
    a: NodeId,
    b: NodeId,
    assumed: &mut HashSet<(NodeId, NodeId)>,
    budget: &mut usize,
) -> bool {
    if a == b || assumed.contains(&(a, b)) {
        return true;
    }
    if g.facts.hash[a.index()] != g.facts.hash[b.index()] {
        return false;
    }
    if let Some(known) = g.facts.same.borrow().get(&(a, b)) {
        return *known;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let (na, nb) = (&g.nodes[a.index()], &g.nodes[b.index()]);
    if na.draft != nb.draft {
        return false;
    }
    let yes = match (&na.body, &nb.body) {
        (Body::Bool(x), Body::Bool(y)) => x == y,
        (Body::Unresolved(x), Body::Unresolved(y)) => x == y && !x.is_empty(),
        (Body::Meta(x), Body::Meta(y)) => x == y,
        (Body::Schema(x), Body::Schema(y)) => {
            let same_values = values(x).count() == values(y).count()
                && values(x).zip(values(y)).all(|(p, q)| json_eq(p, q));
            if local_key(x) != local_key(y) || !same_values {
                false
            } else {
                assumed.insert((a, b));
                let (ex, ey) = (edges(x), edges(y));
                ex.len() == ey.len()
                    && ex
                        .iter()
                        .zip(&ey)
                        .all(|(p, q)| same_in(g, *p, *q, assumed, budget))
            }
        }
        _ => false,
    };
    // (a "no" past the budget is only "not shown": not kept)
    if !yes && *budget > 0 {
        g.facts.same.borrow_mut().insert((a, b), false);
    }
    yes
}
