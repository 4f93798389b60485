//! The typed migration record: what `contracts/migrations.toml` says once it
//! has been parsed and validated. Both the check (which matches entries
//! against the diff) and the runtime compatibility layer (which generates
//! aliases, server-applied defaults and versioned tools from the
//! transitions) read these types, never the TOML.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use super::date::Date;
use crate::diff::{Change, Detail};

/// A position in the record file (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// The whole record. An absent file is an empty record.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MigrationRecord {
    /// The file as the user named it (for messages).
    pub file: String,
    /// Per-tool policy, keyed by tool name (`[tools.NAME]`).
    pub tools: BTreeMap<String, ToolPolicy>,
    /// Acknowledgements (`[[acknowledge]]`), in file order. Entries that
    /// failed validation are not here.
    pub entries: Vec<Entry>,
    /// One warning per removal condition written as free text
    /// (`removal = "..."`), showing the typed form usage evidence can
    /// check. Kept apart from [`parse`](super::parse)'s problems: a record
    /// that was valid stays valid, and each front end chooses to show them.
    pub untyped_removals: Vec<Problem>,
}

/// `removal = { quiet_for = "30d", clients = [...], min_coverage = "7d",
/// note = "..." }`: an old path may go once usage evidence shows no call
/// taking it for `quiet_for` days up to today (from the listed clients, or
/// any client), and the evidence has data for at least `min_coverage` of
/// those days (all of them when not given: a gap is not a zero).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovalCondition {
    pub quiet_for: u32,
    pub clients: Vec<String>,
    pub min_coverage: Option<u32>,
    pub note: Option<String>,
    pub pos: Pos,
}

impl RemovalCondition {
    /// The days of data the quiet window needs.
    pub fn coverage_needed(&self) -> u32 {
        self.min_coverage
            .unwrap_or(self.quiet_for)
            .min(self.quiet_for)
    }

    /// The condition in words (what descriptions and the plan show when no
    /// `note` is given).
    pub fn describe(&self) -> String {
        let who = if self.clients.is_empty() {
            String::new()
        } else {
            format!(" from {}", self.clients.join(", "))
        };
        let mut s = format!("no calls{who} for {} days", self.quiet_for);
        if self.coverage_needed() < self.quiet_for {
            s.push_str(&format!(
                " (with usage data for at least {} of them)",
                self.coverage_needed()
            ));
        }
        s
    }
}

/// `[tools.NAME]`: what the record says about one tool as a whole.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolPolicy {
    pub name: String,
    pub owner: Option<String>,
    /// Major versions the server still serves (e.g. `[1, 2]`).
    pub versions: Vec<u64>,
    /// When the tool (or its oldest served version) was deprecated.
    pub deprecated: Option<Date>,
    /// The tool callers should move to.
    pub replacement: Option<String>,
    /// The condition under which it may be removed, in words.
    pub removal: Option<String>,
    /// The date after which it is due for removal.
    pub until: Option<Date>,
    /// `removal` in its typed form, checkable against usage evidence.
    pub removal_condition: Option<RemovalCondition>,
    /// `refuse_unknown_fields = true`: the runtime layer refuses every
    /// argument name the tool's published schema does not declare, even
    /// where the schema is open and lets such names through. A narrowing of
    /// the published contract the team chose, recorded here so the build
    /// step's plan and the fixture check read the same choice.
    pub refuse_unknown_fields: bool,
    pub pos: Pos,
}

/// One `[[acknowledge]]` entry: specific changes a person has accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub selector: Selector,
    /// Why the break is acceptable (never empty).
    pub reason: String,
    /// Who answers for it (never empty; defaults to the tool's owner).
    pub owner: String,
    pub transition: Transition,
    /// The transition's `removal` in its typed form, checkable against
    /// usage evidence.
    pub removal_condition: Option<RemovalCondition>,
    /// `evidence = { sha256, from, to }`: the usage evidence that allowed
    /// the removal this entry records.
    pub evidence: Option<super::evidence::EvidenceRecord>,
    /// Where the entry starts in the file.
    pub pos: Pos,
}

/// Which changes an entry acknowledges. Never the message text, which may
/// be reworded between releases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// The rule id, tool, JSON pointer and (when the change has one) subject
    /// exactly as the diff reports them, and what changed there (`values`,
    /// `from`/`to`; `None` in records written before the detail existed).
    Change {
        tool: String,
        rule: String,
        pointer: String,
        subject: Option<String>,
        detail: Option<Detail>,
    },
    /// [`Change::fingerprint`] verbatim.
    Fingerprint(String),
}

