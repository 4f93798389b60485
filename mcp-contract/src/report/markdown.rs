//! A Markdown summary for a pull-request comment (`--format markdown`): the
//! verdict, a table of breaking and behavioral changes with their
//! acknowledgement, the entries to paste for the unacknowledged ones, the
//! usage gate's verdicts on removed deprecated paths (refused, waived with
//! `--no-usage-evidence`, cleared), record problems, failing contract
//! fixtures, the usage evidence given, and what could not be checked.

use std::fmt::Write;

use super::gate::{describe_entry, GateReport};
use crate::check::run::{CheckRun, LockfileRun};
use crate::check::usage::findings::{self, Finding};
use crate::check::Status;
use crate::migrations::Level;
use crate::rules::Severity;

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

pub fn render(run: &CheckRun) -> String {
    let mut out = String::new();
    for l in &run.lockfiles {
        match GateReport::of(l) {
            Some(r) => render_gate(&mut out, l, &r),
            None => {
                let _ = writeln!(
                    out,
                    "### ❌ MCP contract check failed: `{}` could not be checked\n",
                    l.lockfile
                );
            }
        }
        render_fixtures_and_errors(&mut out, l);
    }
    let usage = super::gate::run_findings(run);
    if let Some(line) = run.usage.as_ref().and_then(findings::summary) {
        let _ = writeln!(out, "{}\n", cell(&line));
    }
    for f in &usage {
        write_finding(&mut out, f);
    }
    if !usage.is_empty() {
        out.push('\n');
    }
    if !run.errors.is_empty() {
        out.push_str("### ❌ MCP contract check could not run\n\n");
        for e in &run.errors {
            let _ = writeln!(out, "- **error** `{}`: {}", e.file, cell(&e.to_string()));
        }
        out.push('\n');
    }
    out
}

/// A usage-gate finding as a list item with its details and fix.
fn write_finding(out: &mut String, f: &Finding) {
    let mark = match f.level {
        findings::Level::Error => "❌ **error**",
        findings::Level::Warning => "⚠️ **warning**",
        findings::Level::Note => "✅ **note**",
    };
    let place = match f.line {
        Some(l) => format!("{}:{l}", f.file),
        None => f.file.clone(),
    };
    let _ = writeln!(out, "- {mark} `{}` `{place}`: {}", f.rule, cell(&f.message));
    for d in &f.details {
        let _ = writeln!(out, "  - {}", cell(d));
    }
    if let Some(h) = &f.help {
        let _ = writeln!(out, "  - fix: {}", cell(h));
    }
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn head(l: &LockfileRun, failing: usize) -> String {
    let fixtures = l.fixtures.as_ref().map_or(0, |f| f.failures.len());
    let refused = l.checked.as_ref().map_or(0, |(o, _)| {
        o.usage.removals.iter().filter(|r| r.fails()).count()
    });
    match l.status() {
        Status::Passed => "✅ MCP contract check passed".to_string(),
        Status::Failed => {
            let mut why = vec![];
            if failing > 0 {
                why.push(plural(failing, "unacknowledged change"));
            }
            if fixtures > 0 {
                why.push(plural(fixtures, "failing contract fixture"));
            }
            if refused > 0 {
                why.push(plural(refused, "removal the usage gate refuses"));
            }
            if l.version.as_ref().is_some_and(|v| v.fails()) {
                why.push("the declared version does not carry the change".to_string());
            }
            if why.is_empty() {
                why.push("the migration record is stale".to_string());
            }
            format!("❌ MCP contract check failed: {}", why.join(", "))
        }
        Status::Invalid => {
            "❌ MCP contract check failed: the migration record is invalid".to_string()
        }
        Status::Error => format!(
            "❌ MCP contract check failed: {} kept it from being checked",
            plural(l.errors.len(), "error")
        ),
    }
}

fn render_fixtures_and_errors(out: &mut String, l: &LockfileRun) {
    let failures: Vec<_> = l.fixtures.iter().flat_map(|f| &f.failures).collect();
    for f in &failures {
        let _ = writeln!(
            out,
            "- **fixture** `{}` (`{}`): {}",
            f.file,
            cell(&f.tool),
            cell(&f.problem)
        );
    }
    for e in &l.errors {
        let _ = writeln!(out, "- **error** `{}`: {}", e.file, cell(&e.to_string()));
    }
    if !failures.is_empty() || !l.errors.is_empty() {
        out.push('\n');
    }
}

fn render_gate(out: &mut String, l: &LockfileRun, r: &GateReport<'_>) {
    let o = r.outcome;
    let failing = o.failing().count();
    let _ = writeln!(out, "### {}\n", head(l, failing));
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
    let usage = r.findings();
    for f in &usage {
        write_finding(out, f);
    }
    if !usage.is_empty() {
        out.push('\n');
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
