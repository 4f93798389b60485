//! JUnit XML (`--format junit`) for CI systems that only read test reports:
//! one test suite per lockfile, one test case per change at or above
//! `--fail-on` (failing when unacknowledged), per record problem (failing
//! when an error, a warning's text in `system-out`), per
//! failing contract fixture and per usage-gate finding (failing when the
//! removal is refused; a waived or cleared removal passes with its text in
//! `system-out`), and one erroring test case per thing that kept a lockfile
//! from being checked.

use std::fmt::Write;

use super::gate::{describe_entry, GateReport};
use crate::check::run::{CheckRun, LockfileRun, RunError};
use crate::check::usage::findings::{self, Finding};
use crate::migrations::Level;

/// Escapes text for XML attributes and content.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

pub fn render(run: &CheckRun) -> String {
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"mcp-contract check\">\n",
    );
    for l in &run.lockfiles {
        render_lockfile(&mut out, l);
    }
    let usage = super::gate::run_usage_findings(run);
    if !usage.is_empty() {
        let mut cases = String::new();
        let (mut tests, mut failures) = (0, 0);
        for f in &usage {
            tests += 1;
            failures += usage_case(&mut cases, f);
        }
        let _ = write!(
            out,
            "  <testsuite name=\"mcp-contract usage evidence\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n{cases}  </testsuite>\n"
        );
    }
    let served: Vec<&Finding> = run
        .lockfiles
        .iter()
        .filter_map(|l| l.served.as_ref())
        .flat_map(|s| &s.findings)
        .collect();
    if !served.is_empty() {
        let mut cases = String::new();
        let mut failures = 0;
        for f in &served {
            failures += usage_case(&mut cases, f);
        }
        let _ = write!(
            out,
            "  <testsuite name=\"mcp-contract served\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">\n{cases}  </testsuite>\n",
            served.len()
        );
    }
    if !run.errors.is_empty() {
        let mut cases = String::new();
        for e in &run.errors {
            error_case(&mut cases, e);
        }
        let n = run.errors.len();
        let _ = write!(
            out,
            "  <testsuite name=\"mcp-contract check\" tests=\"{n}\" failures=\"0\" errors=\"{n}\">\n{cases}  </testsuite>\n"
        );
    }
    out.push_str("</testsuites>\n");
    out
}

/// A usage-gate finding as a test case: failing when it is an error, its
/// text in `system-out` otherwise. Returns the failures it adds.
fn usage_case(cases: &mut String, f: &Finding) -> usize {
    let mut text = f.message.clone();
    for d in &f.details {
        text.push_str(&format!("\n- {d}"));
    }
    if let Some(h) = &f.help {
        text.push_str(&format!("\nhelp: {h}"));
    }
    let place = match f.line {
        Some(l) => format!("{}:{l}", f.file),
        None => f.file.clone(),
    };
    let name = xml_escape(&format!("{} {place}", f.rule));
    if f.level == findings::Level::Error {
        let _ = writeln!(
            cases,
            "    <testcase classname=\"{}\" name=\"{name}\">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
            xml_escape(&f.file),
            xml_escape(&f.message),
            f.rule,
            xml_escape(&text)
        );
        1
    } else {
        let _ = writeln!(
            cases,
            "    <testcase classname=\"{}\" name=\"{name}\">\n      <system-out>{}</system-out>\n    </testcase>",
            xml_escape(&f.file),
            xml_escape(&format!("{}: {text}", f.level.as_str()))
        );
        0
    }
}

fn error_case(cases: &mut String, e: &RunError) {
    let _ = writeln!(
        cases,
        "    <testcase classname=\"{}\" name=\"{}\">\n      <error message=\"{}\" type=\"not-checked\">{}</error>\n    </testcase>",
        xml_escape(&e.file),
        xml_escape(&format!("{} could not be checked", e.file)),
        xml_escape(e.headline()),
        xml_escape(&e.to_string())
    );
}

