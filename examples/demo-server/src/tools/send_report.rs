//! `send_report` (major version 1): a plain-text report to the team inbox.
//! Deprecated for `send_report_v2` (see `contracts/migrations.toml`); it keeps
//! serving until its removal condition.

use serde::{Deserialize, Serialize};

/// Send a plain-text report to the team inbox.
#[mcp_contract::tool(
    name = "send_report",
    version = 1,
    output = ReportReceipt,
    destructive = false,
    idempotent = false,
    open_world = true
)]
#[derive(Debug, Deserialize)]
pub struct SendReportArgs {
    /// The report's title.
    pub title: String,
    /// The report, as plain text.
    pub body: String,
}

/// What was sent.
#[derive(Debug, Serialize)]
pub struct ReportReceipt {
    pub report_id: String,
    /// Who received it.
    pub recipients: Vec<String>,
}

/// The inbox version 1 always sends to.
pub const TEAM_INBOX: &str = "team@example.com";
