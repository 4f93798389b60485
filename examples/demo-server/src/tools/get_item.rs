//! `get_item`: one item by id (an output type shared with `search_catalog`).

use serde::Deserialize;

use super::model::Item;
use crate::catalog;

/// Fetch one catalog item by its id.
#[mcp_contract::tool(name = "get_item", version = 1, output = Item, read_only, idempotent, open_world = false)]
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GetItemArgs {
    /// The item's id, such as `bk-1`.
    pub id: String,
}

/// The item, if the catalog has it.
pub fn run(args: &GetItemArgs) -> Option<Item> {
    catalog::items().into_iter().find(|i| i.id == args.id)
}
