//! The witness pass: for every breaking change of a diff, a proof.
//!
//! Runs after the engine has decided (decide first, render later): it reads
//! the changes and both surfaces and fills [`Change::witness`] and
//! [`Change::proof`]. Schema verdicts are searched (candidate values at the
//! changed node, embedded in a small instance of the whole schema, checked
//! with the validator on both sides, then shrunk); tool removal, hints and
//! reused names are proofs by construction.

use std::borrow::Cow;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use jsonschema::{PatternOptions, Validator};
use serde_json::{json, Map, Value};

use super::candidates::{self, Focus};
use super::path::{self, Site, Step};
use super::random;
use super::sample::{self, flatten, member_schema, resolve};
use super::{Proof, Witness, WitnessKind};
use crate::diff::{Change, DiffReport};
use crate::model::{Surface, Tool};
use crate::rules::{SearchKind, Severity, Strategy};
use crate::schema::numeric::{self, Bound, Num};

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

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// What a verdict the pass had no time for says.
const OUT_OF_TIME: &str = "the witness pass reached its time budget (twice the diff's own time plus 5 s) before it backed this verdict";

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

/// Compiled validators per (tool, schema, side), compiled once.
#[derive(Default)]
struct Validators {
    map: HashMap<(String, &'static str, bool), Result<std::rc::Rc<Validator>, String>>,
    /// With integer widths spelled out (`None`: the schema has none, or they do not compile).
    strict: HashMap<(String, &'static str, bool), Option<std::rc::Rc<Validator>>>,
}

impl Validators {
    fn get(
        &mut self,
        tool: &str,
        which: &'static str,
        new_side: bool,
        schema: &Value,
    ) -> Result<std::rc::Rc<Validator>, String> {
        self.map
            .entry((tool.to_string(), which, new_side))
            .or_insert_with(|| compile(schema).map(std::rc::Rc::new))
            .clone()
    }

    /// The validator of `schema` with its integer widths enforced, when it has any.
    fn strict(
        &mut self,
        tool: &str,
        which: &'static str,
        new_side: bool,
        schema: &Value,
    ) -> Option<std::rc::Rc<Validator>> {
        self.strict
            .entry((tool.to_string(), which, new_side))
            .or_insert_with(|| {
                super::widths::spell_out(schema)
                    .and_then(|s| compile(&s).ok())
                    .map(std::rc::Rc::new)
            })
            .clone()
    }
}

/// A validator with linear-time regular expressions and format assertions.
pub(crate) fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::options()
        .with_pattern_options(PatternOptions::regex().size_limit(1 << 20))
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| one_line(&e.to_string()))
}

fn one_line(s: &str) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() > 200 {
        format!("{}...", s.chars().take(197).collect::<String>())
    } else {
        s
    }
}

/// The tool's schema `which`, borrowed (an absent input schema stands for `{"type": "object"}`).
fn schema_of<'t>(tool: &'t Tool, which: &str) -> Option<Cow<'t, Value>> {
    match which {
        "inputSchema" => Some(if tool.input_schema.is_null() {
            Cow::Owned(json!({"type": "object"}))
        } else {
            Cow::Borrowed(&tool.input_schema)
        }),
        _ => tool.output_schema.as_ref().map(Cow::Borrowed),
    }
}

