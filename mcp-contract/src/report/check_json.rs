//! The JSON check report (`--format json`), versioned like the diff report:
//!
//! ```json
//! {"format_version": 2, "status": "failed", "errors": [], "checks": [{
//!   "lockfile": "contracts/mcp-contract.lock", "record": "contracts/migrations.toml",
//!   "candidate": {"kind": "build-step", "package": "tiny"},
//!   "baseline": {"commit": "abc1234", "description": "merge-base of HEAD and origin/main",
//!                "lockfile": "contracts/mcp-contract.lock"},
//!   "new_surface": false, "status": "failed", "fail_on": "breaking",
//!   "fail_on_description": null | "flagged" | "changed",
//!   "changes": [{"rule": "...", "severity": "breaking", "tool": "...", "pointer": "...",
//!                "subject": "...", "message": "...", "hint": null, "fingerprint": "...",
//!                "line": 12, "fails": true, "acknowledged_by": null,
//!                "witness": {"kind": "rejected", "value": {}, "detail": "..."},
//!                "proof": {"status": "proven"},
//!                "migration_entry": "[[acknowledge]]\n..."}],
//!   "problems": [{"level": "warning", "kind": "stale", "file": "...", "line": 3,
//!                 "column": 1, "message": "...", "help": "..."}],
//!   "summary": {"breaking": 1, "behavioral": 0, "additive": 0, "cosmetic": 0,
//!               "total": 1, "acknowledged": 0, "failing": 1},
//!   "fixtures": {"dir": "contracts/fixtures", "checked": 3, "failures": [
//!                 {"tool": "...", "file": "...", "problem": "..."}]},
//!   "errors": [{"package": "tiny", "file": "...", "line": null, "column": null,
//!               "message": "...", "text": "..."}]}]}
//! ```
//!
//! With usage evidence or a removed deprecated path, each check has
//! `"usage": {"removals": [{"tool", "kind": "alias"|"default"|"old-version"|"tool",
//! "path": "field:query"|null, "entry_line", "condition", "verdict":
//! "cleared"|"refused"|"no-evidence"|"no-condition"|"waived", "fails",
//! "window", "callers": [{"client", "last_hit", "hits"}], "after_window":
//! [{"client", "days", "hits"}] (calls today or later), "covered", "needed",
//! "gaps", "would_clear", "evidence_record": "recorded"|"written"|"missing"|
//! "mismatch"|"no-entry"|"committed", "expected_record", "evidence_file"
//! (the committed evidence it was decided on, without `--usage`), "finding"}]}`,
//! and the report a top-level `"usage": {"today", "evidence": {"files",
//! "from", "to", "sha256", "days_covered", "gaps"}|null, "waived",
//! "unknown_tools", "findings"}` (`null` when the run had neither evidence
//! nor a waiver nor a removal). See `docs/usage-gate.md`.
//!
//! Each check has `"version"` (`null` when not judged): `{"required":
//! "major"|"minor"|"patch"|null, "enforced", "declared": [{"source":
//! "Cargo.toml"|"serverInfo"|"server.json", "owner", "file", "baseline",
//! "candidate", "step": "major"|"minor"|"patch"|"unchanged"|"lowered"|
//! "from-pre-release"|null, "carries", "next"}], "findings"}` (see
//! `docs/check.md`, the version rule).
//!
//! A consumer's check (`check --config FILE`) has one check per server,
//! with `"candidate": {"kind": "consumer-server", "server", "config",
//! "state": "compared"|"pinned"|"new"|"not-configured"|"disabled"|"not-captured",
//! "version"}` and `"baseline": {"lockfile", "server", "version"}`.
//!
//! `status` is `passed`, `failed` (exit 1), `invalid` (a malformed record)
//! or `error` (something could not be checked; both exit 2). A lockfile that
//! could not be checked has `baseline`, `new_surface` and `summary` null and
//! says why in `errors`; `problems` lists every record problem, warnings
//! (entries that match nothing, passed removal dates) included.

use serde_json::{json, Map, Value};

use super::gate::{run_findings, status_str, GateReport};
use super::json::{change_json, JSON_FORMAT_VERSION};
use crate::check::run::{CheckRun, LockfileRun, RunError};
use crate::check::usage::findings::Finding;
use crate::check::usage::{Condition, RecordState, Verdict};
use crate::migrations::{Level, ProblemKind};
use crate::usage::{run_text, Refusal};

