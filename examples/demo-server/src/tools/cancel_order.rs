//! `cancel_order`: a destructive, idempotent tool.

use serde::{Deserialize, Serialize};

use crate::catalog::OrderBook;

/// Cancel an order placed with `create_order`. Cancelling twice is harmless.
#[mcp_contract::tool(
    name = "cancel_order",
    version = 1,
    output = CancelResult,
    destructive,
    idempotent,
    open_world = false
)]
#[derive(Debug, Deserialize)]
pub struct CancelOrderArgs {
    /// The id `create_order` returned.
    pub order_id: String,
    /// Why the order is cancelled.
    pub reason: Option<CancelReason>,
}

/// Why a customer cancels.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CancelReason {
    ChangedMind,
    FoundCheaper,
    TooSlow,
}

/// The outcome of a cancellation.
#[derive(Debug, Serialize)]
pub struct CancelResult {
    pub order_id: String,
    /// Whether the order had already been cancelled before this call.
    pub already_cancelled: bool,
}

/// Cancels the order; `None` when there is no such order.
pub fn run(orders: &OrderBook, args: &CancelOrderArgs) -> Option<CancelResult> {
    let was = orders.cancel(&args.order_id)?;
    Some(CancelResult {
        order_id: was.id,
        already_cancelled: was.cancelled,
    })
}
