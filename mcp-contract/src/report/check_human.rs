//! The human check report: per lockfile, how it was judged, unacknowledged
//! changes first, each with the `[[acknowledge]]` entry that would accept
//! it, then acknowledged changes, then the rest, record problems (stale and
//! expired entries included, warnings or not), the usage gate's verdicts on
//! removed deprecated paths, the contract fixtures, and a one-line verdict;
//! with usage evidence, a line about it first, and evidence for tools no
//! lockfile has last. What kept a lockfile from being checked is the report's
//! other half, written for stderr like every exit-2 diagnostic.

use std::fmt::Write;

use super::gate::{describe_entry, run_findings, GateReport};
use crate::check::run::{CheckRun, LockfileRun};
use crate::check::usage::findings::{self, Finding};
use crate::check::Status;
use crate::migrations::Level;
use crate::rules::Severity;

use super::human::{paint, place, write_diagnostic_head, write_proof};

/// The human report: `out` for stdout, `err` (the errors) for stderr.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HumanReport {
    pub out: String,
    pub err: String,
}

/// Renders a whole run.
pub fn render(run: &CheckRun, color: bool) -> HumanReport {
    let mut report = HumanReport::default();
    if let Some(line) = run.usage.as_ref().and_then(findings::summary) {
        let _ = writeln!(report.out, "{line}\n");
    }
    for l in &run.lockfiles {
        if let Some(r) = GateReport::of(l) {
            render_one(&mut report.out, l, &r, color);
        }
    }
    for f in run_findings(run) {
        write_finding(&mut report.out, color, &f);
    }
    report.err = errors(run);
    report
}

/// A usage-gate finding: `error[usage.removal-refused]: ...`, where, the
/// details and the fix.
pub fn write_finding(out: &mut String, color: bool, f: &Finding) {
    let code = match f.level {
        findings::Level::Error => "1;31",
        findings::Level::Warning => "1;33",
        findings::Level::Note => "2",
    };
    let _ = writeln!(
        out,
        "{}: {}",
        paint(color, code, &format!("{}[{}]", f.level.as_str(), f.rule)),
        f.message
    );
    match f.line {
        Some(line) => {
            let _ = writeln!(out, "  --> {}:{line}", f.file);
        }
        None => {
            let _ = writeln!(out, "  --> {}", f.file);
        }
    }
    for d in &f.details {
        let _ = writeln!(out, "  = {d}");
    }
    if let Some(h) = &f.help {
        let _ = writeln!(out, "  help: {h}");
    }
}

/// The errors of a run, one `error: ` diagnostic each.
pub fn errors(run: &CheckRun) -> String {
    let mut err = String::new();
    for (_, e) in run.all_errors() {
        let _ = writeln!(err, "error: {e}");
    }
    err
}

/// The contract fixtures' part of a lockfile's report (empty without fixtures).
pub fn fixtures(l: &LockfileRun) -> String {
    let mut text = String::new();
    let Some(f) = l.fixtures.as_ref().filter(|f| f.checked > 0) else {
        return text;
    };
    let _ = writeln!(
        text,
        "fixtures: {} checked in {}, {} failing",
        f.checked,
        f.dir,
        f.failures.len()
    );
    for failure in &f.failures {
        let _ = writeln!(text, "error[fixture]: {failure}");
    }
    if !f.passed() {
        text.push_str("  help: a legacy fixture that fails means a compatibility branch (alias, default, version) was removed from contracts/migrations.toml while callers may still rely on it; restore the entry, or change the fixture's expectation on purpose\n");
    }
    text
}

/// What `--served` compared for a lockfile (empty without it): the
/// binaries started and how many tools they serve as locked.
pub fn served(l: &LockfileRun) -> String {
    let Some(s) = &l.served else {
        return String::new();
    };
    if let Some(why) = &s.nothing_to_compare {
        return format!("served: nothing to compare: {why}\n");
    }
    let bins: Vec<String> = s
        .binaries
        .iter()
        .map(|(b, what)| format!("{b} ({what})"))
        .collect();
    let differ = s
        .findings
        .iter()
        .filter(|f| f.rule == "served.differs")
        .count();
    format!(
        "served: {} locked tools compared with what {} serves, {differ} served differently\n",
        s.compared,
        bins.join(", ")
    )
}

