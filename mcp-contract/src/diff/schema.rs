//! The schema comparator: walks an old and a new schema side by side and
//! reports each difference as narrowing or widening of the set of values
//! accepted, which the direction (input or output) turns into a rule id.
//!
//! Both documents were first read in their dialects
//! ([`crate::schema::dialect`]). References are followed lazily. A pair of
//! nodes that reaches a reference is decided once per key (both nodes'
//! text, direction, negation, root or not, the declarations in scope) and
//! replayed, with the pointers of its new place, wherever it is met again;
//! a key met again while it is still being decided is assumed related (the
//! greatest fixed point), and what was decided under that assumption is
//! replayed only inside the same recursion. Overlap and equivalence trials
//! in other directions share the memo and the stack. So a recursive or
//! widely alternative schema costs one decision per distinct key: with `n`
//! and `m` nodes on the two sides that is O(n·m·d) keys (`d` the distinct
//! declaration scopes, a handful in practice), each decided in time linear
//! in its node's keywords plus the trial pairings of its alternatives
//! (O(a·b) for `a` and `b` branches). `MAX_WORK` stays as a last resort and
//! says which limit it stopped at. Inside `not`, narrowing and widening
//! swap.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use serde_json::Value;

use super::label;
use super::rule::{Named, SchemaRule};
use super::Change;
use crate::rules::{self, RuleId, Severity};
use crate::schema::equiv::RefEquiv;
use crate::schema::shape::{shape, Shape};
use crate::schema::ANNOTATION_KEYWORDS;
use Direction::Input;

/// Which side of the wire reads values of this schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Read by the server: narrowing breaks callers.
    Input,
    /// Read by clients: widening breaks them.
    Output,
}

impl Direction {
    pub fn namespace(self) -> &'static str {
        match self {
            Direction::Input => "input",
            Direction::Output => "output",
        }
    }
}

/// How a keyword change moves the set of accepted values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    /// New accepts fewer values.
    Narrowed,
    /// New accepts more values.
    Widened,
    /// Neither includes the other (or the engine cannot tell).
    Changed,
    /// No effect on which values are valid (annotations).
    Neutral,
}

/// Deepest schema nesting the comparator follows.
const MAX_DEPTH: usize = 200;
/// Alternatives and references applied at one place in the value, one
/// inside another, beyond which the schema is taken to recurse there.
const MAX_STEPS_IN_PLACE: usize = 48;
const UNGUARDED: &str = "its references lead back to the same place in the value without descending into it (a recursion JSON Schema leaves undefined)";

pub(crate) struct Cx<'a> {
    pub old_root: &'a Value,
    pub new_root: &'a Value,
    pub tool: &'a str,
    pub dir: Direction,
    /// Which references resolve alike: an equal sub-schema may be skipped
    /// only when every reference inside it does.
    pub equiv: Rc<RefEquiv>,
    /// Pairs of nodes whose changes this context already holds (see [`Cx::memo_key`]).
    reported: HashSet<MemoKey>,
    /// `reported`'s keys in the order they were added: a filter that drops
    /// what a node's frame collected takes back what was reported beneath
    /// it, so that a shared definition reached under a node that accepts
    /// nothing is still reported where it is used live.
    reported_log: Vec<MemoKey>,
    /// Pairs being compared, outermost first: meeting one again is
    /// recursion, assumed compatible (the greatest fixed point).
    stack: Vec<(MemoKey, String)>,
    /// The lowest `stack` index such an assumption was made about; frames
    /// above it depend on it and are not cached.
    open_floor: std::cell::Cell<usize>,
    /// Changes of pairs compared to the end without assumptions, shared
    /// with every trial pairing: alternatives referencing shared
    /// definitions are compared once, not once per pairing tried.
    /// Each entry keeps the place it was compared at, so a replay
    /// elsewhere reports at its own place, and the pairs it assumed related
    /// while they were still being compared (coinduction): it is replayed
    /// only where each of them is being compared again, that is, inside
    /// the same recursion. That makes a recursive pair cost one comparison
    /// per distinct pair of nodes, not one per path through the recursion.
    done: Rc<RefCell<HashMap<MemoKey, Done>>>,
    /// Node pairs this comparison may still compare (shared with trials).
    budget: Rc<std::cell::Cell<usize>>,
    pub out: Vec<Change>,
    depth: usize,
    /// Pointer of the schema root: MCP arguments and structured results are
    /// always JSON objects, so only object values count there.
    pub root_ptr: String,
    /// The place where the old node compared is not the old schema's own
    /// node but a stand-in (a property's declarations in sibling
    /// alternatives): that it accepts nothing proves nothing there.
    pub stand_in_at: Option<String>,
    /// Declarations of the old alternatives, handed to the next node compared.
    pub pending_decls: Option<Decls>,
    /// Declarations of the old alternatives of the node being compared.
    pub level_decls: Option<Decls>,
}

