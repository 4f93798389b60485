//! Does usage evidence clear a typed removal condition? Decided here,
//! rendered elsewhere: [`clears`] is a pure function of the condition, the
//! evidence, the old path and today's date, and its [`Decision`] carries
//! everything a report needs (who still calls, when last, how often, which
//! days have no data, and what would clear it).
//!
//! The quiet window is the `quiet_for` days before today (today is not
//! over). It clears when no listed client (any client when none is listed)
//! took the path in the window or after it, and the evidence has data for
//! at least `min_coverage` of the window's days (all of them by default): a
//! gap is not a zero. Every row counts: a call dated today, or later (the
//! evidence is newer than the check's today: a collector whose clock runs
//! ahead, or a `--today` in the past), refuses as a call in the window does,
//! and is reported with its days; only calls before the window are history.
//! Days are UTC calendar days. A listed client `claude-desktop` covers
//! `claude-desktop/1.2`.

use std::collections::{BTreeMap, BTreeSet};

use super::model::{runs, Evidence, Key};
use crate::migrations::{Date, RemovalCondition};

/// One client that still took the path in the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub client: String,
    pub last_hit: Date,
    pub hits: u64,
}

/// One client whose calls are dated after the window: today (not over
/// yet) or later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LateCaller {
    pub client: String,
    /// The days of those calls, as runs of consecutive days.
    pub days: Vec<(Date, Date)>,
    pub hits: u64,
}

/// The verdict on one old path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Nobody took the path in the window, and the data covers it.
    Cleared { window: (Date, Date), covered: u32 },
    /// Not yet: callers, or too little data, or both.
    Refused(Refusal),
}

/// Why a removal is not cleared yet, and what would clear it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub window: (Date, Date),
    pub callers: Vec<Caller>,
    /// Clients that took the path after the window (today or later).
    pub late: Vec<LateCaller>,
    pub covered: u32,
    pub needed: u32,
    /// Days of the window without data, as runs.
    pub gaps: Vec<(Date, Date)>,
    /// What would clear it, in words.
    pub would_clear: String,
}

/// Decides whether `evidence` shows `tool`'s old `path` may go today.
pub fn clears(
    condition: &RemovalCondition,
    evidence: &Evidence,
    tool: &str,
    path: &str,
    today: Date,
) -> Decision {
    decide(condition, evidence, tool, &|p| p == path, today)
}

/// Decides whether `evidence` shows `tool` itself may go today: every
/// path of the tool counts (`field:...`, `default:...`, `tool:...`,
/// `rejected:...`), a client's hits on all of them together.
pub fn clears_tool(
    condition: &RemovalCondition,
    evidence: &Evidence,
    tool: &str,
    today: Date,
) -> Decision {
    decide(condition, evidence, tool, &|_| true, today)
}

