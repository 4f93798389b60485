//! Usage evidence once read and validated: which old paths were taken, by
//! which client, on which day, and which days the numbers cover. A day
//! inside the range without data is kept apart from a day with no calls,
//! because a gap in the data is not a zero (a weekly batch job looks like
//! silence on every other day).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::date::Date;

/// The `format` tag of an evidence file.
pub const FORMAT: &str = "mcp-contract-usage";
/// The evidence version this crate writes and reads.
pub const VERSION: u64 = 1;
/// The longest range one evidence file (or a merge) may cover: ten years.
pub const MAX_DAYS: i64 = 3_660;

/// What was counted: one old path of one tool, taken by one client.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub tool: String,
    /// The runtime layer's usage key: `field:query`, `default:currency`,
    /// `tool:send_report_v2`, `rejected:RESERVED_FIELD`.
    pub path: String,
    /// The client as it names itself (`claude-desktop/1.2`), or `unknown`.
    pub client: String,
}

/// The evidence: hits per key and day within `from..=to`, and the days of
/// that range for which there is no data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evidence {
    pub from: Date,
    pub to: Date,
    /// Days inside the range without data (gaps, not zeros).
    pub no_data: BTreeSet<Date>,
    /// Hits per key and day; a key and day absent here with data for the
    /// day means no hits.
    pub hits: BTreeMap<Key, BTreeMap<Date, u64>>,
}

impl Evidence {
    /// An evidence over `from..=to` with data on every day and no hits.
    pub fn empty(from: Date, to: Date) -> Evidence {
        Evidence {
            from,
            to,
            no_data: BTreeSet::new(),
            hits: BTreeMap::new(),
        }
    }

    /// Every day of the range, in order.
    pub fn days(&self) -> impl Iterator<Item = Date> {
        let (a, b) = (self.from.to_unix_days(), self.to.to_unix_days());
        (a..=b).map(Date::from_unix_days)
    }

    /// Is there data for `day` (inside the range and not a gap)?
    pub fn has_data(&self, day: Date) -> bool {
        day >= self.from && day <= self.to && !self.no_data.contains(&day)
    }

    /// Days with data.
    pub fn covered_days(&self) -> usize {
        self.days().filter(|d| self.has_data(*d)).count()
    }

    /// The gaps as inclusive runs of consecutive days.
    pub fn gaps(&self) -> Vec<(Date, Date)> {
        runs(self.no_data.iter().copied())
    }

    /// Adds `count` hits for `key` on `day`.
    pub fn add(&mut self, key: Key, day: Date, count: u64) {
        if count == 0 {
            return;
        }
        let n = self.hits.entry(key).or_default().entry(day).or_insert(0);
        *n = n.saturating_add(count);
    }

    /// The evidence as the documented JSON format (rows sorted by tool,
    /// path, client, day).
    pub fn to_json(&self) -> Value {
        let hits: Vec<Value> = self
            .hits
            .iter()
            .flat_map(|(k, days)| {
                days.iter().map(move |(d, n)| {
                    json!({"tool": k.tool, "path": k.path, "client": k.client,
                           "day": d.to_string(), "count": n})
                })
            })
            .collect();
        json!({
            "format": FORMAT,
            "version": VERSION,
            "range": {"from": self.from.to_string(), "to": self.to.to_string()},
            "no_data": self.no_data.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
            "hits": hits,
        })
    }
}

/// Consecutive days grouped into inclusive runs.
pub fn runs(days: impl Iterator<Item = Date>) -> Vec<(Date, Date)> {
    let mut out: Vec<(Date, Date)> = vec![];
    for d in days {
        match out.last_mut() {
            Some((_, end)) if end.plus_days(1) == d => *end = d,
            _ => out.push((d, d)),
        }
    }
    out
}

/// A run of days as text: `2026-11-04` or `2026-11-04..2026-11-06`.
pub fn run_text((a, b): (Date, Date)) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}..{b}")
    }
}

/// What `usage` prints per tool, path and client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub key: Key,
    pub last_hit: Date,
    pub total: u64,
}

/// One row per key with hits, sorted by tool, path, client.
pub fn rows(e: &Evidence) -> Vec<Row> {
    e.hits
        .iter()
        .filter_map(|(k, days)| {
            let (last, _) = days.iter().next_back()?;
            Some(Row {
                key: k.clone(),
                last_hit: *last,
                total: days.values().fold(0u64, |a, n| a.saturating_add(*n)),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    #[test]
    fn gaps_are_runs_and_not_coverage() {
        let mut e = Evidence::empty(d("2026-11-01"), d("2026-11-07"));
        e.no_data
            .extend([d("2026-11-02"), d("2026-11-03"), d("2026-11-06")]);
        assert_eq!(e.covered_days(), 4);
        let gaps: Vec<String> = e.gaps().into_iter().map(run_text).collect();
        assert_eq!(gaps, ["2026-11-02..2026-11-03", "2026-11-06"]);
        assert!(!e.has_data(d("2026-11-02")));
        assert!(!e.has_data(d("2026-11-08")));
    }

    #[test]
    fn rows_sum_and_find_the_last_hit() {
        let mut e = Evidence::empty(d("2026-11-01"), d("2026-11-07"));
        let k = Key {
            tool: "search".into(),
            path: "field:query".into(),
            client: "a".into(),
        };
        e.add(k.clone(), d("2026-11-05"), 2);
        e.add(k.clone(), d("2026-11-02"), 3);
        e.add(k.clone(), d("2026-11-03"), 0);
        let r = rows(&e);
        assert_eq!(r.len(), 1);
        assert_eq!((r[0].last_hit, r[0].total), (d("2026-11-05"), 5));
        assert_eq!(e.hits[&k].len(), 2);
    }
}