/// A finished comparison: where, what it found, and what it assumed.
type Done = (String, Vec<Change>, Vec<MemoKey>);

/// Property declarations per name across a node's old alternatives.
pub(crate) type Decls = Rc<std::collections::BTreeMap<String, Vec<Value>>>;

/// What decides the outcome of comparing a node pair where either node
/// reaches a reference (and so can come back to itself): both nodes' text;
/// inside `not` or not; at the root or not; the declarations of enclosing
/// alternatives new properties are compared with; and the direction.
/// (A pair that reaches no reference is not memoized: it is compared where
/// it stands, and its changes are reported there.)
type MemoKey = (String, String, bool, bool, u64, Direction);

/// Compares two schemas; `prefix` is the pointer of the schema inside the tool.
pub(crate) fn compare_schemas(
    old: &Value,
    new: &Value,
    dir: Direction,
    tool: &str,
    prefix: &str,
) -> Vec<Change> {
    let (old, new) = (default_null(old), default_null(new));
    // (most tools of a diff are unchanged: they need no reading at all)
    if same_document(old, new) {
        return vec![];
    }
    // each side read once in its own dialect, written as the one the
    // comparator reads: a `$schema` switch alone changes nothing below
    let (raw_old, raw_new) = (old, new);
    let old = crate::schema::dialect::normalize(old);
    let new = crate::schema::dialect::normalize(new);
    let switch = super::resolution::dialect_switch(&old.dialect, &new.dialect, dir, tool, prefix);
    let mut out = compare_documents(&old.doc, &new.doc, dir, tool, prefix);
    out.extend(switch);
    let (old, new) = (raw_old, raw_new);
    let deep = |v: &Value| crate::schema::refs::expands_deeper_than(v, SHALLOW);
    if deep(old) || deep(new) {
        // (the decision recurses with the values it builds: a deep schema
        // is decided on a stack sized for it, as it is compared)
        let walked = out.clone();
        return std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("mcp-contract-decide".into())
                .stack_size(DEEP_STACK)
                .spawn_scoped(s, || {
                    super::decide::reconcile(old, new, dir, tool, prefix, out)
                })
                .map(|h| h.join())
        })
        .ok()
        .and_then(Result::ok)
        .unwrap_or(walked);
    }
    super::decide::reconcile(old, new, dir, tool, prefix, out)
}

