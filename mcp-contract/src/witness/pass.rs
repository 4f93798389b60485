//! The witness pass: for every breaking change of a diff, a proof.
//!
//! Runs after the engine has decided (decide first, render later): it reads
//! the changes and both surfaces and fills [`Change::witness`] and
//! [`Change::proof`]. How a verdict is backed is the rule's registered
//! [`Strategy`]: schema verdicts are searched ([`super::search`]); a removed
//! tool, hints and the listing are proofs by construction
//! ([`super::construction`]); a changed default is shown by a call that
//! omits the field ([`super::default`]).

use std::borrow::Cow;
use std::time::{Duration, Instant};

use jsonschema::Validator;
use serde_json::{json, Value};

use super::candidates;
use super::construction::{hint_witness, output_removed, unknown_tool};
use super::default::default_changed;
use super::path::{self, Site, Step};
use super::sample::{self, resolve};
use super::search::Search;
use super::validators::{error_detail, Validators};
use super::{Proof, Witness};
use crate::diff::{Change, DiffReport};
use crate::model::{Surface, Tool};
use crate::rules::{SearchKind, Severity, Strategy};

/// Bounds of the search.
#[derive(Debug, Clone)]
pub struct Options {
    /// Most instances checked per verdict (each is validated on both sides).
    pub budget: usize,
    /// When the whole pass stops: verdicts it has not backed by then stay
    /// breaking, each saying the pass ran out of time.
    pub deadline: Option<Instant>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            budget: 1500,
            deadline: None,
        }
    }
}

/// Time the witness pass may always take, beside twice the diff's own.
pub const WITNESS_ALLOWANCE: Duration = Duration::from_secs(5);

impl Options {
    /// The default bounds, with the pass's total time tied to the diff's:
    /// at most twice what deciding took, plus [`WITNESS_ALLOWANCE`].
    pub fn after_diff(diff_took: Duration) -> Options {
        Options {
            deadline: Some(Instant::now() + diff_took * 2 + WITNESS_ALLOWANCE),
            ..Options::default()
        }
    }

    pub(super) fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What a verdict the pass had no time for says.
pub(super) const OUT_OF_TIME: &str = "the witness pass reached its time budget (twice the diff's own time plus 5 s) before it backed this verdict";

/// Fills `witness` and `proof` of every breaking change of `report`.
pub fn attach(report: &mut DiffReport, old: &Surface, new: &Surface, opts: &Options) {
    attach_changes(&mut report.changes, old, new, opts);
}

/// Fills `witness` and `proof` of every breaking change in `changes`.
pub fn attach_changes(changes: &mut [Change], old: &Surface, new: &Surface, opts: &Options) {
    let mut cache = Validators::default();
    let mut samples = sample::RootSamples::default();
    for c in changes.iter_mut() {
        if c.severity != Severity::Breaking {
            continue;
        }
        if opts.out_of_time() {
            c.witness = None;
            c.proof = Some(Proof::Unproven {
                reason: format!("{OUT_OF_TIME}; still reported as breaking"),
            });
            continue;
        }
        samples.for_tool(&c.tool);
        let (w, p) = prove(
            c,
            old.get(&c.tool),
            new.get(&c.tool),
            &mut cache,
            &samples,
            opts,
        );
        c.witness = w;
        c.proof = Some(p);
    }
}

/// The tool's schema `which`, borrowed (an absent input schema stands for `{"type": "object"}`).
pub(super) fn schema_of<'t>(tool: &'t Tool, which: &str) -> Option<Cow<'t, Value>> {
    match which {
        "inputSchema" => Some(if tool.input_schema.is_null() {
            Cow::Owned(json!({"type": "object"}))
        } else {
            Cow::Borrowed(&tool.input_schema)
        }),
        _ => tool.output_schema.as_ref().map(Cow::Borrowed),
    }
}

pub(super) fn unproven(reason: impl Into<String>) -> (Option<Witness>, Proof) {
    (
        None,
        Proof::Unproven {
            reason: reason.into(),
        },
    )
}

