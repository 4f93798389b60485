//! What every check report format renders: the whole run
//! ([`CheckRun`]), and for each checked lockfile a [`GateReport`] (the
//! outcome plus where its inputs came from), and helpers the formats share
//! (the line of a change in the lockfile, record problems, the usage
//! gate's findings).

use crate::check::run::{CheckRun, LockfileRun};
use crate::check::usage::findings::Finding;
use crate::check::{CheckOutcome, Gated, Status};
use crate::migrations::Entry;

/// One checked lockfile.
#[derive(Debug, Clone, Copy)]
pub struct GateReport<'a> {
    /// The lockfile path relative to the repository root.
    pub lockfile: &'a str,
    /// The migration record path relative to the repository root.
    pub record: &'a str,
    /// Short id of the baseline commit.
    pub baseline_short: &'a str,
    /// How the baseline was chosen (`merge-base of HEAD and origin/main`).
    pub baseline_description: &'a str,
    /// The lockfile's path at the baseline (`None`: a new surface).
    pub baseline_lockfile: Option<&'a str>,
    /// The candidate lockfile text (for line numbers), when there is one.
    pub candidate_text: Option<&'a str>,
    /// The file line `candidate_text` starts at.
    pub line_offset: usize,
    pub outcome: &'a CheckOutcome,
    /// The version rule's verdicts, when it was judged.
    pub version: Option<&'a crate::version::VersionCheck>,
}

impl<'a> GateReport<'a> {
    /// The gate's part of a lockfile's run; `None` when it was not checked.
    pub fn of(l: &'a LockfileRun) -> Option<GateReport<'a>> {
        let (outcome, ctx) = l.checked.as_ref()?;
        Some(GateReport {
            lockfile: &ctx.lockfile,
            record: &ctx.record,
            baseline_short: &ctx.baseline.short,
            baseline_description: &ctx.baseline.description,
            baseline_lockfile: ctx.baseline_lockfile.as_deref(),
            candidate_text: ctx.candidate_text.as_deref(),
            line_offset: ctx.line_offset,
            outcome,
            version: l.version.as_ref(),
        })
    }

    /// The 1-based line of a change in the candidate lockfile (the `tools`
    /// key for a change whose tool is gone).
    pub fn line(&self, g: &Gated) -> usize {
        let Some(text) = self.candidate_text else {
            return 1;
        };
        self.line_offset
            + crate::check::lines::line_of(text, &g.change.tool, &g.change.pointer)
                .unwrap_or_else(|| crate::check::lines::tools_line(text))
    }

    /// The record entry that acknowledged a change.
    pub fn entry(&self, g: &Gated) -> Option<&Entry> {
        g.acknowledged_by
            .and_then(|i| self.outcome.record.entries.get(i))
    }

    /// Everything said beside the changes, as findings: the usage gate's
    /// verdicts on this lockfile's removals, then the version rule's.
    pub fn findings(&self) -> Vec<Finding> {
        let mut out = self.usage_findings();
        if let Some(v) = self.version {
            out.extend(v.findings.iter().cloned());
        }
        out
    }

    /// What the usage gate says about this lockfile's removals.
    pub fn usage_findings(&self) -> Vec<Finding> {
        crate::check::usage::findings::lockfile(
            &self.outcome.usage,
            self.record,
            &self.outcome.record,
        )
    }
}

/// What the usage gate says about the whole run (evidence for tools no
/// lockfile has, a waiver that waived nothing).
pub fn run_usage_findings(run: &CheckRun) -> Vec<Finding> {
    let Some(u) = &run.usage else {
        return vec![];
    };
    let waived = run
        .lockfiles
        .iter()
        .filter_map(|l| l.checked.as_ref())
        .flat_map(|(o, _)| &o.usage.removals)
        .filter(|r| matches!(r.verdict, crate::check::usage::Verdict::Waived))
        .count();
    crate::check::usage::findings::run(u, waived)
}

/// Every finding of the run besides the gate's changes: the usage gate's,
/// then what each package's binary serves (`--served`).
pub fn run_findings(run: &CheckRun) -> Vec<Finding> {
    let mut all = run_usage_findings(run);
    all.extend(
        run.lockfiles
            .iter()
            .filter_map(|l| l.served.as_ref())
            .flat_map(|s| s.findings.iter().cloned()),
    );
    all
}

/// The overall status of a run (the worst of its lockfiles).
pub fn overall(run: &CheckRun) -> Status {
    run.status()
}

pub fn status_str(s: Status) -> &'static str {
    match s {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Invalid => "invalid",
        Status::Error => "error",
    }
}

/// One line describing an acknowledgement: `rename query -> search_text; owner @team; reason: ...`.
pub fn describe_entry(e: &Entry) -> String {
    format!(
        "{}; owner {}; reason: {}",
        describe_transition(&e.transition),
        e.owner,
        e.reason
    )
}

/// The transition in a few words: `rename query -> search_text`, `default region = "eu"`.
pub fn describe_transition(t: &crate::migrations::Transition) -> String {
    use crate::migrations::Transition as T;
    match t {
        T::Rename { from, to, .. } => format!("rename {from} -> {to}"),
        T::Default { field, value } => format!("default {field} = {value}"),
        T::MajorVersion { from, to, .. } => format!("major version {from} -> {to}"),
        T::Removal { .. } => "removal".to_string(),
        T::Other { .. } => "other".to_string(),
    }
}