/// [`compare_schemas`] on documents already in the comparator's dialect.
fn compare_documents(
    old: &Value,
    new: &Value,
    dir: Direction,
    tool: &str,
    prefix: &str,
) -> Vec<Change> {
    if same_document(old, new) {
        return vec![];
    }
    // The comparison recurses with the schema (up to MAX_DEPTH levels): a
    // deeply nested or recursive schema (references expanded) gets a stack
    // sized for that, wherever we are called from (a test thread has 2 MiB).
    // A shallow one, references and all, is compared where we are: a thread
    // per schema pair would cost more than most comparisons.
    let deep = |v: &Value| crate::schema::refs::expands_deeper_than(v, SHALLOW);
    if deep(old) || deep(new) {
        // (only a recursive document can loop in place) a side whose
        // references loop in place means nothing to compare with
        let unguarded = [("old", old), ("new", new)]
            .into_iter()
            .find_map(|(side, doc)| Some((side, super::recursion::unguarded_reference(doc)?)));
        if let Some((side, at)) = unguarded {
            let mut cx = Cx::new(old, new, dir, tool);
            let why = format!(
                "the {side} schema's {}",
                UNGUARDED.trim_start_matches("its ")
            );
            cx.not_compared(&format!("{prefix}{at}"), why);
            return cx.out;
        }
        return std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("mcp-contract-diff".into())
                .stack_size(DEEP_STACK)
                .spawn_scoped(s, || compare_in_place(old, new, dir, tool, prefix))
                .map(|h| h.join())
        })
        .ok()
        .and_then(Result::ok)
        .unwrap_or_else(|| compare_in_place(old, new, dir, tool, prefix));
    }
    compare_in_place(old, new, dir, tool, prefix)
}

/// Equal documents whose references all resolve (or are remote) accept the
/// same values: the comparator would stop at the root (see
/// `RefEquiv::same`), so it is not set up.
fn same_document(old: &Value, new: &Value) -> bool {
    old == new
        && crate::schema::equiv::references(old).iter().all(|r| {
            !crate::schema::refs::is_local(r) || crate::schema::refs::resolve(old, r).is_some()
        })
}

/// Node pairs (and replayed changes) one schema comparison may take,
/// trials included. The corpus's largest takes 11, the fan-out test 1,489; adversarial ones (alternatives paired
/// through recursive definitions) would take exponentially many.
const MAX_WORK: usize = 20_000;
/// Changes one schema comparison may collect before deduplication.
const MAX_CHANGES: usize = 50_000;

/// Nesting beyond which a comparison runs on its own, larger stack.
const SHALLOW: usize = 24;
/// Enough for MAX_DEPTH levels of the comparator in a debug build.
const DEEP_STACK: usize = 256 << 20;

fn compare_in_place(
    old: &Value,
    new: &Value,
    dir: Direction,
    tool: &str,
    prefix: &str,
) -> Vec<Change> {
    let mut cx = Cx::new(old, new, dir, tool);
    cx.root_ptr = prefix.to_string();
    cx.cmp(old, new, prefix, false);
    if cx.budget.get() == 0 {
        let why = if cx.out.len() > MAX_CHANGES {
            format!("the comparison stopped after collecting more than {MAX_CHANGES} changes")
        } else {
            format!(
                "the comparison stopped at its limit of {MAX_WORK} node pairs compared or replayed"
            )
        };
        cx.not_compared(prefix, why);
    }
    // Alternatives compared branch by branch can report the same sibling
    // change once per branch: keep the first.
    let mut seen = HashSet::new();
    cx.out
        .retain(|c| seen.insert((c.fingerprint(), c.message.clone())));
    cx.out
}

/// A tool published with `"inputSchema": null` takes an object of anything.
fn default_null(v: &Value) -> &Value {
    static OBJECT: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    if v.is_null() {
        OBJECT.get_or_init(|| serde_json::json!({"type": "object"}))
    } else {
        v
    }
}

impl<'a> Cx<'a> {
    fn new(old_root: &'a Value, new_root: &'a Value, dir: Direction, tool: &'a str) -> Self {
        Cx {
            old_root,
            new_root,
            tool,
            dir,
            equiv: Rc::new(RefEquiv::new(old_root, new_root)),
            reported: HashSet::new(),
            reported_log: vec![],
            stack: vec![],
            open_floor: std::cell::Cell::new(usize::MAX),
            done: Rc::default(),
            budget: Rc::new(std::cell::Cell::new(MAX_WORK)),
            out: vec![],
            depth: 0,
            pending_decls: None,
            level_decls: None,
            root_ptr: String::new(),
            stand_in_at: None,
        }
    }

