//! The usage gate: a change that removes a deprecated path (an alias, a
//! server-applied default, an old major version, a deprecated tool) passes
//! only when usage evidence shows nobody takes it any more. The design
//! rule this enforces: never delete a deprecated parameter until telemetry
//! shows it receives no calls, and never by the calendar alone.
//!
//! [`paths`] finds what the change removes (the baseline's record and tools
//! against the candidate's) and the typed `removal = { quiet_for, ... }`
//! condition of each; [`decide`] judges each removal with
//! [`crate::usage::clears`] on the evidence given (`check --usage
//! FILE...`, merged), today being the real UTC date unless `check --today`
//! says otherwise:
//!
//! - no evidence: refused, naming `--usage FILE` and the explicit waiver
//!   `--no-usage-evidence` (a waived removal passes, reported in every
//!   format as waived);
//! - no typed condition (none, or free text): refused with the typed form
//!   to write;
//! - a client still calling in the quiet window or after it (today, or a
//!   day ahead of today), or a gap in the data: refused with the callers,
//!   their last hit and hit counts, the days of the calls after the window,
//!   the gaps and what would clear it (an evidence file ending after today
//!   is reported too);
//! - cleared: the entry that records the removal must keep the evidence it
//!   was cleared on, `evidence = { sha256, from, to }` ([`record`]); until
//!   it does, the check fails with the line to add (`--record-evidence`
//!   writes it, and commits the evidence beside the record, `file = ...`).
//!
//! Without `--usage`, a removal whose entry names committed evidence
//! ([`committed`]) is decided on it, as of the day after it ends (or today,
//! when that is earlier): the decision `--record-evidence` recorded, made
//! again from the committed counts.
//!
//! Evidence for a tool the lockfile never published is reported
//! ([`known`]): usually evidence from another server, or a misspelt name.
//! Decided here, rendered by every check format from
//! [`findings::lockfile`] and [`findings::run`].

pub mod committed;
pub mod findings;
pub mod known;
pub mod paths;
pub mod record;

use std::collections::BTreeMap;

use crate::check::CheckOutcome;
use crate::date::Date;
use crate::migrations::EvidenceRecord;
use crate::usage::{self, Decision, Evidence, Refusal};

pub use paths::{Condition, PathKind, RemovedPath, Sides, Source};

/// The usage evidence a check run was given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum EvidenceInput {
    /// Neither `--usage` nor `--no-usage-evidence`.
    #[default]
    None,
    /// `--no-usage-evidence`: removals pass without evidence, reported as waived.
    Waived,
    /// `--usage FILE...`, read and merged.
    Given(Given),
}

/// Evidence files, read and merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    /// Each file as named, with what it holds (oldest range first).
    pub files: Vec<(String, Evidence)>,
    pub merged: Evidence,
    /// What an entry records about `merged`.
    pub record: EvidenceRecord,
}

impl Given {
    /// Merges `files` (already read, oldest range first).
    pub fn merge(files: Vec<(String, Evidence)>) -> Result<Given, crate::InputError> {
        let merged = usage::merge(&files)?;
        let record = record::expected(&merged);
        Ok(Given {
            files,
            merged,
            record,
        })
    }
}

/// Whether a cleared removal's entry records the evidence it was cleared on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordState {
    /// The entry's `evidence` is this evidence.
    Recorded,
    /// `--record-evidence` wrote it into the entry.
    Written,
    /// The entry has no `evidence`.
    Missing,
    /// The entry records other evidence.
    Mismatch(EvidenceRecord),
    /// No entry of the record records the removal.
    NoEntry,
    /// Decided on the evidence committed beside the record (this file),
    /// which the entry records.
    Committed(String),
}

/// What the gate made of one removal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Nobody took the path in the quiet window, and the data covers it.
    Cleared {
        window: (Date, Date),
        covered: u32,
        record: RecordState,
    },
    /// Callers in the window, or too little data.
    Refused(Refusal),
    /// Evidence was given, but there is no typed condition to check it against.
    NoCondition,
    /// No evidence given, and no waiver.
    NoEvidence,
    /// No evidence given, waived with `--no-usage-evidence`.
    Waived,
}

/// One removed deprecated path and its verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemovalVerdict {
    pub path: RemovedPath,
    pub verdict: Verdict,
    /// The committed evidence file it was decided on (no `--usage`).
    pub evidence_file: Option<String>,
}

