//! The usage gate's verdicts as findings every check format renders the
//! same way: a rule id, a level, the file and line they point at (the
//! record entry of a removal, the evidence file of an unknown tool), one
//! message, detail lines (callers, gaps, the usage rows decided on) and
//! the fix. Decided in [`super::decide`], worded here once, so human,
//! JSON, SARIF, GitHub, JUnit and Markdown say the same thing.

use super::{Condition, Given, RecordState, RemovalVerdict, UsageOutcome, UsageRun, Verdict};
use crate::migrations::MigrationRecord;
use crate::usage::{run_text, Refusal};

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Note,
    Warning,
    Error,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }
}

/// One thing the usage gate says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub level: Level,
    /// The file it points at, as the report names files.
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
    /// One fact a line: callers, gaps, the rows decided on.
    pub details: Vec<String>,
    pub help: Option<String>,
}

/// Every rule id a finding can carry, with what it means.
pub const RULES: &[(&str, &str)] = &[
    (
        "usage.removal-refused",
        "a deprecated path is removed while usage evidence shows callers in the quiet window, or gaps in it",
    ),
    (
        "usage.no-evidence",
        "a deprecated path is removed without usage evidence (pass --usage FILE, or waive with --no-usage-evidence)",
    ),
    (
        "usage.no-condition",
        "a removed deprecated path has no typed removal condition to check usage evidence against",
    ),
    (
        "usage.evidence-not-recorded",
        "a removal cleared by usage evidence, whose entry does not record that evidence",
    ),
    (
        "usage.evidence-waived",
        "a deprecated path removed without usage evidence, waived with --no-usage-evidence",
    ),
    (
        "usage.removal-cleared",
        "a deprecated path removed after usage evidence showed nobody takes it",
    ),
    (
        "usage.unknown-tool",
        "usage evidence counts calls of a tool the lockfile never published",
    ),
    (
        "usage.evidence-after-today",
        "a usage evidence file covers days after the check's today: its calls there still count, but those days are not over or not yet come",
    ),
    (
        "usage.waiver-unused",
        "--no-usage-evidence was given, but the change removes no deprecated path",
    ),
];

/// The findings of one lockfile's removals; `record_file` as the report
/// names the candidate record.
pub fn lockfile(o: &UsageOutcome, record_file: &str, record: &MigrationRecord) -> Vec<Finding> {
    o.removals
        .iter()
        .map(|r| removal(r, o, record_file, record))
        .collect()
}