    /// A throw-away comparator over the same roots, for trial pairings.
    pub fn trial(&self) -> Cx<'a> {
        Cx {
            old_root: self.old_root,
            new_root: self.new_root,
            tool: self.tool,
            dir: self.dir,
            equiv: Rc::clone(&self.equiv),
            // a trial must see every change of what it compares: "reported
            // elsewhere" would score as a perfect match
            reported: HashSet::new(),
            reported_log: vec![],
            stack: self.stack.clone(),
            open_floor: self.open_floor.clone(),
            done: Rc::clone(&self.done),
            budget: Rc::clone(&self.budget),
            out: vec![],
            depth: self.depth,
            pending_decls: None,
            level_decls: None,
            root_ptr: self.root_ptr.clone(),
            stand_in_at: None,
        }
    }

    /// A throw-away comparator over the same roots judging as `dir`. The
    /// memo and the recursion stack are shared (their keys hold the
    /// direction), so a recursion that alternates between directions, as
    /// overlap and equivalence checks inside alternatives do, still meets
    /// itself and ends.
    pub fn trial_in(&self, dir: Direction) -> Cx<'a> {
        let mut t = self.trial();
        t.dir = dir;
        t
    }

    /// Takes `n` from the work budget; false (and the budget spent) when it
    /// does not hold that much.
    fn charge(&self, n: usize) -> bool {
        let left = self.budget.get();
        self.budget.set(left.saturating_sub(n));
        left >= n
    }

    /// Takes over what a trial assumed about pairs still being compared here.
    pub fn absorb(&self, trial: &Cx<'_>) {
        self.assume_from(trial.open_floor.get());
    }

    /// This frame's result depends on what was assumed of the stack's
    /// frame `i` (and those above it).
    fn assume_from(&self, i: usize) {
        self.open_floor.set(self.open_floor.get().min(i));
    }

    pub fn breaking_count(&self) -> usize {
        self.out
            .iter()
            .filter(|c| c.severity == Severity::Breaking)
            .count()
    }

    /// Records a change of the rule `rule` (in this comparator's direction,
    /// [`SchemaRule::in_direction`]); inside `not` (flip) polar effects swap
    /// and annotations vanish.
    pub fn emit(
        &mut self,
        rule: impl Into<Named>,
        effect: Effect,
        flip: bool,
        pointer: &str,
        subject: Option<&str>,
        what: String,
    ) -> Option<&mut Change> {
        let id = if flip {
            SchemaRule::negated(effect)?.in_direction(self.dir)
        } else {
            rule.into().in_direction(self.dir)
        };
        let rule = id.rule();
        let what = if flip {
            format!("inside `not`: {what}")
        } else {
            what
        };
        let message = match rule.severity {
            Severity::Breaking | Severity::Behavioral => {
                format!("{what}; {}", rules::fix_for(rule, self.tool))
            }
            _ => what,
        };
        let mut change = Change::new(id, self.tool, pointer.to_string(), message);
        if let Some(s) = subject {
            change = change.with_subject(s);
        }
        self.out.push(change);
        self.out.last_mut()
    }

    /// Records that the comparison stopped at a limit: never silence, a
    /// breaking verdict that names the place and the limit.
    pub fn not_compared(&mut self, ptr: &str, why: String) {
        let what = format!(
            "{} was not compared: {why}; treat it as changed and review it by hand",
            label::describe(ptr, self.dir)
        );
        self.emit(
            SchemaRule::NotCompared,
            Effect::Changed,
            false,
            ptr,
            None,
            what,
        );
    }

    fn memo_key(&self, old: &Value, new: &Value, ptr: &str, flip: bool) -> Option<MemoKey> {
        let has_ref = |v: &Value| crate::schema::refs::reaches_reference(v, MAX_DEPTH);
        let (ro, rn) = (has_ref(old), has_ref(new));
        if !ro && !rn {
            return None;
        }
        let decls = self.pending_decls.as_ref().map_or(0, |d| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            for (k, v) in d.iter() {
                k.hash(&mut h);
                for x in v {
                    x.to_string().hash(&mut h);
                }
            }
            h.finish() | 1
        });
        Some((
            // (both by text alone: recursion on one side against a fixed
            // node on the other must meet itself)
            old.to_string(),
            new.to_string(),
            flip,
            ptr == self.root_ptr,
            decls,
            self.dir,
        ))
    }

    /// Compares one old node with one new node at `ptr`.
    pub fn cmp(&mut self, old: &Value, new: &Value, ptr: &str, flip: bool) {
        if self.equiv.same(old, new) {
            return;
        }
        // out of budget: the whole comparison is reported as not compared
        let left = self.budget.get();
        if left == 0 || self.out.len() > MAX_CHANGES {
            self.budget.set(0);
            return;
        }
        self.budget.set(left - 1);
        let key = self.memo_key(old, new, ptr, flip);
        if let Some(k) = &key {
            if let Some(i) = self.stack.iter().position(|x| x.0 == *k) {
                let rel = ptr.strip_prefix(self.stack[i].1.as_str()).unwrap_or("");
                if !super::place::steps_in_place(rel).1 {
                    self.not_compared(ptr, UNGUARDED.into());
                    return;
                }
                self.assume_from(i);
                return;
            }
            if self.reported.contains(k) {
                return;
            }
            let cached = self.done.borrow().get(k).cloned();
            let assumed_here = |deps: &[MemoKey], stack: &[(MemoKey, String)]| {
                deps.iter()
                    .map(|d| stack.iter().position(|x| x.0 == *d))
                    .try_fold(usize::MAX, |lowest, at| at.map(|i| lowest.min(i)))
            };
            let valid = cached
                .as_ref()
                .and_then(|(_, _, deps)| assumed_here(deps, &self.stack));
            if let (Some((at, changes, _)), Some(lowest)) = (cached, valid) {
                // what it assumed is assumed here too
                if lowest != usize::MAX {
                    self.assume_from(lowest);
                }
                // replayed results multiplying: charged to the budget, and
                // past the limit the comparison stops (reported at the top)
                if !self.charge(changes.len()) || self.out.len() + changes.len() > MAX_CHANGES {
                    return;
                }
                let (from, to) = (label::path(&at), label::path(ptr));
                self.out.extend(changes.into_iter().map(|mut c| {
                    if let Some(rest) = c.pointer.strip_prefix(at.as_str()) {
                        c.pointer = format!("{ptr}{rest}");
                        if from != to {
                            c.message = rebase_place(&c.message, &from, &to);
                        }
                    }
                    c
                }));
                self.mark_reported(k.clone());
                return;
            }
        }
        let rel = ptr.strip_prefix(self.root_ptr.as_str()).unwrap_or(ptr);
        if super::place::steps_in_place(rel).0 > MAX_STEPS_IN_PLACE {
            self.not_compared(ptr, UNGUARDED.into());
            return;
        }
        if self.depth >= MAX_DEPTH {
            self.not_compared(
                ptr,
                format!("schemas nest deeper than {MAX_DEPTH} levels here"),
            );
            return;
        }
        let so = shape(self.old_root, old);
        let sn = shape(self.new_root, new);
        if so.truncated || sn.truncated {
            self.not_compared(
                ptr,
                "a chain of references is longer than the comparator follows".into(),
            );
            return;
        }
        let start = self.out.len();
        let log_start = self.reported_log.len();
        if let Some(k) = &key {
            self.stack.push((k.clone(), ptr.to_string()));
        }
        self.depth += 1;
        let pending = self.pending_decls.take();
        let saved = std::mem::replace(&mut self.level_decls, pending);
        self.cmp_shapes((old, &so), (new, &sn), ptr, flip);
        // no value on the side a break needs: nothing beneath can break anyone
        let (side_root, side) = if (self.dir == Direction::Input) != flip {
            (self.old_root, &so)
        } else {
            (self.new_root, &sn)
        };
        // keywords no such value is subject to (another type's, items of empty arrays)
        let (mut idle, empty) = super::vacuous::idle_and_empty(side_root, side);
        // (a `format` constrains strings and numbers only)
        if idle.contains(&"minimum") && idle.contains(&"minLength") {
            idle.push("format");
        }
        if !idle.is_empty() && self.stand_in_at.as_deref() != Some(ptr) {
            // (the node's alternatives and negation judge the same value: a
            // keyword beneath them is idle as the node's own would be)
            let under = |p: &str| {
                let Some(rest) = p.strip_prefix(ptr).and_then(|r| r.strip_prefix('/')) else {
                    return false;
                };
                let rest = past_combinators(rest);
                idle.iter().any(|kw| {
                    rest.strip_prefix(kw)
                        .is_some_and(|r| r.is_empty() || r.starts_with('/'))
                })
            };
            let tail = self.out.split_off(start);
            let before = tail.len();
            self.out.extend(
                tail.into_iter()
                    .filter(|c| !judged_by_values(c) || !under(&c.pointer)),
            );
            if self.out.len() - start != before {
                self.take_back_reported(log_start);
            }
        }
        let stand_in = self.stand_in_at.as_deref() == Some(ptr);
        // every value the side a break needs can hold (a finite list) is
        // one the other side accepts: nothing beneath breaks anyone
        let (side_node, other_root, other_node) = if (self.dir == Input) != flip {
            (old, self.new_root, new)
        } else {
            (new, self.old_root, old)
        };
        let within = !empty
            && !stand_in
            && self.out.len() > start
            && super::finite::values_within(side_root, side, side_node, other_root, other_node);
        if (ptr != self.root_ptr && empty && !stand_in) || within {
            let tail = self.out.split_off(start);
            let before = tail.len();
            self.out
                .extend(tail.into_iter().filter(|c| !judged_by_values(c)));
            if self.out.len() - start != before {
                self.take_back_reported(log_start);
            }
        }
        self.level_decls = saved;
        self.depth -= 1;
        if let Some(k) = key {
            let frame = self.stack.len() - 1;
            self.stack.pop();
            // the pairs below this frame it assumed related (none: final)
            let floor = self.open_floor.get();
            let deps: Vec<MemoKey> = if floor >= frame {
                vec![]
            } else {
                self.stack[floor..].iter().map(|x| x.0.clone()).collect()
            };
            if self.charge(self.out.len() - start) {
                self.done.borrow_mut().insert(
                    k.clone(),
                    (ptr.to_string(), self.out[start..].to_vec(), deps),
                );
            }
            if floor == frame {
                self.open_floor.set(usize::MAX);
            }
            self.mark_reported(k);
        }
    }

    fn mark_reported(&mut self, k: MemoKey) {
        if self.reported.insert(k.clone()) {
            self.reported_log.push(k);
        }
    }

    /// Forgets what was reported since `log_start`: a filter dropped it.
    fn take_back_reported(&mut self, log_start: usize) {
        for k in self.reported_log.drain(log_start..) {
            self.reported.remove(&k);
        }
    }

    /// Compares two already-normalized nodes (each beside the node it was
    /// read from, whose reference is its identity when compared as a whole).
    pub fn cmp_shapes(
        &mut self,
        (old, so): (&Value, &Shape<'_>),
        (new, sn): (&Value, &Shape<'_>),
        ptr: &str,
        flip: bool,
    ) {
        if so.map == sn.map && so.map.values().all(|v| self.equiv.refs_equal(v)) {
            return;
        }
        // Alternatives that differ in form are compared branch against branch.
        if super::alternatives::compare_alternatives(self, (old, so), (new, sn), ptr, flip) {
            return;
        }
        let types = super::keywords::compare_types_and_values(self, so, sn, ptr, flip);
        super::keywords::compare_type_specific(self, so, sn, ptr, flip, types);
        super::alternatives::compare_all_of_and_not(self, so, sn, ptr, flip);
        super::conditional::compare_conditionals(self, so, sn, ptr, flip);
        super::resolution::compare_resolution(self, so, sn, ptr, flip);
        self.compare_annotations(so, sn, ptr, flip);
    }

    fn compare_annotations(&mut self, so: &Shape<'_>, sn: &Shape<'_>, ptr: &str, flip: bool) {
        let place = label::describe(ptr, self.dir);
        if so.get("description") != sn.get("description") {
            let what = match (so.get("description"), sn.get("description")) {
                (None, Some(_)) => format!("{place} gained a description"),
                (Some(_), None) => format!("{place} lost its description"),
                _ => format!("the description of {place} changed"),
            };
            self.emit(
                SchemaRule::DescriptionChanged,
                Effect::Neutral,
                flip,
                &format!("{ptr}/description"),
                None,
                what,
            );
        }
        let (od, nd) = (so.get("default"), sn.get("default"));
        // (`1` and `1.0` are one default)
        let same_default = match (od, nd) {
            (Some(a), Some(b)) => crate::schema::graph::eval::json_eq(a, b),
            (a, b) => a == b,
        };
        if !same_default {
            let at = format!("{ptr}/default");
            match (self.dir, od, nd) {
                (Direction::Input, Some(o), Some(n)) => {
                    let what = format!("the default of {place} changed from {o} to {n}: callers that omit it now silently get {n}");
                    if let Some(c) = self.emit(
                        SchemaRule::DefaultChanged,
                        Effect::Neutral,
                        flip,
                        &at,
                        None,
                        what,
                    ) {
                        c.detail.from = Some(o.to_string());
                        c.detail.to = Some(n.to_string());
                    }
                }
                (Direction::Input, None, Some(n)) => {
                    let what = format!("{place} now declares default {n}: the handler must apply exactly this value when it is omitted");
                    self.emit(
                        RuleId::InputDefaultAdded,
                        Effect::Neutral,
                        flip,
                        &at,
                        None,
                        what,
                    );
                }
                (Direction::Input, Some(o), None) => {
                    let what = format!("{place} no longer declares its default {o}");
                    self.emit(
                        RuleId::InputDefaultRemoved,
                        Effect::Neutral,
                        flip,
                        &at,
                        None,
                        what,
                    );
                }
                (Direction::Output, _, _) => {
                    let what = format!("the declared default of {place} changed");
                    self.emit(
                        SchemaRule::DefaultChanged,
                        Effect::Neutral,
                        flip,
                        &at,
                        None,
                        what,
                    );
                }
                _ => {}
            }
        }
        let deprecated = |s: &Shape<'_>| s.get("deprecated") == Some(&Value::Bool(true));
        if !deprecated(so) && deprecated(sn) {
            let what = format!("{place} is now deprecated");
            self.emit(
                SchemaRule::Deprecated,
                Effect::Neutral,
                flip,
                &format!("{ptr}/deprecated"),
                None,
                what,
            );
        }
        let mut annotation_keys = vec![];
        let mut extension_keys = vec![];
        let mut unknown_keys = vec![];
        let keys: std::collections::BTreeSet<&String> =
            so.map.keys().chain(sn.map.keys()).collect();
        for k in keys {
            if so.get(k) == sn.get(k) {
                continue;
            }
            if k.starts_with("x-") {
                extension_keys.push(k.as_str());
            } else if k == "deprecated" {
                if deprecated(so) {
                    annotation_keys.push(k.as_str());
                }
            } else if ["description", "default", "$schema", "$id"].contains(&k.as_str()) {
                // compared above / in `resolution`
            } else if ANNOTATION_KEYWORDS.contains(&k.as_str())
                || k == "$defs"
                || k == "definitions"
            {
                if k != "$defs" && k != "definitions" {
                    annotation_keys.push(k.as_str());
                }
            } else if crate::schema::vocabulary::handling(k).is_none() {
                unknown_keys.push(k.as_str());
            }
        }
        if !annotation_keys.is_empty() {
            let what = format!(
                "annotation{} {} of {place} changed",
                plural(&annotation_keys),
                quote_list(&annotation_keys)
            );
            self.emit(
                SchemaRule::AnnotationChanged,
                Effect::Neutral,
                flip,
                ptr,
                Some(&annotation_keys.join(",")),
                what,
            );
        }
        if !extension_keys.is_empty() {
            let what = format!(
                "extension{} {} of {place} changed",
                plural(&extension_keys),
                quote_list(&extension_keys)
            );
            self.emit(
                SchemaRule::ExtensionChanged,
                Effect::Neutral,
                flip,
                ptr,
                Some(&extension_keys.join(",")),
                what,
            );
        }
        for k in unknown_keys {
            let what =
                format!("keyword `{k}` of {place}, which JSON Schema does not define, changed");
            self.emit(
                SchemaRule::KeywordChanged,
                Effect::Neutral,
                flip,
                &format!("{ptr}/{}", crate::lockfile::escape_pointer(k)),
                None,
                what,
            );
        }
    }
}

/// A breaking finding about the values accepted (what a filter that knows
/// no value there can break may take back); findings about meaning stay.
fn judged_by_values(c: &Change) -> bool {
    c.severity == Severity::Breaking && c.kind.judged() == crate::rules::Judged::Values
}

fn plural(v: &[&str]) -> &'static str {
    if v.len() == 1 {
        ""
    } else {
        "s"
    }
}

