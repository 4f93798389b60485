//! `anyOf`/`oneOf`/`allOf`/`not`. Branches are paired by structure, never by
//! position: each branch that must still be covered is tried against every
//! branch of the other side, and the pairing with the fewest breaking
//! changes wins. A schema without alternatives facing one with them is
//! compared as a single branch, with the other side's sibling keywords
//! distributed into its branches.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::{Map, Value};

use super::keywords::{effective_enum, effective_types};
use super::label;
use super::rule::{Named, SchemaRule};
use super::schema::{Cx, Direction, Effect};
use crate::rules::{RuleId, Severity};
use crate::schema::shape::{merge_exact, push_all_of, shape, Shape};
use crate::schema::types::TypeSet;

fn alt_keywords(s: &Shape<'_>) -> Vec<&'static str> {
    ["anyOf", "oneOf"]
        .into_iter()
        .filter(|k| s.get(k).is_some_and(Value::is_array))
        .collect()
}

/// Handles `anyOf`/`oneOf`. Returns true when the whole node was compared
/// here (alternatives differ in form), false when the caller must still
/// compare the sibling keywords.
pub(crate) fn compare_alternatives(
    cx: &mut Cx<'_>,
    (old, so): (&Value, &Shape<'_>),
    (new, sn): (&Value, &Shape<'_>),
    ptr: &str,
    flip: bool,
) -> bool {
    let (ko, kn) = (alt_keywords(so), alt_keywords(sn));
    if ko != kn && ko.len() <= 1 && kn.len() <= 1 {
        // One alternative list against a plain schema or a list of the other
        // kind: compare whole alternatives, siblings distributed into them.
        let (ko, kn) = (ko.first().copied(), kn.first().copied());
        if !flip && whole_within_a_branch(cx, (old, so), (new, sn), (ko, kn), ptr) {
            return true;
        }
        let olds = distributed(cx.old_root, (old, so), ko);
        let news = distributed(cx.new_root, (new, sn), kn);
        let wholes = (Some(old), Some(new));
        let held = pair_alternatives(cx, (&olds, &news), wholes, ptr, (ko, kn), flip);
        // (a branch the other node holds as a whole, exclusivity and all,
        // brings no value that could meet two of its branches)
        let unheld = |bs: Vec<Value>| -> Vec<Value> {
            bs.into_iter()
                .zip(&held)
                .filter_map(|(b, h)| (!h).then_some(b))
                .collect()
        };
        let (olds, news) = if cx.dir == Direction::Input {
            (unheld(olds), news)
        } else {
            (olds, unheld(news))
        };
        let all = (TypeSet::ALL, TypeSet::ALL);
        one_of_overlap(cx, &olds, &news, (ko, kn), all, ptr, flip);
        return true;
    }
    // Each keyword is its own conjunct; an absent one is `[{}]`. The
    // node's own declarations hold in every branch: a branch that declares
    // a name the node declared constrains what callers could send.
    let outer = cx.level_decls.clone();
    if let Some(props) = so.get("properties").and_then(Value::as_object) {
        let mut level = outer.as_deref().cloned().unwrap_or_default();
        for (name, decl) in props {
            let mine = level.entry(name.clone()).or_default();
            if !mine.contains(decl) {
                mine.push(decl.clone());
            }
        }
        cx.level_decls = Some(Rc::new(level));
    }
    let mut kws = ko.clone();
    kws.extend(kn.iter().filter(|k| !ko.contains(k)));
    for kw in kws {
        let accept_all = || vec![Value::Object(Map::new())];
        let olds = if ko.contains(&kw) {
            branches(so, kw)
        } else {
            accept_all()
        };
        let news = if kn.contains(&kw) {
            branches(sn, kw)
        } else {
            accept_all()
        };
        let unchanged =
            olds.len() == news.len() && olds.iter().zip(&news).all(|(o, n)| cx.equiv.same(o, n));
        if !unchanged && kw == "oneOf" && negation_pair(cx, (so, &olds), (sn, &news), ptr, flip) {
            continue;
        }
        if !unchanged {
            let kws = (Some(kw), Some(kw));
            let _ = pair_alternatives(cx, (&olds, &news), (None, None), ptr, kws, flip);
            // the node's own `type` holds beside the alternatives
            let node = (effective_types(so), effective_types(sn));
            one_of_overlap(cx, &olds, &news, kws, node, ptr, flip);
        }
    }
    cx.level_decls = outer;
    false
}

/// An `anyOf` holds every value one of its branches holds: when the whole
/// other side, alternatives and all, fits one branch (a type gaining an
/// alternative beside itself: `T` -> `anyOf [T, string]` where `T` is a
/// `oneOf`), that branch is its partner and the others were added (input)
/// or removed (output) whole. Pairing the other side's branches one by
/// one would judge each without the rest of its alternatives (a `oneOf`
/// branch alone overlaps what its siblings excluded) and report
/// alternatives as lost that are all still there. True when so compared.
fn whole_within_a_branch(
    cx: &mut Cx<'_>,
    (old, so): (&Value, &Shape<'_>),
    (new, sn): (&Value, &Shape<'_>),
    (ko, kn): (Option<&str>, Option<&str>),
    ptr: &str,
) -> bool {
    // (the side that must be held, and the `anyOf` that must hold it)
    let old_held = cx.dir == Direction::Input;
    let (held_kw, holder_kw) = if old_held { (ko, kn) } else { (kn, ko) };
    if held_kw.is_none() || holder_kw != Some("anyOf") {
        return false;
    }
    let holder = if old_held {
        distributed(cx.new_root, (new, sn), kn)
    } else {
        distributed(cx.old_root, (old, so), ko)
    };
    for (i, b) in holder.iter().enumerate() {
        let mut trial = cx.trial();
        if old_held {
            trial.cmp(old, b, &branch_ptr(ptr, kn, i), false);
        } else {
            trial.cmp(b, new, ptr, false);
        }
        cx.absorb(&trial);
        if trial.breaking_count() > 0 {
            continue;
        }
        cx.out.extend(trial.out);
        let (suffix, effect) = if old_held {
            (SchemaRule::VariantAdded, Effect::Widened)
        } else {
            (SchemaRule::VariantRemoved, Effect::Narrowed)
        };
        for (j, other) in holder.iter().enumerate().filter(|(j, _)| *j != i) {
            let what = missing_what(cx, suffix, ptr, other);
            let at = branch_ptr(ptr, holder_kw, j);
            if let Some(c) = cx.emit(suffix, effect, false, &at, None, what) {
                c.detail.values = vec![other.clone()];
            }
        }
        return true;
    }
    false
}

/// A `oneOf` of two branches one of which accepts every value is the
/// negation of the other: on both sides, the other branches are compared
/// as `not` (a narrowing there widens the node). True when so compared.
fn negation_pair(
    cx: &mut Cx<'_>,
    (so, olds): (&Shape<'_>, &[Value]),
    (sn, news): (&Shape<'_>, &[Value]),
    ptr: &str,
    flip: bool,
) -> bool {
    let negated = |root: &Value, bs: &[Value]| -> Option<usize> {
        let [a, b] = bs else { return None };
        let all = |v: &Value| super::coverage::full_types(root, v) == TypeSet::ALL;
        match (all(a), all(b)) {
            (true, _) => Some(1),
            (false, true) => Some(0),
            _ => None,
        }
    };
    let (Some(io), Some(in_)) = (negated(cx.old_root, olds), negated(cx.new_root, news)) else {
        return false;
    };
    // (like a `not`, it excludes nothing when the node's types never meet it)
    let meets = |root: &Value, s: &Shape<'_>, not_root: &Value, not: &Value| {
        super::vacuous::may_meet(root, s, not_root, not)
    };
    if meets(cx.old_root, so, cx.new_root, &news[in_])
        || meets(cx.new_root, sn, cx.old_root, &olds[io])
    {
        cx.cmp(&olds[io], &news[in_], &format!("{ptr}/oneOf/{in_}"), !flip);
    }
    true
}

/// Property declarations per name across alternatives, so that a property
/// "added" next to alternatives that already declared it is compared with
/// those declarations instead of being taken for a new optional field.
pub(crate) fn declarations(root: &Value, branches: &[Value]) -> BTreeMap<String, Vec<Value>> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    collect_declarations(root, branches, &mut out, &mut seen, 0);
    out
}

/// Where [`declarations`] keeps the rest schemas of branches that take
/// undeclared keys (no property name starts with a NUL).
pub(crate) const ANY_NAME: &str = "\u{0}additionalProperties";

/// Alternatives nested this deep are not searched for declarations.
const MAX_DECLARATION_DEPTH: usize = 16;

fn collect_declarations(
    root: &Value,
    branches: &[Value],
    out: &mut BTreeMap<String, Vec<Value>>,
    seen: &mut std::collections::HashSet<String>,
    depth: usize,
) {
    if depth >= MAX_DECLARATION_DEPTH {
        return;
    }
    for b in branches {
        let bs = shape(root, b);
        // a self-referencing alternative (`enum T { A(Box<T>), B(String) }`) is read once
        if let Some(via) = &bs.via {
            if !seen.insert(via.clone()) {
                continue;
            }
        }
        if let Some(props) = bs.get("properties").and_then(Value::as_object) {
            for (name, decl) in props {
                let mine = out.entry(name.clone()).or_default();
                if !mine.contains(decl) {
                    mine.push(decl.clone());
                }
            }
        }
        // a branch that takes undeclared keys (a map variant) declares every
        // name, with its rest schema
        if let Some(rest) = bs.get("additionalProperties") {
            let closed = *rest == Value::Bool(false);
            let mine = out.entry(ANY_NAME.to_string()).or_default();
            if !closed && !mine.contains(rest) {
                mine.push(rest.clone());
            }
        }
        for kw in ["anyOf", "oneOf", "allOf"] {
            if let Some(inner) = bs.get(kw).and_then(Value::as_array) {
                collect_declarations(root, inner, out, seen, depth + 1);
            }
        }
    }
}

/// oneOf rejects values matching more than one branch, so when branches
/// overlap (before or after) a change to any of them can move values in
/// either direction: report it as such rather than trusting the pairing.
fn one_of_overlap(
    cx: &mut Cx<'_>,
    olds: &[Value],
    news: &[Value],
    kw: (Option<&str>, Option<&str>),
    node: (TypeSet, TypeSet),
    ptr: &str,
    flip: bool,
) {
    // A value valid before matched exactly one branch. It can be rejected now
    // only by also matching a branch that is new or changed (input), and a
    // value rejected before for matching two branches can become valid only
    // when one of them changed (output). Inside `not` both matter.
    let check_new = kw.1 == Some("oneOf") && (cx.dir == Direction::Input || flip);
    let check_old = kw.0 == Some("oneOf") && (cx.dir == Direction::Output || flip);
    if !check_new && !check_old {
        return;
    }
    // which old branch accepts what which new branch does (annotations,
    // defaults and `$defs` spelling aside); only needed when both sides are
    // oneOf, where the same two branches overlapping before is nothing new
    let both = kw.0 == Some("oneOf") && kw.1 == Some("oneOf");
    let same: Vec<Vec<bool>> = if both {
        olds.iter()
            .map(|o| {
                news.iter()
                    .enumerate()
                    .map(|(i, n)| same_meaning(cx, o, n, &branch_ptr(ptr, kw.1, i)))
                    .collect()
            })
            .collect()
    } else {
        vec![]
    };
    let (old_root, new_root) = (cx.old_root, cx.new_root);
    // the first pair of `bs` branches that overlap and did not already
    // overlap as the same two branches on the other side
    let overlapping = |root: &Value, bs: &[Value], bs_is_new: bool| {
        let counterpart = |i: usize, a: usize| {
            if bs_is_new {
                same[a][i]
            } else {
                same[i][a]
            }
        };
        let others = if bs_is_new { olds.len() } else { news.len() };
        let paired_there = |i: usize, j: usize| {
            both && (0..others)
                .any(|a| counterpart(i, a) && (0..others).any(|b| b != a && counterpart(j, b)))
        };
        // the values both branches accept are of their common types: when,
        // on those types, each branch lies within a distinct branch of the
        // other side, such a value matches two branches there too
        let paired_within = |i: usize, j: usize, t: TypeSet| {
            if !both {
                return false;
            }
            // (`meet`: only the values both branches take, each branch
            // restricted by the other, need to lie within)
            let inside = |k: usize, meet: Option<usize>| -> Vec<bool> {
                let src = match meet {
                    Some(m) => serde_json::json!({"allOf": [&bs[k], &bs[m]]}),
                    None => bs[k].clone(),
                };
                (0..others)
                    .map(|a| {
                        let (o, n) = if bs_is_new {
                            (&olds[a], &src)
                        } else {
                            (&src, &news[a])
                        };
                        within_types(cx, o, n, t, bs_is_new, ptr)
                    })
                    .collect()
            };
            let distinct = |ii: &[bool], jj: &[bool]| {
                (0..others).any(|a| ii[a] && (0..others).any(|b| b != a && jj[b]))
            };
            distinct(&inside(i, None), &inside(j, None))
                || distinct(&inside(i, Some(j)), &inside(j, Some(i)))
        };
        // outside `not`, only values the other side accepts can be hurt by an
        // overlap: branches whose common types it never admits are harmless
        let (other_root, other) = if bs_is_new {
            (old_root, olds)
        } else {
            (new_root, news)
        };
        let reached = |i: usize, j: usize| {
            flip || super::vacuous::may_overlap(root, &bs[i], &bs[j], other_root, other)
        };
        // only values of the node's own types meet the branches
        let node_t = if bs_is_new { node.1 } else { node.0 };
        let within = |i: usize, j: usize| {
            let t = |b: &Value| super::vacuous::node_types(root, b);
            t(&bs[i]).intersect(t(&bs[j])).overlaps(node_t)
        };
        let common = |i: usize, j: usize| {
            let t = |b: &Value| super::vacuous::node_types(root, b);
            t(&bs[i]).intersect(t(&bs[j])).intersect(node_t)
        };
        (0..bs.len())
            .flat_map(|i| (i + 1..bs.len()).map(move |j| (i, j)))
            .find(|&(i, j)| {
                !paired_there(i, j)
                    && !disjoint(root, &bs[i], &bs[j])
                    && within(i, j)
                    && reached(i, j)
                    && !paired_within(i, j, common(i, j))
            })
    };
    let found = check_new
        .then(|| overlapping(cx.new_root, news, true))
        .flatten()
        .or_else(|| {
            check_old
                .then(|| overlapping(cx.old_root, olds, false))
                .flatten()
        });
    let Some((i, j)) = found else { return };
    let place = label::describe(ptr, cx.dir);
    let what = format!("{place}: oneOf alternative {i} changed and overlaps alternative {j}: values matching more than one branch are rejected, so values valid before may be rejected now (or the reverse)");
    let suffix = if cx.dir == Direction::Input {
        Named::from(RuleId::InputVariantOverlap)
    } else {
        Named::from(SchemaRule::ConstraintChanged)
    };
    cx.emit(
        suffix,
        Effect::Changed,
        flip,
        &format!("{ptr}/oneOf"),
        None,
        what,
    );
}

/// Restricted to the types `t`, does the branch `src` of one side lie
/// within the branch of the other (`new` within `old` when `src_is_new`,
/// else `old` within `new`)? Judged by the engine itself, each inclusion
/// as the direction where its failure is breaking.
fn within_types(
    cx: &Cx<'_>,
    old: &Value,
    new: &Value,
    t: TypeSet,
    src_is_new: bool,
    ptr: &str,
) -> bool {
    let restrict = |b: &Value| {
        if t == TypeSet::ALL {
            b.clone()
        } else {
            serde_json::json!({"allOf": [b, {"type": t.keyword()}]})
        }
    };
    let dir = if src_is_new {
        Direction::Output
    } else {
        Direction::Input
    };
    let mut trial = cx.trial_in(dir);
    trial.cmp(&restrict(old), &restrict(new), ptr, false);
    cx.absorb(&trial);
    exactly_within(&trial)
}

/// Did a trial comparison find the old values within the new (input) or
/// the new within the old (output) exactly? No breaking change, and no
/// field added to an open input object: the input policy (callers send
/// only declared fields) calls that harmless, but values that carried
/// the field with another value are no longer accepted, which matters
/// where exclusivity counts them (`oneOf`).
fn exactly_within(trial: &Cx<'_>) -> bool {
    trial.breaking_count() == 0
        && !trial
            .out
            .iter()
            .any(|c| c.rule_id() == RuleId::InputPropertyAdded)
}

fn branches(s: &Shape<'_>, kw: &str) -> Vec<Value> {
    s.get(kw)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// The alternatives of a node with its sibling keywords merged into each
/// (or the node itself when it has none). A branch keeps its own reference
/// (`{"$ref": ..., <siblings>}`): the comparator follows it, and its text
/// stays the identity that makes recursion through it terminate.
fn distributed(root: &Value, (node, s): (&Value, &Shape<'_>), kw: Option<&str>) -> Vec<Value> {
    let Some(kw) = kw else {
        // a reference stays one: comparing it again further down is then
        // recognised as the same pair, so recursion through it terminates
        if crate::schema::refs::holds_reference(node) {
            return vec![node.clone()];
        }
        return vec![Value::Object(s.map.clone().into_owned())];
    };
    // definitions and dialect are where the document keeps things, not constraints
    let kept_at_root = ["$defs", "definitions", "$schema", "$comment"];
    let siblings: Map<String, Value> = s
        .map
        .iter()
        .filter(|(k, _)| k.as_str() != kw && !kept_at_root.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    branches(s, kw)
        .iter()
        .map(|b| {
            if siblings.is_empty() {
                return b.clone();
            }
            let mut merged = match b {
                Value::Object(m) => m.clone(),
                _ => shape(root, b).map.into_owned(),
            };
            let leftover = merge_exact(&mut merged, &siblings, false);
            push_all_of(&mut merged, leftover);
            Value::Object(merged)
        })
        .collect()
}

/// What to report for a branch that finds no counterpart.
struct Plan<'k> {
    kw: (Option<&'k str>, Option<&'k str>),
    dominant_is_old: bool,
    dominant_missing: (SchemaRule, Effect),
    extra: (SchemaRule, Effect),
    /// The other side's whole node, when both sides' branches came from
    /// lists of alternatives: a branch it holds as a whole (`anyOf [T,
    /// string]` -> `T`, `T` a `oneOf`) needs no single partner among them.
    /// (Each such trial compares a branch, smaller than its node, with the
    /// other node: it cannot come back to the pair it started from.)
    whole_other: Option<&'k Value>,
}

/// Returns, per branch of the dominant side (old for inputs, new for
/// outputs), whether the other side's whole node held it.
fn pair_alternatives<'k>(
    cx: &mut Cx<'_>,
    (olds, news): (&[Value], &[Value]),
    (old_whole, new_whole): (Option<&'k Value>, Option<&'k Value>),
    ptr: &str,
    kw: (Option<&'k str>, Option<&'k str>),
    flip: bool,
) -> Vec<bool> {
    let plan = if cx.dir == Direction::Input {
        Plan {
            kw,
            dominant_is_old: true,
            dominant_missing: (SchemaRule::VariantRemoved, Effect::Narrowed),
            extra: (SchemaRule::VariantAdded, Effect::Widened),
            whole_other: new_whole.filter(|_| kw.0.is_some() && kw.1.is_some()),
        }
    } else {
        Plan {
            kw,
            dominant_is_old: false,
            dominant_missing: (SchemaRule::VariantAdded, Effect::Widened),
            extra: (SchemaRule::VariantRemoved, Effect::Narrowed),
            whole_other: old_whole.filter(|_| kw.0.is_some() && kw.1.is_some()),
        }
    };
    pair(cx, olds, news, ptr, flip, &plan)
}

fn branch_ptr(ptr: &str, kw: Option<&str>, i: usize) -> String {
    match kw {
        Some(k) => format!("{ptr}/{k}/{i}"),
        None => ptr.to_string(),
    }
}

/// A partner branch tried: its index, its score (lower is better) and the changes against it.
type Partner<S> = (usize, S, Vec<super::Change>);

fn pair(
    cx: &mut Cx<'_>,
    olds: &[Value],
    news: &[Value],
    ptr: &str,
    flip: bool,
    plan: &Plan<'_>,
) -> Vec<bool> {
    let (dominant, other) = if plan.dominant_is_old {
        (olds, news)
    } else {
        (news, olds)
    };
    let mut other_used = vec![false; other.len()];
    let mut held_whole = vec![false; dominant.len()];
    // Alternatives nested in alternatives describe the same object level.
    let mut level = declarations(cx.old_root, olds);
    if let Some(outer) = &cx.level_decls {
        for (name, decls) in outer.iter() {
            let mine = level.entry(name.clone()).or_default();
            for d in decls {
                // once each: through recursion the same declarations come back
                if !mine.contains(d) {
                    mine.push(d.clone());
                }
            }
        }
    }
    let decls = Rc::new(level);
    let cover = AnyOfCover::new(cx, olds, news, flip, plan);
    // an output `oneOf` branch whose every value another branch also takes
    // never validates: nothing reaches clients through it, so its pairing
    // breaks no one (what changing it does to the other branches'
    // exclusivity is `one_of_overlap`'s to judge, on its own)
    let dead = if cx.dir == Direction::Output
        && !flip
        && !plan.dominant_is_old
        && plan.kw.1 == Some("oneOf")
    {
        never_validating(cx.new_root, news)
    } else {
        vec![false; dominant.len()]
    };
    for (di, d) in dominant.iter().enumerate() {
        let keep = |c: &super::Change| !dead[di] || c.severity != Severity::Breaking;
        if let Some(whole) = plan.whole_other.filter(|_| !flip) {
            let mut trial = cx.trial();
            trial.pending_decls = Some(Rc::clone(&decls));
            if plan.dominant_is_old {
                trial.cmp(d, whole, ptr, flip);
            } else {
                trial.cmp(whole, d, &branch_ptr(ptr, plan.kw.1, di), flip);
            }
            cx.absorb(&trial);
            if trial.breaking_count() == 0 {
                other_used.iter_mut().for_each(|u| *u = true);
                held_whole[di] = true;
                cx.out.extend(trial.out.into_iter().filter(keep));
                continue;
            }
        }
        let mut best: Option<Partner<(usize, bool, usize)>> = None;
        for (oi, o) in other.iter().enumerate() {
            let (old_v, new_v, new_i) = if plan.dominant_is_old {
                (d, o, oi)
            } else {
                (o, d, di)
            };
            let mut trial = cx.trial();
            trial.pending_decls = Some(Rc::clone(&decls));
            trial.cmp(old_v, new_v, &branch_ptr(ptr, plan.kw.1, new_i), flip);
            cx.absorb(&trial);
            // among equally good partners, one no branch took yet: an
            // unpaired branch is reported as added or removed
            let score = (trial.breaking_count(), other_used[oi], trial.out.len());
            if best.as_ref().is_none_or(|b| score < b.1) {
                best = Some((oi, score, trial.out));
            }
        }
        // no single partner holds the whole branch: maybe one per type
        // of its values does (or it accepts nothing and needs none)
        // (inside `not`, where an unpaired branch of the other side breaks,
        // also when the partner differs at all)
        let clean = |cs: &[super::Change]| {
            cs.iter()
                .all(|c| matches!(c.severity, Severity::Cosmetic | Severity::Behavioral))
        };
        if best
            .as_ref()
            .is_none_or(|b| b.1 .0 > 0 || (flip && !clean(&b.2)))
        {
            let root = if plan.dominant_is_old {
                cx.old_root
            } else {
                cx.new_root
            };
            let pairing = |piece: &Value, oi: usize| {
                if plan.dominant_is_old {
                    (piece.clone(), other[oi].clone(), oi)
                } else {
                    (other[oi].clone(), piece.clone(), di)
                }
            };
            // (a branch that accepts nothing needs no partner among
            // alternatives; in an `allOf` it empties the whole node, the
            // strongest constraint there is)
            let conjunct = plan.kw.0 == Some("allOf");
            if let Some(pieces) = by_type(root, d).filter(|p| !(conjunct && p.is_empty())) {
                let mut found: Vec<(usize, Vec<super::Change>)> = vec![];
                let all = pieces.iter().all(|piece| {
                    let mut hit: Option<Partner<(bool, bool, usize)>> = None;
                    for (oi, &used) in other_used.iter().enumerate() {
                        let (old_v, new_v, new_i) = pairing(piece, oi);
                        let mut trial = cx.trial();
                        trial.pending_decls = Some(Rc::clone(&decls));
                        trial.cmp(&old_v, &new_v, &branch_ptr(ptr, plan.kw.1, new_i), flip);
                        cx.absorb(&trial);
                        let score = (!clean(&trial.out), used, trial.out.len());
                        if trial.breaking_count() == 0 && hit.as_ref().is_none_or(|h| score < h.1) {
                            hit = Some((oi, score, trial.out));
                        }
                    }
                    hit.map(|(oi, _, changes)| found.push((oi, changes)))
                        .is_some()
                });
                if all {
                    for (oi, changes) in found {
                        other_used[oi] = true;
                        cx.out.extend(changes.into_iter().filter(keep));
                    }
                    continue;
                }
            }
        }
        let best_other = best.as_ref().map_or(0, |b| b.0);
        let (old_i, new_i) = if plan.dominant_is_old {
            (di, best_other)
        } else {
            (best_other, di)
        };
        let plausible = best.as_ref().is_some_and(|(oi, score, _)| {
            score.0 == 0 || {
                let (o, n) = if plan.dominant_is_old {
                    (d, &other[*oi])
                } else {
                    (&other[*oi], d)
                };
                same_branch(cx, o, n)
            }
        });
        match best {
            Some((oi, _, changes)) if plausible => {
                other_used[oi] = true;
                let (o, n) = if plan.dominant_is_old {
                    (d, &other[oi])
                } else {
                    (&other[oi], d)
                };
                if cover.holds(cx, o, n) {
                    // (verdicts beyond what the validator decides stay: a
                    // field silently ignored, a serde width, a default)
                    let kept = |c: &super::Change| {
                        c.severity != Severity::Breaking || validator_blind(c.rule_id())
                    };
                    cx.out.extend(changes.into_iter().filter(kept).filter(keep));
                } else {
                    cx.out.extend(changes.into_iter().filter(keep));
                }
            }
            _ if cover.holds_alone(cx, d, plan.dominant_is_old) || dead[di] => {}
            _ => {
                let (suffix, effect) = plan.dominant_missing;
                let at = if plan.dominant_is_old {
                    branch_ptr(ptr, plan.kw.0, old_i)
                } else {
                    branch_ptr(ptr, plan.kw.1, new_i)
                };
                let what = missing_what(cx, suffix, ptr, d);
                if let Some(c) = cx.emit(suffix, effect, flip, &at, None, what) {
                    c.detail.values = vec![d.clone()];
                }
            }
        }
    }
    for (oi, o) in other.iter().enumerate() {
        if other_used[oi] || cover.holds_alone(cx, o, !plan.dominant_is_old) {
            continue;
        }
        let (suffix, effect) = plan.extra;
        let at = if plan.dominant_is_old {
            branch_ptr(ptr, plan.kw.1, oi)
        } else {
            branch_ptr(ptr, plan.kw.0, oi)
        };
        let what = missing_what(cx, suffix, ptr, o);
        if let Some(c) = cx.emit(suffix, effect, flip, &at, None, what) {
            c.detail.values = vec![o.clone()];
        }
    }
    held_whole
}

/// Which of the `oneOf` branches `bs` (in `root`) never validate: every
/// value of their types another branch accepts in full, so such a value
/// matches two branches (a branch that accepts nothing included).
fn never_validating(root: &Value, bs: &[Value]) -> Vec<bool> {
    if bs.len() > 16 {
        return vec![false; bs.len()];
    }
    let full: Vec<TypeSet> = bs
        .iter()
        .map(|b| super::coverage::full_types_shallow(root, b))
        .collect();
    (0..bs.len())
        .map(|i| {
            let t = super::vacuous::node_types(root, &bs[i]);
            (0..bs.len()).any(|j| j != i && full[j].contains(t))
        })
        .collect()
}

/// `anyOf` coverage: a value a changed (or unpaired) branch lost is still
/// accepted when another branch of that side accepts every value of its
/// type. Where the side a break needs (old for a narrowing that breaks,
/// new for a widening) has a branch whose types the other side's branches
/// accept in full, no change in that branch can break anyone.
struct AnyOfCover {
    /// Whether a narrowing breaks here (input outside `not`, output inside).
    narrowing_breaks: bool,
    /// The types the other side's branches accept in full (`None`: not an `anyOf`).
    full: Option<TypeSet>,
}

impl AnyOfCover {
    fn new(cx: &Cx<'_>, olds: &[Value], news: &[Value], flip: bool, plan: &Plan<'_>) -> Self {
        let narrowing_breaks = (cx.dir == Direction::Input) != flip;
        let full = (plan.kw == (Some("anyOf"), Some("anyOf"))).then(|| {
            let (root, bs) = if narrowing_breaks {
                (cx.new_root, news)
            } else {
                (cx.old_root, olds)
            };
            bs.iter().fold(TypeSet::NONE, |acc, b| {
                acc.union(super::coverage::full_types(root, b))
            })
        });
        AnyOfCover {
            narrowing_breaks,
            full,
        }
    }

    /// Can no change between the paired branches `o` and `n` break anyone?
    fn holds(&self, cx: &Cx<'_>, o: &Value, n: &Value) -> bool {
        let Some(full) = self.full else { return false };
        let reach = if self.narrowing_breaks {
            super::vacuous::node_types(cx.old_root, o)
        } else {
            super::vacuous::node_types(cx.new_root, n)
        };
        full.contains(reach)
    }

    /// Can the unpaired branch `b` (of the old side or the new) break no one?
    fn holds_alone(&self, cx: &Cx<'_>, b: &Value, old_side: bool) -> bool {
        let Some(full) = self.full else { return false };
        if old_side != self.narrowing_breaks {
            return false;
        }
        let root = if old_side { cx.old_root } else { cx.new_root };
        full.contains(super::vacuous::node_types(root, b))
    }
}

/// The JSON types a branch is split by (integers go with numbers).
const TYPE_CLASSES: [(TypeSet, &str); 6] = [
    (TypeSet::NULL, "null"),
    (TypeSet::BOOLEAN, "boolean"),
    (TypeSet::OBJECT, "object"),
    (TypeSet::ARRAY, "array"),
    (TypeSet::STRING, "string"),
    (TypeSet::NUMBER, "number"),
];

/// A branch (in `root`) split by the type of its values: one piece per type
/// it may hold, the branch with its `type` narrowed to that one (so the
/// pieces together accept exactly what it does). Empty when it provably
/// accepts nothing, `None` when its values have a single type.
fn by_type(root: &Value, branch: &Value) -> Option<Vec<Value>> {
    let reach = super::vacuous::node_types(root, branch);
    let classes: Vec<(TypeSet, &str)> = TYPE_CLASSES
        .into_iter()
        .filter(|(t, _)| reach.overlaps(*t))
        .collect();
    if classes.len() == 1 {
        return None;
    }
    let s = shape(root, branch);
    // a `type` said of a schema that said nothing of objects would make its
    // keys declared ones (the input policy for objects that take any key)
    if s.get("type").is_none() && reach.overlaps(TypeSet::OBJECT) {
        return None;
    }
    let declared = TypeSet::from_keyword(s.get("type"));
    Some(
        classes
            .into_iter()
            .map(|(t, name)| {
                let name = if t == TypeSet::NUMBER && !declared.contains(TypeSet::NUMBER) {
                    "integer"
                } else {
                    name
                };
                let mut piece = s.map.clone().into_owned();
                piece.insert("type".into(), Value::String(name.into()));
                Value::Object(piece)
            })
            .collect(),
    )
}

fn brief(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}...", s.chars().take(77).collect::<String>())
    } else {
        s
    }
}

fn missing_what(cx: &Cx<'_>, rule: SchemaRule, ptr: &str, branch: &Value) -> String {
    let place = label::describe(ptr, cx.dir);
    match (cx.dir, rule) {
        (Direction::Input, SchemaRule::VariantRemoved) => format!(
            "{place} no longer accepts the alternative {}: calls shaped like it are rejected",
            brief(branch)
        ),
        (Direction::Input, SchemaRule::VariantAdded) => {
            format!("{place} now also accepts the alternative {}", brief(branch))
        }
        (Direction::Output, SchemaRule::VariantAdded) => format!(
            "{place} may now be {}: clients that handle only the old shapes break",
            brief(branch)
        ),
        (Direction::Output, SchemaRule::VariantRemoved) => {
            format!("{place} is no longer {}", brief(branch))
        }
        (_, SchemaRule::AllOfNarrowed) => {
            format!("{place} must now also satisfy {}", brief(branch))
        }
        (_, SchemaRule::AllOfWidened) => {
            format!("{place} no longer must satisfy {}", brief(branch))
        }
        _ => format!("{place}: alternative {} changed", brief(branch)),
    }
}

/// Breaking verdicts a validator does not decide (a field silently
/// ignored, a serde width, a default, a reused name, a comparison that
/// stopped): kept even where a partner branch covers the values.
fn validator_blind(id: RuleId) -> bool {
    use SchemaRule as R;
    matches!(
        SchemaRule::of(id),
        Some(
            R::PropertyRemoved
                | R::FormatChanged
                | R::FormatNarrowed
                | R::FormatWidened
                | R::DefaultChanged
                | R::NotCompared
        )
    ) || matches!(
        id,
        RuleId::OutputOptionalPropertyRemoved
            | RuleId::InputDefaultAdded
            | RuleId::InputDefaultRemoved
            | RuleId::InputReservedNameReused
            | RuleId::ToolReservedNameReused
            | RuleId::PromptReservedNameReused
            | RuleId::ResourceReservedNameReused
    )
}

/// Do two branches accept the same values? Equal up to references, or
/// compared with nothing but annotations, defaults or extensions changed.
fn same_meaning(cx: &mut Cx<'_>, old: &Value, new: &Value, ptr: &str) -> bool {
    if cx.equiv.same(old, new) {
        return true;
    }
    // compared as if inside `not`, where a change in either direction
    // counts (oneOf exclusivity on both sides included) and annotations vanish
    let mut trial = cx.trial();
    trial.cmp(old, new, ptr, true);
    cx.absorb(&trial);
    let clean = |t: &Cx<'_>| {
        t.out
            .iter()
            .all(|c| matches!(c.severity, Severity::Cosmetic | Severity::Behavioral))
    };
    if clean(&trial) {
        return true;
    }
    // else each inclusion on its own, where alternatives may be covered
    // type by type: no breaking change as an input (old within new) and
    // none as an output (new within old)
    [Direction::Input, Direction::Output]
        .into_iter()
        .all(|dir| {
            let mut trial = cx.trial_in(dir);
            trial.cmp(old, new, ptr, false);
            cx.absorb(&trial);
            exactly_within(&trial)
        })
}

/// Two branches are "the same branch, changed" when their types overlap.
fn same_branch(cx: &Cx<'_>, old: &Value, new: &Value) -> bool {
    let so = shape(cx.old_root, old);
    let sn = shape(cx.new_root, new);
    effective_types(&so).overlaps(effective_types(&sn))
}

/// Can no value match both branches? (disjoint types, or a required property
/// whose allowed values are disjoint, as in tagged unions).
fn disjoint(root: &Value, a: &Value, b: &Value) -> bool {
    disjoint_at(root, a, b, 0)
}

/// Deepest `anyOf`/`oneOf` nesting [`disjoint`] looks through.
const DISJOINT_DEPTH: usize = 3;

fn disjoint_at(root: &Value, a: &Value, b: &Value, depth: usize) -> bool {
    if disjoint_nodes(root, a, b) {
        return true;
    }
    // a value of a node with alternatives is a value of one of them (its
    // siblings only narrow that): when each alternative shares no value
    // with the other node, neither does the node
    if depth >= DISJOINT_DEPTH {
        return false;
    }
    let alternatives = |v: &Value| -> Option<Vec<Value>> {
        let s = shape(root, v);
        ["anyOf", "oneOf"].into_iter().find_map(|kw| {
            s.get(kw)
                .and_then(Value::as_array)
                .filter(|bs| !bs.is_empty() && bs.len() <= 8)
                .cloned()
        })
    };
    let split = |x: &Value, y: &Value| {
        alternatives(x).is_some_and(|bs| bs.iter().all(|bx| disjoint_at(root, bx, y, depth + 1)))
    };
    split(a, b) || split(b, a)
}

fn disjoint_nodes(root: &Value, a: &Value, b: &Value) -> bool {
    let (sa, sb) = (shape(root, a), shape(root, b));
    if !effective_types(&sa).overlaps(effective_types(&sb)) {
        return true;
    }
    // both list their values, and share none
    let listed = |s: &Shape<'_>| effective_enum(s, TypeSet::from_keyword(s.get("type")));
    if let (Some(va), Some(vb)) = (listed(&sa), listed(&sb)) {
        if !crate::schema::values::intersect(&va, &vb) {
            return true;
        }
    }
    let req = |s: &Shape<'_>| -> Vec<String> {
        s.get("required")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default()
    };
    let (ra, rb) = (req(&sa), req(&sb));
    // (the members' rules below hold only objects apart)
    if !TypeSet::OBJECT.contains(effective_types(&sa).intersect(effective_types(&sb))) {
        return false;
    }
    // a member one branch requires and the other admits with no value in common
    if excludes_member(root, (&sa, &ra), &sb) || excludes_member(root, (&sb, &rb), &sa) {
        return true;
    }
    for name in ra.iter().filter(|n| rb.contains(n)) {
        let pa = sa.get("properties").and_then(|p| p.get(name));
        let pb = sb.get("properties").and_then(|p| p.get(name));
        if let (Some(pa), Some(pb)) = (pa, pb) {
            let (xa, xb) = (shape(root, pa), shape(root, pb));
            let va = effective_enum(&xa, TypeSet::from_keyword(xa.get("type")));
            let vb = effective_enum(&xb, TypeSet::from_keyword(xb.get("type")));
            if let (Some(va), Some(vb)) = (va, vb) {
                if !crate::schema::values::intersect(&va, &vb) {
                    return true;
                }
            }
        }
    }
    false
}

/// Does branch `a` require a member that branch `b` does not admit with
/// any value `a` allows there (`b` declares it with types `a`'s declaration
/// never meets, or `b` is closed and declares it not at all)?
fn excludes_member(root: &Value, (a, required): (&Shape<'_>, &[String]), b: &Shape<'_>) -> bool {
    let props = |s: &Shape<'_>, name: &str| {
        s.get("properties")
            .and_then(|p| p.get(name))
            .map(|p| effective_types(&shape(root, p)))
    };
    let closed = b.get("additionalProperties") == Some(&Value::Bool(false))
        && b.get("patternProperties").is_none();
    required
        .iter()
        .any(|name| match (props(a, name), props(b, name)) {
            (Some(ta), Some(tb)) => !ta.overlaps(tb),
            (_, None) => closed,
            (None, Some(_)) => false,
        })
}

/// Does the whole node `s` of one side (old when `node_is_old`) lie within
/// the `allOf` branch `b` of the other? Judged by the engine itself, as the
/// direction where its failure is breaking.
fn node_within(cx: &Cx<'_>, s: &Shape<'_>, b: &Value, ptr: &str, node_is_old: bool) -> bool {
    let node = Value::Object(s.map.clone().into_owned());
    if node_is_old {
        let mut trial = cx.trial_in(Direction::Input);
        trial.cmp(&node, b, ptr, false);
        cx.absorb(&trial);
        trial.breaking_count() == 0
    } else {
        let mut trial = cx.trial_in(Direction::Output);
        trial.cmp(b, &node, ptr, false);
        cx.absorb(&trial);
        trial.breaking_count() == 0
    }
}

/// Residual `allOf` (after merging) and `not`.
pub(crate) fn compare_all_of_and_not(
    cx: &mut Cx<'_>,
    so: &Shape<'_>,
    sn: &Shape<'_>,
    ptr: &str,
    flip: bool,
) {
    // a branch holding only keywords no value of the node is subject to
    // (another type's) accepts every such value: it constrains nothing
    let idle = |root: &Value, s: &Shape<'_>| {
        let idle = super::vacuous::idle_beside_all_of(root, s);
        branches(s, "allOf")
            .into_iter()
            .filter(|b| {
                !shape(root, b).map.keys().all(|k| {
                    idle.contains(&k.as_str())
                        || crate::schema::ANNOTATION_KEYWORDS.contains(&k.as_str())
                })
            })
            .collect::<Vec<_>>()
    };
    let (ao, an) = (idle(cx.old_root, so), idle(cx.new_root, sn));
    let kept = |b: &Value, other: &[Value], old_side: bool| {
        other.iter().any(|x| {
            if old_side {
                cx.equiv.same(b, x)
            } else {
                cx.equiv.same(x, b)
            }
        })
    };
    let mut olds: Vec<Value> = ao.iter().filter(|b| !kept(b, &an, true)).cloned().collect();
    let mut news: Vec<Value> = an
        .iter()
        .filter(|b| !kept(b, &ao, false))
        .cloned()
        .collect();
    // a branch only the stricter side has, which the other side's whole
    // node already lies within, requires nothing more there
    if (cx.dir == Direction::Input) != flip {
        news.retain(|b| !node_within(cx, so, b, ptr, true));
    } else {
        olds.retain(|b| !node_within(cx, sn, b, ptr, false));
    }
    if !olds.is_empty() || !news.is_empty() {
        let plan = if cx.dir == Direction::Input {
            Plan {
                kw: (Some("allOf"), Some("allOf")),
                dominant_is_old: false,
                dominant_missing: (SchemaRule::AllOfNarrowed, Effect::Narrowed),
                extra: (SchemaRule::AllOfWidened, Effect::Widened),
                whole_other: None,
            }
        } else {
            Plan {
                kw: (Some("allOf"), Some("allOf")),
                dominant_is_old: true,
                dominant_missing: (SchemaRule::AllOfWidened, Effect::Widened),
                extra: (SchemaRule::AllOfNarrowed, Effect::Narrowed),
                whole_other: None,
            }
        };
        pair(cx, &olds, &news, ptr, flip, &plan);
    }
    let place = label::describe(ptr, cx.dir);
    // a `not` whose types cannot meet the node's excludes nothing (issue 13)
    let meets = |root: &Value, s: &Shape<'_>, not_root: &Value, not: &Value| {
        super::vacuous::may_meet(root, s, not_root, not)
    };
    match (so.get("not"), sn.get("not")) {
        // a changed `not` whose schemas the node's types meet on neither side
        // excludes nothing before or after
        (Some(o), Some(n))
            if !meets(cx.old_root, so, cx.new_root, n)
                && !meets(cx.new_root, sn, cx.old_root, o) => {}
        (Some(o), Some(n)) => cx.cmp(o, n, &format!("{ptr}/not"), !flip),
        (None, Some(n)) if !meets(cx.old_root, so, cx.new_root, n) => {}
        (Some(o), None) if !meets(cx.new_root, sn, cx.old_root, o) => {}
        (None, Some(n)) => {
            let what = if n.as_object().is_some_and(Map::is_empty) || n == &Value::Bool(true) {
                match cx.dir {
                    Direction::Input => format!("{place} now rejects every value (false schema): every call that sends it is rejected"),
                    Direction::Output => format!("{place} can no longer be present"),
                }
            } else {
                format!("{place} now excludes values matching {}", brief(n))
            };
            if let Some(c) = cx.emit(
                SchemaRule::NotNarrowed,
                Effect::Narrowed,
                flip,
                &format!("{ptr}/not"),
                None,
                what,
            ) {
                c.detail.values = vec![n.clone()];
            }
        }
        (Some(o), None) => {
            let what = format!("{place} no longer excludes values matching {}", brief(o));
            if let Some(c) = cx.emit(
                SchemaRule::NotWidened,
                Effect::Widened,
                flip,
                &format!("{ptr}/not"),
                None,
                what,
            ) {
                c.detail.values = vec![o.clone()];
            }
        }
        (None, None) => {}
    }
}
