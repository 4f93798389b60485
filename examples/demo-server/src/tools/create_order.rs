//! `create_order`: places an order (a `Vec` of nested structs and an
//! internally tagged enum with struct variants).

use serde::{Deserialize, Serialize};

use crate::catalog::{self, OrderBook};

/// Place an order for one or more catalog items.
#[mcp_contract::tool(
    name = "create_order",
    version = 1,
    output = OrderConfirmation,
    destructive = false,
    idempotent = false,
    open_world = false
)]
#[derive(Debug, Deserialize)]
pub struct CreateOrderArgs {
    /// What to buy; at least one line.
    pub lines: Vec<OrderLine>,
    /// How the order reaches the customer.
    pub shipping: Shipping,
    /// The currency the order is priced and charged in.
    pub currency: Currency,
    /// Instructions for the courier or the store.
    pub delivery_instructions: Option<String>,
}

/// A currency the shop charges in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Currency {
    Eur,
    Usd,
}

/// One item and how many of it.
#[derive(Debug, Deserialize)]
pub struct OrderLine {
    pub item_id: String,
    pub quantity: u32,
}

/// Pickup at a store, or delivery to an address.
#[derive(Debug, Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum Shipping {
    /// Collect the order at a store.
    Pickup { store_id: String },
    /// Deliver the order to an address.
    Delivery { address: Address },
}

/// A postal address.
#[derive(Debug, Deserialize)]
pub struct Address {
    pub street: String,
    pub city: String,
    pub postal_code: String,
    /// ISO 3166-1 alpha-2 country code.
    pub country: String,
}

/// The placed order.
#[derive(Debug, Serialize)]
pub struct OrderConfirmation {
    pub order_id: String,
    /// Total price in cents of `currency`.
    pub total_cents: u64,
    pub currency: Currency,
    pub status: OrderStatus,
}

/// Where an order stands.
#[derive(Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderStatus {
    Placed,
    AwaitingPickup,
}

/// Places the order; `Err` names the first unknown item or an empty order.
pub fn run(orders: &OrderBook, args: &CreateOrderArgs) -> Result<OrderConfirmation, String> {
    if args.lines.is_empty() {
        return Err("an order needs at least one line".into());
    }
    let items = catalog::items();
    let mut total = 0u64;
    for line in &args.lines {
        let item = items
            .iter()
            .find(|i| i.id == line.item_id)
            .ok_or_else(|| format!("unknown item `{}`", line.item_id))?;
        total += item.price_cents * u64::from(line.quantity);
    }
    let status = match args.shipping {
        Shipping::Pickup { .. } => OrderStatus::AwaitingPickup,
        Shipping::Delivery { .. } => OrderStatus::Placed,
    };
    Ok(OrderConfirmation {
        order_id: orders.place(total),
        total_cents: total,
        currency: args.currency,
        status,
    })
}
