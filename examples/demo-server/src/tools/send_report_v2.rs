//! `send_report_v2` (major version 2): a report in sections, to chosen
//! recipients. Incompatible with version 1 (`body` became `sections`,
//! `recipients` is required), so it is published under a new stable name
//! while `send_report` keeps serving.

use serde::Deserialize;

use super::send_report::ReportReceipt;

/// Send a report made of sections to the given recipients.
#[mcp_contract::tool(
    name = "send_report_v2",
    version = 2,
    output = ReportReceipt,
    destructive = false,
    idempotent = false,
    open_world = true
)]
#[derive(Debug, Deserialize)]
pub struct SendReportV2Args {
    /// The report's title.
    pub title: String,
    /// The report's sections, in order; at least one.
    pub sections: Vec<Section>,
    /// Email addresses to send the report to; at least one.
    pub recipients: Vec<String>,
}

/// One section of a report.
#[derive(Debug, Deserialize)]
pub struct Section {
    pub heading: String,
    pub body: String,
}