/// The parts of a fingerprint: rule, tool, pointer and subject (the
/// detail, if any, left out).
pub fn fingerprint_parts(f: &str) -> (&str, &str, &str, Option<&str>) {
    let place = [" values=", " from=", " to="]
        .iter()
        .filter_map(|m| f.find(m))
        .min()
        .map_or(f, |i| &f[..i]);
    let mut parts = place.splitn(4, ' ');
    let rule = parts.next().unwrap_or("");
    let tool = parts.next().unwrap_or("");
    let pointer = parts.next().unwrap_or("");
    (rule, tool, pointer, parts.next())
}

impl Selector {
    /// Does this selector acknowledge `change`? An entry that names what
    /// changed matches only that change; one written before the detail
    /// existed matches by place (see [`Selector::pins`]).
    pub fn matches(&self, change: &Change) -> bool {
        match self {
            Selector::Change {
                tool,
                rule,
                pointer,
                subject,
                detail,
            } => {
                *tool == change.tool
                    && rule == change.rule
                    && *pointer == change.pointer
                    && *subject == change.subject
                    && detail.as_ref().is_none_or(|d| *d == change.detail)
            }
            Selector::Fingerprint(f) => {
                *f == change.fingerprint() || *f == change.place_fingerprint()
            }
        }
    }

    /// Does the entry say what changed, not only where (so that a later,
    /// different change at the same place needs an entry of its own)?
    pub fn pins(&self, change: &Change) -> bool {
        change.detail.is_empty()
            || match self {
                Selector::Change { detail, .. } => detail.is_some(),
                Selector::Fingerprint(f) => *f == change.fingerprint(),
            }
    }

    /// The tool the entry concerns.
    pub fn tool(&self) -> &str {
        match self {
            Selector::Change { tool, .. } => tool,
            Selector::Fingerprint(f) => fingerprint_parts(f).1,
        }
    }

    /// The rule id the entry concerns.
    pub fn rule(&self) -> &str {
        match self {
            Selector::Change { rule, .. } => rule,
            Selector::Fingerprint(f) => fingerprint_parts(f).0,
        }
    }

    /// What the change this entry names takes away that the runtime layer
    /// counts calls of, so that usage evidence can say whether anybody
    /// still takes it: a top-level argument (`field:NAME` rows) or the tool
    /// itself (all of its rows). `None` for anything else (a narrowed type,
    /// a nested field, an output, a prompt).
    pub fn removes(&self) -> Option<Removes> {
        let (pointer, subject) = self.place();
        use crate::rules::RuleId;
        match (RuleId::parse(self.rule())?, subject) {
            (RuleId::ToolRemoved, _) => Some(Removes::Tool),
            (RuleId::InputPropertyRemoved, Some(name))
                if pointer
                    == format!(
                        "/inputSchema/properties/{}",
                        crate::lockfile::escape_pointer(name)
                    ) =>
            {
                Some(Removes::Field(name.to_string()))
            }
            _ => None,
        }
    }

    /// The pointer and subject the entry concerns.
    pub fn place(&self) -> (&str, Option<&str>) {
        match self {
            Selector::Change {
                pointer, subject, ..
            } => (pointer, subject.as_deref()),
            Selector::Fingerprint(f) => {
                let (_, _, pointer, subject) = fingerprint_parts(f);
                (pointer, subject)
            }
        }
    }
}

/// What an acknowledged change takes away, as usage evidence counts it
/// ([`Selector::removes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removes {
    /// The top-level argument of that name: its `field:NAME` rows.
    Field(String),
    /// The tool: every row of it.
    Tool,
}

/// What a renamed thing is: a whole tool or one input field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RenameTarget {
    Tool,
    Field,
}

/// The transition an acknowledged change belongs to. The runtime layer
/// generates its compatibility code from these.
#[derive(Debug, Clone, PartialEq)]
pub enum Transition {
    /// `from` was renamed to `to`; the old name stays an alias until
    /// `until` / `removal`. A rename of a tool when the entry's rule is a
    /// `tool.` rule, of an input field otherwise.
    Rename {
        target: RenameTarget,
        from: String,
        to: String,
        until: Option<Date>,
        removal: Option<String>,
    },
    /// `field` became required; the server applies `value` when a caller
    /// omits it.
    Default { field: String, value: Value },
    /// The contract moved to a new major version published as tool `to`;
    /// `from` keeps serving until `until` / `removal`.
    MajorVersion {
        from: String,
        to: String,
        deprecated: Option<Date>,
        until: Option<Date>,
        removal: Option<String>,
    },
    /// The thing is gone for good (its name becomes reserved). A call that
    /// still uses the name is told about `replacement`, when there is one.
    Removal {
        until: Option<Date>,
        removal: Option<String>,
        replacement: Option<String>,
    },
    /// Anything else; `note` says what.
    Other { note: Option<String> },
}

