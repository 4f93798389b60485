//! `check`'s usage gate as the command line drives it: `--usage FILE...`
//! read and merged before anything else (a bad file is exit 2 with its
//! place and fix, nothing written), `--no-usage-evidence` (the explicit
//! waiver), `--today` (the day the quiet window ends before), and
//! `--record-evidence` (writes the evidence record into the entries of
//! cleared removals; never under CI). The decisions themselves are the
//! library's (`mcp_contract::check::usage`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use mcp_contract::check::run::{LockfileRun, RunError};
use mcp_contract::check::usage::{
    self, known, EvidenceInput, Given, RecordState, Sides, UsageRun, Verdict,
};
use mcp_contract::check::{repo::CheckContext, CheckOutcome};
use mcp_contract::migrations::Date;

use crate::output;

/// The usage gate's arguments, once read.
pub struct Gate {
    pub evidence: EvidenceInput,
    pub today: Date,
    pub record: bool,
}

/// `--today`: a calendar day.
pub fn parse_day(s: &str) -> Result<Date, String> {
    Date::parse(s).ok_or_else(|| format!("`{s}` is not a day: write YYYY-MM-DD, e.g. 2026-11-30"))
}

impl Gate {
    /// Reads the evidence files (exit status 2 on the first bad one).
    pub fn read(
        files: &[PathBuf],
        waived: bool,
        today: Option<Date>,
        record: bool,
    ) -> Result<Gate, u8> {
        if record && mcp_contract_build::mode::is_ci(std::env::var("CI").ok().as_deref()) {
            eprintln!("error: --record-evidence does not write under CI (CI is set): a CI run checks the record, it does not change it\n  help: run `cargo mcp-contract check --usage FILE... --record-evidence` locally and commit contracts/migrations.toml");
            return Err(output::ERROR);
        }
        let evidence = if files.is_empty() {
            if waived {
                EvidenceInput::Waived
            } else {
                EvidenceInput::None
            }
        } else {
            let read = match mcp_contract::usage::read_files(files) {
                Ok(r) => r,
                Err(e) => return Err(output::input_error(&e)),
            };
            match Given::merge(read) {
                Ok(g) => EvidenceInput::Given(g),
                Err(e) => return Err(output::input_error(&e)),
            }
        };
        Ok(Gate {
            evidence,
            today: today.unwrap_or_else(Date::today),
            record,
        })
    }