impl RemovalVerdict {
    /// Does it fail the check?
    pub fn fails(&self) -> bool {
        match &self.verdict {
            Verdict::Cleared { record, .. } => !matches!(
                record,
                RecordState::Recorded | RecordState::Written | RecordState::Committed(_)
            ),
            Verdict::Waived => false,
            Verdict::Refused(_) | Verdict::NoCondition | Verdict::NoEvidence => true,
        }
    }
}

/// The usage gate's part of one lockfile's outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UsageOutcome {
    pub removals: Vec<RemovalVerdict>,
    /// The `evidence = { ... }` line cleared removals' entries must hold
    /// (`None` without evidence).
    pub expected: Option<EvidenceRecord>,
}

impl UsageOutcome {
    pub fn fails(&self) -> bool {
        self.removals.iter().any(RemovalVerdict::fails)
    }
}

/// The usage part of a whole run: what evidence it was given, the waiver,
/// and evidence rows no checked lockfile explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageRun {
    pub today: Date,
    pub evidence: Option<Given>,
    pub waived: bool,
    pub unknown_tools: Vec<known::UnknownTool>,
}

/// Judges every deprecated path the change removes; `committed` is the
/// evidence committed beside the record, by entry ([`committed::read`]),
/// used when no `--usage` is given.
pub fn decide(
    sides: &Sides,
    outcome: &CheckOutcome,
    evidence: &EvidenceInput,
    committed: &BTreeMap<usize, committed::Committed>,
    today: Date,
) -> UsageOutcome {
    let removed = paths::removed(sides, &outcome.record, &outcome.changes);
    let removals = removed
        .into_iter()
        .map(|path| {
            let on_file = path.entry.and_then(|i| committed.get(&i));
            let (verdict, evidence_file) = match (evidence, on_file) {
                (EvidenceInput::None | EvidenceInput::Waived, Some(c)) => {
                    // as of the day after the committed evidence ends
                    let as_of = c.evidence.to.plus_days(1).min(today);
                    let verdict = match judge_on(&path, outcome, &c.evidence, None, as_of) {
                        Verdict::Cleared {
                            window, covered, ..
                        } => Verdict::Cleared {
                            window,
                            covered,
                            record: RecordState::Committed(c.file.clone()),
                        },
                        other => other,
                    };
                    (verdict, Some(c.file.clone()))
                }
                _ => (judge(&path, outcome, evidence, today), None),
            };
            RemovalVerdict {
                path,
                verdict,
                evidence_file,
            }
        })
        .collect();
    UsageOutcome {
        removals,
        expected: match evidence {
            EvidenceInput::Given(g) => Some(g.record.clone()),
            _ => None,
        },
    }
}

fn judge(
    path: &RemovedPath,
    outcome: &CheckOutcome,
    evidence: &EvidenceInput,
    today: Date,
) -> Verdict {
    match evidence {
        EvidenceInput::None => Verdict::NoEvidence,
        EvidenceInput::Waived => Verdict::Waived,
        EvidenceInput::Given(g) => judge_on(path, outcome, &g.merged, Some(&g.record), today),
    }
}

/// The verdict on `evidence`; `given` is what an entry must record of it.
fn judge_on(
    path: &RemovedPath,
    outcome: &CheckOutcome,
    evidence: &Evidence,
    given: Option<&EvidenceRecord>,
    today: Date,
) -> Verdict {
    let Condition::Typed { condition, .. } = &path.condition else {
        return Verdict::NoCondition;
    };
    let decision = match path.kind.key() {
        Some(key) => usage::clears(condition, evidence, &path.tool, &key, today),
        None => usage::clears_tool(condition, evidence, &path.tool, today),
    };
    match decision {
        Decision::Cleared { window, covered } => {
            let record = match path.entry.and_then(|i| outcome.record.entries.get(i)) {
                None => RecordState::NoEntry,
                Some(e) => match &e.evidence {
                    None => RecordState::Missing,
                    Some(r) if given.is_none_or(|g| r.same(g)) => RecordState::Recorded,
                    Some(r) => RecordState::Mismatch(r.clone()),
                },
            };
            Verdict::Cleared {
                window,
                covered,
                record,
            }
        }
        Decision::Refused(refusal) => Verdict::Refused(refusal),
    }
}