fn unproven(reason: impl Into<String>) -> (Option<Witness>, Proof) {
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
        Strategy::UnknownTool => {
            let args = old
                .and_then(|t| schema_of(t, "inputSchema"))
                .map(|s| sample::sample(&s, &s, 0))
                .filter(Value::is_object)
                .unwrap_or_else(|| json!({}));
            let detail = match &c.hint {
                Some(h) => format!("unknown tool \"{}\" ({h})", c.tool),
                None => format!("unknown tool \"{}\"", c.tool),
            };
            return (
                Some(Witness {
                    kind: WitnessKind::Call,
                    value: json!({"name": c.tool, "arguments": args}),
                    detail,
                }),
                Proof::ByConstruction,
            );
        }
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

/// The annotations before and after, and the effective hints (the
/// specification's defaults applied, as the diff applies them) that moved:
/// the one at `pointer` (the change's own) first, so that the findings one
/// flag caused do not all read the same.
fn hint_witness(pointer: &str, old: Option<&Tool>, new: Option<&Tool>) -> (Option<Witness>, Proof) {
    use crate::diff::Hints;
    let (oa, na) = (
        old.and_then(|t| t.annotations.as_ref()),
        new.and_then(|t| t.annotations.as_ref()),
    );
    let own = pointer.strip_prefix("/annotations/").unwrap_or("");
    let (eo, en) = (Hints::of(oa).named(), Hints::of(na).named());
    let mut moved: Vec<(bool, String)> = eo
        .iter()
        .zip(en.iter())
        .filter(|(a, b)| a.1 != b.1)
        .map(|(a, b)| (a.0 != own, format!("effective {} {} -> {}", a.0, a.1, b.1)))
        .collect();
    moved.sort_by_key(|(other, _)| *other);
    let moved: Vec<String> = moved.into_iter().map(|(_, m)| m).collect();
    let show = |a: Option<&Map<String, Value>>| Value::Object(a.cloned().unwrap_or_default());
    (
        Some(Witness {
            kind: WitnessKind::Hint,
            value: json!({"old": show(oa), "new": show(na)}),
            detail: if moved.is_empty() {
                "the hint the rule names widened".into()
            } else {
                moved.join(", ")
            },
        }),
        Proof::ByConstruction,
    )
}

/// A value the old output schema forbids: with no new schema, clients may now receive it.
fn output_removed(
    c: &Change,
    old: &Tool,
    cache: &mut Validators,
    opts: &Options,
) -> (Option<Witness>, Proof) {
    let Some(os) = old.output_schema.as_ref() else {
        return (None, Proof::ByConstruction);
    };
    let Ok(vo) = cache.get(&c.tool, "outputSchema", false, os) else {
        return (None, Proof::ByConstruction);
    };
    let base = sample::sample(os, os, 0);
    let mut tries: Vec<Value> = vec![json!({})];
    if let Value::Object(m) = &base {
        for k in m.keys() {
            let mut o = m.clone();
            o.remove(k);
            tries.push(Value::Object(o));
            let mut o = m.clone();
            o.insert(k.clone(), Value::Null);
            tries.push(Value::Object(o));
        }
    }
    tries.push(json!({"x": null}));
    for t in tries.into_iter().take(opts.budget) {
        if let Err(e) = vo.validate(&t) {
            let detail = error_detail(&e);
            return (
                Some(Witness {
                    kind: WitnessKind::Unexpected,
                    value: t,
                    detail,
                }),
                Proof::Proven,
            );
        }
    }
    (None, Proof::ByConstruction)
}

fn error_detail(e: &jsonschema::ValidationError<'_>) -> String {
    let at = e.instance_path().as_str().to_string();
    let msg = one_line(&e.to_string());
    if at.is_empty() {
        msg
    } else {
        format!("{msg} (at {at})")
    }
}

/// `arguments` that omit the field whose default changed.
fn default_changed(
    c: &Change,
    site: &Site,
    os: &Value,
    ns: &Value,
    vo: &Validator,
) -> (Option<Witness>, Proof) {
    let mut steps = site.steps.clone();
    let Some(Step::Prop(name)) = steps.pop() else {
        return (None, Proof::ByConstruction);
    };
    let node_default = |root: &Value| {
        candidates::nodes_at(root, &site.steps)
            .into_iter()
            .find_map(|n| resolve(root, n).get("default").cloned())
    };
    let (od, nd) = (node_default(os), node_default(ns));
    for variant in 0..4 {
        let (mut inst, at) = embed(os, &steps, Value::Null, variant, true);
        if let Some(Value::Object(m)) = pointer_mut(&mut inst, &at) {
            m.remove(&name);
        } else {
            continue;
        }
        if vo.is_valid(&inst) {
            let show =
                |v: &Option<Value>| v.as_ref().map(|v| v.to_string()).unwrap_or("none".into());
            return (
                Some(Witness {
                    kind: WitnessKind::Reinterpreted,
                    value: inst,
                    detail: format!(
                        "\"{name}\" is omitted: the handler applied {}, now {}",
                        show(&od),
                        show(&nd)
                    ),
                }),
                Proof::ByConstruction,
            );
        }
    }
    let _ = c;
    (None, Proof::ByConstruction)
}

fn pointer<'v>(v: &'v Value, at: &[String]) -> Option<&'v Value> {
    let mut cur = v;
    for t in at {
        cur = match cur {
            Value::Object(m) => m.get(t)?,
            Value::Array(a) => a.get(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn pointer_mut<'v>(v: &'v mut Value, at: &[String]) -> Option<&'v mut Value> {
    let mut cur = v;
    for t in at {
        cur = match cur {
            Value::Object(m) => m.get_mut(t)?,
            Value::Array(a) => a.get_mut(t.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn to_pointer(at: &[String]) -> String {
    at.iter()
        .map(|t| format!("/{}", crate::lockfile::escape_pointer(t)))
        .collect()
}

/// Builds an instance of `root` along `steps` with `leaf` at the end
/// (when `keep_node` is false the node is left as sampled); returns it and
/// the concrete instance path of the node.
fn embed(
    root: &Value,
    steps: &[Step],
    leaf: Value,
    variant: usize,
    keep_node: bool,
) -> (Value, Vec<String>) {
    let mut at = vec![];
    let v = embed_at(root, root, steps, leaf, variant, keep_node, &mut at, 0);
    (v, at)
}

#[allow(clippy::too_many_arguments)]
fn embed_at(
    root: &Value,
    node: &Value,
    steps: &[Step],
    leaf: Value,
    variant: usize,
    keep_node: bool,
    at: &mut Vec<String>,
    depth: usize,
) -> Value {
    if steps.is_empty() || depth > 64 {
        return if keep_node {
            sample::sample(root, node, variant)
        } else {
            leaf
        };
    }
    let flat = flatten(root, node, variant);
    match &steps[0] {
        Step::Branch(kw, i) => {
            let r = resolve(root, node);
            let child = r.get(*kw).and_then(|a| a.get(*i)).unwrap_or(node);
            let mut v = embed_at(
                root,
                child,
                &steps[1..],
                leaf,
                variant,
                keep_node,
                at,
                depth + 1,
            );
            // the parent's own required members still apply
            if let Value::Object(m) = &mut v {
                let parent = flatten(root, &strip_alternatives(r), variant);
                fill_required(root, &parent, m, variant);
            }
            v
        }
        Step::Not => {
            let child = flat.get("not").cloned().unwrap_or(Value::Bool(true));
            embed_at(
                root,
                &child,
                &steps[1..],
                leaf,
                variant,
                keep_node,
                at,
                depth + 1,
            )
        }
        Step::Prop(_) | Step::PatternKey(_) | Step::Additional => {
            let key = match &steps[0] {
                Step::Prop(n) => n.clone(),
                Step::PatternKey(p) => super::pattern::matching(p)
                    .into_iter()
                    .next()
                    .unwrap_or_else(|| "x".into()),
                _ => {
                    let mut k = "x".to_string();
                    while flat.get("properties").and_then(|p| p.get(&k)).is_some() {
                        k.push('x');
                    }
                    k
                }
            };
            let mut base = match sample::of_type(root, &flat, "object", variant, 0) {
                Value::Object(m) => m,
                _ => Map::new(),
            };
            let child = member_schema(&flat, &key).clone();
            at.push(key.clone());
            let v = embed_at(
                root,
                &child,
                &steps[1..],
                leaf,
                variant,
                keep_node,
                at,
                depth + 1,
            );
            base.insert(key, v);
            Value::Object(base)
        }
        Step::Item(i, kw) => {
            let mut base = match sample::of_type(root, &flat, "array", variant, 0) {
                Value::Array(a) => a,
                _ => vec![],
            };
            let idx = i.unwrap_or(0);
            let child = match (kw, i) {
                (&"contains", _) => flat.get("contains").cloned(),
                (_, Some(i)) => flat
                    .get("prefixItems")
                    .and_then(|a| a.get(*i))
                    .or_else(|| flat.get("items").and_then(|a| a.get(*i)))
                    .or_else(|| flat.get("items").filter(|a| a.is_object()))
                    .cloned(),
                _ => flat.get("items").filter(|a| !a.is_array()).cloned(),
            }
            .unwrap_or(Value::Bool(true));
            while base.len() <= idx && base.len() < 256 {
                base.push(sample::sample(root, &child, 0));
            }
            at.push(idx.to_string());
            let v = embed_at(
                root,
                &child,
                &steps[1..],
                leaf,
                variant,
                keep_node,
                at,
                depth + 1,
            );
            if idx < base.len() {
                base[idx] = v;
            }
            Value::Array(base)
        }
    }
}

fn strip_alternatives(r: &Value) -> Value {
    match r {
        Value::Object(m) => {
            let mut m = m.clone();
            for k in ["anyOf", "oneOf", "allOf"] {
                m.remove(k);
            }
            Value::Object(m)
        }
        v => v.clone(),
    }
}

fn fill_required(
    root: &Value,
    flat: &Map<String, Value>,
    m: &mut Map<String, Value>,
    variant: usize,
) {
    for k in flat
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !m.contains_key(k) {
            m.insert(
                k.to_string(),
                sample::sample(root, member_schema(flat, k), variant),
            );
        }
    }
}

/// Instances still tried, after a hit the validator's complaint attributes,
/// for one that undoing the change explains.
const NEAR_EXTRA: usize = 150;

/// Instances still tried, after a call that is silently ignored, for one
/// that is rejected.
const IGNORED_EXTRA: usize = 40;

/// Whole random instances the source side accepts kept as contexts.
const VALID_CONTEXTS: usize = 3;

/// Focused candidates tried in each such context.
const CONTEXT_CANDIDATES: usize = 60;

/// Focused candidates built before the search starts; the rest (up to
/// [`candidates::MAX_CANDIDATES`]) only once these are all tried. The same
/// list either way, so the same witness.
const FIRST_CANDIDATES: usize = 32;

/// Most instances checked while shrinking one witness.
const SHRINK_BUDGET: usize = 300;

/// One witness search.
struct Search<'a> {
    site: &'a Site,
    /// The change's pointer inside the schema, as segments (after `/inputSchema`).
    pointer_tail: Vec<String>,
    subject: Option<&'a str>,
    input: bool,
    old: (&'a Value, &'a Validator),
    new: (&'a Value, &'a Validator),
    /// The old and the new validator with integer widths enforced (where a side has any).
    strict: (Option<&'a Validator>, Option<&'a Validator>),
    budget: usize,
    deadline: Option<Instant>,
    /// The verdict is about overlapping `oneOf` branches.
    overlap: bool,
    /// A witness of a change inside an alternative must be a value of that
    /// very alternative (not for verdicts about how alternatives overlap).
    own_branch: bool,
    /// The other side with only this change undone (compiled on first use):
    /// an instance it accepts is rejected because of this change.
    undone: std::cell::OnceCell<Option<Validator>>,
    /// [`Search::int_formats`], worked out once (the search and the shrinking both ask).
    ints: std::cell::OnceCell<Option<IntWidths>>,
    /// Whole-schema samples shared with the tool's other verdicts.
    samples: Option<&'a sample::RootSamples>,
}

/// How surely a found instance shows this change: undoing the change alone
/// makes the other side accept it (1), the validator's complaint is at or
/// below the node (2), elsewhere but caused by the node's value (3).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    /// The complaint is the changed keyword at its place, or with only this
    /// change undone the other side accepts the instance.
    Undone,
    AtNode,
    Elsewhere,
}

struct Hit {
    inst: Value,
    at: Vec<String>,
    kind: WitnessKind,
    detail: String,
    tier: Tier,
}

/// Keywords whose failure may come from anything below them.
fn combinator(k: &str) -> bool {
    matches!(
        k,
        "anyOf"
            | "oneOf"
            | "allOf"
            | "not"
            | "if"
            | "then"
            | "else"
            | "dependentSchemas"
            | "$ref"
            | "false"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "contentSchema"
    )
}

/// Keywords that fail for the same reason.
fn family(k: &str) -> &str {
    match k {
        "type" | "enum" | "const" => "values",
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "range",
        "minLength" | "maxLength" => "length",
        "minItems" | "maxItems" | "uniqueItems" | "minContains" | "maxContains" | "contains" => {
            "items-size"
        }
        "minProperties" | "maxProperties" => "members-size",
        "additionalProperties"
        | "properties"
        | "patternProperties"
        | "propertyNames"
        | "property-removed" => "members",
        "dependentRequired" | "dependencies" => "dependent",
        other => other,
    }
}

/// Schema path segments with `$ref` hops and alternative branches removed
/// (the engine's pointers follow references and merge branches).
fn normalize(segs: &[String]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < segs.len() {
        let s = segs[i].as_str();
        if s == "$ref" {
            i += 1;
            continue;
        }
        if matches!(s, "anyOf" | "oneOf" | "allOf")
            && segs.get(i + 1).is_some_and(|n| n.parse::<usize>().is_ok())
        {
            i += 2;
            continue;
        }
        out.push(segs[i].clone());
        i += 1;
    }
    out
}

/// Does a validation error at schema evaluation path `eval` come from the
/// change at `pointer` (its segments after the schema name)? Same node and
/// same kind of keyword, a combinator above the change, or (for keywords
/// that hold sub-schemas) anything below it.
fn attributable(site: &Site, pointer: &[String], eval: &str) -> bool {
    let eval: Vec<String> = eval.split('/').skip(1).map(String::from).collect();
    let (Some((ek, enode)), Some(ck)) = (eval.split_last(), site.keyword.as_deref()) else {
        return true;
    };
    let enode = normalize(enode);
    // the change's node: the pointer without the keyword (and its key)
    let cut = pointer
        .iter()
        .rposition(|t| t == ck)
        .unwrap_or(pointer.len());
    let mut cnode = normalize(&pointer[..cut]);
    if ck == "property-removed" {
        // the pointer names the removed property; its object is the node
        cnode = normalize(&pointer[..pointer.len().saturating_sub(2)]);
    }
    let (ek, ck) = (ek.as_str(), ck);
    if enode == cnode {
        return combinator(ek)
            || combinator(ck)
            || family(ek) == family(ck)
            || (family(ck) == "members" && ek == "required");
    }
    if enode.len() < cnode.len() && cnode.starts_with(&enode) {
        return combinator(ek);
    }
    if enode.len() > cnode.len() && enode.starts_with(&cnode) {
        return combinator(ck)
            || matches!(
                ck,
                "items"
                    | "prefixItems"
                    | "additionalItems"
                    | "additionalProperties"
                    | "patternProperties"
                    | "contains"
                    | "propertyNames"
            );
    }
    false
}

/// The serde integer widths (`format: int32`, ...; see
/// [`crate::schema::numeric::format_range`]) of the node on the source and
/// the other side, with the format names (`none` where there is none).
struct IntWidths {
    src: Option<(Bound, Bound)>,
    other: Option<(Bound, Bound)>,
    src_name: String,
    other_name: String,
}

/// The range of an integer `format` (`None` for any other format).
fn int_width(format: &str) -> Option<(Bound, Bound)> {
    if numeric::is_integer_format(format) {
        numeric::format_range(format)
    } else {
        None
    }
}

/// Does serde deserialize `n` into the integer type of `width`? An integer
/// within the range; never a fraction (nor `2.0`: serde_json reads it as a float).
fn serde_admits(width: Option<&(Bound, Bound)>, n: &serde_json::Number) -> bool {
    let Some((lo, hi)) = width else { return true };
    let v = Num::from_number(n);
    if !matches!(v, Num::Int(_)) {
        return false;
    }
    let above = |b: &Bound| match v.total_cmp(&b.value) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => !b.exclusive,
        std::cmp::Ordering::Less => false,
    };
    let below = |b: &Bound| match v.total_cmp(&b.value) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Equal => !b.exclusive,
        std::cmp::Ordering::Greater => false,
    };
    above(lo) && below(hi)
}

