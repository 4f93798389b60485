//! The gate behind `cargo mcp-contract check`: the candidate surface is
//! compared with the baseline, reserved names are enforced from history,
//! and every change at or above `--fail-on` must be acknowledged by an entry
//! of the migration record. Unacknowledged changes come with the exact entry
//! that would acknowledge them.
//!
//! [`run`] is pure: it takes surfaces, the record and the history as
//! [`CheckInput`] and returns a [`CheckOutcome`]. Where the surfaces come
//! from (the lockfile at a git revision, the working tree, a live server) is
//! decided by the caller; [`repo::prepare`] builds the input for the usual
//! case of a lockfile in a git checkout. [`usage`] then judges every
//! deprecated path the change removes against usage evidence.

pub mod alias;
pub mod inputs;
pub mod lines;
pub mod packages;
pub mod probe;
pub mod repo;
pub mod reserved;
pub mod run;
pub mod usage;

use crate::diff::{diff_surfaces, Change};
use crate::history::History;
use crate::migrations::{suggest_entry, Date, Level, MigrationRecord, Pos, Problem, ProblemKind};
use crate::model::Surface;
use crate::rules::Severity;

/// Everything the gate decides on.
#[derive(Debug, Clone)]
pub struct CheckInput {
    /// The surface at the baseline; `None` when the lockfile did not exist
    /// there (a new surface: everything is additive). May omit tools that
    /// are identical in the candidate ([`crate::segments::reduce_pair`]).
    pub baseline: Option<Surface>,
    /// The surface being checked (the working-tree lockfile or a live server).
    pub candidate: Surface,
    /// The migration record of the candidate.
    pub record: MigrationRecord,
    /// Aliases of new rename entries that were taken out of `candidate`
    /// (the build step added them); each must accept what the old field did.
    pub aliases: Vec<alias::TakenAlias>,
    /// Problems found while parsing the record.
    pub record_problems: Vec<Problem>,
    /// The record at the baseline: its entries acknowledged changes that
    /// are already in the baseline, so they acknowledge nothing in the
    /// current diff (and need not match it).
    pub baseline_record: Option<MigrationRecord>,
    /// Names published up to the baseline; `None` when not needed (the
    /// candidate introduces no tool or field the baseline lacks).
    pub history: Option<History>,
    /// The lowest severity that must be acknowledged.
    pub fail_on: Severity,
    /// The lowest level of the description category that must be
    /// acknowledged, whatever its severity (`--fail-on description`).
    pub fail_on_description: Option<crate::rules::DescriptionLevel>,
    /// Stale record entries and passed removal dates fail the check.
    pub strict: bool,
    pub today: Date,
    /// The record's entries whose `default` transition the candidate, as
    /// the lockfile publishes it, serves (the field optional with its
    /// default): the changes they answer say so
    /// ([`crate::runtime::served::served_defaults`]).
    pub served_defaults: Vec<usize>,
}

/// One reported change and what the gate made of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Gated {
    pub change: Change,
    /// Index into the record's entries of the entry that acknowledges it.
    pub acknowledged_by: Option<usize>,
    /// At or above `--fail-on` and not acknowledged.
    pub fails: bool,
    /// For a failing change: the `[[acknowledge]]` entry that would accept it.
    pub migration_entry: Option<String>,
}

/// The verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every change at or above `--fail-on` is acknowledged (exit 0).
    Passed,
    /// Some change is not acknowledged, or (with `--strict`) the record is stale (exit 1).
    Failed,
    /// The migration record is malformed (exit 2).
    Invalid,
    /// A lockfile could not be checked: unreadable, stale with its sources,
    /// no baseline to compare with, a malformed fixture (exit 2).
    Error,
}