fn quote_list(v: &[&str]) -> String {
    v.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A message written about the place named `from` (a dotted path), said
/// of the place `to`: the first quoted name at or under `from` moves.
/// (Neither is the root: the root's memo key is its own.)
fn rebase_place(message: &str, from: &str, to: &str) -> String {
    let quoted = format!("`{from}");
    let Some(i) = message.find(&quoted) else {
        return message.to_string();
    };
    let rest = &message[i + quoted.len()..];
    // only a whole name: `a` must not match inside `ab`
    if from.is_empty() || to.is_empty() || !rest.starts_with(['`', '.', '[']) {
        return message.to_string();
    }
    format!("{}`{to}{rest}", &message[..i])
}

/// A relative pointer past its leading `anyOf`/`oneOf`/`allOf` branches and
/// `not`s: the rest applies to the same value as the node it starts at.
fn past_combinators(mut rest: &str) -> &str {
    for _ in 0..64 {
        let (head, tail) = rest.split_once('/').unwrap_or((rest, ""));
        let next = match head {
            "not" => tail,
            "anyOf" | "oneOf" | "allOf" => match tail.split_once('/') {
                Some((i, t)) if i.parse::<usize>().is_ok() => t,
                _ => return rest,
            },
            _ => return rest,
        };
        if next.is_empty() {
            return rest;
        }
        rest = next;
    }
    rest
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Equal documents skip the comparator only where it would have said nothing.
    #[test]
    fn equal_documents_report_what_the_comparator_reports() {
        for doc in [
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}),
            json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}),
            json!({"$defs": {"n": {"properties": {"next": {"$ref": "#/$defs/n"}}}}, "$ref": "#/$defs/n"}),
            json!(null),
        ] {
            for dir in [Direction::Input, Direction::Output] {
                let fast = compare_schemas(&doc, &doc, dir, "t", "/inputSchema");
                let full = compare_in_place(
                    default_null(&doc),
                    default_null(&doc),
                    dir,
                    "t",
                    "/inputSchema",
                );
                assert_eq!(fast, full, "{doc}");
            }
        }
    }
}