fn render_lockfile(out: &mut String, l: &LockfileRun) {
    let mut cases = String::new();
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    for f in l.fixtures.iter().flat_map(|f| &f.failures) {
        tests += 1;
        failures += 1;
        let _ = writeln!(
            cases,
            "    <testcase classname=\"{}\" name=\"{}\">\n      <failure message=\"{}\" type=\"fixture\">{}</failure>\n    </testcase>",
            xml_escape(&f.tool),
            xml_escape(&format!("fixture {}", f.file)),
            xml_escape(&f.problem),
            xml_escape(&f.to_string())
        );
    }
    for e in &l.errors {
        tests += 1;
        errors += 1;
        error_case(&mut cases, e);
    }
    let Some(r) = GateReport::of(l) else {
        let _ = write!(
            out,
            "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">\n{cases}  </testsuite>\n",
            xml_escape(&format!("mcp-contract {}", l.lockfile))
        );
        return;
    };
    let o = r.outcome;
    for g in o
        .changes
        .iter()
        .filter(|g| g.change.severity >= o.fail_on || g.fails)
    {
        let c = &g.change;
        tests += 1;
        let name = xml_escape(&format!("{} {}{}", c.rule, c.tool, c.pointer));
        let _ = write!(
            cases,
            "    <testcase classname=\"{}\" name=\"{name}\"",
            xml_escape(&c.tool)
        );
        if g.fails {
            failures += 1;
            let _ = writeln!(
                cases,
                ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                xml_escape(&c.message),
                xml_escape(c.rule),
                xml_escape(&format!(
                    "{}:{}\nNot acknowledged. Add to {}:\n{}",
                    r.lockfile,
                    r.line(g),
                    r.record,
                    g.migration_entry.as_deref().unwrap_or("")
                ))
            );
        } else if let Some(e) = r.entry(g) {
            let _ = writeln!(
                cases,
                ">\n      <system-out>{}</system-out>\n    </testcase>",
                xml_escape(&format!("acknowledged: {}", describe_entry(e)))
            );
        } else {
            cases.push_str("/>\n");
        }
    }
    for f in r.findings() {
        tests += 1;
        failures += usage_case(&mut cases, &f);
    }
    for p in o.problems.iter().filter(|p| p.level == Level::Error) {
        tests += 1;
        failures += 1;
        let _ = writeln!(
            cases,
            "    <testcase classname=\"{}\" name=\"{}\">\n      <failure message=\"{}\" type=\"migration-record\">{}</failure>\n    </testcase>",
            xml_escape(r.record),
            xml_escape(&format!("{}:{}", r.record, p.pos)),
            xml_escape(&p.message),
            xml_escape(p.help.as_deref().unwrap_or(""))
        );
    }
    // Record warnings (entries that match nothing, passed dates, free-text
    // removal conditions) pass, their text in `system-out`.
    for p in o.problems.iter().filter(|p| p.level == Level::Warning) {
        tests += 1;
        let _ = writeln!(
            cases,
            "    <testcase classname=\"{}\" name=\"{}\">\n      <system-out>{}</system-out>\n    </testcase>",
            xml_escape(r.record),
            xml_escape(&format!("{}:{}", r.record, p.pos)),
            xml_escape(&format!(
                "warning: {}{}",
                p.message,
                p.help.as_deref().map(|h| format!("\nhelp: {h}")).unwrap_or_default()
            ))
        );
    }
    if tests == 0 {
        tests = 1;
        let _ = writeln!(
            cases,
            "    <testcase classname=\"{}\" name=\"no {} changes against {}\"/>",
            xml_escape(r.lockfile),
            o.fail_on,
            xml_escape(r.baseline_short)
        );
    }
    let _ = write!(
        out,
        "  <testsuite name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"{errors}\">\n{cases}  </testsuite>\n",
        xml_escape(&format!("mcp-contract {} against {}", r.lockfile, r.baseline_short))
    );
}
