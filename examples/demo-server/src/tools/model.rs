//! Types shared by several tools (they appear under `$defs` in the schemas).

use serde::{Deserialize, Serialize};

/// A department of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Books,
    Electronics,
    Grocery,
}

/// One catalog item.
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    /// Stable id, such as `bk-1`.
    pub id: String,
    pub title: String,
    pub category: Category,
    /// Price in euro cents.
    pub price_cents: u64,
    pub tags: Vec<String>,
}