/// The whole report as a JSON value.
pub fn report_json(run: &CheckRun) -> Value {
    json!({
        "format_version": JSON_FORMAT_VERSION,
        "status": status_str(run.status()),
        "errors": run.errors.iter().map(error_json).collect::<Vec<_>>(),
        "checks": run.lockfiles.iter().map(lockfile_json).collect::<Vec<_>>(),
        "usage": usage_run_json(run),
    })
}

/// A usage-gate finding.
pub fn finding_json(f: &Finding) -> Value {
    json!({
        "rule": f.rule, "level": f.level.as_str(), "file": f.file, "line": f.line,
        "message": f.message, "details": f.details, "help": f.help,
    })
}

/// The run's usage part (`null` without one).
pub fn usage_run_json(run: &CheckRun) -> Value {
    let Some(u) = &run.usage else {
        return Value::Null;
    };
    let evidence = match &u.evidence {
        Some(g) => json!({
            "files": g.files.iter().map(|(f, _)| f.as_str()).collect::<Vec<_>>(),
            "from": g.merged.from.to_string(), "to": g.merged.to.to_string(),
            "sha256": g.record.sha256,
            "days_covered": g.merged.covered_days(),
            "gaps": g.merged.gaps().into_iter().map(run_text).collect::<Vec<_>>(),
        }),
        None => Value::Null,
    };
    json!({
        "today": u.today.to_string(),
        "evidence": evidence,
        "waived": u.waived,
        "unknown_tools": u.unknown_tools.iter().map(|t| json!({
            "tool": t.tool, "file": t.file, "clients": t.clients, "hits": t.hits,
            "last_hit": t.last_hit.to_string(), "suggestion": t.suggestion,
        })).collect::<Vec<_>>(),
        "findings": run_findings(run).iter().map(finding_json).collect::<Vec<_>>(),
    })
}

fn removals_json(r: &GateReport<'_>) -> Value {
    let findings = r.usage_findings();
    let removals: Vec<Value> = r
        .outcome
        .usage
        .removals
        .iter()
        .zip(&findings)
        .map(|(v, f)| {
            let p = &v.path;
            let mut out = json!({
                "tool": p.tool, "kind": p.kind.as_str(), "path": p.kind.key(),
                "entry_line": p.entry.and_then(|i| r.outcome.record.entries.get(i)).map(|e| e.pos.line),
                "condition": match &p.condition {
                    Condition::Typed { condition: c, source } => json!({
                        "typed": true, "quiet_for_days": c.quiet_for, "clients": c.clients,
                        "min_coverage_days": c.coverage_needed(), "file": source.file, "line": source.line,
                    }),
                    Condition::Untyped { text, typed, source } => json!({
                        "typed": false, "text": text, "typed_form": typed,
                        "file": source.file, "line": source.line,
                    }),
                    Condition::Missing => Value::Null,
                },
                "fails": v.fails(),
                "evidence_file": v.evidence_file,
                "finding": finding_json(f),
            });
            let (verdict, extra) = match &v.verdict {
                Verdict::NoEvidence => ("no-evidence", json!({})),
                Verdict::Waived => ("waived", json!({})),
                Verdict::NoCondition => ("no-condition", json!({})),
                Verdict::Refused(Refusal { window, callers, late, covered, needed, gaps, would_clear }) => (
                    "refused",
                    json!({
                        "window": {"from": window.0.to_string(), "to": window.1.to_string()},
                        "callers": callers.iter().map(|c| json!({
                            "client": c.client, "last_hit": c.last_hit.to_string(), "hits": c.hits,
                        })).collect::<Vec<_>>(),
                        "after_window": late.iter().map(|l| json!({
                            "client": l.client, "hits": l.hits,
                            "days": l.days.iter().copied().map(run_text).collect::<Vec<_>>(),
                        })).collect::<Vec<_>>(),
                        "covered": covered, "needed": needed,
                        "gaps": gaps.iter().copied().map(run_text).collect::<Vec<_>>(),
                        "would_clear": would_clear,
                    }),
                ),
                Verdict::Cleared { window, covered, record } => (
                    "cleared",
                    json!({
                        "window": {"from": window.0.to_string(), "to": window.1.to_string()},
                        "covered": covered,
                        "evidence_record": match record {
                            RecordState::Recorded => "recorded",
                            RecordState::Written => "written",
                            RecordState::Missing => "missing",
                            RecordState::Mismatch(_) => "mismatch",
                            RecordState::NoEntry => "no-entry",
                            RecordState::Committed(_) => "committed",
                        },
                        "expected_record": r.outcome.usage.expected.as_ref().map(|e| e.toml_line()),
                    }),
                ),
            };
            if let (Value::Object(o), Value::Object(x)) = (&mut out, extra) {
                o.insert("verdict".into(), verdict.into());
                o.extend(x);
            }
            out
        })
        .collect();
    json!({"removals": removals})
}

