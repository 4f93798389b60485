//! The containment decision as the authority over the walker's findings.
//!
//! The walker ([`super::schema`]) names changes keyword by keyword, with
//! the rule ids, messages and pointers users see; whether the accepted
//! values really moved is decided here, once per schema pair, on the
//! compiled graphs of both documents ([`crate::schema::contain`]): old ⊆
//! new for inputs (every call accepted before still is; only objects
//! count at the root), new ⊆ old for outputs.
//!
//! - **Proven contained**: the walker's breaking findings judged by the
//!   values ([`Judged::Values`]) are dropped: nothing breaks (`integer` ↔
//!   `number, multipleOf: 1`, `if/then` ↔ `anyOf [not IF, THEN]`, bounds a
//!   closed object makes redundant, …).
//! - **Refuted** (a value the old side accepts and the new one rejects, or
//!   for outputs the other way round): each breaking finding judged by the
//!   values is kept only where the pair of nodes at its pointer is itself
//!   refuted or undecided (a finding at a place whose values did not move
//!   is noise); when no finding is left to show the break, one is added at
//!   the place the value is rejected, named after the keyword that rejects
//!   it, with the value.
//! - **Not decided**: the walker's breaking findings stay; when there are
//!   none, `input.unproven` / `output.unproven` says which keyword kept
//!   the decision from an answer, and why.
//!
//! Findings judged by meaning (defaults, annotations, descriptions, a field
//! silently ignored, the dialect) are never touched: the walker compares
//! them wherever they are written.

use serde_json::Value;

use super::rule::SchemaRule;
use super::schema::Direction;
use super::{label, Change};
use crate::rules::{Judged, RuleId, Severity};
use crate::schema::contain::{Decider, Decision};
use crate::schema::graph::eval::{accepts_declared, Site};
use crate::schema::graph::uri::pointer_tokens;
use crate::schema::graph::{Body, Draft, Graph, NodeId};
use crate::schema::types::TypeSet;
use crate::witness::{Witness, WitnessKind};

/// How many references a pointer is followed through while it is located.
const MAX_FOLLOWED: usize = 32;

/// The walker's findings for one schema pair, settled by the decision.
pub(crate) fn reconcile(
    old: &Value,
    new: &Value,
    dir: Direction,
    tool: &str,
    prefix: &str,
    mut found: Vec<Change>,
) -> Vec<Change> {
    let mut g = Graph::new();
    let ro = g.add(old, Draft::D2020);
    let rn = g.add(new, Draft::D2020);
    let (sub, sup) = match dir {
        Direction::Input => (ro, rn),
        Direction::Output => (rn, ro),
    };
    let only = match dir {
        // `arguments` are objects by protocol; `structuredContent` may be any value
        Direction::Input => TypeSet::OBJECT,
        Direction::Output => TypeSet::ALL,
    };
    let mut decider = Decider::new(&g);
    let decision = decider.contained(sub, sup, only);
    let judged = |c: &Change| c.severity == Severity::Breaking && c.kind.judged() == Judged::Values;
    match &decision {
        Decision::Contained => {
            found.retain(|c| !judged(c));
            return found;
        }
        Decision::NotContained { .. } => {
            // a finding whose own place did not move is noise
            found.retain(|c| {
                if !judged(c) {
                    return true;
                }
                let Some(rest) = c.pointer.strip_prefix(prefix) else {
                    return true;
                };
                let (Some(o), Some(n)) = (locate(&g, ro, rest), locate(&g, rn, rest)) else {
                    return true;
                };
                let (s, p) = match dir {
                    Direction::Input => (o, n),
                    Direction::Output => (n, o),
                };
                let here = if rest.is_empty() { only } else { TypeSet::ALL };
                decider.contained(s, p, here) != Decision::Contained
            });
        }
        Decision::Unknown(_) => {}
    }
    // a breaking finding (of either kind) already shows it
    if found.iter().any(|c| c.severity == Severity::Breaking) {
        return found;
    }
    found.push(match decision {
        Decision::NotContained { witness, site } => {
            // a value that breaks only through fields the sending side
            // leaves undeclared (a server ignores them) breaks no contract:
            // adding an optional field is no narrowing
            if !accepts_declared(&g, sub, &witness).is_valid() {
                return found;
            }
            refuted(&g, dir, tool, prefix, witness, site)
        }
        Decision::Unknown(why) => unproven(dir, tool, prefix, &why),
        Decision::Contained => unreachable_contained(dir, tool, prefix),
    });
    found
}

/// (Contained returned above; kept total without a panic path.)
fn unreachable_contained(dir: Direction, tool: &str, prefix: &str) -> Change {
    unproven(dir, tool, prefix, "the decision changed while it was read")
}