/// An integer bound as a JSON number, when it is one.
/// Just past the `past` width (its upper bound + 1, its lower bound - 1),
/// then on the edges of the `within` width.
fn width_probes(past: &Option<(Bound, Bound)>, within: &Option<(Bound, Bound)>) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some((lo, hi)) = past {
        out.extend(bound_value(hi, 1));
        out.extend(bound_value(lo, -1));
    }
    if let Some((lo, hi)) = within {
        out.extend(bound_value(lo, 0));
        out.extend(bound_value(hi, 0));
    }
    out
}

fn bound_value(b: &Bound, step: i128) -> Option<Value> {
    let Num::Int(i) = b.value else { return None };
    let i = i.checked_add(step)?;
    i64::try_from(i)
        .map(|i| json!(i))
        .or_else(|_| u64::try_from(i).map(|u| json!(u)))
        .ok()
}

impl Search<'_> {
    fn src(&self) -> (&Value, &Validator) {
        if self.input {
            self.old
        } else {
            self.new
        }
    }
    fn other(&self) -> (&Value, &Validator) {
        if self.input {
            self.new
        } else {
            self.old
        }
    }

    /// The other side's schema with the keyword at the change's pointer put
    /// back as the source side has it (or removed where the source has
    /// none), compiled; `None` when neither side has the pointer, the
    /// pointer runs through something else, or it does not compile.
    fn undone(&self) -> Option<&Validator> {
        self.undone
            .get_or_init(|| {
                let (src_root, _) = self.src();
                let (other_root, _) = self.other();
                let tail = &self.pointer_tail;
                let (last, parent) = tail.split_last()?;
                let ptr = |t: &[String]| to_pointer(t);
                let src = src_root.pointer(&ptr(tail));
                let there = other_root.pointer(&ptr(tail));
                if src.is_none() && there.is_none() {
                    return None;
                }
                if src == there {
                    return None;
                }
                let mut patched = other_root.clone();
                // (a `required` list holds one change per name: only this name is put back)
                if let Some(name) = self.required_name() {
                    let listed = |v: Option<&Value>| {
                        v.and_then(Value::as_array)
                            .is_some_and(|a| a.iter().any(|n| n.as_str() == Some(name)))
                    };
                    let (want, has) = (listed(src), listed(there));
                    if want == has {
                        return None;
                    }
                    let Value::Object(m) = pointer_mut(&mut patched, parent)? else {
                        return None;
                    };
                    let list = m.entry(last.clone()).or_insert_with(|| json!([]));
                    let Value::Array(a) = list else { return None };
                    if want {
                        a.push(json!(name));
                    } else {
                        a.retain(|n| n.as_str() != Some(name));
                    }
                    return compile(&patched).ok();
                }
                match (pointer_mut(&mut patched, parent)?, src) {
                    (Value::Object(m), Some(v)) => {
                        m.insert(last.clone(), v.clone());
                    }
                    (Value::Object(m), None) => {
                        m.remove(last);
                    }
                    (Value::Array(a), Some(v)) => {
                        let i: usize = last.parse().ok()?;
                        *a.get_mut(i)? = v.clone();
                    }
                    _ => return None,
                }
                // (the keyword put back may name definitions only the source side has)
                for defs in ["$defs", "definitions"] {
                    if let (Some(Value::Object(theirs)), Value::Object(p)) =
                        (src_root.get(defs), &mut patched)
                    {
                        if let Value::Object(ours) = p
                            .entry(defs.to_string())
                            .or_insert_with(|| Value::Object(Map::new()))
                        {
                            for (k, v) in theirs {
                                ours.entry(k.clone()).or_insert_with(|| v.clone());
                            }
                        }
                    }
                }
                compile(&patched).ok()
            })
            .as_ref()
    }

    /// The name, when the change is one name of a `required` list: the list
    /// holds one change per name, so the keyword at its place does not
    /// single this one out.
    fn required_name(&self) -> Option<&str> {
        let at_list = self.site.keyword.as_deref() == Some("required")
            && self.pointer_tail.last().map(String::as_str) == Some("required");
        self.subject.filter(|_| at_list)
    }

    /// Is the validator's complaint about this change's own name? (For a
    /// name of a `required` list, a missing neighbour is another change's.)
    fn about_subject(&self, e: &jsonschema::ValidationError<'_>) -> bool {
        match (self.required_name(), e.kind()) {
            (Some(name), jsonschema::error::ValidationErrorKind::Required { property }) => {
                property.as_str() == Some(name)
            }
            _ => true,
        }
    }

    /// Integer widths of the node on the source and the other side, when either has one.
    fn int_formats(&self) -> &Option<IntWidths> {
        self.ints.get_or_init(|| self.find_int_formats())
    }

    fn find_int_formats(&self) -> Option<IntWidths> {
        let fmt = |root: &Value| -> Option<String> {
            candidates::nodes_at(root, &self.site.steps)
                .into_iter()
                .find_map(|n| {
                    flatten(root, n, 0)
                        .get("format")
                        .and_then(Value::as_str)
                        .map(String::from)
                })
        };
        let (fs, fo) = (fmt(self.src().0), fmt(self.other().0));
        let src = fs.as_deref().and_then(int_width);
        let other = fo.as_deref().and_then(int_width);
        if src.is_none() && other.is_none() {
            return None;
        }
        Some(IntWidths {
            src,
            other,
            src_name: fs.unwrap_or_else(|| "none".into()),
            other_name: fo.unwrap_or_else(|| "none".into()),
        })
    }

    /// The source and the other side's validator with integer widths enforced.
    fn strict(&self) -> (Option<&Validator>, Option<&Validator>) {
        if self.input {
            self.strict
        } else {
            (self.strict.1, self.strict.0)
        }
    }

    /// Does the source side accept `inst`, as serde reads it (integer widths enforced)?
    fn src_accepts(&self, inst: &Value) -> bool {
        self.strict().0.unwrap_or(self.src().1).is_valid(inst)
    }

    /// Is the instance's value one of the changed alternative's own? For a
    /// change inside an alternative (`.../oneOf/2/...`, or the alternative
    /// itself), the value at that alternative's place must be one it
    /// accepts: a value only a sibling takes shows the sibling, not this
    /// change. (Decided by the engine's own reading; undecided, or a place
    /// the pointer does not map to, counts as yes.)
    fn in_own_branch(&self, inst: &Value, at: &[String]) -> bool {
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

    /// Does the other side accept `inst`, as serde reads it (integer widths enforced)?
    fn other_accepts(&self, inst: &Value) -> bool {
        self.strict().1.unwrap_or(self.other().1).is_valid(inst)
    }

    /// Checks one instance: a hit when the source side accepts it and the
    /// other rejects it (integer widths enforced on both sides: under a
    /// `not` or beside another `oneOf` branch a width decides acceptance
    /// either way).
    fn check(&self, inst: &Value, at: &[String], ints: &Option<IntWidths>) -> Option<Hit> {
        let (_, vo) = self.other();
        if !self.src_accepts(inst) {
            return None;
        }
        if self.own_branch && !self.in_own_branch(inst, at) {
            return None;
        }
        if self.site.keyword.as_deref() == Some("property-removed") {
            return self.check_removed(inst, at);
        }
        let kind = if self.input {
            WitnessKind::Rejected
        } else {
            WitnessKind::Unexpected
        };
        if self.other_accepts(inst) {
            return None;
        }
        if !vo.is_valid(inst) {
            // an overlap of oneOf branches shows as a value that matches more than one
            // (else, second best: the changed oneOf itself rejects it, and with
            // the old alternatives back the instance passes)
            if self.overlap {
                let here = to_pointer(at);
                let multiple = vo.iter_errors(inst).take(16).find(|e| {
                    matches!(
                        e.kind(),
                        jsonschema::error::ValidationErrorKind::OneOfMultipleValid { .. }
                    ) && e.instance_path().as_str() == here
                });
                if let Some(e) = multiple {
                    return Some(Hit {
                        inst: inst.clone(),
                        at: at.to_vec(),
                        kind,
                        detail: error_detail(&e),
                        tier: Tier::Undone,
                    });
                }
                // (where the pointer runs through merged branches, nothing can
                // be undone: a oneOf at the node rejecting it must then say so)
                let undone = self.undone();
                if undone.is_some_and(|u| !u.is_valid(inst)) {
                    return None;
                }
                // (a combinator above the oneOf may report it in its own name)
                let at_one_of = vo.iter_errors(inst).take(16).find(|e| {
                    e.instance_path().as_str() == here
                        && e.evaluation_path().as_str().ends_with("/oneOf")
                });
                let e = match undone {
                    Some(_) => at_one_of.or_else(|| vo.iter_errors(inst).next())?,
                    // (or a combinator enclosing it, at the same place)
                    None => at_one_of.or_else(|| {
                        vo.iter_errors(inst).take(16).find(|e| {
                            e.instance_path().as_str() == here
                                && attributable(
                                    self.site,
                                    &self.pointer_tail,
                                    e.evaluation_path().as_str(),
                                )
                        })
                    })?,
                };
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind,
                    detail: error_detail(&e),
                    tier: Tier::AtNode,
                });
            }
            // the validator's complaint is the changed keyword itself, at the changed place
            // (for one name of a `required` list: about that name, and the
            // only reason, i.e. with that name put back the other side accepts)
            let exact = vo.iter_errors(inst).take(16).find(|e| {
                let eval = e.evaluation_path().as_str();
                self.about_subject(e)
                    && eval
                        .split('/')
                        .skip(1)
                        .filter(|t| *t != "$ref")
                        .map(|t| t.replace("~1", "/").replace("~0", "~"))
                        .eq(self.pointer_tail.iter().cloned())
            });
            let alone =
                self.required_name().is_none() || self.undone().is_some_and(|u| u.is_valid(inst));
            if let Some(e) = exact.filter(|_| alone) {
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind,
                    detail: error_detail(&e),
                    tier: Tier::Undone,
                });
            }
            // with the change undone, the other side accepts: this change is the cause
            if self.undone().is_some_and(|u| u.is_valid(inst)) {
                let detail = vo
                    .iter_errors(inst)
                    .take(16)
                    .find(|e| {
                        self.about_subject(e)
                            && attributable(
                                self.site,
                                &self.pointer_tail,
                                e.evaluation_path().as_str(),
                            )
                    })
                    .or_else(|| vo.iter_errors(inst).next())
                    .map(|e| error_detail(&e))
                    .unwrap_or_default();
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind,
                    detail,
                    tier: Tier::Undone,
                });
            }
            // the error that this change explains, if the validator names one
            let mut first: Option<String> = None;
            for e in vo.iter_errors(inst).take(16) {
                let eval = e.evaluation_path().as_str().to_string();
                if self.about_subject(&e) && attributable(self.site, &self.pointer_tail, &eval) {
                    return Some(Hit {
                        inst: inst.clone(),
                        at: at.to_vec(),
                        kind,
                        detail: error_detail(&e),
                        tier: Tier::AtNode,
                    });
                }
                first.get_or_insert_with(|| error_detail(&e));
            }
            return Some(Hit {
                inst: inst.clone(),
                at: at.to_vec(),
                kind,
                detail: first.unwrap_or_default(),
                tier: Tier::Elsewhere,
            });
        }
        // integer widths: only serde's ranges (which the plain validator
        // ignores) reject it; the node's value must lie where the widths differ
        if let Some(w) = ints {
            let mut node = inst.clone();
            let Value::Number(n) = pointer_mut(&mut node, at)? else {
                return None;
            };
            let (in_src, in_other) = (
                serde_admits(w.src.as_ref(), n),
                serde_admits(w.other.as_ref(), n),
            );
            if in_src != in_other {
                let (was, now) = if self.input {
                    (&w.src_name, &w.other_name)
                } else {
                    (&w.other_name, &w.src_name)
                };
                let detail = match (self.input, in_src) {
                    (true, true) => format!("{n} is outside `format: {now}` (was `{was}`): deserializing it into the new integer type fails"),
                    (false, true) => format!("{n} is outside `format: {was}` (now `{now}`): old clients deserializing into the old integer type fail"),
                    // (the width sits under a `not`, or beside an overlapping `oneOf` branch)
                    (true, false) => format!("{n} is now within `format: {now}` (was `{was}`), where the new schema excludes that width: the new schema rejects the call"),
                    (false, false) => format!("{n} was within `format: {was}` (now `{now}`), where the old schema excludes that width: old clients reject it"),
                };
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind,
                    detail,
                    tier: Tier::AtNode,
                });
            }
        }
        None
    }

    /// A removed property: the witness must be about that member. An input
    /// call that sends it and is rejected only because of it (without the
    /// member the new schema accepts the call), or, from an open object, a
    /// call that sends it and is silently ignored. An output value whose
    /// member the old schema forbids (or misses when the old one required
    /// it), and that the old schema accepts once the member is put right.
    fn check_removed(&self, inst: &Value, at: &[String]) -> Option<Hit> {
        let name = self.subject?;
        let (other_root, vo) = self.other();
        let node = pointer(inst, at)?.as_object()?;
        let sends = node.contains_key(name);
        let rejected = !self.other_accepts(inst);
        if self.input {
            if !sends {
                return None;
            }
            if !rejected {
                return Some(Hit {
                    inst: inst.clone(),
                    at: at.to_vec(),
                    kind: WitnessKind::Ignored,
                    detail: format!(
                        "\"{name}\" is no longer declared, so the handler runs without it"
                    ),
                    tier: Tier::AtNode,
                });
            }
            // without the member, one of the new schema's complaints goes away
            let mut without = inst.clone();
            if let Some(Value::Object(m)) = pointer_mut(&mut without, at) {
                m.remove(name);
            }
            // (or, when the complaint is a whole alternative's, the declaration put back lets it pass)
            let detail = vanished(vo, inst, &without)
                .or_else(|| unexpected_member(vo, inst, at, name))
                .or_else(|| {
                    self.undone()
                        .filter(|u| u.is_valid(inst))
                        .and_then(|_| vo.iter_errors(inst).next().map(|e| error_detail(&e)))
                })?;
            Some(Hit {
                inst: inst.clone(),
                at: at.to_vec(),
                kind: WitnessKind::Rejected,
                detail,
                tier: Tier::AtNode,
            })
        } else {
            if !rejected {
                return None;
            }
            // the old side's view of the member: put right, the old schema accepts
            let mut fixes: Vec<Value> = vec![];
            let mut steps = self.site.steps.clone();
            steps.push(Step::Prop(name.to_string()));
            for n in candidates::nodes_at(other_root, &steps).into_iter().take(4) {
                for v in 0..3 {
                    fixes.push(sample::sample(other_root, n, v));
                }
            }
            let fixed = |with: Option<&Value>| {
                let mut f = inst.clone();
                if let Some(Value::Object(m)) = pointer_mut(&mut f, at) {
                    match with {
                        Some(v) => m.insert(name.to_string(), v.clone()),
                        None => m.remove(name),
                    };
                }
                // (the new side may reject it: a `oneOf` whose branches now
                // both match; the old side's complaint is what is shown)
                vo.is_valid(&f).then_some(f)
            };
            let put_right = sends
                .then(|| fixed(None))
                .flatten()
                .or_else(|| fixes.iter().find_map(|v| fixed(Some(v))))?;
            let detail = vanished(vo, inst, &put_right)?;
            Some(Hit {
                inst: inst.clone(),
                at: at.to_vec(),
                kind: WitnessKind::Unexpected,
                detail,
                tier: Tier::AtNode,
            })
        }
    }

    fn run(&self, rule: &str) -> (Option<Witness>, Proof) {
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

    /// Shrinks a hit (fewest members, shortest strings, smallest numbers) and turns it into a witness.
    fn finish(&self, hit: Hit) -> (Option<Witness>, Proof) {
        let ints = self.int_formats();
        let (node_at, kind, tier) = (hit.at.clone(), hit.kind, hit.tier);
        let keeps = |inst: &Value| -> Option<Hit> {
            let h = self.check(inst, &node_at, ints)?;
            (h.kind == kind && h.tier <= tier).then_some(h)
        };
        let mut best = hit;
        let mut budget = self.budget.min(SHRINK_BUDGET);
        loop {
            let mut improved = false;
            for cand in shrinks(&best.inst, &best.at) {
                if budget == 0 || self.deadline.is_some_and(|d| Instant::now() >= d) {
                    budget = 0;
                    break;
                }
                budget -= 1;
                if let Some(h) = keeps(&cand) {
                    best = h;
                    improved = true;
                    break;
                }
            }
            if !improved || budget == 0 {
                break;
            }
        }
        (
            Some(Witness {
                kind: best.kind,
                value: best.inst,
                detail: best.detail,
            }),
            Proof::Proven,
        )
    }
}