impl Status {
    /// The exit status: 0 passed, 1 failed, 2 invalid or not checked.
    pub fn exit_code(self) -> u8 {
        match self {
            Status::Passed => 0,
            Status::Failed => 1,
            Status::Invalid | Status::Error => 2,
        }
    }
}

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckOutcome {
    /// The lockfile did not exist at the baseline.
    pub new_surface: bool,
    pub changes: Vec<Gated>,
    /// Record problems: parse errors and stale entries.
    pub problems: Vec<Problem>,
    pub fail_on: Severity,
    /// The description category's threshold, when one was given.
    pub fail_on_description: Option<crate::rules::DescriptionLevel>,
    /// The record the changes were matched against.
    pub record: MigrationRecord,
    /// Indices into `changes` of the changes found at renamed fields'
    /// aliases, and the surface they were found on (see [`alias`]).
    pub alias_changes: Vec<usize>,
    pub alias_surface: Surface,
    /// The usage gate's verdicts on removed deprecated paths (filled in by
    /// [`usage::decide`] after the run; empty until then).
    pub usage: usage::UsageOutcome,
}

impl CheckOutcome {
    pub fn status(&self) -> Status {
        if self
            .problems
            .iter()
            .any(|p| p.kind == ProblemKind::Invalid && p.level == Level::Error)
        {
            Status::Invalid
        } else if self.changes.iter().any(|g| g.fails)
            || self.problems.iter().any(|p| p.level == Level::Error)
            || self.usage.fails()
        {
            Status::Failed
        } else {
            Status::Passed
        }
    }

    /// The failing (unacknowledged) changes.
    pub fn failing(&self) -> impl Iterator<Item = &Gated> {
        self.changes.iter().filter(|g| g.fails)
    }

    /// Counts per severity of the reported changes.
    pub fn summary(&self) -> std::collections::BTreeMap<Severity, usize> {
        let mut m: std::collections::BTreeMap<Severity, usize> =
            Severity::ALL.iter().map(|s| (*s, 0)).collect();
        for g in &self.changes {
            *m.entry(g.change.severity).or_default() += 1;
        }
        m
    }

    pub fn acknowledged_count(&self) -> usize {
        self.changes
            .iter()
            .filter(|g| g.acknowledged_by.is_some())
            .count()
    }
}

/// What to do about an entry that matches no change: when no change
/// concerns its tool, the changed tool it most likely means.
fn unmatched_help(tool: &str, changes: &[Change]) -> String {
    let fix = "fix its tool/rule/pointer/subject to the ones the check prints, or remove it";
    let changed: Vec<&str> = changes.iter().map(|c| c.tool.as_str()).collect();
    if changed.contains(&tool) {
        return fix.to_string();
    }
    match crate::suggest::did_you_mean(tool, &changed) {
        Some(s) => format!("did you mean `{s}`? (no change in the diff concerns `{tool}`)"),
        None => fix.to_string(),
    }
}

/// Does checking `candidate` against `baseline` need the lockfile's history
/// (does it introduce a tool or an input field the baseline lacks)?
pub fn needs_history(baseline: Option<&Surface>, candidate: &Surface) -> bool {
    reserved::introduced_names(baseline, candidate)
}