fn error_json(e: &RunError) -> Value {
    json!({
        "package": e.package, "file": e.file, "line": e.line, "column": e.column,
        "message": e.headline(), "text": e.text,
    })
}

fn lockfile_json(l: &LockfileRun) -> Value {
    let mut v = match GateReport::of(l) {
        Some(r) => check_json(&r),
        None => json!({
            "lockfile": l.lockfile, "record": Value::Null, "baseline": Value::Null,
            "new_surface": Value::Null, "fail_on": Value::Null, "fail_on_description": Value::Null,
            "changes": [], "problems": [], "summary": Value::Null, "usage": Value::Null,
        }),
    };
    if let Value::Object(m) = &mut v {
        m.insert("status".into(), status_str(l.status()).into());
        m.insert(
            "candidate".into(),
            json!({"kind": l.candidate.kind(), "package": l.candidate.package()}),
        );
        if let crate::check::run::Candidate::ConsumerServer(s) = &l.candidate {
            m.insert(
                "candidate".into(),
                json!({"kind": l.candidate.kind(), "package": null, "server": s.server,
                       "config": s.config, "state": s.state.as_str(), "version": s.live_version}),
            );
            m.insert(
                "baseline".into(),
                json!({"lockfile": l.lockfile, "server": s.server, "version": s.locked_version}),
            );
        }
        m.insert(
            "fixtures".into(),
            match &l.fixtures {
                Some(f) => json!({
                    "dir": f.dir, "checked": f.checked,
                    "failures": f.failures.iter().map(|x| json!({
                        "tool": x.tool, "file": x.file, "problem": x.problem,
                    })).collect::<Vec<_>>(),
                }),
                None => Value::Null,
            },
        );
        m.insert(
            "served".into(),
            match &l.served {
                Some(s) => json!({
                    "binaries": s.binaries.iter().map(|(b, what)| json!({"binary": b, "outcome": what})).collect::<Vec<_>>(),
                    "compared": s.compared,
                    "nothing_to_compare": s.nothing_to_compare,
                }),
                None => Value::Null,
            },
        );
        m.insert(
            "errors".into(),
            l.errors.iter().map(error_json).collect::<Vec<_>>().into(),
        );
        m.insert(
            "version".into(),
            l.version.as_ref().map_or(Value::Null, version_json),
        );
    }
    v
}

/// The version rule's part of a check.
pub fn version_json(v: &crate::version::VersionCheck) -> Value {
    json!({
        "required": v.required.as_ref().map(|r| r.bump.as_str()),
        "enforced": v.enforced,
        "declared": v.declared.iter().map(|d| json!({
            "source": d.source.as_str(), "owner": d.owner, "file": d.file,
            "baseline": d.baseline, "candidate": d.candidate,
            "step": d.step.map(|s| s.as_str()), "carries": d.carries, "next": d.next,
        })).collect::<Vec<_>>(),
        "findings": v.findings.iter().map(finding_json).collect::<Vec<_>>(),
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
        "baseline": {"commit": r.baseline_short, "description": r.baseline_description,
                     "lockfile": r.baseline_lockfile},
        "new_surface": o.new_surface,
        "status": status_str(o.status()),
        "fail_on": o.fail_on.as_str(),
        "fail_on_description": o.fail_on_description.map(|l| l.as_str()),
        "changes": changes,
        "problems": problems,
        "summary": summary,
        "usage": removals_json(r),
    })
}

/// Pretty JSON text with a trailing newline.
pub fn render(run: &CheckRun) -> String {
    let mut s = serde_json::to_string_pretty(&report_json(run)).unwrap_or_default();
    s.push('\n');
    s
}
