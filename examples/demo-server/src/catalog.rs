//! The demo's data: a fixed in-memory catalog and an order book.

use std::sync::Mutex;

use crate::tools::model::{Category, Item};

/// The items every search runs over.
pub fn items() -> Vec<Item> {
    let item = |id: &str, title: &str, category, price_cents, tags: &[&str]| Item {
        id: id.into(),
        title: title.into(),
        category,
        price_cents,
        tags: tags.iter().map(|t| t.to_string()).collect(),
    };
    vec![
        item(
            "bk-1",
            "The Rust Programming Language",
            Category::Books,
            3999,
            &["rust", "programming"],
        ),
        item(
            "bk-2",
            "Designing Data-Intensive Applications",
            Category::Books,
            4599,
            &["databases"],
        ),
        item(
            "el-1",
            "Mechanical keyboard",
            Category::Electronics,
            12900,
            &["keyboard", "usb"],
        ),
        item("el-2", "USB-C hub", Category::Electronics, 3450, &["usb"]),
        item(
            "gr-1",
            "Green tea, 100 bags",
            Category::Grocery,
            899,
            &["tea"],
        ),
    ]
}

/// Orders placed during this session.
#[derive(Default)]
pub struct OrderBook {
    orders: Mutex<Vec<Order>>,
}

/// One placed order.
#[derive(Debug, Clone)]
pub struct Order {
    pub id: String,
    pub total_cents: u64,
    pub cancelled: bool,
}

impl OrderBook {
    /// Records a new order and returns its id.
    pub fn place(&self, total_cents: u64) -> String {
        let mut orders = self.orders.lock().unwrap_or_else(|e| e.into_inner());
        let id = format!("ord-{}", orders.len() + 1);
        orders.push(Order {
            id: id.clone(),
            total_cents,
            cancelled: false,
        });
        id
    }

    /// Marks an order cancelled; `None` when there is no such order.
    pub fn cancel(&self, id: &str) -> Option<Order> {
        let mut orders = self.orders.lock().unwrap_or_else(|e| e.into_inner());
        let order = orders.iter_mut().find(|o| o.id == id)?;
        let was = order.clone();
        order.cancelled = true;
        Some(was)
    }
}
