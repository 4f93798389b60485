//! The human report: changes grouped by severity, most severe first, in the
//! style of rustc/cargo diagnostics, coloured when asked to.

use std::fmt::Write;

use crate::diff::{Change, DiffReport};
use crate::rules::Severity;

struct Palette {
    on: bool,
}

impl Palette {
    fn paint(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
}

fn label(sev: Severity) -> (&'static str, &'static str) {
    match sev {
        Severity::Breaking => ("error", "1;31"),
        Severity::Behavioral => ("warning", "1;33"),
        Severity::Additive => ("note", "1;32"),
        Severity::Cosmetic => ("note", "2"),
    }
}

/// Renders every change, grouped by severity, followed by a summary line.
pub fn render_human(report: &DiffReport, color: bool) -> String {
    let p = Palette { on: color };
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
            p.paint("1", &format!("{} ({}):", sev, group.len()))
        );
        for c in group {
            let _ = writeln!(
                out,
                "{}: {}",
                p.paint(code, &format!("{word}[{}]", c.rule)),
                c.message
            );
            let place = if c.pointer.is_empty() {
                c.tool.clone()
            } else {
                format!("{} {}", c.tool, c.pointer)
            };
            let _ = writeln!(out, "  {} {}", p.paint("1;34", "-->"), place);
            if let Some(h) = &c.hint {
                let _ = writeln!(out, "  {} {}", p.paint("1;34", "= hint:"), h);
            }
        }
        out.push('\n');
    }
    let s = report.summary();
    let _ = writeln!(
        out,
        "{} {} breaking, {} behavioral, {} additive, {} cosmetic",
        p.paint("1", "summary:"),
        s[&Severity::Breaking],
        s[&Severity::Behavioral],
        s[&Severity::Additive],
        s[&Severity::Cosmetic]
    );
    out
}
