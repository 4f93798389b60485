//! The migration record, `contracts/migrations.toml` (beside the lockfile):
//! how a team says "this break is deliberate, here is why, who owns it and
//! how old callers keep working". `cargo mcp-contract check` fails on every
//! breaking change the record does not acknowledge; the runtime
//! compatibility layer generates aliases, server-applied defaults and
//! versioned tools from the same record, so schema and handler agree.
//!
//! # Format (version 1)
//!
//! ```toml
//! version = 1                      # optional
//!
//! [tools.send_report]              # optional policy for a whole tool
//! owner = "@reports-team"          # default owner of its entries
//! versions = [1, 2]                # major versions still served
//! deprecated = 2025-09-01          # when the old version was deprecated
//! replacement = "send_report_v2"
//! removal = { quiet_for = "30d", min_coverage = "7d", note = "no calls to send_report" }
//! until = 2026-03-01               # removal date (warning once passed)
//!
//! [tools.search]
//! refuse_unknown_fields = true     # refuse argument names the schema does not
//!                                  # declare, even where it is open (a narrowing)
//!
//! [[acknowledge]]                  # one acknowledged change
//! tool = "search"
//! rule = "input.property-removed"  # rule id, as the check prints it
//! pointer = "/inputSchema/properties/query"
//! subject = "query"                # required when the change has one
//! reason = "query is now search_text (clearer for models)"
//! owner = "@search-team"
//! transition = { kind = "rename", from = "query", to = "search_text", until = 2026-01-31, removal = "no calls using query for 30 days" }
//!
//! [[acknowledge]]                  # or match by the change's fingerprint
//! fingerprint = "input.required-added search /inputSchema/required region"
//! reason = "region is needed for data residency"
//! owner = "@search-team"
//! transition = { kind = "default", field = "region", value = "eu" }
//! ```
//!
//! An entry names the change exactly as the diff reports it (`tool`, `rule`,
//! `pointer`, and `subject` when the change has one) or by
//! [`Change::fingerprint`](crate::Change::fingerprint); never by message
//! text. `reason` and `owner` must not be empty (`owner` may come from
//! `[tools.NAME]`). Transition kinds:
//!
//! | kind            | keys                                                    |
//! |-----------------|---------------------------------------------------------|
//! | `rename`        | `from`, `to`, optional `until` (date), `removal` (text) |
//! | `default`       | `field`, `value` (any TOML value: the server applies it), optional `removal` |
//! | `major-version` | `from`, `to` (tool names), optional `deprecated`, `until`, `removal` |
//! | `removal`       | optional `until`, `removal`, `replacement` (what to use instead) |
//! | `other`         | optional `note`                                         |
//!
//! `removal` is a condition usage evidence can check ([`crate::usage`]):
//! `{ quiet_for = "30d", clients = ["claude-desktop"], min_coverage = "7d",
//! note = "..." }` (durations `Nd` or `Nw`; `clients` and `min_coverage`
//! optional: any client, and data for every day of the quiet window). The
//! older free text (`removal = "no calls for 30 days"`) still parses, with a
//! warning in [`MigrationRecord::untyped_removals`] showing the typed form.
//! `cargo mcp-contract check --usage FILE...` decides a removal of a
//! deprecated path with it (`docs/usage-gate.md`).
//!
//! An entry that records such a removal keeps the evidence that allowed it:
//! `evidence = { sha256 = "...", from = 2026-10-01, to = 2026-11-30 }`
//! (the digest and range of the merged usage evidence; `check --usage
//! FILE... --record-evidence` writes it, see [`EvidenceRecord`]).
//!
//! A `rename` renames a tool when the entry's rule is a `tool.` rule, an
//! input field otherwise ([`RenameTarget`]). Dates are `YYYY-MM-DD`.
//!
//! Validation reports every problem at once with its line and column:
//! unknown keys (with a did-you-mean), wrong types, invalid dates, empty
//! strings, unknown rule ids and transition kinds, duplicate entries
//! ([`parse`]); the check adds entries that match nothing in the diff and
//! removal dates that have passed (warnings; errors under `--strict`).

use crate::date;
mod evidence;
mod model;
mod parse;
mod suggest;

pub use crate::suggest::did_you_mean;
pub use date::Date;
pub use evidence::{EvidenceRecord, EVIDENCE_KEYS};
pub use model::{
    Entry, Level, MigrationRecord, Pos, Problem, ProblemKind, RemovalCondition, Removes,
    RenameTarget, Selector, ToolPolicy, Transition,
};
pub use parse::{parse, parse_grouped, read, toml_to_json, typed_form, Grouped, RECORD_VERSION};
pub use suggest::{detail_lines, json_to_toml, suggest_entry, toml_string};

/// The record's file name, beside the lockfile.
pub const FILE_NAME: &str = "migrations.toml";

/// Where the record lives for a lockfile at `lockfile`.
pub fn path_for(lockfile: &std::path::Path) -> std::path::PathBuf {
    lockfile
        .parent()
        .unwrap_or(std::path::Path::new("."))
        .join(FILE_NAME)
}
