//! The changelog for the people who call a server: what changed between two
//! revisions, sorted the way a client reads it (breaking changes, removals,
//! deprecations, new tools and fields, behavioural changes, cosmetic ones),
//! each with its rule id and, when the migration record acknowledges it, the
//! transition (rename, server-applied default, new major version, removal)
//! with its typed removal condition and replacement.
//!
//! It is not a second opinion: the items are the findings of the gate's
//! [`CheckOutcome`] for the same two revisions, each exactly once, sorted
//! into a [`Section`] by its severity and rule. Beside them, the record's
//! tool deprecations (`[tools.NAME]` with `deprecated`, `replacement`,
//! `removal` or `until`) that the newer revision adds or changes, which
//! are the record's words, not findings. [`crate::report::changelog`]
//! renders it as Markdown and JSON.

use crate::check::{CheckOutcome, Gated};
use crate::migrations::{Entry, MigrationRecord, ToolPolicy, Transition};
use crate::rules::Severity;

/// Where an item goes in the changelog, in the order it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// A breaking change that is not a removal (a narrowed input, a widened output, ...).
    Breaking,
    /// Something callers used is gone (a tool, a field, a prompt, a variant).
    Removed,
    /// Marked deprecated in the schema.
    Deprecated,
    /// New tools, fields and relaxations: nothing existing breaks.
    Added,
    /// No call fails, but meaning may change (defaults, annotations, descriptions).
    Changed,
    /// Formatting, ordering, extensions.
    Cosmetic,
}

impl Section {
    pub const ALL: [Section; 6] = [
        Section::Breaking,
        Section::Removed,
        Section::Deprecated,
        Section::Added,
        Section::Changed,
        Section::Cosmetic,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Section::Breaking => "breaking",
            Section::Removed => "removed",
            Section::Deprecated => "deprecated",
            Section::Added => "added",
            Section::Changed => "changed",
            Section::Cosmetic => "cosmetic",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Section::Breaking => "Breaking",
            Section::Removed => "Removed",
            Section::Deprecated => "Deprecated",
            Section::Added => "Added",
            Section::Changed => "Changed behaviour",
            Section::Cosmetic => "Cosmetic",
        }
    }

    /// The section of a change with `rule` and `severity`.
    pub fn of(rule: &str, severity: Severity) -> Section {
        let (ns, name) = rule.split_once('.').unwrap_or(("", rule));
        if name == "deprecated" {
            return Section::Deprecated;
        }
        match severity {
            Severity::Breaking
                if ns != "annotations" && (name == "removed" || name.ends_with("-removed")) =>
            {
                Section::Removed
            }
            Severity::Breaking => Section::Breaking,
            Severity::Additive => Section::Added,
            Severity::Behavioral => Section::Changed,
            Severity::Cosmetic => Section::Cosmetic,
        }
    }
}

/// One finding, in its section, with what acknowledged it.
#[derive(Debug, Clone)]
pub struct Item<'a> {
    pub section: Section,
    pub gated: &'a Gated,
    pub acknowledged_by: Option<&'a Entry>,
}

impl Item<'_> {
    /// The acknowledging transition in words: `rename query -> search_text
    /// until 2026-01-31; removed when no calls for 30 days; use X instead`.
    pub fn transition(&self) -> Option<String> {
        let e = self.acknowledged_by?;
        let mut s = crate::report::gate::describe_transition(&e.transition);
        if let Some(until) = e.transition.until() {
            s.push_str(&format!(" until {until}"));
        }
        if let Some(c) = &e.removal_condition {
            s.push_str(&format!(
                "; removed when {}",
                c.note.clone().unwrap_or_else(|| c.describe())
            ));
        }
        if let Transition::Removal {
            replacement: Some(r),
            ..
        } = &e.transition
        {
            s.push_str(&format!("; use `{r}` instead"));
        }
        Some(s)
    }
}

/// A `[tools.NAME]` deprecation the newer record adds or changes.
#[derive(Debug, Clone, PartialEq)]
pub struct Deprecation<'a> {
    pub policy: &'a ToolPolicy,
}

impl Deprecation<'_> {
    /// The policy in words: `deprecated 2025-09-01; use send_report_v2;
    /// removed when no calls for 30 days; due 2026-03-01`.
    pub fn words(&self) -> String {
        let p = self.policy;
        let mut parts = vec![];
        match p.deprecated {
            Some(d) => parts.push(format!("deprecated since {d}")),
            None => parts.push("deprecated".to_string()),
        }
        if let Some(r) = &p.replacement {
            parts.push(format!("use `{r}` instead"));
        }
        if let Some(c) = &p.removal_condition {
            parts.push(format!(
                "removed when {}",
                c.note.clone().unwrap_or_else(|| c.describe())
            ));
        } else if let Some(r) = &p.removal {
            parts.push(format!("removed when {r}"));
        }
        if let Some(u) = p.until {
            parts.push(format!("due for removal on {u}"));
        }
        parts.join("; ")
    }
}

/// The changelog of one lockfile between two revisions.
#[derive(Debug, Clone)]
pub struct Changelog<'a> {
    /// Every finding of the gate, once, in section order (then as found).
    pub items: Vec<Item<'a>>,
    pub deprecations: Vec<Deprecation<'a>>,
}

fn is_deprecation(p: &ToolPolicy) -> bool {
    p.deprecated.is_some() || p.replacement.is_some() || p.removal.is_some() || p.until.is_some()
}

/// Sorts the gate's findings into sections and adds the record's new
/// deprecations. `older` is the record at the older revision.
pub fn build<'a>(outcome: &'a CheckOutcome, older: Option<&MigrationRecord>) -> Changelog<'a> {
    let mut items: Vec<Item<'a>> = outcome
        .changes
        .iter()
        .map(|g| Item {
            section: Section::of(g.change.rule, g.change.severity),
            gated: g,
            acknowledged_by: g
                .acknowledged_by
                .and_then(|i| outcome.record.entries.get(i)),
        })
        .collect();
    items.sort_by_key(|i| i.section);
    let deprecations = outcome
        .record
        .tools
        .values()
        .filter(|p| is_deprecation(p))
        .filter(|p| {
            older.and_then(|o| o.tools.get(&p.name)).is_none_or(|old| {
                (&old.deprecated, &old.replacement, &old.removal, &old.until)
                    != (&p.deprecated, &p.replacement, &p.removal, &p.until)
            })
        })
        .map(|policy| Deprecation { policy })
        .collect();
    Changelog {
        items,
        deprecations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_follow_severity_and_rule() {
        use Severity::*;
        assert_eq!(Section::of("tool.removed", Breaking), Section::Removed);
        assert_eq!(
            Section::of("input.property-removed", Breaking),
            Section::Removed
        );
        assert_eq!(
            Section::of("input.required-added", Breaking),
            Section::Breaking
        );
        // a hint that stopped promising is a breaking change, not a removal
        assert_eq!(
            Section::of("annotations.read-only-removed", Breaking),
            Section::Breaking
        );
        // fewer required fields: nothing callers used is gone
        assert_eq!(
            Section::of("input.required-removed", Additive),
            Section::Added
        );
        assert_eq!(
            Section::of("input.deprecated", Behavioral),
            Section::Deprecated
        );
        assert_eq!(
            Section::of("input.default-added", Behavioral),
            Section::Changed
        );
        assert_eq!(Section::of("tool.added", Additive), Section::Added);
    }
}