fn decide(
    condition: &RemovalCondition,
    evidence: &Evidence,
    tool: &str,
    path: &dyn Fn(&str) -> bool,
    today: Date,
) -> Decision {
    let window = (
        today.plus_days(-i64::from(condition.quiet_for)),
        today.plus_days(-1),
    );
    let in_window = |d: &Date| *d >= window.0 && *d <= window.1;
    let days: Vec<Date> = (window.0.to_unix_days()..=window.1.to_unix_days())
        .map(Date::from_unix_days)
        .collect();
    let covered = days.iter().filter(|d| evidence.has_data(**d)).count() as u32;
    let gaps = runs(days.iter().copied().filter(|d| !evidence.has_data(*d)));
    let needed = condition.coverage_needed();
    let listed = |client: &str| {
        condition.clients.is_empty()
            || condition.clients.iter().any(|c| {
                client == c
                    || client
                        .strip_prefix(c.as_str())
                        .is_some_and(|r| r.starts_with('/'))
            })
    };
    // one caller per client, over every path that counts; a row after
    // the window is a late call, never dropped
    let mut by_client: BTreeMap<&str, Caller> = BTreeMap::new();
    let mut late_days: BTreeMap<&str, (BTreeSet<Date>, u64)> = BTreeMap::new();
    for (Key { client, .. }, by_day) in evidence
        .hits
        .iter()
        .filter(|(k, _)| k.tool == tool && path(&k.path) && listed(&k.client))
    {
        for (day, n) in by_day.range(window.0..) {
            if in_window(day) {
                let c = by_client.entry(client).or_insert_with(|| Caller {
                    client: client.clone(),
                    last_hit: *day,
                    hits: 0,
                });
                c.last_hit = c.last_hit.max(*day);
                c.hits = c.hits.saturating_add(*n);
            } else {
                let (days, hits) = late_days.entry(client).or_default();
                days.insert(*day);
                *hits = hits.saturating_add(*n);
            }
        }
    }
    let callers: Vec<Caller> = by_client.into_values().collect();
    let late: Vec<LateCaller> = late_days
        .into_iter()
        .map(|(client, (days, hits))| LateCaller {
            client: client.to_string(),
            days: runs(days.into_iter()),
            hits,
        })
        .collect();
    if callers.is_empty() && late.is_empty() && covered >= needed {
        return Decision::Cleared { window, covered };
    }
    let mut would = vec![];
    let last = callers
        .iter()
        .map(|c| c.last_hit)
        .chain(late.iter().filter_map(|l| l.days.last().map(|r| r.1)))
        .max();
    if let Some(last) = last {
        let mut names: Vec<&str> = callers
            .iter()
            .map(|c| c.client.as_str())
            .chain(late.iter().map(|l| l.client.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        would.push(format!(
            "no call from {} after {last} (cleared on {} at the earliest)",
            names.join(", "),
            last.plus_days(i64::from(condition.quiet_for) + 1)
        ));
    }
    if covered < needed {
        would.push(format!(
            "usage data for {} more day(s) of {}..{}",
            needed - covered,
            window.0,
            window.1
        ));
    }
    Decision::Refused(Refusal {
        window,
        callers,
        late,
        covered,
        needed,
        gaps,
        would_clear: would.join("; and "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    fn cond(clients: &[&str], min: Option<u32>) -> RemovalCondition {
        RemovalCondition {
            quiet_for: 7,
            clients: clients.iter().map(|c| c.to_string()).collect(),
            min_coverage: min,
            note: None,
            pos: Default::default(),
        }
    }

    fn evidence(hits: &[(&str, &str, u64)], gaps: &[&str]) -> Evidence {
        let mut e = Evidence::empty(d("2026-11-01"), d("2026-11-30"));
        e.no_data.extend(gaps.iter().map(|g| d(g)));
        for (client, day, n) in hits {
            let key = Key {
                tool: "search".into(),
                path: "field:query".into(),
                client: client.to_string(),
            };
            e.add(key, d(day), *n);
        }
        e
    }

    const TODAY: &str = "2026-11-20";

    #[test]
    fn quiet_and_covered_clears() {
        // a hit before the window does not count
        let e = evidence(&[("a/1", "2026-11-12", 4)], &[]);
        let got = clears(&cond(&[], None), &e, "search", "field:query", d(TODAY));
        assert_eq!(
            got,
            Decision::Cleared {
                window: (d("2026-11-13"), d("2026-11-19")),
                covered: 7
            }
        );
    }

    #[test]
    fn a_caller_in_the_window_refuses_with_when_it_would_clear() {
        let e = evidence(&[("a/1", "2026-11-15", 2), ("a/1", "2026-11-16", 1)], &[]);
        let Decision::Refused(Refusal {
            callers,
            would_clear,
            ..
        }) = clears(&cond(&["a"], None), &e, "search", "field:query", d(TODAY))
        else {
            panic!("refused")
        };
        assert_eq!(
            callers,
            [Caller {
                client: "a/1".into(),
                last_hit: d("2026-11-16"),
                hits: 3
            }]
        );
        assert!(
            would_clear.contains("cleared on 2026-11-24"),
            "{would_clear}"
        );
        // a client the condition does not list is not waited for
        let other = clears(&cond(&["b"], None), &e, "search", "field:query", d(TODAY));
        assert!(matches!(other, Decision::Cleared { .. }));
        // nor another path or tool
        let path = clears(&cond(&[], None), &e, "search", "field:other", d(TODAY));
        assert!(matches!(path, Decision::Cleared { .. }));
    }

    #[test]
    fn a_tool_counts_every_path_of_it_per_client() {
        let mut e = evidence(&[("a/1", "2026-11-15", 2)], &[]);
        let key = |path: &str, client: &str| Key {
            tool: "search".into(),
            path: path.into(),
            client: client.into(),
        };
        e.add(key("rejected:UNKNOWN_FIELD", "a/1"), d("2026-11-17"), 1);
        e.add(key("default:region", "b/2"), d("2026-11-14"), 4);
        let Decision::Refused(Refusal { callers, .. }) =
            clears_tool(&cond(&[], None), &e, "search", d(TODAY))
        else {
            panic!("refused")
        };
        assert_eq!(
            callers,
            [
                Caller {
                    client: "a/1".into(),
                    last_hit: d("2026-11-17"),
                    hits: 3
                },
                Caller {
                    client: "b/2".into(),
                    last_hit: d("2026-11-14"),
                    hits: 4
                }
            ]
        );
        // another tool's rows do not count
        let other = clears_tool(&cond(&[], None), &e, "other", d(TODAY));
        assert!(matches!(other, Decision::Cleared { .. }));
    }

    #[test]
    fn a_call_after_the_window_refuses_with_its_days() {
        // today (not over) and two days ahead (a collector's clock running
        // fast): nothing in the window, and still refused
        let mut e = evidence(&[("a/1", "2026-11-20", 2), ("b/2", "2026-11-22", 5)], &[]);
        e.add(
            Key {
                tool: "search".into(),
                path: "field:query".into(),
                client: "a/1".into(),
            },
            d("2026-11-21"),
            1,
        );
        let Decision::Refused(Refusal {
            callers,
            late,
            covered,
            would_clear,
            ..
        }) = clears(&cond(&[], None), &e, "search", "field:query", d(TODAY))
        else {
            panic!("refused")
        };
        assert_eq!((callers, covered), (vec![], 7));
        assert_eq!(
            late,
            [
                LateCaller {
                    client: "a/1".into(),
                    days: vec![(d("2026-11-20"), d("2026-11-21"))],
                    hits: 3
                },
                LateCaller {
                    client: "b/2".into(),
                    days: vec![(d("2026-11-22"), d("2026-11-22"))],
                    hits: 5
                }
            ]
        );
        assert!(
            would_clear.contains("no call from a/1, b/2 after 2026-11-22 (cleared on 2026-11-30"),
            "{would_clear}"
        );
        // judged a day later, the 20th is in the window, the rest after it
        let later = clears(
            &cond(&[], None),
            &e,
            "search",
            "field:query",
            d("2026-11-21"),
        );
        let Decision::Refused(r) = later else {
            panic!("refused")
        };
        assert_eq!(r.callers.len(), 1);
        assert_eq!(r.late.len(), 2);
        let next = clears(
            &cond(&[], None),
            &e,
            "search",
            "field:query",
            d("2026-11-23"),
        );
        let Decision::Refused(r) = next else {
            panic!("refused")
        };
        assert_eq!(r.callers.len(), 2);
        assert_eq!(r.late, []);
    }

    #[test]
    fn a_gap_is_not_a_zero() {
        // the weekly batch ran on the 18th, but the 18th has no data
        let e = evidence(&[], &["2026-11-17", "2026-11-18"]);
        let Decision::Refused(Refusal {
            covered,
            needed,
            gaps,
            would_clear,
            ..
        }) = clears(&cond(&[], None), &e, "search", "field:query", d(TODAY))
        else {
            panic!("refused")
        };
        assert_eq!((covered, needed), (5, 7));
        assert_eq!(gaps, [(d("2026-11-17"), d("2026-11-18"))]);
        assert!(would_clear.contains("2 more day(s)"), "{would_clear}");
        let enough = clears(&cond(&[], Some(5)), &e, "search", "field:query", d(TODAY));
        assert!(matches!(enough, Decision::Cleared { covered: 5, .. }));
        // a window past the evidence's end has no data either
        let late = clears(
            &cond(&[], None),
            &e,
            "search",
            "field:query",
            d("2026-12-10"),
        );
        assert!(matches!(
            late,
            Decision::Refused(Refusal { covered: 0, .. })
        ));
    }
}