fn removal(
    r: &RemovalVerdict,
    o: &UsageOutcome,
    record_file: &str,
    record: &MigrationRecord,
) -> Finding {
    let p = &r.path;
    let what = format!("removing {}", p.kind.describe(&p.tool));
    let entry_line = p
        .entry
        .and_then(|i| record.entries.get(i))
        .map(|e| e.pos.line);
    let line = entry_line.or(match &p.condition {
        Condition::Typed { source, .. } | Condition::Untyped { source, .. }
            if source.file == record.file =>
        {
            Some(source.line)
        }
        _ => None,
    });
    let at = |line: Option<usize>| match line {
        Some(l) => format!("{record_file}:{l}"),
        None => record_file.to_string(),
    };
    let rows = match p.kind.key() {
        Some(k) => format!("usage rows: tool `{}`, path `{k}`", p.tool),
        None => format!(
            "usage rows: every path of tool `{}` (field:, default:, tool:, rejected:)",
            p.tool
        ),
    };
    let condition = match &p.condition {
        Condition::Typed { condition, source } => format!(
            "condition: {} ({}:{})",
            condition.describe(),
            source.file,
            source.line
        ),
        Condition::Untyped { text, source, .. } => format!(
            "condition: free text \"{text}\" ({}:{}), which usage evidence cannot check",
            source.file, source.line
        ),
        Condition::Missing => "condition: none".to_string(),
    };
    let typed_help = match &p.condition {
        Condition::Untyped { typed, .. } => format!(
            "write the condition typed in the transition of the entry at {}: {typed}",
            at(line)
        ),
        _ => format!(
            "add a typed condition to the transition of the entry at {}, e.g. removal = {{ quiet_for = \"30d\" }} (optionally clients = [...], min_coverage = \"7d\")",
            at(line)
        ),
    };
    let mut f = Finding {
        rule: "usage.removal-refused",
        level: Level::Error,
        file: record_file.to_string(),
        line,
        message: String::new(),
        details: vec![rows, condition],
        help: None,
    };
    match &r.verdict {
        Verdict::NoEvidence => {
            f.rule = "usage.no-evidence";
            f.message = format!("{what}: no usage evidence shows that nobody still takes it");
            f.help = Some(
                "pass the usage evidence with `--usage FILE` (the runtime layer's counts as an mcp-contract-usage file; `cargo mcp-contract usage --import-prometheus` writes one from Prometheus), or remove it without evidence on purpose with `--no-usage-evidence` (the report records the waiver); once it clears, `--record-evidence` commits the evidence beside the record, and a check without `--usage` (the hook, CI) decides on it".into(),
            );
            let recorded = p
                .entry
                .and_then(|i| record.entries.get(i))
                .and_then(|e| e.evidence.as_ref())
                .filter(|e| e.file.is_none());
            if let Some(e) = recorded {
                f.details.push(format!(
                    "the entry records evidence ({}..{}) but not its file, so nothing here can decide on it: run `cargo mcp-contract check --usage FILE... --record-evidence` once more to commit it beside the record (`file = ...`)",
                    e.from, e.to
                ));
            }
            if !matches!(p.condition, Condition::Typed { .. }) {
                f.details.push(format!("also: {typed_help}"));
            }
        }
        Verdict::Waived => {
            f.rule = "usage.evidence-waived";
            f.level = Level::Warning;
            f.message = format!("{what} without usage evidence: waived with --no-usage-evidence");
        }
        Verdict::NoCondition => {
            f.rule = "usage.no-condition";
            f.message =
                format!("{what}: no typed removal condition to check the usage evidence against");
            f.help = Some(typed_help);
        }
        Verdict::Refused(Refusal {
            window,
            callers,
            late,
            covered,
            needed,
            gaps,
            would_clear,
        }) => {
            let days = window.1.to_unix_days() - window.0.to_unix_days() + 1;
            let today = window.1.plus_days(1);
            let mut why = vec![];
            if !callers.is_empty() {
                why.push(format!(
                    "{} client(s) took it in the quiet window {}..{}",
                    callers.len(),
                    window.0,
                    window.1
                ));
            }
            if !late.is_empty() {
                why.push(format!(
                    "{} client(s) took it after the window, on or after today {today}",
                    late.len()
                ));
            }
            if covered < needed {
                why.push(format!(
                    "the data covers {covered} of the {days} days of the quiet window {}..{}, {needed} needed",
                    window.0, window.1
                ));
            }
            f.message = format!(
                "{what}: usage evidence does not clear it: {}",
                why.join("; ")
            );
            for c in callers {
                f.details.push(format!(
                    "{}: last hit {}, {} hit(s) in the window",
                    c.client, c.last_hit, c.hits
                ));
            }
            for l in late {
                let runs: Vec<String> = l.days.iter().copied().map(run_text).collect();
                let why = if l.days.iter().any(|r| r.1 > today) {
                    format!("the evidence is newer than the check's today {today}")
                } else {
                    "today is not over, and its calls count".to_string()
                };
                f.details.push(format!(
                    "{}: {} on {}, after the window; {why} ({} hit(s))",
                    l.client,
                    if l.hits == 1 { "a call" } else { "calls" },
                    runs.join(", "),
                    l.hits
                ));
            }
            if !gaps.is_empty() {
                let runs: Vec<String> = gaps.iter().copied().map(run_text).collect();
                f.details.push(format!(
                    "no data on {} ({covered} of {days} days covered, {needed} needed)",
                    runs.join(", ")
                ));
            }
            if let Some(file) = &r.evidence_file {
                f.details.push(format!(
                    "evidence: {file}, committed with the record; judged as of {today}"
                ));
            }
            f.help = Some(format!("would clear: {would_clear}"));
        }
        Verdict::Cleared {
            window,
            covered,
            record: state,
        } => {
            let cleared = format!(
                "{what}: cleared by usage evidence (no call in the quiet window {}..{}, {covered} days with data)",
                window.0, window.1
            );
            let expected = o
                .expected
                .as_ref()
                .map(|e| e.toml_line())
                .unwrap_or_default();
            let write = "`cargo mcp-contract check --usage FILE... --record-evidence` writes it (not when CI is set)";
            match state {
                RecordState::Committed(file) => {
                    f.rule = "usage.removal-cleared";
                    f.level = Level::Note;
                    f.message = format!(
                        "{what}: cleared by the usage evidence committed with the record (no call in the quiet window {}..{}, {covered} days with data)",
                        window.0, window.1
                    );
                    f.details.push(format!(
                        "evidence: {file}, as the entry records it; judged as of {}, the day after the window",
                        window.1.plus_days(1)
                    ));
                }
                RecordState::Recorded | RecordState::Written => {
                    f.rule = "usage.removal-cleared";
                    f.level = Level::Note;
                    f.message = cleared;
                    let own = p
                        .entry
                        .and_then(|i| record.entries.get(i))
                        .and_then(|e| e.evidence.as_ref())
                        .map(|e| e.toml_line());
                    f.details.push(match state {
                        RecordState::Written => {
                            format!("recorded (written now by --record-evidence): {expected}")
                        }
                        _ => format!("recorded: {}", own.unwrap_or(expected)),
                    });
                }
                RecordState::Missing => {
                    f.rule = "usage.evidence-not-recorded";
                    f.message = format!(
                        "{cleared}; the entry does not record the evidence it was cleared on"
                    );
                    f.help = Some(format!(
                        "add this line to the entry at {}: {expected}; or {write}",
                        at(line)
                    ));
                }
                RecordState::Mismatch(found) => {
                    f.rule = "usage.evidence-not-recorded";
                    f.message = format!(
                        "{cleared}; the entry records other evidence ({}..{}, sha256 {})",
                        found.from, found.to, found.sha256
                    );
                    f.help = Some(format!(
                        "replace the entry's `evidence` at {}:{} with: {expected}; or {write}",
                        record_file, found.pos.line
                    ));
                }
                RecordState::NoEntry => {
                    f.rule = "usage.evidence-not-recorded";
                    f.message = format!("{cleared}; no entry of the record records the removal");
                    f.help = Some(format!(
                        "record the removal in {record_file}: an `[[acknowledge]]` entry for it with transition kind \"removal\" (the name stays reserved), its removal condition, and {expected}"
                    ));
                }
            }
        }
    }
    f
}

