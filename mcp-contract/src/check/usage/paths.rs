//! Which deprecated paths a change removes. A path is deprecated when the
//! baseline served it for old callers: a renamed field's old name (an
//! alias), a server-applied default, an old major version of a tool, or a
//! tool the record deprecated or gave a removal condition. The baseline's
//! migration record says what it served; the candidate's record and tool
//! list say what is still served. What the baseline served and the
//! candidate no longer serves is removed. So is whatever an acknowledged
//! change of this diff removes when its entry gives a typed removal
//! condition, whoever served it (an alias the schema declares by hand, a
//! server in another language): a condition is decided wherever it is
//! written. Each removal is matched to the usage key the runtime layer
//! counts it under:
//!
//! | removed                                  | usage rows decided on        |
//! |------------------------------------------|------------------------------|
//! | alias `from` of tool `T`                 | `T`, `field:<from>`          |
//! | argument `a` of `T` (entry with a condition) | `T`, `field:<a>`         |
//! | default of `field` of `T`                | `T`, `default:<field>`       |
//! | old major version `T` (replaced by `R`)  | `T`, `tool:<R>`              |
//! | tool `T` (deprecated, or with a removal condition) | every row of `T` (`field:`, `default:`, `tool:`, `rejected:`) |
//!
//! A record-served path is found only when the baseline had a record; one
//! written on the entry is found with or without it.
//!
//! An alias or default of a tool that goes as a whole is part of the
//! tool's removal. A tool removed without ever being deprecated and without
//! a removal condition is not a deprecated path: the runtime layer counted
//! none of its calls, so there is nothing to decide on (the acknowledgement
//! of `tool.removed` is the decision).

use std::collections::BTreeSet;

use crate::check::Gated;
use crate::migrations::{MigrationRecord, RemovalCondition, Removes, RenameTarget, Transition};
use crate::rules::RuleId;
use crate::runtime::plan::entry_field;

/// What kind of old path it is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum PathKind {
    /// A renamed field's old name, read as the new one.
    Alias { from: String, to: String },
    /// A top-level argument the change removes, whose entry gives a typed
    /// removal condition (an alias the schema declared by hand, a server
    /// in another language).
    Field { name: String },
    /// A value the server applies when a caller omits a field that became required.
    Default { field: String },
    /// An old major version, served beside its replacement.
    OldVersion { replacement: String },
    /// A tool the record deprecated or gave a removal condition.
    Tool,
}

impl PathKind {
    /// The usage key the runtime layer counts the path under; `None`: every
    /// path of the tool.
    pub fn key(&self) -> Option<String> {
        match self {
            PathKind::Alias { from, .. } => Some(format!("field:{from}")),
            PathKind::Field { name } => Some(format!("field:{name}")),
            PathKind::Default { field } => Some(format!("default:{field}")),
            PathKind::OldVersion { replacement } => Some(format!("tool:{replacement}")),
            PathKind::Tool => None,
        }
    }

    /// The JSON name of the kind.
    pub fn as_str(&self) -> &'static str {
        match self {
            PathKind::Alias { .. } => "alias",
            PathKind::Field { .. } => "field",
            PathKind::Default { .. } => "default",
            PathKind::OldVersion { .. } => "old-version",
            PathKind::Tool => "tool",
        }
    }

    /// In words, with the tool: "alias `query` of `search` (renamed to `search_text`)".
    pub fn describe(&self, tool: &str) -> String {
        match self {
            PathKind::Alias { from, to } => {
                format!("the alias `{from}` of `{tool}` (renamed to `{to}`)")
            }
            PathKind::Field { name } => format!("the argument `{name}` of `{tool}`"),
            PathKind::Default { field } => {
                format!("the server-applied default of `{field}` of `{tool}`")
            }
            PathKind::OldVersion { replacement } => {
                format!("the old major version `{tool}` (replaced by `{replacement}`)")
            }
            PathKind::Tool => format!("the deprecated tool `{tool}`"),
        }
    }
}

