//! SARIF 2.1.0 (`--format sarif`) for code-scanning dashboards: one result
//! per reported change (unacknowledged ones at level `error`, acknowledged
//! ones suppressed with the record's reason) and per record problem, located
//! on the lockfile or record line, with the change fingerprint as a partial
//! fingerprint so results track across runs; one `error` per failing
//! contract fixture (on the fixture file) and per thing that kept a lockfile
//! from being checked; one result per usage-gate finding (`usage.*` rules:
//! a refused removal is an `error` on the record entry, a removal waived
//! with `--no-usage-evidence` a `warning`), and the run's usage evidence and
//! waiver under `runs[0].properties.usage`.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::gate::GateReport;
use crate::check::run::CheckRun;
use crate::migrations::{Level, ProblemKind};
use crate::rules::{self, Severity};

/// The rule of a failing contract fixture.
const FIXTURE_RULE: &str = "fixture.failed";
/// The rule of something that kept a lockfile from being checked.
const NOT_CHECKED_RULE: &str = "check.not-checked";

pub fn report(run: &CheckRun) -> Value {
    let mut used: BTreeMap<&str, ()> = BTreeMap::new();
    let mut results = vec![];
    for l in &run.lockfiles {
        for f in l.fixtures.iter().flat_map(|f| &f.failures) {
            results.push(json!({
                "ruleId": FIXTURE_RULE,
                "level": "error",
                "message": {"text": format!("fixture for `{}`: {}", f.tool, f.problem)},
                "locations": [location(&f.file, None, None)],
            }));
        }
    }
    for (_, e) in run.all_errors() {
        results.push(json!({
            "ruleId": NOT_CHECKED_RULE,
            "level": "error",
            "message": {"text": e.to_string()},
            "locations": [location(&e.file, e.line, e.column)],
        }));
    }
    for r in run.lockfiles.iter().filter_map(GateReport::of) {
        for g in &r.outcome.changes {
            let c = &g.change;
            let level = if g.fails {
                "error"
            } else if g.acknowledged_by.is_some() {
                "note"
            } else {
                match c.severity {
                    Severity::Breaking | Severity::Behavioral => "warning",
                    _ => "note",
                }
            };
            used.insert(c.rule, ());
            let mut text = c.message.clone();
            if let Some(w) = &c.witness {
                text.push_str(&format!("\n\nWitness: {}", w.sentence()));
            }
            if let Some(crate::witness::Proof::Unproven { reason }) = &c.proof {
                text.push_str(&format!("\n\nUnproven (no witness: {reason})."));
            }
            if let Some(entry) = &g.migration_entry {
                text.push_str(&format!(
                    "\n\nAdd to {} (fill in reason and owner):\n{entry}",
                    r.record
                ));
            }
            let mut result = json!({
                "ruleId": c.rule,
                "level": level,
                "message": {"text": text},
                "locations": [location(r.lockfile, Some(r.line(g)), None)],
                "partialFingerprints": {"mcpContractChange/v1": c.fingerprint()},
            });
            if c.proof.is_some() || c.witness.is_some() {
                result["properties"] = json!({
                    "proof": c.proof.as_ref().map(super::json::proof_json),
                    "witness": c.witness.as_ref().map(super::json::witness_json),
                });
            }
            if let Some(e) = r.entry(g) {
                result["suppressions"] = json!([{"kind": "external", "justification": format!("{} (owner {})", e.reason, e.owner)}]);
            }
            results.push(result);
        }
        for f in r.findings() {
            results.push(usage_result(&f));
        }
        for p in &r.outcome.problems {
            let id = match p.kind {
                ProblemKind::Invalid => "migrations.invalid",
                ProblemKind::Stale => "migrations.stale",
            };
            let text = match &p.help {
                Some(h) => format!("{} ({h})", p.message),
                None => p.message.clone(),
            };
            results.push(json!({
                "ruleId": id,
                "level": if p.level == Level::Error { "error" } else { "warning" },
                "message": {"text": text},
                "locations": [location(r.record, Some(p.pos.line), Some(p.pos.column))],
            }));
        }
    }
    for f in super::gate::run_findings(run) {
        results.push(usage_result(&f));
    }
    let mut driver_rules: Vec<Value> = used
        .keys()
        .filter_map(|id| rules::rule(id))
        .map(|rule| {
            json!({
                "id": rule.id,
                "shortDescription": {"text": rule.summary},
                "fullDescription": {"text": rule.explanation},
                "help": {"text": format!("{}\nExample: {}", rule.fix.replace("{tool}", "the tool"), rule.example)},
                "properties": {"severity": rule.severity.as_str()},
            })
        })
        .collect();
    for (id, text) in [
        ("migrations.invalid", "the migration record is malformed"),
        ("migrations.stale", "a migration record entry is stale"),
        (
            FIXTURE_RULE,
            "a contract fixture's expected outcome is not what the published contract gives",
        ),
        (
            NOT_CHECKED_RULE,
            "a lockfile could not be checked (stale with its sources, unreadable, no baseline)",
        ),
    ]
    .into_iter()
    .chain(crate::check::usage::findings::RULES.iter().copied())
    .chain(crate::check::probe::RULES.iter().copied())
    {
        driver_rules.push(json!({"id": id, "shortDescription": {"text": text}}));
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "mcp-contract",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": driver_rules,
            }},
            "results": results,
            "properties": {"usage": super::check_json::usage_run_json(run)},
        }],
    })
}

/// A usage-gate finding as a result (no location for the arguments).
fn usage_result(f: &crate::check::usage::findings::Finding) -> Value {
    let mut text = f.message.clone();
    for d in &f.details {
        text.push_str(&format!("\n- {d}"));
    }
    if let Some(h) = &f.help {
        text.push_str(&format!("\n\nFix: {h}"));
    }
    let locations = if f.file.starts_with('<') {
        vec![]
    } else {
        vec![location(&f.file, f.line, None)]
    };
    json!({
        "ruleId": f.rule,
        "level": f.level.as_str(),
        "message": {"text": text},
        "locations": locations,
    })
}

fn location(uri: &str, line: Option<usize>, column: Option<usize>) -> Value {
    let Some(line) = line else {
        return json!({"physicalLocation": {"artifactLocation": {"uri": uri}}});
    };
    let mut region = json!({"startLine": line.max(1)});
    if let Some(c) = column {
        region["startColumn"] = Value::from(c.max(1));
    }
    json!({"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}})
}

pub fn render(run: &CheckRun) -> String {
    let mut s = serde_json::to_string_pretty(&report(run)).unwrap_or_default();
    s.push('\n');
    s
}
