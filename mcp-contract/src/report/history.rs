//! Rendering tool timelines (`cargo mcp-contract history`): when each tool
//! was introduced, changed (with a severity summary), deprecated (from the
//! migration record) and removed, with short commit ids, and the usage
//! evidence the record says allowed a removal (`evidence = { ... }`).

use std::fmt::Write;

use serde_json::{json, Value};

use crate::history::{EventKind, History};
use crate::migrations::{Date, MigrationRecord};
use crate::rules::RuleId;
use crate::rules::Severity;

fn day(time: i64) -> String {
    Date::from_unix_days(time.div_euclid(86_400)).to_string()
}

fn summary_text(summary: &std::collections::BTreeMap<Severity, usize>) -> String {
    let parts: Vec<String> = Severity::ALL
        .iter()
        .filter(|s| summary.get(s).copied().unwrap_or(0) > 0)
        .map(|s| format!("{} {s}", summary[s]))
        .collect();
    if parts.is_empty() {
        "no contract change".into()
    } else {
        parts.join(", ")
    }
}

/// Tools to show: one (`Some(name)`) or all.
fn selected<'a>(history: &'a History, tool: Option<&'a str>) -> Vec<&'a String> {
    history
        .timelines
        .keys()
        .filter(|k| tool.is_none_or(|t| t == k.as_str()))
        .collect()
}

/// What an entry with an evidence record removed, in a few words.
fn removed_what(e: &crate::migrations::Entry) -> String {
    match e.selector.place() {
        (_, Some(subject)) if e.selector.rule() != RuleId::ToolRemoved.as_str() => {
            format!("`{subject}`")
        }
        _ => "the tool".to_string(),
    }
}

pub fn render_human(history: &History, record: &MigrationRecord, tool: Option<&str>) -> String {
    let mut out = String::new();
    for name in selected(history, tool) {
        let _ = writeln!(out, "{name}");
        for e in &history.timelines[name] {
            let what = match &e.kind {
                EventKind::Introduced => ("introduced", String::new()),
                EventKind::Removed => ("removed", String::new()),
                EventKind::Changed { summary, rules } if rules.is_empty() => {
                    ("changed", format!("  [{}]", summary_text(summary)))
                }
                EventKind::Changed { summary, rules } => (
                    "changed",
                    format!("  [{}: {}]", summary_text(summary), rules.join(", ")),
                ),
            };
            let _ = writeln!(
                out,
                "  {:<11} {}  {}  {}{}",
                what.0,
                e.short,
                day(e.time),
                e.subject,
                what.1
            );
        }
        if let Some(p) = record.tools.get(name.as_str()) {
            if let Some(d) = p.deprecated {
                let _ = write!(out, "  {:<11} {d} (per {})", "deprecated", record.file);
                if let Some(r) = &p.replacement {
                    let _ = write!(out, "; use {r}");
                }
                out.push('\n');
            }
            if p.removal.is_some() || p.until.is_some() {
                let _ = writeln!(
                    out,
                    "  {:<11} {}{}",
                    "removal",
                    p.removal.as_deref().unwrap_or(""),
                    p.until.map(|u| format!(" (by {u})")).unwrap_or_default()
                );
            }
        }
        for e in record.entries_for(name) {
            if let Some(ev) = &e.evidence {
                let _ = writeln!(
                    out,
                    "  {:<11} {} cleared by usage evidence {}..{} sha256 {} (per {}:{})",
                    "evidence",
                    removed_what(e),
                    ev.from,
                    ev.to,
                    ev.sha256,
                    record.file,
                    e.pos.line
                );
            }
        }
    }
    if out.is_empty() {
        match tool {
            Some(t) => {
                let _ = writeln!(
                    out,
                    "no tool `{t}` in the lockfile's history ({} revisions)",
                    history.revisions
                );
            }
            None => {
                let _ = writeln!(out, "the lockfile has no history yet");
            }
        }
    }
    for (short, why) in &history.skipped {
        let _ = writeln!(
            out,
            "warning: revision {short} skipped: {}",
            why.replace('\n', " ")
        );
    }
    out
}

pub fn render_json(history: &History, record: &MigrationRecord, tool: Option<&str>) -> String {
    let tools: Vec<Value> = selected(history, tool)
        .into_iter()
        .map(|name| {
            let events: Vec<Value> = history.timelines[name]
                .iter()
                .map(|e| {
                    let mut v = json!({"commit": e.commit, "short": e.short, "time": e.time,
                                       "date": day(e.time), "subject": e.subject});
                    match &e.kind {
                        EventKind::Introduced => v["event"] = "introduced".into(),
                        EventKind::Removed => v["event"] = "removed".into(),
                        EventKind::Changed { summary, rules } => {
                            v["event"] = "changed".into();
                            v["summary"] = summary
                                .iter()
                                .map(|(s, n)| (s.as_str().to_string(), Value::from(*n)))
                                .collect::<serde_json::Map<_, _>>()
                                .into();
                            v["rules"] = rules.clone().into();
                        }
                    }
                    v
                })
                .collect();
            let policy = record.tools.get(name.as_str());
            let evidence: Vec<Value> = record
                .entries_for(name)
                .filter_map(|e| {
                    let ev = e.evidence.as_ref()?;
                    Some(json!({"removed": removed_what(e), "line": e.pos.line,
                                "sha256": ev.sha256, "from": ev.from.to_string(), "to": ev.to.to_string()}))
                })
                .collect();
            json!({
                "removal_evidence": evidence,
                "tool": name,
                "events": events,
                "deprecated": policy.and_then(|p| p.deprecated).map(|d| d.to_string()),
                "replacement": policy.and_then(|p| p.replacement.clone()),
                "removal": policy.and_then(|p| p.removal.clone()),
                "until": policy.and_then(|p| p.until).map(|d| d.to_string()),
            })
        })
        .collect();
    let skipped: Vec<Value> = history
        .skipped
        .iter()
        .map(|(s, w)| json!({"short": s, "reason": w}))
        .collect();
    let mut s = serde_json::to_string_pretty(&json!({
        "format_version": 1, "revisions": history.revisions, "tools": tools, "skipped": skipped,
    }))
    .unwrap_or_default();
    s.push('\n');
    s
}