/// Where a removal condition is written, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The record as named (the baseline's says at which revision).
    pub file: String,
    pub line: usize,
}

/// The removal condition a removed path is decided with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    Typed {
        condition: RemovalCondition,
        source: Source,
    },
    /// Only free text, which usage evidence cannot check; `typed` is the
    /// form to write instead.
    Untyped {
        text: String,
        typed: String,
        source: Source,
    },
    /// No condition anywhere.
    Missing,
}

/// One deprecated path the change removes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovedPath {
    pub tool: String,
    pub kind: PathKind,
    /// The candidate record's entry that records the removal (where its
    /// `evidence` goes), when there is one.
    pub entry: Option<usize>,
    pub condition: Condition,
}

/// The two sides of the change, as far as removals are concerned.
#[derive(Debug, Clone, Default)]
pub struct Sides {
    /// Every tool the baseline lockfile publishes.
    pub baseline_tools: BTreeSet<String>,
    /// Every tool the candidate publishes.
    pub candidate_tools: BTreeSet<String>,
    /// The record at the baseline (`None`: there was none).
    pub baseline_record: Option<MigrationRecord>,
}

impl Sides {
    /// Both sides' tools and the baseline's record, from the gate's input
    /// before it runs. `reduced_from` is the candidate lockfile's text when
    /// the input's surfaces hold only the tools whose text differs
    /// ([`crate::segments::reduce_pair`]): a tool in neither reduced
    /// surface but in that text is unchanged, so published on both sides.
    pub fn of(input: &crate::check::CheckInput, reduced_from: Option<&str>) -> Sides {
        let names =
            |s: &crate::model::Surface| -> BTreeSet<String> { s.tools.keys().cloned().collect() };
        let base = input.baseline.as_ref().map(names).unwrap_or_default();
        let cand = names(&input.candidate);
        let (baseline_tools, candidate_tools) = match reduced_from {
            None => (base, cand),
            Some(text) => {
                let all: BTreeSet<String> = crate::segments::split(text)
                    .map(|segs| segs.keys().map(|k| k.to_string()).collect())
                    .unwrap_or_else(|| cand.clone());
                let unchanged = all.difference(&cand).cloned();
                let base_all = if input.baseline.is_some() {
                    base.iter().cloned().chain(unchanged).collect()
                } else {
                    BTreeSet::new()
                };
                (base_all, all)
            }
        };
        Sides {
            baseline_tools,
            candidate_tools,
            baseline_record: input.baseline_record.clone(),
        }
    }
}

/// The deprecated paths `record` serves for tools in `published`:
/// `(tool, kind)`, without repeats.
fn served(record: &MigrationRecord, published: &BTreeSet<String>) -> Vec<(String, PathKind)> {
    let mut out: Vec<(String, PathKind)> = vec![];
    for e in &record.entries {
        let tool = e.selector.tool();
        let path = match &e.transition {
            Transition::Rename {
                target: RenameTarget::Field,
                from,
                to,
                ..
            } => (
                tool.to_string(),
                PathKind::Alias {
                    from: from.clone(),
                    to: to.clone(),
                },
            ),
            Transition::Default { field, .. } => (
                tool.to_string(),
                PathKind::Default {
                    field: field.clone(),
                },
            ),
            Transition::MajorVersion { from, to, .. } => (
                from.clone(),
                PathKind::OldVersion {
                    replacement: to.clone(),
                },
            ),
            _ => continue,
        };
        out.push(path);
    }
    for (name, p) in &record.tools {
        if let (Some(_), Some(r)) = (p.deprecated, &p.replacement) {
            out.push((
                name.clone(),
                PathKind::OldVersion {
                    replacement: r.clone(),
                },
            ));
        }
    }
    out.retain(|(t, _)| published.contains(t));
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0 && a.1.key() == b.1.key());
    out
}

