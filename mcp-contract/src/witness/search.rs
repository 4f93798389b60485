//! The search for an instance one side accepts and the other rejects:
//! focused candidates at the changed node, embedded in sampled contexts,
//! then seeded random instances, each checked ([`super::values`]) and the
//! best hit shrunk ([`super::shrink`]). Bounded per verdict and deterministic.

use std::time::Instant;

use jsonschema::Validator;
use serde_json::{json, Value};

use super::candidates::{self, Focus};
use super::embed::{embed, place_node, pointer, pointer_mut, to_pointer};
use super::ints::{width_probes, IntWidths};
use super::pass::{unproven, OUT_OF_TIME};
use super::path::{self, Site};
use super::random;
use super::sample;
use super::shrink::uniform;
use super::values::{Hit, Tier};
use super::{Proof, Witness, WitnessKind};

/// Instances still tried, after a hit the validator's complaint attributes,
/// for one that undoing the change explains.
pub(super) const NEAR_EXTRA: usize = 150;

/// Instances still tried, after a call that is silently ignored, for one
/// that is rejected.
pub(super) const IGNORED_EXTRA: usize = 40;

/// Whole random instances the source side accepts kept as contexts.
pub(super) const VALID_CONTEXTS: usize = 3;

/// Focused candidates tried in each such context.
pub(super) const CONTEXT_CANDIDATES: usize = 60;

/// Focused candidates built before the search starts; the rest (up to
/// [`candidates::MAX_CANDIDATES`]) only once these are all tried. The same
/// list either way, so the same witness.
pub(super) const FIRST_CANDIDATES: usize = 32;

/// One witness search.
pub(super) struct Search<'a> {
    pub(super) site: &'a Site,
    /// The change's pointer inside the schema, as segments (after `/inputSchema`).
    pub(super) pointer_tail: Vec<String>,
    pub(super) subject: Option<&'a str>,
    pub(super) input: bool,
    pub(super) old: (&'a Value, &'a Validator),
    pub(super) new: (&'a Value, &'a Validator),
    /// The old and the new validator with integer widths enforced (where a side has any).
    pub(super) strict: (Option<&'a Validator>, Option<&'a Validator>),
    pub(super) budget: usize,
    pub(super) deadline: Option<Instant>,
    /// The verdict is about overlapping `oneOf` branches.
    pub(super) overlap: bool,
    /// A witness of a change inside an alternative must be a value of that
    /// very alternative (not for verdicts about how alternatives overlap).
    pub(super) own_branch: bool,
    /// The other side with only this change undone (compiled on first use):
    /// an instance it accepts is rejected because of this change.
    pub(super) undone: std::cell::OnceCell<Option<Validator>>,
    /// [`Search::int_formats`], worked out once (the search and the shrinking both ask).
    pub(super) ints: std::cell::OnceCell<Option<IntWidths>>,
    /// Whole-schema samples shared with the tool's other verdicts.
    pub(super) samples: Option<&'a sample::RootSamples>,
}

