//! What every check report format renders: one [`GateReport`] per checked
//! lockfile (the outcome plus where its inputs came from), and helpers the
//! formats share (the line of a change in the lockfile, record problems).

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
    /// The candidate lockfile text (for line numbers), when there is one.
    pub candidate_text: Option<&'a str>,
    pub outcome: &'a CheckOutcome,
}

impl GateReport<'_> {
    /// The 1-based line of a change in the candidate lockfile (the `tools`
    /// key for a change whose tool is gone).
    pub fn line(&self, g: &Gated) -> usize {
        let Some(text) = self.candidate_text else {
            return 1;
        };
        crate::check::lines::line_of(text, &g.change.tool, &g.change.pointer)
            .unwrap_or_else(|| crate::check::lines::tools_line(text))
    }

    /// The record entry that acknowledged a change.
    pub fn entry(&self, g: &Gated) -> Option<&Entry> {
        g.acknowledged_by
            .and_then(|i| self.outcome.record.entries.get(i))
    }
}

/// The overall status of several reports (the worst).
pub fn overall(reports: &[GateReport<'_>]) -> Status {
    let statuses: Vec<Status> = reports.iter().map(|r| r.outcome.status()).collect();
    if statuses.contains(&Status::Invalid) {
        Status::Invalid
    } else if statuses.contains(&Status::Failed) {
        Status::Failed
    } else {
        Status::Passed
    }
}

pub fn status_str(s: Status) -> &'static str {
    match s {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Invalid => "invalid",
    }
}

/// One line describing an acknowledgement: `rename query -> search_text (owner @team)`.
pub fn describe_entry(e: &Entry) -> String {
    use crate::migrations::Transition as T;
    let what = match &e.transition {
        T::Rename { from, to, .. } => format!("rename {from} -> {to}"),
        T::Default { field, value } => format!("default {field} = {value}"),
        T::MajorVersion { from, to, .. } => format!("major version {from} -> {to}"),
        T::Removal { .. } => "removal".to_string(),
        T::Other { .. } => "other".to_string(),
    };
    format!("{what}; owner {}; reason: {}", e.owner, e.reason)
}