/// `inst` with every array on the way to the node `at` holding copies of
/// the item on the way only; `None` when that changes nothing.
fn uniform(inst: &Value, at: &[String]) -> Option<Value> {
    let mut out = inst.clone();
    make_uniform(&mut out, at).then_some(out)
}

fn make_uniform(v: &mut Value, at: &[String]) -> bool {
    let Some((head, rest)) = at.split_first() else {
        return false;
    };
    match v {
        Value::Object(m) => m.get_mut(head).is_some_and(|c| make_uniform(c, rest)),
        Value::Array(a) => {
            let Some(i) = head.parse::<usize>().ok().filter(|i| *i < a.len()) else {
                return false;
            };
            let deeper = make_uniform(&mut a[i], rest);
            let item = a[i].clone();
            let mut changed = false;
            for x in a.iter_mut() {
                if *x != item {
                    *x = item.clone();
                    changed = true;
                }
            }
            deeper || changed
        }
        _ => false,
    }
}

/// The first complaint of `v` about `before` that `after` no longer
/// draws (same keyword, same place): the one the difference explains.
/// The node a comparator pointer names: its segments read in the document,
/// through the references on the way (the comparator's pointers are
/// places, and a place may lie behind a `$ref`).
fn place_node<'v>(root: &'v Value, segments: &[String]) -> Option<&'v Value> {
    let mut cur = root;
    for seg in segments {
        let mut hops = 0;
        cur = loop {
            let here = match cur {
                Value::Object(m) => m.get(seg.as_str()),
                Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            };
            if let Some(x) = here {
                break x;
            }
            let r = cur.get("$ref").and_then(Value::as_str)?;
            hops += 1;
            if hops > 64 {
                return None;
            }
            cur = crate::schema::refs::resolve(root, r)?;
        };
    }
    Some(cur)
}

