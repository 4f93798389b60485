//! A Markdown summary for a pull-request comment (`--format markdown`): the
//! verdict, a table of breaking and behavioral changes with their
//! acknowledgement, and the entries to paste for the unacknowledged ones.

use std::fmt::Write;

use super::gate::{describe_entry, GateReport};
use crate::check::Status;
use crate::migrations::Level;
use crate::rules::Severity;

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

pub fn render(reports: &[GateReport<'_>]) -> String {
    let mut out = String::new();
    for r in reports {
        let o = r.outcome;
        let failing = o.failing().count();
        let head = match o.status() {
            Status::Passed => "✅ MCP contract check passed".to_string(),
            Status::Failed if failing > 0 => format!(
                "❌ MCP contract check failed: {failing} unacknowledged change{}",
                if failing == 1 { "" } else { "s" }
            ),
            Status::Failed => {
                "❌ MCP contract check failed: the migration record is stale".to_string()
            }
            Status::Invalid => {
                "❌ MCP contract check failed: the migration record is invalid".to_string()
            }
        };
        let _ = writeln!(out, "### {head}\n");
        let _ = writeln!(
            out,
            "`{}` against `{}` ({}){}\n",
            r.lockfile,
            r.baseline_short,
            r.baseline_description,
            if o.new_surface {
                ": new surface, everything is additive"
            } else {
                ""
            }
        );
        let s = o.summary();
        let _ = writeln!(
            out,
            "{} breaking · {} behavioral · {} additive · {} cosmetic · {} acknowledged\n",
            s[&Severity::Breaking],
            s[&Severity::Behavioral],
            s[&Severity::Additive],
            s[&Severity::Cosmetic],
            o.acknowledged_count()
        );
        let shown: Vec<_> = o
            .changes
            .iter()
            .filter(|g| g.change.severity >= Severity::Behavioral || g.acknowledged_by.is_some())
            .collect();
        if !shown.is_empty() {
            out.push_str("| | Rule | Tool | Where | Change |\n|---|---|---|---|---|\n");
            for g in shown {
                let c = &g.change;
                let mark = if g.fails {
                    "❌".to_string()
                } else if let Some(e) = r.entry(g) {
                    format!("✅ {}", cell(&describe_entry(e)))
                } else {
                    "⚠️".to_string()
                };
                let _ = writeln!(
                    out,
                    "| {mark} | `{}` | `{}` | `{}` | {} |",
                    c.rule,
                    cell(&c.tool),
                    cell(if c.pointer.is_empty() {
                        "(tool)"
                    } else {
                        &c.pointer
                    }),
                    cell(&c.message)
                );
            }
            out.push('\n');
        }
        if failing > 0 {
            let _ = writeln!(
                out,
                "<details><summary>Entries to add to <code>{}</code> (fill in <code>reason</code> and <code>owner</code>)</summary>\n\n```toml",
                r.record
            );
            for g in o.failing() {
                let _ = writeln!(out, "{}", g.migration_entry.as_deref().unwrap_or(""));
            }
            out.push_str("```\n\n</details>\n\n");
        }
        for p in &o.problems {
            let word = if p.level == Level::Error {
                "error"
            } else {
                "warning"
            };
            let _ = writeln!(
                out,
                "- **{word}** `{}:{}`: {}",
                p.file,
                p.pos,
                cell(&p.message)
            );
        }
        if !o.problems.is_empty() {
            out.push('\n');
        }
    }
    out
}
