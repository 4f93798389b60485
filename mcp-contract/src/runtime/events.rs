//! Every compatibility path taken is a `tracing` event, the way rmcp servers
//! already log: whatever subscriber the server installs (`tracing-subscriber`'s
//! fmt or JSON layer, `tracing-opentelemetry`, journald) sees it, filtered
//! like any other event.
//!
//! # The event
//!
//! - target `mcp_contract::compat` ([`TARGET`]), level `INFO`, message
//!   `compatibility path taken`;
//! - fields, stable (dashboards and alerts may rely on them):
//!
//! | field            | value                                                          |
//! |------------------|----------------------------------------------------------------|
//! | `tool`           | the tool called (`search_catalog`)                             |
//! | `path`           | the usage key: `field:query`, `default:currency`, `tool:send_report_v2`, `rejected:RESERVED_FIELD` |
//! | `client.name`    | `clientInfo.name` from `initialize`; absent when unknown       |
//! | `client.version` | `clientInfo.version`; absent when unknown                      |
//! | `agent`          | the server's agent/tenant label; absent when none              |
//!
//! Names only: argument values are never a field.
//!
//! # Why always on, not a hook
//!
//! A disabled `tracing` event costs one relaxed atomic load of its
//! callsite's cached interest (no subscriber, or one whose filter leaves the
//! target out), and the fields are only evaluated when a subscriber wants
//! them (the usage key is written straight into the subscriber's visitor,
//! not into a `String`). An event is only reached on a compatibility path,
//! never on a call in the current contract's shape. So the events cost
//! nothing to a server that does not listen, and a server that does listen
//! needs no wiring; the runtime bench measures both
//! (`prepare` with and without a subscriber).

use super::caller::Caller;
use super::telemetry::Usage;

/// The events' target: filter on it (`RUST_LOG=mcp_contract::compat=info`).
pub const TARGET: &str = "mcp_contract::compat";

/// Emits the event for one path taken.
#[inline]
pub(crate) fn emit(tool: &str, usage: &Usage, caller: &Caller<'_>) {
    tracing::info!(
        target: "mcp_contract::compat",
        tool,
        path = %usage,
        client.name = caller.name(),
        client.version = caller.version(),
        agent = caller.agent(),
        "compatibility path taken"
    );
}