/// The new side's complaint that names `name` among the members a closed
/// object did not expect (one complaint for all of them: removing one
/// member leaves it standing, naming the others).
fn unexpected_member(v: &Validator, inst: &Value, at: &[String], name: &str) -> Option<String> {
    let here = to_pointer(at);
    v.iter_errors(inst)
        .take(32)
        .find(|e| {
            e.instance_path().as_str() == here
                && matches!(
                    e.kind(),
                    jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected }
                        if unexpected.iter().any(|u| u == name)
                )
        })
        .map(|e| error_detail(&e))
}

fn vanished(v: &Validator, before: &Value, after: &Value) -> Option<String> {
    let key = |e: &jsonschema::ValidationError<'_>| {
        (
            e.evaluation_path().as_str().to_string(),
            e.instance_path().as_str().to_string(),
        )
    };
    let remaining: Vec<(String, String)> = v.iter_errors(after).take(32).map(|e| key(&e)).collect();
    v.iter_errors(before)
        .take(32)
        .find(|e| !remaining.contains(&key(e)))
        .map(|e| error_detail(&e))
}

/// Smaller variants of `v`, one change each: a member or element dropped
/// (never one on the way to the node), a string shortened, a number moved towards zero.
fn shrinks(v: &Value, node: &[String]) -> Vec<Value> {
    let mut out = vec![];
    let mut at = vec![];
    shrinks_at(v, v, node, &mut at, &mut out);
    out
}

