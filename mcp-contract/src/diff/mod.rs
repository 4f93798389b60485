//! The compatibility classifier: compares two tool surfaces and reports every
//! change with a registered rule id, a severity, the tool, a JSON pointer and
//! a one-line message saying who breaks and how to fix it.
//!
//! Inputs are judged from the server's side of the wire (contravariant: the
//! new schema must accept every call the old one accepted, with the same
//! meaning); outputs from the client's (covariant: old clients must accept
//! everything the new schema allows).

mod alternatives;
mod keywords;
mod label;
mod rename;
mod schema;
mod tool;

use std::collections::BTreeMap;

use crate::model::Surface;
use crate::rules::{self, Severity};

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
}

impl Change {
    pub(crate) fn new(rule: &'static str, tool: &str, pointer: String, message: String) -> Self {
        let r = rules::registered(rule);
        Change {
            rule: r.id,
            severity: r.severity,
            tool: tool.to_string(),
            pointer,
            subject: None,
            message,
            hint: None,
            witness: None,
            proof: None,
        }
    }

    pub(crate) fn with_subject(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    /// A stable identity for the change, independent of its message text:
    /// `rule tool pointer[ subject]`. Migration entries may match on it.
    pub fn fingerprint(&self) -> String {
        match &self.subject {
            Some(s) => format!("{} {} {} {}", self.rule, self.tool, self.pointer, s),
            None => format!("{} {} {}", self.rule, self.tool, self.pointer),
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
