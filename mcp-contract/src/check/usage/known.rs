//! Evidence for tools the lockfile never had. Usage rows name tools by the
//! name a client called; a row for a tool that neither side of the change
//! publishes, that neither migration record names and that the lockfile's
//! history never published is not silently dropped: it is reported, since
//! it usually means evidence from another server, or a name the counter
//! got wrong, and a removal decided on such evidence decides nothing.

use std::collections::{BTreeMap, BTreeSet};

use super::{Given, Sides};
use crate::date::Date;
use crate::error::InputError;
use crate::migrations::{MigrationRecord, Transition};

/// Rows for one tool no checked lockfile explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTool {
    pub tool: String,
    /// The first evidence file with rows for it.
    pub file: String,
    /// Every client with rows for it, sorted.
    pub clients: Vec<String>,
    pub hits: u64,
    pub last_hit: Date,
    /// The known tool it most likely means.
    pub suggestion: Option<String>,
}

/// The tool names one lockfile's check knows: both sides' tools and every
/// tool either record names (entries, transitions, `[tools.NAME]`).
pub fn names(sides: &Sides, record: &MigrationRecord) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = sides
        .baseline_tools
        .union(&sides.candidate_tools)
        .cloned()
        .collect();
    for r in std::iter::once(record).chain(sides.baseline_record.as_ref()) {
        out.extend(r.tools.keys().cloned());
        for e in &r.entries {
            out.insert(e.selector.tool().to_string());
            match &e.transition {
                Transition::MajorVersion { from, to, .. } | Transition::Rename { from, to, .. } => {
                    out.insert(from.clone());
                    out.insert(to.clone());
                }
                _ => {}
            }
        }
    }
    out
}

/// The tools with rows in `given` that are not in `known`.
pub fn unknown_names(given: &Given, known: &BTreeSet<String>) -> BTreeSet<String> {
    given
        .merged
        .hits
        .keys()
        .filter(|k| !known.contains(&k.tool))
        .map(|k| k.tool.clone())
        .collect()
}

/// Which of `names` the lockfile at `rel` published at some revision up to
/// `upto` (the history cache is used and kept).
pub fn ever_published(
    repo: &crate::git::Repo,
    upto: &str,
    rel: &str,
    names: &BTreeSet<String>,
) -> Result<BTreeSet<String>, InputError> {
    let wanted = crate::history::cache::Wanted {
        tools: names.clone(),
        entries: BTreeSet::new(),
    };
    let use_cache = std::env::var(crate::history::cache::DISABLE_ENV).map_or(true, |v| v != "1");
    let (h, _) = crate::history::cache::reserved_history(repo, upto, rel, &wanted, use_cache)?;
    Ok(names
        .iter()
        .filter(|n| h.published.contains_key(*n))
        .cloned()
        .collect())
}

/// The rows of `given` for tools not in `known`, one per tool.
pub fn unknown_tools(given: &Given, known: &BTreeSet<String>) -> Vec<UnknownTool> {
    let mut by_tool: BTreeMap<&str, UnknownTool> = BTreeMap::new();
    let known_names: Vec<&str> = known.iter().map(String::as_str).collect();
    for (key, days) in &given.merged.hits {
        if known.contains(&key.tool) {
            continue;
        }
        let Some((last, _)) = days.iter().next_back() else {
            continue;
        };
        let file = given
            .files
            .iter()
            .find(|(_, e)| e.hits.keys().any(|k| k.tool == key.tool))
            .map(|(f, _)| f.clone())
            .unwrap_or_default();
        let u = by_tool.entry(&key.tool).or_insert_with(|| UnknownTool {
            tool: key.tool.clone(),
            file,
            clients: vec![],
            hits: 0,
            last_hit: *last,
            suggestion: crate::suggest::did_you_mean(&key.tool, &known_names).map(str::to_string),
        });
        if !u.clients.contains(&key.client) {
            u.clients.push(key.client.clone());
        }
        u.hits = days.values().fold(u.hits, |a, n| a.saturating_add(*n));
        u.last_hit = u.last_hit.max(*last);
    }
    by_tool
        .into_values()
        .map(|mut u| {
            u.clients.sort();
            u
        })
        .collect()
}
