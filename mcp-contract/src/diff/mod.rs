//! The compatibility classifier: compares two tool surfaces and reports every
//! change with a registered rule id, a severity, the tool, a JSON pointer and
//! a one-line message saying who breaks and how to fix it. Prompts,
//! resources, templates and the server section are compared after the
//! tools ([`Change::target`] says which kind of entry a change concerns).
//!
//! Inputs are judged from the server's side of the wire (contravariant: the
//! new schema must accept every call the old one accepted, with the same
//! meaning); outputs from the client's (covariant: old clients must accept
//! everything the new schema allows).

mod alternatives;
mod conditional;
mod coverage;
mod decide;
mod execution;
mod finite;
pub mod headers;
mod keywords;
mod label;
mod numbers;
mod objects;
pub(crate) mod place;
mod prompts;
mod recursion;
mod rename;
mod resolution;
mod resources;
pub(crate) mod rule;
mod schema;
pub mod server;
mod strings;
mod tool;
#[cfg(feature = "validate")]
pub(crate) use tool::Hints;
mod vacuous;
pub mod weaken;

use std::collections::BTreeMap;

use crate::model::Surface;
use crate::rules::{RuleId, Severity};

pub(crate) use keywords::effective_types;
pub use schema::Direction;

/// One reported change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Registered rule id, e.g. `input.required-added`.
    pub rule: &'static str,
    pub severity: Severity,
    pub tool: String,
    /// JSON pointer into the tool object, e.g. `/inputSchema/required`.
    pub pointer: String,
    /// What the change is about when the pointer alone does not say it (a
    /// field name for `required-added`, the tool for `tool.removed`).
    pub subject: Option<String>,
    /// One line: what changed, who breaks, how to fix it.
    pub message: String,
    /// A hint such as a probable rename target.
    pub hint: Option<String>,
    /// A concrete call (or result, or hint) that shows the break; filled by
    /// the witness pass ([`crate::witness`]) after the diff, never by it.
    pub witness: Option<crate::witness::Witness>,
    /// How the verdict is backed; `None` until the witness pass ran, and for
    /// changes that are not breaking.
    pub proof: Option<crate::witness::Proof>,
    /// What changed at the pointer: the values, or the old and new type,
    /// bound or keyword. Part of the change's identity, so that an
    /// acknowledgement of one change does not also accept a later,
    /// different change at the same place.
    pub detail: Detail,
    /// The rule, typed ([`Change::rule`] is its id).
    kind: RuleId,
}

/// What a change changed, beyond where: empty when the pointer and subject
/// already say everything (a removed property, a new required field).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Detail {
    /// Values removed or added (`enum`/`const` values, alternatives,
    /// `dependentRequired` names).
    pub values: Vec<serde_json::Value>,
    /// The old type, bound or keyword value, as the report shows it.
    pub from: Option<String>,
    /// The new one.
    pub to: Option<String>,
}

impl Detail {
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.from.is_none() && self.to.is_none()
    }

    /// The detail as it stands in a fingerprint: ` values=[..] from=".." to=".."`.
    fn fingerprint_suffix(&self) -> String {
        let mut out = String::new();
        if !self.values.is_empty() {
            out.push_str(" values=");
            out.push_str(&serde_json::Value::Array(self.values.clone()).to_string());
        }
        for (k, v) in [("from", &self.from), ("to", &self.to)] {
            if let Some(v) = v {
                out.push_str(&format!(" {k}={}", serde_json::Value::String(v.clone())));
            }
        }
        out
    }
}

impl Change {
    pub(crate) fn new(rule: RuleId, tool: &str, pointer: String, message: String) -> Self {
        let r = rule.rule();
        Change {
            kind: rule,
            rule: r.id,
            severity: r.severity,
            tool: tool.to_string(),
            pointer,
            subject: None,
            message,
            hint: None,
            detail: Detail::default(),
            witness: None,
            proof: None,
        }
    }

    pub(crate) fn with_from_to(mut self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.detail.from = Some(from.into());
        self.detail.to = Some(to.into());
        self
    }

    pub(crate) fn with_subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// The rule, typed.
    pub fn rule_id(&self) -> RuleId {
        self.kind
    }

    /// Which kind of entry the change concerns, from its rule's namespace;
    /// [`Change::tool`] holds that entry's id (tool or prompt name, resource
    /// uri, template, or [`server::SERVER_ID`]).
    pub fn target(&self) -> Target {
        Target::of_rule(self.rule)
    }

