//! Usage evidence: proof of who still takes an old path, so a deprecated
//! parameter, default or tool version is removed only when the numbers show
//! nobody does. The runtime layer counts each old path per tool
//! ([`crate::runtime::telemetry`]); a team exports those counts per client
//! and day, and this module reads, validates and merges them.
//!
//! # Format (`mcp-contract-usage`, version 1)
//!
//! ```json
//! {"format": "mcp-contract-usage", "version": 1,
//!  "range": {"from": "2026-11-01", "to": "2026-11-30"},
//!  "no_data": ["2026-11-04"],
//!  "hits": [{"tool": "search", "path": "field:query", "client": "claude-desktop/1.2",
//!            "day": "2026-11-02", "count": 3}]}
//! ```
//!
//! Days are UTC calendar days. `range` is what the file covers; `no_data`
//! lists the days inside it with no data (a collector down, a batch not yet
//! run): a gap, never a zero. A day with data and no row for a key means
//! that key had no hits. `path` is the runtime layer's usage key
//! (`field:query`, `default:currency`, `tool:send_report_v2`,
//! `rejected:RESERVED_FIELD`). One row per tool, path, client and day.
//!
//! [`read`] validates one file, [`merge`] joins several (oldest first, no
//! day counted twice), [`prometheus::import`] builds evidence from the
//! runtime layer's counter exported as Prometheus text, and `clears`
//! (feature `gate`) decides whether evidence meets a record's typed removal
//! condition.
//!
//! Written by a server itself (no `gate` needed): [`write::update`] adds a
//! recorder's counts and covered days to a file (what
//! [`UsageRecorder`](crate::runtime::recorder::UsageRecorder) flushes), and
//! [`expose::exposition`] serves the same counts as Prometheus text.

#[cfg(feature = "gate")]
mod decide;
#[cfg(all(test, feature = "gate"))]
mod decide_prop;
pub mod expose;
mod merge;
mod model;
pub mod prometheus;
mod read;
pub mod write;

#[cfg(feature = "gate")]
pub use decide::{clears, clears_tool, Caller, Decision, LateCaller, Refusal};
pub use merge::merge;
pub use model::{rows, run_text, runs, Evidence, Key, Row, FORMAT, MAX_DAYS, VERSION};
pub use read::{parse, read, read_files};