/// Does the candidate still serve `(tool, kind)`?
fn still_served(sides: &Sides, record: &MigrationRecord, tool: &str, kind: &PathKind) -> bool {
    sides.candidate_tools.contains(tool)
        && match kind {
            PathKind::Alias { from, .. } => record.entries_for(tool).any(|e| {
                matches!(&e.transition, Transition::Rename { target: RenameTarget::Field, from: f, .. } if f == from)
            }),
            PathKind::Default { field } => record.entries_for(tool).any(
                |e| matches!(&e.transition, Transition::Default { field: f, .. } if f == field),
            ),
            PathKind::Field { .. } | PathKind::OldVersion { .. } | PathKind::Tool => true,
        }
}

/// The deprecated paths the change removes, with the entry that records
/// each removal and the condition it is decided with.
pub fn removed(sides: &Sides, record: &MigrationRecord, changes: &[Gated]) -> Vec<RemovedPath> {
    let none = MigrationRecord::default();
    let base = sides.baseline_record.as_ref().unwrap_or(&none);
    let served_base = served(base, &sides.baseline_tools);
    let gone: BTreeSet<&String> = sides
        .baseline_tools
        .iter()
        .filter(|t| !sides.candidate_tools.contains(*t))
        .collect();
    let mut found: Vec<(String, PathKind)> = served_base
        .iter()
        .filter(|(t, k)| !gone.contains(t) && !still_served(sides, record, t, k))
        .cloned()
        .collect();
    for tool in gone {
        let old_version = served_base
            .iter()
            .find(|(t, k)| t == tool && matches!(k, PathKind::OldVersion { .. }));
        if let Some((_, k)) = old_version {
            found.push((tool.clone(), k.clone()));
        } else if deprecated_tool(base, record, &served_base, tool) {
            found.push((tool.clone(), PathKind::Tool));
        }
    }
    for (tool, kind) in written(record, changes) {
        let known = found.iter().any(|(t, k)| {
            t == &tool
                && (k.key() == kind.key()
                    || matches!(k, PathKind::Tool | PathKind::OldVersion { .. }))
        });
        if !known {
            found.push((tool, kind));
        }
    }
    found
        .into_iter()
        .map(|(tool, kind)| {
            let entry = removal_entry(record, changes, &tool, &kind);
            let condition = condition(base, record, entry, &tool, &kind);
            RemovedPath {
                tool,
                kind,
                entry,
                condition,
            }
        })
        .collect()
}