fn prove(
    c: &Change,
    old: Option<&Tool>,
    new: Option<&Tool>,
    cache: &mut Validators,
    samples: &sample::RootSamples,
    opts: &Options,
) -> (Option<Witness>, Proof) {
    let rule = c.rule;
    let search_kind = match c.rule_id().strategy() {
        Strategy::UnknownTool => return unknown_tool(c, old),
        // an invalid or reused name, and prompts, resources, templates and
        // the server's own section, are judged from the listing alone (a
        // name gone, an argument now required, a capability dropped): the
        // listing is the proof
        Strategy::Listing | Strategy::NotNeeded => return (None, Proof::ByConstruction),
        Strategy::Hints => return hint_witness(&c.pointer, old, new),
        Strategy::Search(kind) => Some(kind),
        Strategy::OutputDropped | Strategy::DefaultOmitted | Strategy::Unsupported => None,
    };
    let (Some(old), Some(new)) = (old, new) else {
        return unproven("the tool is missing on one side");
    };
    if c.rule_id().strategy() == Strategy::OutputDropped {
        return output_removed(c, old, cache, opts);
    }
    let site = path::parse(&c.pointer);
    let (Some(which), false) = (site.schema, c.rule_id().strategy() == Strategy::Unsupported)
    else {
        return unproven(format!("no witness search for `{rule}`"));
    };
    let (Some(os), Some(ns)) = (schema_of(old, which), schema_of(new, which)) else {
        return unproven("the schema is missing on one side");
    };
    let vo = match cache.get(&c.tool, which, false, &os) {
        Ok(v) => v,
        Err(e) => return unproven(format!("the validator cannot compile the old schema: {e}")),
    };
    let vn = match cache.get(&c.tool, which, true, &ns) {
        Ok(v) => v,
        Err(e) => return unproven(format!("the validator cannot compile the new schema: {e}")),
    };
    let (so, sn) = (
        cache.strict(&c.tool, which, false, &os),
        cache.strict(&c.tool, which, true, &ns),
    );
    let input = which == "inputSchema";
    if let Some(found) = decided(c, input, (&vo, so.as_deref()), (&vn, sn.as_deref())) {
        return found;
    }
    if input && c.rule_id().strategy() == Strategy::DefaultOmitted {
        return default_changed(c, &site, &os, &ns, &vo);
    }
    let Some(kind) = search_kind else {
        return unproven(format!("no witness search for `{rule}`"));
    };
    let mut site = site;
    if kind == SearchKind::PropertyRemoved {
        if let Some(Step::Prop(_)) = site.steps.last() {
            site.steps.pop();
        }
        site.keyword = Some("property-removed".into());
    }
    let search = Search {
        pointer_tail: c
            .pointer
            .split('/')
            .skip(2)
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
        site: &site,
        subject: c.subject.as_deref(),
        input,
        old: (&os, &vo),
        new: (&ns, &vn),
        strict: (so.as_deref(), sn.as_deref()),
        budget: opts.budget,
        deadline: opts.deadline,
        overlap: kind == SearchKind::Overlap
            || (kind == SearchKind::Constraint && c.pointer.ends_with("/oneOf")),
        // (not for overlaps, nor inside a negation: there the witness is a
        // value outside the branch)
        own_branch: matches!(kind, SearchKind::Values | SearchKind::PropertyRemoved),
        undone: std::cell::OnceCell::new(),
        ints: std::cell::OnceCell::new(),
        // (a schema made up here, for an absent one, has no lasting place)
        samples: matches!((&os, &ns), (Cow::Borrowed(_), Cow::Borrowed(_))).then_some(samples),
    };
    match search.run(rule) {
        (None, Proof::Unproven { reason }) => match compatible(&site, kind, &os, &ns, input) {
            Some(why) => unproven(format!(
                "compatible: {why}; the engine should not report it ({reason})"
            )),
            None => unproven(reason),
        },
        found => found,
    }
}

/// The value the containment decision refuted the change with, when it
/// holds with the validator too: accepted by the side that accepted it
/// (integer widths enforced where the schema has them), rejected by the
/// other. A value that does not hold is left to the search.
fn decided(
    c: &Change,
    input: bool,
    old: (&Validator, Option<&Validator>),
    new: (&Validator, Option<&Validator>),
) -> Option<(Option<Witness>, Proof)> {
    let w = c.witness.as_ref()?;
    let (accepting, rejecting) = if input { (old, new) } else { (new, old) };
    let accepts = |(v, strict): (&Validator, Option<&Validator>), x: &Value| {
        v.is_valid(x) && strict.is_none_or(|s| s.is_valid(x))
    };
    if !accepts(accepting, &w.value) || accepts(rejecting, &w.value) {
        return None;
    }
    let (plain, strict) = rejecting;
    let detail = plain
        .iter_errors(&w.value)
        .chain(strict.into_iter().flat_map(|s| s.iter_errors(&w.value)))
        .next()
        .map(|e| error_detail(&e))?;
    Some((
        Some(Witness {
            kind: w.kind,
            value: w.value.clone(),
            detail,
        }),
        Proof::Proven,
    ))
}