/// The finding for a refutation no walker finding shows.
fn refuted(
    g: &Graph<'_>,
    dir: Direction,
    tool: &str,
    prefix: &str,
    witness: Value,
    site: Option<Site>,
) -> Change {
    let (pointer, keyword) = match site {
        Some(s) => {
            let at = &g.node(s.node).pointer;
            // a `false` schema is rejected by being itself
            if s.keyword == "false" || matches!(g.node(s.node).body, Body::Bool(_)) {
                (format!("{prefix}{at}"), "false")
            } else {
                (format!("{prefix}{at}/{}", s.keyword), s.keyword)
            }
        }
        None => (prefix.to_string(), ""),
    };
    let rule = rule_for(keyword, dir);
    let node_at = match site {
        Some(s) => format!("{prefix}{}", g.node(s.node).pointer),
        None => prefix.to_string(),
    };
    let place = label::describe(&node_at, dir);
    let shown = crate::witness::compact(&witness);
    let at = if keyword.is_empty() || keyword == "false" {
        String::new()
    } else {
        format!(" (`{keyword}`)")
    };
    let message = match dir {
        Direction::Input => format!(
            "{place} now rejects calls it accepted{at}, e.g. {shown}: decided on the whole schema"
        ),
        Direction::Output => format!(
            "{place} now allows results old clients reject{at}, e.g. {shown}: decided on the whole schema"
        ),
    };
    let mut c = Change::new(rule, tool, pointer, message);
    c.witness = Some(Witness {
        kind: match dir {
            Direction::Input => WitnessKind::Rejected,
            Direction::Output => WitnessKind::Unexpected,
        },
        value: witness,
        detail: format!("rejected by `{keyword}`"),
    });
    c
}

/// The finding for a pair the decision could not settle.
fn unproven(dir: Direction, tool: &str, prefix: &str, why: &str) -> Change {
    let rule = match dir {
        Direction::Input => RuleId::InputUnproven,
        Direction::Output => RuleId::OutputUnproven,
    };
    let place = label::describe(prefix, dir);
    let message = match dir {
        Direction::Input => format!(
            "{place} could not be shown to accept every call it accepted ({why}); treated as breaking"
        ),
        Direction::Output => format!(
            "{place} could not be shown to stay within what it allowed ({why}); treated as breaking"
        ),
    };
    Change::new(rule, tool, prefix.to_string(), message)
}

/// The rule of the keyword that rejects a value: what it narrows (inputs:
/// the new schema rejects) or widens (outputs: the old one rejects).
fn rule_for(keyword: &str, dir: Direction) -> RuleId {
    use SchemaRule::*;
    let (narrowed, widened) = match keyword {
        "type" => (TypeNarrowed, TypeWidened),
        "enum" | "const" => (EnumNarrowed, EnumWidened),
        "required" => (RequiredAdded, RequiredRemoved),
        "additionalProperties" | "unevaluatedProperties" => {
            (AdditionalPropertiesNarrowed, AdditionalPropertiesWidened)
        }
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            (RangeNarrowed, RangeWidened)
        }
        "minLength" | "maxLength" => (LengthNarrowed, LengthWidened),
        "minItems" | "maxItems" | "minProperties" | "maxProperties" | "uniqueItems"
        | "contains" | "minContains" | "maxContains" => (SizeNarrowed, SizeWidened),
        "pattern" => (PatternNarrowed, PatternWidened),
        "format" | "contentEncoding" | "contentMediaType" => (FormatNarrowed, FormatWidened),
        "dependentRequired" => (DependentRequiredNarrowed, DependentRequiredWidened),
        "anyOf" | "oneOf" => (VariantRemoved, VariantAdded),
        "not" => (NotNarrowed, NotWidened),
        _ => (ConstraintAdded, ConstraintRemoved),
    };
    match dir {
        Direction::Input => narrowed.in_direction(dir),
        Direction::Output => widened.in_direction(dir),
    }
}

/// The node a walker pointer (relative to the schema root) names: its
/// path through subschemas, references followed where the walker reads
/// through them; the last token (a keyword) names the node it stands in.
pub(crate) fn locate(g: &Graph<'_>, root: NodeId, rest: &str) -> Option<NodeId> {
    let tokens = pointer_tokens(rest)?;
    let mut at = root;
    let mut i = 0;
    let mut followed = 0;
    while i < tokens.len() {
        let Some(k) = g.keywords(at) else {
            return Some(at);
        };
        let t = tokens[i].as_str();
        let next = tokens.get(i + 1).map(String::as_str);
        let index = |list: &[NodeId]| {
            next.and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| list.get(n).copied())
        };
        let (child, used) = match t {
            "properties" => (
                next.and_then(|n| {
                    k.properties
                        .iter()
                        .find(|(p, _)| *p == n)
                        .map(|(_, id)| *id)
                }),
                2,
            ),
            "patternProperties" => (
                next.and_then(|n| {
                    k.pattern_properties
                        .iter()
                        .find(|(p, _)| g.pattern_source(*p) == n)
                        .map(|(_, id)| *id)
                }),
                2,
            ),
            "dependentSchemas" => (
                next.and_then(|n| {
                    k.dependent_schemas
                        .iter()
                        .find(|(p, _)| *p == n)
                        .map(|(_, id)| *id)
                }),
                2,
            ),
            "prefixItems" => (index(&k.prefix_items), 2),
            "allOf" => (index(&k.all_of), 2),
            "anyOf" => (index(&k.any_of), 2),
            "oneOf" => (index(&k.one_of), 2),
            "items" => (k.items, 1),
            "additionalProperties" => (k.additional_properties, 1),
            "propertyNames" => (k.property_names, 1),
            "contains" => (k.contains, 1),
            "not" => (k.not, 1),
            "if" => (k.if_, 1),
            "then" => (k.then_, 1),
            "else" => (k.else_, 1),
            "unevaluatedProperties" => (k.unevaluated_properties, 1),
            "unevaluatedItems" => (k.unevaluated_items, 1),
            // any other token is a keyword of this node
            _ => return Some(at),
        };
        match child {
            Some(c) => {
                at = c;
                i += used;
            }
            None => {
                // the walker reads through references
                let r = k.reference.or(k.dynamic_reference)?;
                followed += 1;
                if followed > MAX_FOLLOWED {
                    return None;
                }
                at = r;
            }
        }
    }
    Some(at)
}
