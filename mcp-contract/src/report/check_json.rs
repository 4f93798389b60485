//! The JSON check report (`--format json`), versioned like the diff report:
//!
//! ```json
//! {"format_version": 2, "status": "failed", "checks": [{
//!   "lockfile": "contracts/mcp-contract.lock", "record": "contracts/migrations.toml",
//!   "baseline": {"commit": "abc1234", "description": "merge-base of HEAD and origin/main"},
//!   "new_surface": false, "status": "failed", "fail_on": "breaking",
//!   "changes": [{"rule": "...", "severity": "breaking", "tool": "...", "pointer": "...",
//!                "subject": "...", "message": "...", "hint": null, "fingerprint": "...",
//!                "line": 12, "fails": true, "acknowledged_by": null,
//!                "witness": {"kind": "rejected", "value": {}, "detail": "..."},
//!                "proof": {"status": "proven"},
//!                "migration_entry": "[[acknowledge]]\n..."}],
//!   "problems": [{"level": "warning", "kind": "stale", "file": "...", "line": 3,
//!                 "column": 1, "message": "...", "help": "..."}],
//!   "summary": {"breaking": 1, "behavioral": 0, "additive": 0, "cosmetic": 0,
//!               "total": 1, "acknowledged": 0, "failing": 1}}]}
//! ```

use serde_json::{json, Map, Value};

use super::gate::{overall, status_str, GateReport};
use super::json::{change_json, JSON_FORMAT_VERSION};
use crate::migrations::{Level, ProblemKind};

/// The whole report as a JSON value.
pub fn report_json(reports: &[GateReport<'_>]) -> Value {
    json!({
        "format_version": JSON_FORMAT_VERSION,
        "status": status_str(overall(reports)),
        "checks": reports.iter().map(check_json).collect::<Vec<_>>(),
    })
}

fn check_json(r: &GateReport<'_>) -> Value {
    let o = r.outcome;
    let changes: Vec<Value> = o
        .changes
        .iter()
        .map(|g| {
            let mut v = change_json(&g.change);
            if let Value::Object(m) = &mut v {
                m.insert("line".into(), Value::from(r.line(g)));
                m.insert("fails".into(), Value::Bool(g.fails));
                m.insert(
                    "acknowledged_by".into(),
                    match r.entry(g) {
                        Some(e) => json!({"line": e.pos.line, "reason": e.reason, "owner": e.owner,
                                          "transition": e.transition.kind()}),
                        None => Value::Null,
                    },
                );
                m.insert(
                    "migration_entry".into(),
                    g.migration_entry
                        .clone()
                        .map(Value::String)
                        .unwrap_or(Value::Null),
                );
            }
            v
        })
        .collect();
    let problems: Vec<Value> = o
        .problems
        .iter()
        .map(|p| {
            json!({
                "level": match p.level { Level::Error => "error", Level::Warning => "warning" },
                "kind": match p.kind { ProblemKind::Invalid => "invalid", ProblemKind::Stale => "stale" },
                "file": p.file, "line": p.pos.line, "column": p.pos.column,
                "message": p.message, "help": p.help,
            })
        })
        .collect();
    let mut summary = Map::new();
    for (sev, n) in o.summary() {
        summary.insert(sev.as_str().into(), Value::from(n));
    }
    summary.insert("total".into(), Value::from(o.changes.len()));
    summary.insert("acknowledged".into(), Value::from(o.acknowledged_count()));
    summary.insert("failing".into(), Value::from(o.failing().count()));
    json!({
        "lockfile": r.lockfile,
        "record": r.record,
        "baseline": {"commit": r.baseline_short, "description": r.baseline_description},
        "new_surface": o.new_surface,
        "status": status_str(o.status()),
        "fail_on": o.fail_on.as_str(),
        "changes": changes,
        "problems": problems,
        "summary": summary,
    })
}

/// Pretty JSON text with a trailing newline.
pub fn render(reports: &[GateReport<'_>]) -> String {
    let mut s = serde_json::to_string_pretty(&report_json(reports)).unwrap_or_default();
    s.push('\n');
    s
}
