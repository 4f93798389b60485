//! One module per tool: its argument struct (with `#[mcp_contract::tool]`),
//! its output type, and the function that does the work.

pub mod cancel_order;
pub mod create_order;
pub mod get_item;
pub mod model;
pub mod search_catalog;
pub mod send_report;
pub mod send_report_v2;
