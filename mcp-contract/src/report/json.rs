//! The JSON report, a documented and versioned shape:
//!
//! ```json
//! {
//!   "format_version": 1,
//!   "changes": [
//!     {"rule": "input.required-added", "severity": "breaking", "tool": "search",
//!      "pointer": "/inputSchema/required", "subject": "region",
//!      "message": "...", "hint": null, "fingerprint": "..."}
//!   ],
//!   "summary": {"breaking": 1, "behavioral": 0, "additive": 0, "cosmetic": 0, "total": 1}
//! }
//! ```
//!
//! Fields are only ever added within a `format_version`.

use serde_json::{json, Map, Value};

use crate::diff::{Change, DiffReport};

/// Version of the JSON report shape.
pub const JSON_FORMAT_VERSION: u64 = 1;

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
    })
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
