//! GitHub Actions workflow commands (`--format github`): one `::error` per
//! unacknowledged change on its line of the lockfile (with the entry that
//! would acknowledge it), `::notice` for acknowledged ones, `::warning` for
//! record problems, `::error` for each failing contract fixture and each
//! thing that kept a lockfile from being checked, and one per usage-gate
//! finding (`::error` for a refused removal, `::warning` for a waived one,
//! `::notice` for a cleared one), so they show up inline in the pull
//! request's diff.

use std::fmt::Write;

use super::gate::{describe_entry, GateReport};
use crate::check::run::{CheckRun, RunError};
use crate::migrations::Level;
use crate::rules::Severity;

/// Escapes a command's message (`%`, CR, LF).
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command property value (also `:` and `,`).
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render(run: &CheckRun) -> String {
    let mut out = String::new();
    for l in &run.lockfiles {
        if let Some(r) = GateReport::of(l) {
            render_gate(&mut out, &r);
        }
        for f in l.fixtures.iter().flat_map(|f| &f.failures) {
            let _ = writeln!(
                out,
                "::error file={},title={}::{}",
                escape_property(&f.file),
                escape_property(&format!("contract fixture ({})", f.tool)),
                escape_data(&f.problem)
            );
        }
    }
    for f in super::gate::run_findings(run) {
        finding(&mut out, &f);
    }
    for (_, e) in run.all_errors() {
        error(&mut out, e);
    }
    out
}

/// A finding (the usage gate's, the version rule's): `::error`,
/// `::warning` or `::notice` on the line it points at.
fn finding(out: &mut String, f: &crate::check::usage::findings::Finding) {
    use crate::check::usage::findings::Level as L;
    let cmd = match f.level {
        L::Error => "error",
        L::Warning => "warning",
        L::Note => "notice",
    };
    let mut place = String::new();
    if !f.file.starts_with('<') {
        place = format!(" file={}", escape_property(&f.file));
        if let Some(line) = f.line {
            let _ = write!(place, ",line={line}");
        }
        place.push(',');
    } else {
        place.push(' ');
    }
    let mut body = f.message.clone();
    for d in &f.details {
        body.push_str(&format!("\n- {d}"));
    }
    if let Some(h) = &f.help {
        body.push_str(&format!("\n{h}"));
    }
    let _ = writeln!(
        out,
        "::{cmd}{place}title={}::{}",
        escape_property(&match f.rule.strip_prefix("usage.") {
            Some(_) => format!("usage gate ({})", f.rule),
            None => f.rule.to_string(),
        }),
        escape_data(&body)
    );
}

fn error(out: &mut String, e: &RunError) {
    let mut place = format!("file={}", escape_property(&e.file));
    if let Some(line) = e.line {
        let _ = write!(place, ",line={line}");
    }
    if let Some(col) = e.column {
        let _ = write!(place, ",col={col}");
    }
    let _ = writeln!(
        out,
        "::error {place},title=not checked::{}",
        escape_data(&e.to_string())
    );
}

fn render_gate(out: &mut String, r: &GateReport<'_>) {
    for g in &r.outcome.changes {
        let c = &g.change;
        let (cmd, body) = if g.fails {
            (
                "error",
                format!(
                    "{}\n\nNot acknowledged. Add to {} (fill in reason and owner):\n{}",
                    c.message,
                    r.record,
                    g.migration_entry.as_deref().unwrap_or("")
                ),
            )
        } else if let Some(e) = r.entry(g) {
            (
                "notice",
                format!(
                    "{}\n\nAcknowledged by {}:{}: {}",
                    c.message,
                    r.record,
                    e.pos.line,
                    describe_entry(e)
                ),
            )
        } else if c.severity >= Severity::Behavioral {
            ("warning", c.message.clone())
        } else {
            continue;
        };
        let mut body = body;
        if let Some(w) = &c.witness {
            body.push_str(&format!("\n\nWitness: {}", w.sentence()));
        }
        if let Some(crate::witness::Proof::Unproven { reason }) = &c.proof {
            body.push_str(&format!("\n\nUnproven (no witness: {reason})."));
        }
        let _ = writeln!(
            out,
            "::{cmd} file={},line={},title={}::{}",
            escape_property(r.lockfile),
            r.line(g),
            escape_property(&format!("{} ({})", c.rule, c.tool)),
            escape_data(&body)
        );
    }
    for f in r.findings() {
        finding(out, &f);
    }
    for p in &r.outcome.problems {
        let cmd = match p.level {
            Level::Error => "error",
            Level::Warning => "warning",
        };
        let body = match &p.help {
            Some(h) => format!("{}\n{h}", p.message),
            None => p.message.clone(),
        };
        let _ = writeln!(
            out,
            "::{cmd} file={},line={},col={},title=migration record::{}",
            escape_property(r.record),
            p.pos.line,
            p.pos.column,
            escape_data(&body)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_workflow_command_values() {
        assert_eq!(escape_data("a%b\nc\r"), "a%25b%0Ac%0D");
        assert_eq!(escape_property("x: y, z"), "x%3A y%2C z");
    }
}