impl Transition {
    /// The `kind` key as written in the file.
    pub fn kind(&self) -> &'static str {
        match self {
            Transition::Rename { .. } => "rename",
            Transition::Default { .. } => "default",
            Transition::MajorVersion { .. } => "major-version",
            Transition::Removal { .. } => "removal",
            Transition::Other { .. } => "other",
        }
    }

    /// Does `other` decide the same about the change: the same kind, and
    /// the same names and value the runtime layer serves (a rename's `from`
    /// and `to`, a default's `field` and `value`, a major version's tools)?
    /// When and on what condition the old path goes (`until`, `removal`,
    /// `deprecated`), a `note` and a `replacement` are edits of that
    /// decision, not a new one.
    pub fn same_decision(&self, other: &Transition) -> bool {
        match (self, other) {
            (
                Transition::Rename {
                    target: a,
                    from: af,
                    to: at,
                    ..
                },
                Transition::Rename {
                    target: b,
                    from: bf,
                    to: bt,
                    ..
                },
            ) => (a, af, at) == (b, bf, bt),
            (Transition::Default { field, value }, Transition::Default { field: f, value: v }) => {
                (field, value) == (f, v)
            }
            (
                Transition::MajorVersion { from, to, .. },
                Transition::MajorVersion { from: f, to: t, .. },
            ) => (from, to) == (f, t),
            (Transition::Removal { .. }, Transition::Removal { .. })
            | (Transition::Other { .. }, Transition::Other { .. }) => true,
            _ => false,
        }
    }

    /// Is a typed removal condition on this transition decided when the
    /// entry's own change lands (`true`: the path goes with it, a field or
    /// tool removed, a tool renamed), rather than later, when the path the
    /// runtime layer serves for it (an alias, a default, an old version)
    /// is removed?
    pub fn removes_now(&self) -> bool {
        matches!(
            self,
            Transition::Removal { .. }
                | Transition::Rename {
                    target: RenameTarget::Tool,
                    ..
                }
        )
    }

    /// The date after which the compatibility branch is due to go.
    pub fn until(&self) -> Option<Date> {
        match self {
            Transition::Rename { until, .. }
            | Transition::MajorVersion { until, .. }
            | Transition::Removal { until, .. } => *until,
            _ => None,
        }
    }
}

impl Entry {
    /// Is `other` this acknowledgement, perhaps edited: the same change
    /// ([`Selector`]) and the same decision about it
    /// ([`Transition::same_decision`])? A `reason`, `owner`, `evidence` or
    /// removal condition added or changed since keeps it the same entry:
    /// the check (which entries of the baseline's record still acknowledge
    /// something) and the build step's inverse (which entries' transitions
    /// a change adds) both ask this.
    pub fn same_acknowledgement(&self, other: &Entry) -> bool {
        self.selector == other.selector && self.transition.same_decision(&other.transition)
    }
}

impl MigrationRecord {
    /// Entries for one tool, in file order.
    pub fn entries_for<'a>(&'a self, tool: &'a str) -> impl Iterator<Item = &'a Entry> + 'a {
        self.entries
            .iter()
            .filter(move |e| e.selector.tool() == tool)
    }

    /// The first entry that acknowledges `change`.
    pub fn acknowledging(&self, change: &Change) -> Option<(usize, &Entry)> {
        self.entries
            .iter()
            .enumerate()
            .find(|(_, e)| e.selector.matches(change))
    }
}

/// How bad a record problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Warning,
    Error,
}

/// What kind of problem it is, which decides the exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// The record is malformed (exit status 2).
    Invalid,
    /// The record is out of date against the diff or the calendar: an entry
    /// that matches nothing, a removal date that has passed (a warning, or a
    /// failure under `--strict`).
    Stale,
}

/// One problem in the record, pointing at the line in the TOML.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub level: Level,
    pub kind: ProblemKind,
    pub file: String,
    pub pos: Pos,
    pub message: String,
    pub help: Option<String>,
}

impl Problem {
    pub fn invalid(file: &str, pos: Pos, message: impl Into<String>) -> Problem {
        Problem {
            level: Level::Error,
            kind: ProblemKind::Invalid,
            file: file.to_string(),
            pos,
            message: message.into(),
            help: None,
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Problem {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.level {
            Level::Error => "error",
            Level::Warning => "warning",
        };
        write!(f, "{word}: {}:{}: {}", self.file, self.pos, self.message)?;
        if let Some(h) = &self.help {
            write!(f, "\n  help: {h}")?;
        }
        Ok(())
    }
}