    /// Decides one lockfile's removals (on `--usage`, else on the evidence
    /// committed beside the record, read where the lockfile is read from:
    /// `read_from`), adds the tools it knows to `known`, and with
    /// `--record-evidence` writes the evidence record and commits the
    /// evidence beside the record.
    #[allow(clippy::too_many_arguments)]
    pub fn judge(
        &self,
        sides: &Sides,
        outcome: &mut CheckOutcome,
        ctx: &CheckContext,
        lockfile: &Path,
        read_from: &Path,
        l: &mut LockfileRun,
        known: &mut BTreeSet<String>,
    ) {
        let package = l.candidate.package().map(str::to_string);
        let record_dir = read_from.parent().unwrap_or(Path::new("."));
        let shown_dir = Path::new(&ctx.record)
            .parent()
            .map(|d| d.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        let confine = std::fs::canonicalize(record_dir).ok();
        let (committed, bad) =
            usage::committed::read(&outcome.record, record_dir, &shown_dir, confine.as_deref());
        for e in &bad {
            l.errors.push(RunError::input(package.as_deref(), e));
        }
        outcome.usage = usage::decide(sides, outcome, &self.evidence, &committed, self.today);
        if let EvidenceInput::Given(g) = &self.evidence {
            let here = known::names(sides, &outcome.record);
            let leftover = known::unknown_names(g, &here);
            known.extend(here);
            if !leftover.is_empty() {
                let dir = lockfile.parent().filter(|p| !p.as_os_str().is_empty());
                let found = mcp_contract::git::Repo::discover(dir.unwrap_or(Path::new(".")))
                    .and_then(|repo| {
                        known::ever_published(&repo, &ctx.baseline.commit, &ctx.lockfile, &leftover)
                    });
                match found {
                    Ok(published) => known.extend(published),
                    Err(e) => l.errors.push(RunError::input(package.as_deref(), &e)),
                }
            }
        }
        if self.record {
            if let Err(text) = write_records(lockfile, outcome, &self.evidence) {
                l.errors
                    .push(RunError::text(package.as_deref(), &ctx.record, text));
            }
        }
    }

    /// The run's usage part: `None` without evidence, waiver or removal.
    pub fn run_part(
        &self,
        lockfiles: &[LockfileRun],
        known: &BTreeSet<String>,
    ) -> Option<UsageRun> {
        let removals = lockfiles
            .iter()
            .filter_map(|l| l.checked.as_ref())
            .any(|(o, _)| !o.usage.removals.is_empty());
        let given = match &self.evidence {
            EvidenceInput::Given(g) => Some(g.clone()),
            _ => None,
        };
        let waived = self.evidence == EvidenceInput::Waived;
        if given.is_none() && !waived && !removals {
            return None;
        }
        Some(UsageRun {
            today: self.today,
            unknown_tools: given
                .as_ref()
                .map(|g| known::unknown_tools(g, known))
                .unwrap_or_default(),
            evidence: given,
            waived,
        })
    }
}

/// `--record-evidence`: writes the evidence record into each cleared
/// removal's entry that lacks it or records other evidence; says on stderr
/// what it wrote.
fn write_records(
    lockfile: &Path,
    outcome: &mut CheckOutcome,
    evidence: &EvidenceInput,
) -> Result<(), String> {
    let (Some(mut expected), EvidenceInput::Given(given)) =
        (outcome.usage.expected.clone(), evidence)
    else {
        return Ok(());
    };
    // The evidence travels with the record: committed beside it, named by
    // the entry, so a check without --usage decides on the same counts.
    let name = usage::record::committed_name(&expected.sha256);
    expected.file = Some(name.clone());
    let mut lines = vec![];
    for r in &outcome.usage.removals {
        let Verdict::Cleared { record, .. } = &r.verdict else {
            continue;
        };
        let Some(e) = r.path.entry.and_then(|i| outcome.record.entries.get(i)) else {
            continue;
        };
        let stale = match record {
            RecordState::Missing | RecordState::Mismatch(_) => true,
            RecordState::Recorded => e.evidence.as_ref().is_some_and(|x| x.file != expected.file),
            _ => false,
        };
        if stale {
            lines.push(e.pos.line);
        }
    }
    if lines.is_empty() {
        return Ok(());
    }
    lines.sort();
    lines.dedup();
    let path = mcp_contract::migrations::path_for(lockfile);
    let dir = path.parent().unwrap_or(Path::new("."));
    if usage::record::write_committed(dir, &name, &given.merged)? {
        eprintln!(
            "wrote the usage evidence {} (commit it with the record)",
            dir.join(&name).display()
        );
    }
    let written = usage::record::write(&path, &lines, &expected).map_err(|e| {
        format!(
            "{e}\n  help: add the line by hand: {}",
            expected.toml_line()
        )
    })?;
    if written {
        for line in &lines {
            eprintln!(
                "wrote `{}` into the entry at {}:{line}",
                expected.toml_line(),
                path.display()
            );
        }
    }
    outcome.usage.expected = Some(expected);
    for r in &mut outcome.usage.removals {
        if let Verdict::Cleared { record, .. } = &mut r.verdict {
            let entry_line = r
                .path
                .entry
                .and_then(|i| outcome.record.entries.get(i))
                .map(|e| e.pos.line);
            if matches!(
                record,
                RecordState::Missing | RecordState::Mismatch(_) | RecordState::Recorded
            ) && entry_line.is_some_and(|l| lines.contains(&l))
            {
                *record = RecordState::Written;
            }
        }
    }
    Ok(())
}
