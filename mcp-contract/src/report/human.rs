//! The human report: changes grouped by severity, most severe first, in the
//! style of rustc/cargo diagnostics, coloured when asked to.

use std::fmt::Write;

use crate::diff::{Change, DiffReport};
use crate::rules::Severity;

/// `s` in the ANSI style `code` when `on`, else as is.
pub(crate) fn paint(on: bool, code: &str, s: &str) -> String {
    if on {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

/// The first two lines of a diagnostic: `label[rule]: message` and `  --> place`.
pub(crate) fn write_diagnostic_head(
    out: &mut String,
    color: bool,
    (label, code): (&str, &str),
    c: &Change,
    place: &str,
) {
    let _ = writeln!(
        out,
        "{}: {}",
        paint(color, code, &format!("{label}[{}]", c.rule)),
        c.message
    );
    let _ = writeln!(out, "  {} {}", paint(color, "1;34", "-->"), place);
}

fn label(sev: Severity) -> (&'static str, &'static str) {
    match sev {
        Severity::Breaking => ("error", "1;31"),
        Severity::Behavioral => ("warning", "1;33"),
        Severity::Additive => ("note", "1;32"),
        Severity::Cosmetic => ("note", "2"),
    }
}

/// The proof lines of a breaking change: `= witness: ...` when one was
/// found, `= proof: unproven (...)` when the search came back empty.
pub(crate) fn write_proof(out: &mut String, color: bool, c: &Change) {
    if let Some(w) = &c.witness {
        let _ = writeln!(
            out,
            "  {} {}",
            paint(color, "1;34", "= witness:"),
            w.sentence()
        );
    }
    if let Some(crate::witness::Proof::Unproven { reason }) = &c.proof {
        let _ = writeln!(
            out,
            "  {} unproven (no witness: {reason}); still reported as breaking",
            paint(color, "1;34", "= proof:")
        );
    }
}

/// Renders every change, grouped by severity, followed by a summary line.
pub fn render_human(report: &DiffReport, color: bool) -> String {
    let mut out = String::new();
    for sev in Severity::ALL {
        let group: Vec<&Change> = report
            .changes
            .iter()
            .filter(|c| c.severity == sev)
            .collect();
        if group.is_empty() {
            continue;
        }
        let (word, code) = label(sev);
        let _ = writeln!(
            out,
            "{}",
            paint(color, "1", &format!("{} ({}):", sev, group.len()))
        );
        for c in group {
            write_diagnostic_head(&mut out, color, (word, code), c, &place(c));
            if let Some(h) = &c.hint {
                let _ = writeln!(out, "  {} {}", paint(color, "1;34", "= hint:"), h);
            }
            write_proof(&mut out, color, c);
        }
        out.push('\n');
    }
    let s = report.summary();
    let _ = writeln!(
        out,
        "{} {} breaking, {} behavioral, {} additive, {} cosmetic",
        paint(color, "1", "summary:"),
        s[&Severity::Breaking],
        s[&Severity::Behavioral],
        s[&Severity::Additive],
        s[&Severity::Cosmetic]
    );
    out
}

/// Where a change is, for people: the tool and the pointer in it (the tool
/// alone for a change to the whole tool, whose pointer is empty).
pub fn place(c: &Change) -> String {
    if c.pointer.is_empty() {
        c.tool.clone()
    } else {
        format!("{} {}", c.tool, c.pointer)
    }
}