    /// A stable identity for the change, independent of its message text:
    /// `rule tool pointer[ subject][ values=[..]][ from=".." to=".."]`.
    /// Migration entries may match on it.
    pub fn fingerprint(&self) -> String {
        format!(
            "{}{}",
            self.place_fingerprint(),
            self.detail.fingerprint_suffix()
        )
    }

    /// The fingerprint without the detail (`rule tool pointer[ subject]`):
    /// where the change is, not what it is. Records written before the
    /// detail existed match on it.
    pub fn place_fingerprint(&self) -> String {
        match &self.subject {
            Some(s) => format!("{} {} {} {}", self.rule, self.tool, self.pointer, s),
            None => format!("{} {} {}", self.rule, self.tool, self.pointer),
        }
    }
}

/// The kind of entry a change (or an acknowledgement) is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    Tool,
    Prompt,
    /// A resource or a resource template.
    Resource,
    Server,
}

impl Target {
    /// The kind of entry a rule id concerns (`prompt.*`, `resource.*` and
    /// `template.*`, `server.*`; everything else is about a tool).
    pub fn of_rule(rule: &str) -> Target {
        match rule.split_once('.').map(|(ns, _)| ns) {
            Some("prompt") => Target::Prompt,
            Some("resource" | "template") => Target::Resource,
            Some("server") => Target::Server,
            _ => Target::Tool,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Target::Tool => "tool",
            Target::Prompt => "prompt",
            Target::Resource => "resource",
            Target::Server => "server",
        }
    }
}

/// Every change between two surfaces.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiffReport {
    pub changes: Vec<Change>,
}

impl DiffReport {
    /// Counts per severity, every severity present (zero when none).
    pub fn summary(&self) -> BTreeMap<Severity, usize> {
        let mut m: BTreeMap<Severity, usize> = Severity::ALL.iter().map(|s| (*s, 0)).collect();
        for c in &self.changes {
            *m.entry(c.severity).or_default() += 1;
        }
        m
    }

    /// Is any change at least as severe as `level`?
    pub fn has_at_least(&self, level: Severity) -> bool {
        self.changes.iter().any(|c| c.severity >= level)
    }

    pub fn is_breaking(&self) -> bool {
        self.has_at_least(Severity::Breaking)
    }
}

/// Compares two surfaces. Never panics on any input that loading accepted.
pub fn diff_surfaces(old: &Surface, new: &Surface) -> DiffReport {
    let mut changes = vec![];
    let removed: Vec<&str> = old
        .tools
        .keys()
        .filter(|n| !new.tools.contains_key(*n))
        .map(String::as_str)
        .collect();
    let added: Vec<&str> = new
        .tools
        .keys()
        .filter(|n| !old.tools.contains_key(*n))
        .map(String::as_str)
        .collect();
    let renames = rename::probable_renames(old, new, &removed, &added);
    let mut names: Vec<&String> = old.tools.keys().chain(new.tools.keys()).collect();
    names.sort();
    names.dedup();
    for name in names {
        match (old.get(name), new.get(name)) {
            (Some(o), Some(n)) => changes.extend(tool::diff_tool(o, n)),
            (Some(o), None) => changes.push(tool::removed(o, renames.get(name.as_str()).copied())),
            (None, Some(n)) => changes.extend(tool::added(
                n,
                renames
                    .iter()
                    .find(|(_, to)| **to == name)
                    .map(|(from, _)| *from),
            )),
            (None, None) => {}
        }
    }
    changes.extend(prompts::diff_prompts(&old.prompts, &new.prompts));
    changes.extend(resources::diff_resources(&old.resources, &new.resources));
    changes.extend(resources::diff_templates(
        &old.resource_templates,
        &new.resource_templates,
    ));
    changes.extend(server::diff_server(
        old.server.as_ref(),
        new.server.as_ref(),
    ));
    let described = crate::description::flags(old, new, &changes);
    changes.extend(described);
    weaken::apply(&mut changes);
    DiffReport { changes }
}

/// Compares two schemas directly (used by tests and the runtime layer).
pub fn diff_schema(
    old: &serde_json::Value,
    new: &serde_json::Value,
    direction: Direction,
    tool: &str,
) -> Vec<Change> {
    let prefix = match direction {
        Direction::Input => "/inputSchema",
        Direction::Output => "/outputSchema",
    };
    schema::compare_schemas(old, new, direction, tool, prefix)
}
