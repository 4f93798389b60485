//! The JSON report, a documented and versioned shape:
//!
//! ```json
//! {
//!   "format_version": 2,
//!   "changes": [
//!     {"rule": "input.required-added", "severity": "breaking", "tool": "search",
//!      "pointer": "/inputSchema/required", "subject": "region",
//!      "message": "...", "hint": null, "fingerprint": "...",
//!      "witness": {"kind": "rejected", "value": {}, "detail": "\"region\" is a required property"},
//!      "proof": {"status": "proven"}}
//!   ],
//!   "summary": {"breaking": 1, "behavioral": 0, "additive": 0, "cosmetic": 0, "total": 1}
//! }
//! ```
//!
//! Fields are only ever added within a `format_version`.
//!
//! `format_version` 2 adds, on every change, `witness` and `proof` (both
//! `null` for changes that are not breaking, or when `--no-witness` skipped
//! the search); every version-1 field is unchanged, so a version-1 reader
//! keeps working:
//!
//! ```json
//! "witness": {"kind": "rejected", "value": {"query": "a"},
//!             "detail": "\"region\" is a required property"},
//! "proof": {"status": "proven"}
//! ```
//!
//! `kind` is `rejected` (arguments accepted before, rejected now), `ignored`
//! (accepted, the field is now silently ignored), `reinterpreted` (a call
//! omitting a field whose default changed), `unexpected` (structuredContent
//! the new output schema allows and the old forbids), `call` (a `tools/call`
//! of a removed tool) or `hint` (annotations before and after). `status` is
//! `proven`, `by-construction` or `unproven` (then with a `reason`).

use serde_json::{json, Map, Value};

use crate::diff::{Change, DiffReport};

/// Version of the JSON report shape.
pub const JSON_FORMAT_VERSION: u64 = 2;

/// One change as a JSON object.
pub fn change_json(c: &Change) -> Value {
    json!({
        "rule": c.rule,
        "severity": c.severity.as_str(),
        "tool": c.tool,
        "pointer": c.pointer,
        "subject": c.subject,
        "message": c.message,
        "hint": c.hint,
        "fingerprint": c.fingerprint(),
        "witness": c.witness.as_ref().map(witness_json),
        "proof": c.proof.as_ref().map(proof_json),
    })
}

/// A witness as JSON: `{"kind", "value", "detail"}`.
pub fn witness_json(w: &crate::witness::Witness) -> Value {
    json!({"kind": w.kind.as_str(), "value": w.value, "detail": w.detail})
}

/// A proof as JSON: `{"status"}`, plus `reason` when unproven.
pub fn proof_json(p: &crate::witness::Proof) -> Value {
    match p {
        crate::witness::Proof::Unproven { reason } => {
            json!({"status": p.as_str(), "reason": reason})
        }
        _ => json!({"status": p.as_str()}),
    }
}

/// The summary object.
pub fn summary_json(report: &DiffReport) -> Value {
    let mut m = Map::new();
    for (sev, n) in report.summary() {
        m.insert(sev.as_str().into(), Value::from(n));
    }
    m.insert("total".into(), Value::from(report.changes.len()));
    Value::Object(m)
}

/// The whole report as a JSON value.
pub fn report_json(report: &DiffReport) -> Value {
    json!({
        "format_version": JSON_FORMAT_VERSION,
        "changes": report.changes.iter().map(change_json).collect::<Vec<_>>(),
        "summary": summary_json(report),
    })
}

/// The report as pretty JSON text with a trailing newline.
pub fn render_json(report: &DiffReport) -> String {
    let mut s =
        serde_json::to_string_pretty(&report_json(report)).expect("values always serialize");
    s.push('\n');
    s
}