fn shrinks_at(
    root: &Value,
    v: &Value,
    node: &[String],
    at: &mut Vec<String>,
    out: &mut Vec<Value>,
) {
    if out.len() > 256 || at.len() > 32 {
        return;
    }
    let on_path = |at: &[String]| at.len() <= node.len() && node[..at.len()] == *at;
    let replace = |at: &[String], with: Option<Value>, out: &mut Vec<Value>| {
        let mut r = root.clone();
        if let Some((last, parent)) = at.split_last() {
            match pointer_mut(&mut r, parent) {
                Some(Value::Object(m)) => match with {
                    Some(w) => {
                        m.insert(last.clone(), w);
                    }
                    None => {
                        m.remove(last);
                    }
                },
                Some(Value::Array(a)) => {
                    let Ok(i) = last.parse::<usize>() else { return };
                    if i >= a.len() {
                        return;
                    }
                    match with {
                        Some(w) => a[i] = w,
                        None => {
                            a.remove(i);
                        }
                    }
                }
                _ => return,
            }
        } else if let Some(w) = with {
            r = w;
        } else {
            return;
        }
        out.push(r);
    };
    match v {
        Value::Object(m) => {
            for k in m.keys() {
                at.push(k.clone());
                if !on_path(at) {
                    replace(at, None, out);
                }
                at.pop();
            }
            for (k, c) in m {
                at.push(k.clone());
                shrinks_at(root, c, node, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for i in (0..a.len()).rev() {
                at.push(i.to_string());
                if !on_path(at) {
                    replace(at, None, out);
                }
                at.pop();
            }
            for (i, c) in a.iter().enumerate() {
                at.push(i.to_string());
                shrinks_at(root, c, node, at, out);
                at.pop();
            }
        }
        Value::String(s) if !s.is_empty() => {
            let n = s.chars().count();
            for keep in [0, n / 2, n - 1] {
                if keep < n {
                    replace(at, Some(Value::String(s.chars().take(keep).collect())), out);
                }
            }
        }
        Value::Number(x) => {
            if let Some(i) = x.as_i64() {
                for t in [0, i / 2, i - i.signum()] {
                    if t != i && t.unsigned_abs() < i.unsigned_abs() {
                        replace(at, Some(json!(t)), out);
                    }
                }
            } else if let Some(f) = x.as_f64() {
                if f.fract() != 0.0 {
                    replace(at, Some(json!(f.trunc() as i64)), out);
                }
            }
        }
        _ => {}
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
    fn the_smallest_int64_shrinks_without_overflow() {
        // (an int64 width's lower bound is a boundary candidate)
        let out = shrinks(&json!(i64::MIN), &[]);
        assert!(
            out.contains(&json!(0)) && out.contains(&json!(i64::MIN / 2)),
            "{out:?}"
        );
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
