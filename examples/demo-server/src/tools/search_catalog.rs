//! `search_catalog`: free-text search with optional filters (nested structs,
//! `Option`, a unit enum with a default, a `Vec` output).

use serde::{Deserialize, Serialize};

use super::model::{Category, Item};
use crate::catalog;

/// Search the catalog by free text, optionally filtered by category and price.
#[mcp_contract::tool(
    name = "search_catalog",
    version = 1,
    title = "Search the catalog",
    output = SearchResults,
    read_only,
    idempotent,
    open_world = false
)]
#[derive(Debug, Deserialize)]
pub struct SearchArgs {
    /// Words to look for in item titles and tags.
    pub search_text: String,
    /// Narrow the search down.
    pub filters: Option<Filters>,
    /// At most this many hits (default 10).
    pub limit: Option<u32>,
    /// Order of the hits.
    #[serde(default)]
    pub sort: SortOrder,
}

/// Search filters; every one is optional.
#[derive(Debug, Default, Deserialize)]
pub struct Filters {
    /// Only items of this department.
    pub category: Option<Category>,
    /// Only items in this price range.
    pub price: Option<PriceRange>,
}

/// An inclusive price range in euro cents.
#[derive(Debug, Deserialize)]
pub struct PriceRange {
    pub min_cents: Option<u64>,
    pub max_cents: Option<u64>,
}

/// How hits are ordered.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    #[default]
    Relevance,
    PriceAsc,
    PriceDesc,
}

/// What a search found.
#[derive(Debug, Serialize)]
pub struct SearchResults {
    /// The hits, best first (at most `limit`).
    pub hits: Vec<Item>,
    /// How many items matched before `limit` was applied.
    pub total: u64,
}

/// Runs a search over the catalog.
pub fn run(args: &SearchArgs) -> SearchResults {
    let words: Vec<String> = args
        .search_text
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    let filters = args.filters.as_ref();
    let mut scored: Vec<(usize, Item)> = catalog::items()
        .into_iter()
        .filter(|item| {
            filters
                .and_then(|f| f.category)
                .is_none_or(|c| c == item.category)
        })
        .filter(|item| {
            let range = filters.and_then(|f| f.price.as_ref());
            range.is_none_or(|r| {
                r.min_cents.is_none_or(|m| item.price_cents >= m)
                    && r.max_cents.is_none_or(|m| item.price_cents <= m)
            })
        })
        .filter_map(|item| {
            let haystack = format!("{} {}", item.title, item.tags.join(" ")).to_lowercase();
            let score = words
                .iter()
                .filter(|w| haystack.contains(w.as_str()))
                .count();
            (score > 0 || words.is_empty()).then_some((score, item))
        })
        .collect();
    match args.sort {
        SortOrder::Relevance => scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.id.cmp(&b.1.id))),
        SortOrder::PriceAsc => scored.sort_by_key(|(_, i)| i.price_cents),
        SortOrder::PriceDesc => scored.sort_by_key(|(_, i)| std::cmp::Reverse(i.price_cents)),
    }
    let total = scored.len() as u64;
    let limit = args.limit.unwrap_or(10) as usize;
    SearchResults {
        hits: scored.into_iter().take(limit).map(|(_, i)| i).collect(),
        total,
    }
}