impl Search<'_> {
    pub(super) fn src(&self) -> (&Value, &Validator) {
        if self.input {
            self.old
        } else {
            self.new
        }
    }

    pub(super) fn other(&self) -> (&Value, &Validator) {
        if self.input {
            self.new
        } else {
            self.old
        }
    }

    /// The source and the other side's validator with integer widths enforced.
    pub(super) fn strict(&self) -> (Option<&Validator>, Option<&Validator>) {
        if self.input {
            self.strict
        } else {
            (self.strict.1, self.strict.0)
        }
    }

    /// Does the source side accept `inst`, as serde reads it (integer widths enforced)?
    pub(super) fn src_accepts(&self, inst: &Value) -> bool {
        self.strict().0.unwrap_or(self.src().1).is_valid(inst)
    }

    /// Does the other side accept `inst`, as serde reads it (integer widths enforced)?
    pub(super) fn other_accepts(&self, inst: &Value) -> bool {
        self.strict().1.unwrap_or(self.other().1).is_valid(inst)
    }

    /// Is the instance's value one of the changed alternative's own? For a
    /// change inside an alternative (`.../oneOf/2/...`, or the alternative
    /// itself), the value at that alternative's place must be one it
    /// accepts: a value only a sibling takes shows the sibling, not this
    /// change. (Decided by the engine's own reading; undecided, or a place
    /// the pointer does not map to, counts as yes.)
    pub(super) fn in_own_branch(&self, inst: &Value, at: &[String]) -> bool {
        let tail = &self.pointer_tail;
        let alternative = |i: usize| {
            matches!(tail[i].as_str(), "anyOf" | "oneOf")
                && tail.get(i + 1).is_some_and(|n| n.parse::<usize>().is_ok())
        };
        let Some(k) = (0..tail.len()).rev().find(|&i| alternative(i)) else {
            return true;
        };
        let Some(depth) = crate::diff::place::descents(tail[..k + 2].iter().map(String::as_str))
        else {
            return true;
        };
        let (src_root, _) = self.src();
        let branch = place_node(src_root, &tail[..k + 2]);
        let value = at.get(..depth).and_then(|place| pointer(inst, place));
        match (branch, value) {
            (Some(b), Some(v)) => crate::schema::accepts::accepts(src_root, b, v) != Some(false),
            _ => true,
        }
    }

    pub(super) fn run(&self, rule: &str) -> (Option<Witness>, Proof) {
        let (src_root, _) = self.src();
        let (other_root, _) = self.other();
        let focus = Focus {
            keyword: self.site.keyword.as_deref(),
            key: self.site.key.as_deref(),
            subject: self.subject,
            src_root,
            src_nodes: candidates::nodes_at(src_root, &self.site.steps),
            other_root,
            other_nodes: candidates::nodes_at(other_root, &self.site.steps),
            samples: self.samples,
        };
        let ints = self.int_formats();
        // (the first few focused candidates usually decide: the rest is
        // built only when the search gets to it)
        let mut cands = candidates::focused_upto(&focus, FIRST_CANDIDATES);
        let mut complete = cands.len() < FIRST_CANDIDATES;
        if let Some(w) = &ints {
            // the boundary values serde rejects on the other side (and
            // accepts on the source side), and a fraction
            let mut bounds: Vec<Value> = vec![];
            // (a type verdict is about the fraction)
            if self.site.keyword.as_deref() == Some("type") {
                bounds.push(json!(0.5));
            }
            bounds.extend(width_probes(&w.other, &w.src));
            // (where a width is negated: within the other side's, past the source side's)
            bounds.extend(width_probes(&w.src, &w.other));
            bounds.push(json!(0.5));
            bounds.extend(cands);
            cands = bounds;
        }
        // contexts, built once: the source side's sample, the other side's, other branches
        let contexts: Vec<(Value, Vec<String>)> = (0..4)
            .map(|ctx| {
                let root = if ctx % 2 == 0 { src_root } else { other_root };
                embed(root, &self.site.steps, Value::Null, ctx / 2, false)
            })
            .collect();
        // per context: does some value at the node pass both sides? Then a
        // rejection elsewhere in the instance is still caused by the node's value.
        let controls = std::cell::OnceCell::new();
        let controls = || {
            controls.get_or_init(|| -> Vec<Value> {
                focus
                    .src_nodes
                    .iter()
                    .map(|n| (src_root, *n))
                    .chain(focus.other_nodes.iter().map(|n| (other_root, *n)))
                    .flat_map(|(r, n)| (0..3).map(move |v| sample::sample(r, n, v)))
                    .take(12)
                    .collect()
            })
        };
        let mut controlled: Vec<Option<bool>> = vec![None; contexts.len()];
        let mut tried = 0usize;
        let mut fallback: Option<Hit> = None;
        let mut ignored: Option<Hit> = None;
        // a hit the validator's complaint attributes: kept while a surer one is looked for
        let mut near: Option<Hit> = None;
        let mut limit = self.budget;
        let mut out_of_time = false;
        let mut generic_added = false;
        let mut i = 0;
        'outer: loop {
            if i == cands.len() && !complete {
                complete = true;
                cands.extend(
                    candidates::focused(&focus)
                        .into_iter()
                        .skip(FIRST_CANDIDATES),
                );
            }
            if i == cands.len() {
                if generic_added {
                    break;
                }
                generic_added = true;
                let more = candidates::generic_candidates(&focus, &cands);
                cands.extend(more);
                if i == cands.len() {
                    break;
                }
            }
            let cand = &cands[i];
            i += 1;
            for (ci, (base, at)) in contexts.iter().enumerate() {
                if tried >= limit {
                    break 'outer;
                }
                if self.deadline.is_some_and(|d| Instant::now() >= d) {
                    out_of_time = true;
                    break 'outer;
                }
                tried += 1;
                let mut inst = base.clone();
                match pointer_mut(&mut inst, at) {
                    Some(slot) => *slot = cand.clone(),
                    None => continue,
                }
                // (in the first context, where the node is an array's item,
                // also every item like it: a sampled sibling may fail alone)
                let hit = self.check(&inst, at, ints).or_else(|| {
                    let u = (ci == 0).then(|| uniform(&inst, at)).flatten()?;
                    tried += 1;
                    self.check(&u, at, ints)
                });
                if let Some(hit) = hit {
                    match (hit.kind, hit.tier) {
                        // a rejection (a closed object) shows up early, or not at all
                        (WitnessKind::Ignored, _) if ignored.is_none() => {
                            limit = limit.min(tried + IGNORED_EXTRA);
                            ignored = Some(hit);
                        }
                        (WitnessKind::Ignored, _) => {}
                        (_, Tier::Undone) => return self.finish(hit),
                        (_, Tier::AtNode) if near.is_none() => {
                            limit = limit.min(tried + NEAR_EXTRA);
                            near = Some(hit);
                        }
                        (_, Tier::AtNode) => {}
                        _ if fallback.is_none() => {
                            let ok = *controlled[ci].get_or_insert_with(|| {
                                controls().iter().any(|c| {
                                    let mut inst = base.clone();
                                    if let Some(slot) = pointer_mut(&mut inst, at) {
                                        *slot = c.clone();
                                    }
                                    self.old.1.is_valid(&inst) && self.new.1.is_valid(&inst)
                                })
                            });
                            if ok {
                                fallback = Some(hit);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        // last resort: seeded random instances, of the node in its contexts and of the whole schema
        if fallback.is_none() && ignored.is_none() {
            if !complete && tried < limit {
                cands.extend(
                    candidates::focused(&focus)
                        .into_iter()
                        .skip(FIRST_CANDIDATES),
                );
            }
            let mut rng = random::Rng::seeded(&format!("{rule} {}", self.pointer_tail.join("/")));
            let node_path: Option<Vec<String>> = {
                let p = path::instance_path(&self.site.steps);
                (!p.iter().any(|t| t == "*")).then_some(p)
            };
            let needs_node = matches!(
                self.site.keyword.as_deref(),
                Some("property-removed" | "format")
            );
            let sides = [
                (src_root, &focus.src_nodes),
                (other_root, &focus.other_nodes),
            ];
            // whole instances the source side accepts, with the node in place:
            // contexts the sampled ones (which may miss a required value
            // elsewhere) are not, tried with the focused candidates first
            let mut valid: Vec<(Value, Vec<String>)> = vec![];
            let mut queued: std::collections::VecDeque<Value> = Default::default();
            while tried < limit {
                tried += 1;
                // (a queued candidate in the latest whole context first)
                let queued_inst = match (valid.last(), queued.pop_front()) {
                    (Some((base, at)), Some(cand)) => {
                        let mut inst = base.clone();
                        match pointer_mut(&mut inst, at) {
                            Some(slot) => *slot = cand,
                            None => continue,
                        }
                        Some((inst, at.clone()))
                    }
                    _ => None,
                };
                let (inst, at) = match (queued_inst, tried % 3) {
                    (Some(q), _) => q,
                    (None, 0) => {
                        let inst = random::instance(src_root, src_root, &mut rng);
                        let at = match &node_path {
                            Some(p) if pointer(&inst, p).is_some() => p.clone(),
                            _ if needs_node => continue,
                            _ => vec![],
                        };
                        if valid.len() < VALID_CONTEXTS
                            && node_path.is_some()
                            && self.src_accepts(&inst)
                        {
                            valid.push((inst.clone(), at.clone()));
                            queued = cands.iter().take(CONTEXT_CANDIDATES).cloned().collect();
                        }
                        (inst, at)
                    }
                    (None, side) => {
                        let (root, nodes) = sides[side - 1];
                        let Some(n) = nodes.get(rng.below_pub(nodes.len())) else {
                            continue;
                        };
                        let v = random::instance(root, n, &mut rng);
                        let (base, at) = if !valid.is_empty() && rng.below_pub(2) == 0 {
                            &valid[rng.below_pub(valid.len())]
                        } else {
                            &contexts[rng.below_pub(contexts.len())]
                        };
                        let mut inst = base.clone();
                        match pointer_mut(&mut inst, at) {
                            Some(slot) => *slot = v,
                            None => continue,
                        }
                        (inst, at.clone())
                    }
                };
                if let Some(hit) = self.check(&inst, &at, ints) {
                    match (hit.kind, hit.tier) {
                        // a rejection (a closed object) shows up early, or not at all
                        (WitnessKind::Ignored, _) if ignored.is_none() => {
                            limit = limit.min(tried + IGNORED_EXTRA);
                            ignored = Some(hit);
                        }
                        (WitnessKind::Ignored, _) => {}
                        (_, Tier::Undone) => return self.finish(hit),
                        (_, Tier::AtNode) if near.is_none() => {
                            limit = limit.min(tried + NEAR_EXTRA);
                            near = Some(hit);
                        }
                        (_, Tier::AtNode) => {}
                        _ => {}
                    }
                }
            }
        }
        if let Some(hit) = near.or(fallback).or(ignored) {
            return self.finish(hit);
        }
        if out_of_time {
            return unproven(format!("{OUT_OF_TIME}, after {tried} candidates"));
        }
        unproven(format!(
            "no instance the {} schema accepts and the {} one rejects found among {tried} candidates built from the change at `{}` ({rule})",
            if self.input { "old" } else { "new" },
            if self.input { "new" } else { "old" },
            to_pointer(&path::instance_path(&self.site.steps)),
        ))
    }
}