/// The removals this diff's acknowledged changes make whose entries give
/// a typed condition, decided when the change lands: a top-level argument
/// or a tool removed (or a tool renamed), wherever the old path was
/// served from (the baseline's record, or the schema itself). A condition
/// on a rename, default or major version is decided later, when the path
/// the runtime layer serves for it goes.
fn written(record: &MigrationRecord, changes: &[Gated]) -> Vec<(String, PathKind)> {
    let mut out = vec![];
    for g in changes {
        let Some(e) = g.acknowledged_by.and_then(|i| record.entries.get(i)) else {
            continue;
        };
        if e.removal_condition.is_none() || !e.transition.removes_now() {
            continue;
        }
        let kind = match e.selector.removes() {
            Some(Removes::Field(name)) => PathKind::Field { name },
            Some(Removes::Tool) => PathKind::Tool,
            None => continue,
        };
        let path = (g.change.tool.clone(), kind);
        if !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// Did the record deprecate `tool`, or give it a removal condition?
fn deprecated_tool(
    base: &MigrationRecord,
    record: &MigrationRecord,
    served_base: &[(String, PathKind)],
    tool: &str,
) -> bool {
    served_base.iter().any(|(t, _)| t == tool)
        || [base, record].iter().any(|r| {
            r.tools
                .get(tool)
                .is_some_and(|p| p.deprecated.is_some() || p.removal.is_some())
        })
        || record.entries_for(tool).any(|e| {
            e.selector.rule() == RuleId::ToolRemoved.as_str()
                && matches!(
                    &e.transition,
                    Transition::Removal {
                        removal: Some(_),
                        ..
                    }
                )
        })
}

/// The candidate's entry that records the removal: the one acknowledging
/// the change of this diff that removes the path, else one at the same
/// place that no longer serves it.
fn removal_entry(
    record: &MigrationRecord,
    changes: &[Gated],
    tool: &str,
    kind: &PathKind,
) -> Option<usize> {
    let name = match kind {
        PathKind::Alias { from, .. } | PathKind::Field { name: from } => Some(from.as_str()),
        PathKind::Default { field } => Some(field.as_str()),
        PathKind::OldVersion { .. } | PathKind::Tool => None,
    };
    let by_change = changes.iter().find_map(|g| {
        let c = &g.change;
        let about = c.tool == tool
            && match name {
                Some(n) => c.subject.as_deref() == Some(n) && c.rule.starts_with("input."),
                None => c.rule_id() == RuleId::ToolRemoved,
            };
        if about {
            g.acknowledged_by
        } else {
            None
        }
    });
    by_change.or_else(|| {
        record.entries.iter().position(|e| {
            e.selector.tool() == tool
                && match (kind, &e.transition) {
                    (PathKind::Alias { .. }, Transition::Rename { .. })
                    | (PathKind::Default { .. }, Transition::Default { .. }) => false,
                    (
                        PathKind::Alias { .. } | PathKind::Field { .. } | PathKind::Default { .. },
                        _,
                    ) => entry_field(&e.selector).as_deref() == name,
                    _ => e.selector.rule() == RuleId::ToolRemoved.as_str(),
                }
        })
    })
}

/// The condition: the removal's entry's, else the transition that served
/// the path (the candidate's record first, then the baseline's), else the
/// tool's `[tools.NAME]` policy for a tool or old version. A typed
/// condition anywhere wins over free text.
fn condition(
    base: &MigrationRecord,
    record: &MigrationRecord,
    entry: Option<usize>,
    tool: &str,
    kind: &PathKind,
) -> Condition {
    let mut candidates: Vec<(
        &MigrationRecord,
        Option<&RemovalCondition>,
        Option<&String>,
        usize,
    )> = vec![];
    if let Some(e) = entry.and_then(|i| record.entries.get(i)) {
        candidates.push((
            record,
            e.removal_condition.as_ref(),
            free_text(&e.transition),
            e.pos.line,
        ));
    }
    for r in [record, base] {
        for e in &r.entries {
            let serves = match (&e.transition, kind) {
                (
                    Transition::Rename {
                        target: RenameTarget::Field,
                        from,
                        ..
                    },
                    PathKind::Alias { from: f, .. },
                ) => e.selector.tool() == tool && from == f,
                (Transition::Default { field, .. }, PathKind::Default { field: f }) => {
                    e.selector.tool() == tool && field == f
                }
                (Transition::MajorVersion { from, .. }, PathKind::OldVersion { .. }) => {
                    from == tool
                }
                _ => false,
            };
            if serves {
                candidates.push((
                    r,
                    e.removal_condition.as_ref(),
                    free_text(&e.transition),
                    e.pos.line,
                ));
            }
        }
    }
    if matches!(kind, PathKind::OldVersion { .. } | PathKind::Tool) {
        for r in [record, base] {
            if let Some(p) = r.tools.get(tool) {
                candidates.push((
                    r,
                    p.removal_condition.as_ref(),
                    p.removal.as_ref(),
                    p.pos.line,
                ));
            }
        }
    }
    let typed = candidates.iter().find_map(|(r, c, _, _)| {
        c.map(|c| Condition::Typed {
            condition: c.clone(),
            source: Source {
                file: r.file.clone(),
                line: c.pos.line,
            },
        })
    });
    let untyped = || {
        candidates
            .iter()
            .find_map(|(r, c, text, line)| match (c, text) {
                (None, Some(t)) => Some(Condition::Untyped {
                    text: t.to_string(),
                    typed: crate::migrations::typed_form(t),
                    source: Source {
                        file: r.file.clone(),
                        line: *line,
                    },
                }),
                _ => None,
            })
    };
    typed.or_else(untyped).unwrap_or(Condition::Missing)
}

/// A transition's free-text `removal`.
fn free_text(t: &Transition) -> Option<&String> {
    match t {
        Transition::Rename { removal, .. }
        | Transition::MajorVersion { removal, .. }
        | Transition::Removal { removal, .. } => removal.as_ref(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str, file: &str) -> MigrationRecord {
        let (r, problems) = crate::migrations::parse(text, file);
        assert!(problems.is_empty(), "{problems:?}");
        r
    }

    fn tools(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    const BASE: &str = r#"
[tools.send_report]
deprecated = 2026-01-01
replacement = "send_report_v2"
removal = { quiet_for = "30d" }

[tools.legacy_export]
owner = "@o"
deprecated = 2026-01-01

[[acknowledge]]
tool = "search"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "r"
owner = "@o"
transition = { kind = "rename", from = "query", to = "search_text", removal = "no calls for 2 weeks" }

[[acknowledge]]
tool = "create_order"
rule = "input.required-added"
pointer = "/inputSchema/required"
subject = "currency"
reason = "r"
owner = "@o"
transition = { kind = "default", field = "currency", value = "EUR", removal = { quiet_for = "7d" } }
"#;

    fn found(base: &str, now: &str, before: &[&str], after: &[&str]) -> Vec<RemovedPath> {
        let sides = Sides {
            baseline_tools: tools(before),
            candidate_tools: tools(after),
            baseline_record: Some(record(base, "base.toml")),
        };
        removed(&sides, &record(now, "m.toml"), &[])
    }

    #[test]
    fn what_the_baseline_served_and_the_candidate_does_not_is_removed() {
        let all = [
            "search",
            "create_order",
            "send_report",
            "send_report_v2",
            "legacy_export",
            "plain",
        ];
        // nothing changed: nothing removed
        assert_eq!(found(BASE, BASE, &all, &all), []);
        // the record drops every transition, one old version and two tools go
        let after = ["search", "create_order", "send_report_v2"];
        let got = found(BASE, "version = 1\n", &all, &after);
        let kinds: Vec<(&str, &str, Option<String>)> = got
            .iter()
            .map(|r| (r.tool.as_str(), r.kind.as_str(), r.kind.key()))
            .collect();
        assert_eq!(
            kinds,
            [
                ("create_order", "default", Some("default:currency".into())),
                ("search", "alias", Some("field:query".into())),
                ("legacy_export", "tool", None),
                (
                    "send_report",
                    "old-version",
                    Some("tool:send_report_v2".into())
                ),
            ],
            "`plain` was never deprecated: its removal is not gated"
        );
        // each with the condition the baseline wrote, typed or not
        assert!(
            matches!(&got[0].condition, Condition::Typed { condition, source }
            if condition.quiet_for == 7 && source.file == "base.toml" && source.line == 27)
        );
        assert!(matches!(&got[1].condition, Condition::Untyped { typed, .. }
            if typed == "removal = { quiet_for = \"14d\", note = \"no calls for 2 weeks\" }"));
        assert_eq!(got[2].condition, Condition::Missing);
        assert!(
            matches!(&got[3].condition, Condition::Typed { condition, .. } if condition.quiet_for == 30)
        );
        assert!(got.iter().all(|r| r.entry.is_none()));
    }

    #[test]
    fn the_removal_entry_is_found_and_its_condition_wins() {
        let now = r#"
[[acknowledge]]
tool = "search"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "nobody sends query"
owner = "@o"
transition = { kind = "removal", removal = { quiet_for = "60d" } }
"#;
        let got = found(BASE, now, &["search", "create_order"], &["search"]);
        // create_order goes as a whole: its served default makes it a
        // deprecated tool, decided on every row of it
        let alias = got.iter().find(|r| r.tool == "search").unwrap();
        assert_eq!(alias.entry, Some(0));
        assert!(
            matches!(&alias.condition, Condition::Typed { condition, source }
            if condition.quiet_for == 60 && source.file == "m.toml")
        );
        let order = got.iter().find(|r| r.tool == "create_order").unwrap();
        assert_eq!(order.kind, PathKind::Tool);
    }
}
