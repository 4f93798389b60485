//! The human check report: unacknowledged changes first, each with the
//! `[[acknowledge]]` entry that would accept it, then acknowledged changes,
//! then the rest, record problems, and a one-line verdict.

use std::fmt::Write;

use super::gate::{describe_entry, GateReport};
use crate::check::Status;
use crate::migrations::Level;
use crate::rules::Severity;

use super::human::{paint, write_diagnostic_head, write_proof};

/// Renders one or more check reports.
pub fn render(reports: &[GateReport<'_>], color: bool) -> String {
    let mut out = String::new();
    for r in reports {
        render_one(&mut out, r, color);
    }
    out
}

fn render_one(out: &mut String, r: &GateReport<'_>, color: bool) {
    let o = r.outcome;
    let _ = writeln!(
        out,
        "{} {} against {} ({})",
        paint(color, "1", "checking"),
        r.lockfile,
        r.baseline_short,
        r.baseline_description
    );
    if o.new_surface {
        let _ = writeln!(
            out,
            "  the lockfile does not exist at the baseline: a new surface, every tool is additive"
        );
    }
    let failing: Vec<_> = o.failing().collect();
    for g in &failing {
        let c = &g.change;
        let place = format!("{}:{} ({} {})", r.lockfile, r.line(g), c.tool, c.pointer);
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
        let place = format!("{}:{} ({} {})", r.lockfile, r.line(g), c.tool, c.pointer);
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
        let _ = writeln!(
            out,
            "  --> {}:{} ({} {})",
            r.lockfile,
            r.line(g),
            c.tool,
            c.pointer
        );
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
    let s = o.summary();
    let _ = writeln!(
        out,
        "{} {} breaking, {} behavioral, {} additive, {} cosmetic; {} acknowledged, {} not (failing at {} and above)",
        paint(color, "1", "summary:"),
        s[&Severity::Breaking],
        s[&Severity::Behavioral],
        s[&Severity::Additive],
        s[&Severity::Cosmetic],
        o.acknowledged_count(),
        failing.len(),
        o.fail_on
    );
    let verdict = match o.status() {
        Status::Passed => paint(color, "1;32", "passed"),
        Status::Failed => paint(color, "1;31", "FAILED"),
        Status::Invalid => paint(color, "1;31", "FAILED: the migration record is invalid"),
    };
    let _ = writeln!(out, "{} {verdict}\n", paint(color, "1", "result:"));
}