/// Runs the gate.
pub fn run(input: CheckInput) -> CheckOutcome {
    let empty = Surface::new();
    let old = input.baseline.as_ref().unwrap_or(&empty);
    let mut changes = diff_surfaces(old, &input.candidate).changes;
    if let Some(history) = &input.history {
        changes.extend(reserved::changes(
            history,
            input.baseline.as_ref(),
            &input.candidate,
        ));
    }
    let found = alias::changes(
        input.baseline.as_ref(),
        &input.candidate,
        &input.aliases,
        &changes,
    );
    let alias_changes: Vec<usize> = (changes.len()..changes.len() + found.changes.len()).collect();
    changes.extend(found.changes);
    let all = changes.clone();
    // An entry already in the baseline's record acknowledged a change that
    // has landed: it acknowledges nothing in this diff (else it would wave
    // through a later, different break at the same place), however its
    // reason, owner or removal condition were edited since. One whose
    // decision changed since (a rename that becomes a removal once its
    // alias goes) is a new decision about that place: it acknowledges the
    // change it names again, and is not stale when the diff has none (an
    // alias only the runtime plan served leaves the schema unchanged).
    let at_baseline = |entry: &crate::migrations::Entry, same: bool| {
        input.baseline_record.as_ref().is_some_and(|b| {
            b.entries
                .iter()
                .any(|e| e.selector == entry.selector && e.same_acknowledgement(entry) == same)
        })
    };
    let carried: Vec<bool> = input
        .record
        .entries
        .iter()
        .map(|entry| at_baseline(entry, true))
        .collect();
    let rewritten: Vec<bool> = input
        .record
        .entries
        .iter()
        .map(|entry| at_baseline(entry, false))
        .collect();
    let mut matched = vec![false; input.record.entries.len()];
    let mut unpinned: Vec<(usize, &Change)> = vec![];
    let mut gated: Vec<Gated> = changes
        .iter()
        .map(|change| {
            let ack = input
                .record
                .entries
                .iter()
                .enumerate()
                .find(|(i, e)| !carried[*i] && e.selector.matches(change))
                .map(|(i, _)| i);
            if let Some(i) = ack {
                matched[i] = true;
                if !input.record.entries[i].selector.pins(change) {
                    unpinned.push((i, change));
                }
            }
            let described = crate::rules::RuleId::parse(change.rule)
                .and_then(crate::rules::RuleId::description_level);
            let fails = ack.is_none()
                && (change.severity >= input.fail_on
                    || matches!((described, input.fail_on_description), (Some(d), Some(at)) if d >= at));
            let migration_entry =
                fails.then(|| suggest_entry(change, &all, Some(&input.candidate)));
            Gated {
                change: change.clone(),
                acknowledged_by: ack,
                fails,
                migration_entry,
            }
        })
        .collect();
    crate::runtime::served::describe_served_defaults(
        &mut gated,
        &input.record,
        &input.served_defaults,
    );
    let mut problems = input.record_problems.clone();
    // Free-text removal conditions: valid, but usage evidence cannot check
    // them; each warning shows the typed form.
    problems.extend(input.record.untyped_removals.iter().cloned());
    let stale_level = if input.strict {
        Level::Error
    } else {
        Level::Warning
    };
    let stale = |pos: Pos, message: String, help: &str| Problem {
        level: stale_level,
        kind: ProblemKind::Stale,
        file: input.record.file.clone(),
        pos,
        message,
        help: Some(help.to_string()),
    };
    for (i, change) in unpinned {
        let entry = &input.record.entries[i];
        problems.push(stale(
            entry.pos,
            format!(
                "this entry ({} on `{}`) says where the change is but not what it is, so it would also accept a different change at the same place",
                entry.selector.rule(),
                entry.selector.tool()
            ),
            &match crate::migrations::detail_lines(&change.detail) {
                lines if lines.iter().any(String::is_empty) => format!(
                    "pin it: replace tool/rule/pointer/subject with `fingerprint = {}`",
                    crate::migrations::toml_string(&change.fingerprint())
                ),
                lines => format!("pin it: add {}", lines.join(", ")),
            },
        ));
    }
    for (i, entry) in input.record.entries.iter().enumerate() {
        // A rename or default the build step serves no longer shows in the diff.
        let served = crate::runtime::served::served(entry, &input.candidate);
        if !matched[i] && !carried[i] && !rewritten[i] && !served {
            problems.push(stale(
                entry.pos,
                format!(
                    "this entry ({} on `{}`) matches no change in the diff",
                    entry.selector.rule(),
                    entry.selector.tool()
                ),
                &unmatched_help(entry.selector.tool(), &all),
            ));
        }
        if let Some(until) = entry.transition.until() {
            if until < input.today {
                problems.push(stale(
                    entry.pos,
                    format!(
                        "the {} transition's removal date {until} has passed",
                        entry.transition.kind()
                    ),
                    "finish the transition (remove the compatibility branch and this entry), or move `until` with a reason",
                ));
            }
        }
    }
    for policy in input.record.tools.values() {
        if let Some(until) = policy.until {
            if until < input.today {
                problems.push(stale(
                    policy.pos,
                    format!("tool `{}` was due for removal on {until}", policy.name),
                    "remove the tool (acknowledging tool.removed), or move `until` with a reason",
                ));
            }
        }
    }
    problems.sort_by_key(|p| (p.pos, p.level));
    CheckOutcome {
        new_surface: input.baseline.is_none(),
        changes: gated,
        problems,
        fail_on: input.fail_on,
        fail_on_description: input.fail_on_description,
        record: input.record,
        alias_changes,
        alias_surface: found.surface,
        usage: usage::UsageOutcome::default(),
    }
}