fn render_one(out: &mut String, l: &LockfileRun, r: &GateReport<'_>, color: bool) {
    let o = r.outcome;
    let _ = writeln!(
        out,
        "{} {} against {} ({})",
        paint(color, "1", "checking"),
        r.lockfile,
        r.baseline_short,
        r.baseline_description
    );
    let _ = writeln!(out, "  {}", l.candidate.describe());
    if o.new_surface {
        let _ = writeln!(
            out,
            "  the lockfile does not exist at the baseline: a new surface, every tool is additive"
        );
    }
    let failing: Vec<_> = o.failing().collect();
    for g in &failing {
        let c = &g.change;
        let place = format!("{}:{} ({})", r.lockfile, r.line(g), place(c));
        write_diagnostic_head(out, color, ("error", "1;31"), c, &place);
        if let Some(h) = &c.hint {
            let _ = writeln!(out, "  = hint: {h}");
        }
        write_proof(out, color, c);
        let _ = writeln!(
            out,
            "  = not acknowledged: add this entry to {} and fill in reason and owner:\n",
            r.record
        );
        for line in g.migration_entry.as_deref().unwrap_or("").lines() {
            let _ = writeln!(out, "    {line}");
        }
        out.push('\n');
    }
    for g in o.changes.iter().filter(|g| g.acknowledged_by.is_some()) {
        let c = &g.change;
        let place = format!("{}:{} ({})", r.lockfile, r.line(g), place(c));
        write_diagnostic_head(out, color, ("acknowledged", "1;32"), c, &place);
        write_proof(out, color, c);
        if let Some(e) = r.entry(g) {
            let _ = writeln!(
                out,
                "  = by {}:{}: {}",
                r.record,
                e.pos.line,
                describe_entry(e)
            );
        }
    }
    for g in o
        .changes
        .iter()
        .filter(|g| !g.fails && g.acknowledged_by.is_none())
    {
        let c = &g.change;
        let (word, code) = match c.severity {
            Severity::Breaking | Severity::Behavioral => ("warning", "1;33"),
            _ => ("note", "2"),
        };
        let _ = writeln!(
            out,
            "{}: {}",
            paint(color, code, &format!("{word}[{}]", c.rule)),
            c.message
        );
        let _ = writeln!(out, "  --> {}:{} ({})", r.lockfile, r.line(g), place(c));
    }
    for p in &o.problems {
        let code = match p.level {
            Level::Error => "1;31",
            Level::Warning => "1;33",
        };
        let text = p.to_string();
        let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
        let _ = writeln!(out, "{}", paint(color, code, first));
        if !rest.is_empty() {
            let _ = writeln!(out, "{rest}");
        }
    }
    for f in r.findings() {
        write_finding(out, color, &f);
    }
    out.push_str(&fixtures(l));
    out.push_str(&served(l));
    let s = o.summary();
    let _ = writeln!(
        out,
        "{} {} breaking, {} behavioral, {} additive, {} cosmetic; {} acknowledged, {} not (failing at {} and above{})",
        paint(color, "1", "summary:"),
        s[&Severity::Breaking],
        s[&Severity::Behavioral],
        s[&Severity::Additive],
        s[&Severity::Cosmetic],
        o.acknowledged_count(),
        failing.len(),
        o.fail_on,
        match o.fail_on_description {
            Some(crate::rules::DescriptionLevel::Flagged) => ", and at flagged descriptions",
            Some(crate::rules::DescriptionLevel::Changed) => ", and at every description change",
            None => "",
        }
    );
    if !o.usage.removals.is_empty() {
        let _ = writeln!(
            out,
            "{} {}",
            paint(color, "1", "usage gate:"),
            findings::tally(&o.usage)
        );
    }
    let verdict = match l.status() {
        Status::Passed => paint(color, "1;32", "passed"),
        Status::Failed => paint(color, "1;31", "FAILED"),
        Status::Invalid => paint(color, "1;31", "FAILED: the migration record is invalid"),
        Status::Error => paint(
            color,
            "1;31",
            &format!(
                "FAILED: not everything could be checked ({})",
                l.errors
                    .iter()
                    .map(|e| e.headline())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        ),
    };
    let _ = writeln!(out, "{} {verdict}\n", paint(color, "1", "result:"));
}