/// When the search finds nothing, can we see why nothing exists? A
/// conjunctive keyword (one the engine does not compare) removed from an
/// input schema, or added to an output schema, only widens what is accepted
/// (narrows what is returned), unless it sits under a `not`.
fn compatible(
    site: &Site,
    kind: SearchKind,
    os: &Value,
    ns: &Value,
    input: bool,
) -> Option<String> {
    if kind != SearchKind::Constraint || site.steps.contains(&Step::Not) {
        return None;
    }
    let kw = site.keyword.as_deref()?;
    let has = |root: &Value| {
        candidates::nodes_at(root, &site.steps)
            .iter()
            .any(|n| resolve(root, n).get(kw).is_some())
    };
    let (before, after) = (has(os), has(ns));
    let conjunctive = matches!(
        kw,
        "dependentSchemas" | "if" | "then" | "else" | "unevaluatedProperties" | "unevaluatedItems"
    );
    if !conjunctive {
        return None;
    }
    match (input, before, after) {
        (true, true, false) => Some(format!(
            "`{kw}` was removed from an input schema, which only accepts more"
        )),
        (false, false, true) => Some(format!(
            "`{kw}` was added to an output schema, which only returns less"
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff_surfaces;

    fn surface(input: Value) -> Surface {
        let mut t = Tool::new("t");
        t.input_schema = input;
        let mut s = Surface::new();
        s.insert(t);
        s
    }

    fn proofs(old: Value, new: Value) -> Vec<(String, Option<Witness>, Proof)> {
        let (o, n) = (surface(old), surface(new));
        let mut r = diff_surfaces(&o, &n);
        attach(&mut r, &o, &n, &Options::default());
        r.changes
            .into_iter()
            .filter(|c| c.severity == Severity::Breaking)
            .map(|c| (c.rule.to_string(), c.witness, c.proof.unwrap()))
            .collect()
    }

    /// A pass past its deadline backs nothing and says why; every verdict
    /// stays breaking.
    #[test]
    fn a_pass_out_of_time_leaves_verdicts_breaking_and_says_so() {
        let os = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}});
        let ns = json!({"type": "object", "properties": {"a": {"type": "string", "maxLength": 2}, "b": {"type": "integer", "maximum": 3}}});
        let (o, n) = (surface(os), surface(ns));
        let mut r = diff_surfaces(&o, &n);
        let spent = Options {
            deadline: Some(Instant::now()),
            ..Options::default()
        };
        attach(&mut r, &o, &n, &spent);
        let breaking: Vec<&Change> = r
            .changes
            .iter()
            .filter(|c| c.severity == Severity::Breaking)
            .collect();
        assert_eq!(breaking.len(), 2);
        for c in breaking {
            assert!(c.witness.is_none());
            match &c.proof {
                Some(Proof::Unproven { reason }) => {
                    assert!(reason.contains("time budget"), "{reason}")
                }
                other => panic!("{other:?}"),
            }
        }
        // with time, the same verdicts are proven
        let mut r = diff_surfaces(&o, &n);
        attach(&mut r, &o, &n, &Options::after_diff(Duration::ZERO));
        assert!(r
            .changes
            .iter()
            .filter(|c| c.severity == Severity::Breaking)
            .all(|c| c.proof == Some(Proof::Proven)));
    }

    /// The value removed from a long enum is the witness, wherever it sits
    /// in the list (not only among the first values tried).
    #[test]
    fn a_value_removed_from_a_long_enum_is_its_witness() {
        let old: Vec<Value> = (0..3000).map(|i| json!(format!("v{i:04}"))).collect();
        let mut new = old.clone();
        let gone = new.remove(2345);
        let prop = |e: &[Value]| json!({"type": "object", "properties": {"c": {"type": "string", "enum": e}}, "required": ["c"]});
        let p = proofs(prop(&old), prop(&new));
        assert_eq!(p.len(), 1, "{p:?}");
        let (rule, w, proof) = &p[0];
        assert_eq!(rule, "input.enum-narrowed");
        assert_eq!(*proof, Proof::Proven);
        assert_eq!(w.as_ref().unwrap().value, json!({ "c": gone }));
    }

    #[test]
    fn integer_width_witness_is_the_boundary_serde_rejects() {
        let os =
            json!({"type": "object", "properties": {"n": {"type": "integer", "format": "int32"}}});
        let ns =
            json!({"type": "object", "properties": {"n": {"type": "integer", "format": "int16"}}});
        let (o, n) = (surface(os), surface(ns));
        let mut changes = vec![Change::new(
            crate::rules::RuleId::InputFormatChanged,
            "t",
            "/inputSchema/properties/n/format".into(),
            "m".into(),
        )];
        attach_changes(&mut changes, &o, &n, &Options::default());
        let w = changes[0].witness.clone().expect("a witness");
        assert_eq!(changes[0].proof, Some(Proof::Proven));
        assert_eq!(w.value, json!({"n": 32768}), "{w:?}");
        assert!(w.detail.contains("int16"), "{w:?}");
    }

    #[test]
    fn serde_widths_prove_verdicts_the_validator_cannot() {
        let prop = |n: Value| json!({"type": "object", "properties": {"n": n}, "required": ["n"]});
        // an integer width on `type: number`: serde rejects any fraction
        let p = proofs(
            prop(json!({"type": "number"})),
            prop(json!({"type": "number", "format": "int32"})),
        );
        assert!(!p.is_empty(), "the engine reports the narrowing");
        for (rule, w, proof) in &p {
            assert_eq!(*proof, Proof::Proven, "{rule}: {w:?}");
            let w = w.as_ref().unwrap();
            let fraction = w.value["n"].is_f64();
            assert!(
                fraction || w.value["n"] == json!(2147483648u64),
                "{rule}: {w:?}"
            );
            assert_eq!(
                fraction,
                rule.as_str() == "input.type-narrowed",
                "{rule}: {w:?}"
            );
        }
        // a narrower width on `type: number`: the first value past it
        let p = proofs(
            prop(json!({"type": "number", "format": "uint16"})),
            prop(json!({"type": "number", "format": "uint8"})),
        );
        assert!(!p.is_empty(), "the engine reports the narrowing");
        for (rule, w, proof) in &p {
            assert_eq!(*proof, Proof::Proven, "{rule}: {w:?}");
            assert_eq!(w.as_ref().unwrap().value, json!({"n": 256}), "{rule}");
        }
        // the same width on both sides: nothing to prove, nothing reported
        let same = prop(json!({"type": "integer", "format": "uint8"}));
        assert!(proofs(same.clone(), same).is_empty());
    }

    #[test]
    fn width_witnesses_hold_with_every_width_enforced() {
        let prop = |n: Value| json!({"type": "object", "properties": {"n": n}, "required": ["n"]});
        let strict = |s: &Value| {
            jsonschema::validator_for(&super::super::widths::spell_out(s).unwrap()).unwrap()
        };
        // beside an any-value `oneOf` branch a width is negated: a value
        // within the new width and outside the old one now matches both
        let old = prop(
            json!({"oneOf": [{"type": "integer", "format": "uint32", "minimum": 0, "multipleOf": 2}, {}]}),
        );
        let new =
            prop(json!({"oneOf": [{"type": "integer", "format": "int16", "multipleOf": 2}, {}]}));
        let p = proofs(old.clone(), new.clone());
        assert!(!p.is_empty(), "the engine reports the change");
        assert!(
            p.iter().any(|(_, _, proof)| *proof == Proof::Proven),
            "{p:?}"
        );
        for (rule, w, _) in &p {
            let Some(w) = w else { continue };
            assert!(
                strict(&old).is_valid(&w.value) && !strict(&new).is_valid(&w.value),
                "{rule}: {w:?}"
            );
        }
        // a width under one `anyOf` branch binds nothing another branch takes
        let old = prop(
            json!({"anyOf": [{"type": "integer", "format": "int64"}, {"type": "integer", "format": "uint64", "minimum": 0}]}),
        );
        let new = prop(
            json!({"anyOf": [{"type": "integer", "format": "uint32", "minimum": 0}, {"type": "integer", "format": "uint64", "minimum": 0}]}),
        );
        for (rule, w, _) in proofs(old.clone(), new.clone()) {
            let Some(w) = w else { continue };
            assert!(
                strict(&old).is_valid(&w.value) && !strict(&new).is_valid(&w.value),
                "{rule}: {w:?}"
            );
        }
    }

    #[test]
    fn hostile_schemas_end_with_a_verdict() {
        let cases = [
            // catastrophic backtracking for a backtracking engine
            (
                json!({"type": "object", "properties": {"s": {"type": "string"}}}),
                json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}),
            ),
        ];
        for (old, new) in cases {
            for (rule, w, p) in proofs(old.clone(), new.clone()) {
                if let Proof::Proven = p {
                    assert!(w.is_some(), "{rule}");
                }
            }
        }
        // the pattern witness itself
        let p = proofs(
            json!({"type": "object", "properties": {"s": {"type": "string"}}}),
            json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}),
        );
        assert_eq!(p[0].2, Proof::Proven, "{p:?}");
    }

    #[test]
    fn same_input_same_witness() {
        let old = json!({"type": "object", "properties": {"q": {"type": "string"}, "n": {"type": "number"}}});
        let new = json!({"type": "object", "properties": {"q": {"type": "string", "maxLength": 3}, "n": {"type": "integer"}}, "required": ["q"]});
        let a = proofs(old.clone(), new.clone());
        let b = proofs(old, new);
        assert_eq!(a, b);
        assert!(
            a.iter().all(|(_, w, p)| *p == Proof::Proven && w.is_some()),
            "{a:?}"
        );
    }
}
