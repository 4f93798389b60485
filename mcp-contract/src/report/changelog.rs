//! `cargo mcp-contract changelog`: the [`crate::changelog`] of each
//! lockfile as Markdown (a release note or a pull-request comment) and as
//! JSON:
//!
//! ```json
//! {"format_version": 1, "changelogs": [{
//!   "lockfile": "contracts/mcp-contract.lock",
//!   "from": {"commit": "abc1234", "description": "--against v1.0.0"},
//!   "to": "def5678",
//!   "new_surface": false,
//!   "items": [{"section": "breaking", "rule": "input.required-added", "severity": "breaking",
//!              "tool": "search", "pointer": "/inputSchema/required", "subject": "region",
//!              "message": "...", "fingerprint": "...",
//!              "acknowledged": {"line": 12, "transition": "default region = \"eu\"",
//!                               "owner": "@search", "reason": "..."}}],
//!   "deprecations": [{"tool": "send_report", "deprecated": "2025-09-01",
//!                     "replacement": "send_report_v2", "removal": "no calls for 30 days",
//!                     "until": null, "line": 3, "text": "..."}]}]}
//! ```
//!
//! Items are in section order (`breaking`, `removed`, `deprecated`,
//! `added`, `changed`, `cosmetic`); `acknowledged` is `null` for a change
//! the record does not acknowledge.

use std::fmt::Write;

use serde_json::{json, Value};

use crate::changelog::{Changelog, Item, Section};

/// The changelog format version.
pub const CHANGELOG_FORMAT_VERSION: u64 = 1;

/// One lockfile's changelog with where its two sides came from.
#[derive(Debug, Clone)]
pub struct LockfileChangelog<'a> {
    /// The lockfile, relative to the repository root.
    pub lockfile: &'a str,
    /// The older revision: short id and how it was chosen.
    pub from_short: &'a str,
    pub from_description: &'a str,
    /// The newer side: a short id, or `the working tree`.
    pub to: &'a str,
    /// The lockfile did not exist at the older revision.
    pub new_surface: bool,
    pub changelog: Changelog<'a>,
}

fn cell(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

fn item_line(i: &Item<'_>) -> String {
    let c = &i.gated.change;
    let mut s = format!("- `{}`: {} (`{}`)", c.tool, cell(&c.message), c.rule);
    if let Some(t) = i.transition() {
        s.push_str(&format!("; acknowledged as {}", cell(&t)));
    } else if i.gated.fails {
        s.push_str("; **not acknowledged**");
    }
    s
}

/// The Markdown changelog.
pub fn render_markdown(logs: &[LockfileChangelog<'_>]) -> String {
    let mut out = String::new();
    for l in logs {
        let _ = writeln!(
            out,
            "## Changes for clients: `{}`, {} → {}\n",
            l.lockfile, l.from_short, l.to
        );
        let _ = writeln!(
            out,
            "Compared with {} ({}).",
            l.from_short, l.from_description
        );
        if l.new_surface {
            let _ = writeln!(
                out,
                "The lockfile does not exist at {}: every tool is new.",
                l.from_short
            );
        }
        out.push('\n');
        let items = &l.changelog.items;
        if items.is_empty() && l.changelog.deprecations.is_empty() {
            out.push_str("No change to the published surface.\n\n");
            continue;
        }
        for section in Section::ALL {
            let here: Vec<&Item> = items.iter().filter(|i| i.section == section).collect();
            let deprecations = if section == Section::Deprecated {
                l.changelog.deprecations.as_slice()
            } else {
                &[]
            };
            if here.is_empty() && deprecations.is_empty() {
                continue;
            }
            let _ = writeln!(out, "### {}\n", section.title());
            for i in here {
                let _ = writeln!(out, "{}", item_line(i));
            }
            for d in deprecations {
                let _ = writeln!(
                    out,
                    "- `{}`: {} (migration record, line {})",
                    d.policy.name,
                    cell(&d.words()),
                    d.policy.pos.line
                );
            }
            out.push('\n');
        }
    }
    out
}

fn item_json(i: &Item<'_>) -> Value {
    let c = &i.gated.change;
    json!({
        "section": i.section.as_str(),
        "rule": c.rule,
        "severity": c.severity.as_str(),
        "tool": c.tool,
        "pointer": c.pointer,
        "subject": c.subject,
        "message": c.message,
        "fingerprint": c.fingerprint(),
        "acknowledged": i.acknowledged_by.map(|e| json!({
            "line": e.pos.line,
            "transition": i.transition(),
            "owner": e.owner,
            "reason": e.reason,
        })),
    })
}

/// The JSON changelog, pretty, with a trailing newline.
pub fn render_json(logs: &[LockfileChangelog<'_>]) -> String {
    let logs: Vec<Value> = logs
        .iter()
        .map(|l| {
            json!({
                "lockfile": l.lockfile,
                "from": {"commit": l.from_short, "description": l.from_description},
                "to": l.to,
                "new_surface": l.new_surface,
                "items": l.changelog.items.iter().map(item_json).collect::<Vec<_>>(),
                "deprecations": l.changelog.deprecations.iter().map(|d| {
                    let p = d.policy;
                    json!({
                        "tool": p.name,
                        "deprecated": p.deprecated.map(|x| x.to_string()),
                        "replacement": p.replacement,
                        "removal": p.removal_condition.as_ref().map(|c| c.note.clone().unwrap_or_else(|| c.describe())).or(p.removal.clone()),
                        "until": p.until.map(|x| x.to_string()),
                        "line": p.pos.line,
                        "text": d.words(),
                    })
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&json!({
        "format_version": CHANGELOG_FORMAT_VERSION,
        "changelogs": logs,
    }))
    .unwrap_or_default();
    s.push('\n');
    s
}