/// The findings of the whole run: evidence for unknown tools, a waiver
/// that waived nothing.
pub fn run(u: &UsageRun, waived_removals: usize) -> Vec<Finding> {
    let mut out = vec![];
    for t in &u.unknown_tools {
        let mut help = "check that the evidence is this server's: its rows for other tools decide nothing here".to_string();
        if let Some(s) = &t.suggestion {
            help = format!("did you mean `{s}`? {help}");
        }
        out.push(Finding {
            rule: "usage.unknown-tool",
            level: Level::Warning,
            file: t.file.clone(),
            line: None,
            message: format!(
                "usage evidence counts {} hit(s) of tool `{}`, which the lockfile never published",
                t.hits, t.tool
            ),
            details: vec![format!(
                "clients: {}; last hit {}",
                t.clients.join(", "),
                t.last_hit
            )],
            help: Some(help),
        });
    }
    if let Some(g) = &u.evidence {
        for (file, e) in g.files.iter().filter(|(_, e)| e.to > u.today) {
            out.push(Finding {
                rule: "usage.evidence-after-today",
                level: Level::Warning,
                file: file.clone(),
                line: None,
                message: format!(
                    "usage evidence {}..{} ends after the check's today {}: a collector whose clock runs ahead, or a --today in the past",
                    e.from, e.to, u.today
                ),
                details: vec![format!(
                    "days are UTC; the quiet window ends before today, and a call on {} or later refuses a removal of its path",
                    u.today
                )],
                help: Some(format!(
                    "check the collector's clock (UTC), or run the check with the day the evidence was meant for (--today {})",
                    e.to.plus_days(1)
                )),
            });
        }
    }
    if u.waived && waived_removals == 0 {
        out.push(Finding {
            rule: "usage.waiver-unused",
            level: Level::Note,
            file: "<arguments>".into(),
            line: None,
            message: "--no-usage-evidence waived nothing: the change removes no deprecated path"
                .into(),
            details: vec![],
            help: None,
        });
    }
    out
}

/// The removals in a few words: `2 removals of deprecated paths: 1
/// cleared, 1 failing, 0 waived`.
pub fn tally(o: &UsageOutcome) -> String {
    let n = o.removals.len();
    let failing = o.removals.iter().filter(|r| r.fails()).count();
    let waived = o
        .removals
        .iter()
        .filter(|r| matches!(r.verdict, Verdict::Waived))
        .count();
    format!(
        "{n} removal(s) of deprecated paths: {} cleared, {failing} failing, {waived} waived",
        n - failing - waived
    )
}

/// One line about the evidence a run was given.
pub fn summary(u: &UsageRun) -> Option<String> {
    let g: &Given = u.evidence.as_ref()?;
    let e = &g.merged;
    let gaps: Vec<String> = e.gaps().into_iter().map(run_text).collect();
    let files: Vec<&str> = g.files.iter().map(|(f, _)| f.as_str()).collect();
    Some(format!(
        "usage evidence {}: {}..{}, {} of {} days with data (gaps: {}); sha256 {}; today {}",
        files.join(", "),
        e.from,
        e.to,
        e.covered_days(),
        e.days().count(),
        if gaps.is_empty() {
            "none".to_string()
        } else {
            gaps.join(", ")
        },
        g.record.sha256,
        u.today
    ))
}
