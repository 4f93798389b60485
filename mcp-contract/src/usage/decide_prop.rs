//! The gate's decision against a reference implementation of the rule
//! docs/usage-gate.md states, on generated evidence: one to four files
//! read from their JSON text (as `--usage` reads them), with gaps, several
//! clients (some a listed client's versions, one only sharing its first
//! letters), rows on other tools and paths, rows before, inside and after
//! the quiet window (today and ahead of it), files that overlap (with and
//! without data on the shared days) or come out of order, and a today
//! before, across and after the evidence.
//!
//! The reference is written from the rule alone, reading every file's rows
//! itself, never the merged evidence: a day has data when exactly one file
//! covers it without listing it in `no_data` (two is a double count,
//! refused, as is a file starting before the one listed ahead of it); the
//! window is the `quiet_for` days before today; every row of the path (any
//! path of the tool, for a tool) by a listed client dated on or after the
//! window's first day refuses, inside the window as a caller, after it as a
//! late call; otherwise it clears when the window has at least
//! `min(min_coverage, quiet_for)` days with data. Conditions are what the
//! record can hold (`min_coverage` 1 day up to `quiet_for`). No generated
//! case is discarded; the run asserts each outcome was reached often enough for the
//! comparison to mean something.

use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

use super::{clears, clears_tool, merge, parse, runs, Decision, Evidence};
use crate::date::Date;
use crate::migrations::RemovalCondition;

const TOOLS: [&str; 2] = ["search", "other"];
const PATHS: [&str; 4] = [
    "field:query",
    "field:q",
    "default:limit",
    "rejected:UNKNOWN_FIELD",
];
const CLIENTS: [&str; 5] = [
    "python-agent/1.0",
    "python-agent",
    "claude-desktop/1.2",
    "mcp/0.1.0",
    "mcp-x/1",
];
const LISTABLE: [&str; 3] = ["python-agent", "claude-desktop", "mcp"];

#[derive(Debug, Clone)]
struct FileSpec {
    /// Days after the previous file's last day this one starts (negative:
    /// it overlaps).
    delta: i64,
    len: i64,
    gaps: Vec<i64>,
    /// Leaves the days it shares with the previous file to it (`no_data`).
    yields: bool,
    /// (tool, path, client, day in the file, count)
    hits: Vec<(usize, usize, usize, i64, u64)>,
}

#[derive(Debug, Clone)]
struct Case {
    quiet_for: u32,
    min_coverage: Option<u32>,
    listed: Vec<bool>,
    start: i64,
    today: i64,
    whole_tool: bool,
    files: Vec<FileSpec>,
    swap: Option<usize>,
}

fn file_spec() -> impl Strategy<Value = FileSpec> {
    (
        -4i64..=6,
        1i64..=35,
        prop::collection::vec(0i64..35, 0..4),
        any::<bool>(),
        prop::collection::vec((0usize..2, 0usize..4, 0usize..5, 0i64..35, 1u64..=40), 0..9),
    )
        .prop_map(|(delta, len, gaps, yields, hits)| FileSpec {
            delta,
            len,
            gaps,
            yields,
            hits,
        })
}

fn case() -> impl Strategy<Value = Case> {
    (
        1u32..=40,
        prop::option::of(1u32..=40),
        prop::collection::vec(prop::bool::weighted(0.25), 3),
        0i64..10,
        0i64..=120,
        prop::bool::weighted(0.25),
        prop::collection::vec(file_spec(), 1..=4),
        prop::option::weighted(0.1, 0usize..3),
    )
        .prop_map(
            |(quiet_for, min_coverage, listed, start, today, whole_tool, files, swap)| Case {
                quiet_for,
                // what the record can hold: 1 day up to quiet_for
                min_coverage: min_coverage.map(|m| m.min(quiet_for)),
                listed,
                start,
                today,
                whole_tool,
                files,
                swap,
            },
        )
}

fn day(offset: i64) -> Date {
    Date::parse("2026-10-01").unwrap().plus_days(offset)
}

/// One generated file: its range, days without data and rows (summed per
/// key and day, none on a day without data).
#[derive(Debug, Clone)]
struct RefFile {
    from: i64,
    to: i64,
    no_data: BTreeSet<i64>,
    rows: BTreeMap<(usize, usize, usize, i64), u64>,
}

impl RefFile {
    fn has_data(&self, d: i64) -> bool {
        d >= self.from && d <= self.to && !self.no_data.contains(&d)
    }

    fn json(&self) -> String {
        let hits: Vec<serde_json::Value> = self
            .rows
            .iter()
            .map(|((t, p, c, d), n)| {
                serde_json::json!({"tool": TOOLS[*t], "path": PATHS[*p], "client": CLIENTS[*c],
                    "day": day(*d).to_string(), "count": n})
            })
            .collect();
        serde_json::json!({"format": "mcp-contract-usage", "version": 1,
            "range": {"from": day(self.from).to_string(), "to": day(self.to).to_string()},
            "no_data": self.no_data.iter().map(|d| day(*d).to_string()).collect::<Vec<_>>(),
            "hits": hits})
        .to_string()
    }
}

fn files_of(c: &Case) -> Vec<RefFile> {
    let mut out: Vec<RefFile> = vec![];
    let mut prev_end = c.start - 1;
    for f in &c.files {
        let from = (prev_end + f.delta).max(0);
        let to = from + f.len - 1;
        let mut no_data: BTreeSet<i64> = f.gaps.iter().map(|g| from + g % f.len).collect();
        if f.yields {
            no_data.extend(from..=prev_end.min(to));
        }
        let mut rows = BTreeMap::new();
        for &(t, p, cl, at, n) in &f.hits {
            let d = from + at % f.len;
            if !no_data.contains(&d) {
                *rows.entry((t, p, cl, d)).or_insert(0) += n;
            }
        }
        prev_end = prev_end.max(to);
        out.push(RefFile {
            from,
            to,
            no_data,
            rows,
        });
    }
    if let Some(i) = c.swap {
        if i + 1 < out.len() {
            out.swap(i, i + 1);
        }
    }
    out
}

/// What the rule decides, from the files themselves.
#[derive(Debug, PartialEq, Eq)]
enum Expected {
    /// The files cannot be merged (out of order, or a day counted twice).
    Unmerged,
    Decided {
        cleared: bool,
        window: (Date, Date),
        covered: u32,
        needed: u32,
        /// client -> (last hit, hits) inside the window
        callers: BTreeMap<String, (Date, u64)>,
        /// client -> (days, hits) after the window
        late: BTreeMap<String, (BTreeSet<Date>, u64)>,
        gaps: BTreeSet<Date>,
    },
}

fn reference(c: &Case, files: &[RefFile]) -> Expected {
    if files.windows(2).any(|w| w[1].from < w[0].from) {
        return Expected::Unmerged;
    }
    let first = files.iter().map(|f| f.from).min().unwrap();
    let last = files.iter().map(|f| f.to).max().unwrap();
    if (first..=last).any(|d| files.iter().filter(|f| f.has_data(d)).count() > 1) {
        return Expected::Unmerged;
    }
    let data = |d: i64| files.iter().any(|f| f.has_data(d));
    let q = i64::from(c.quiet_for);
    let (ws, we) = (c.today - q, c.today - 1);
    let listed: Vec<&str> = LISTABLE
        .iter()
        .zip(&c.listed)
        .filter(|(_, on)| **on)
        .map(|(n, _)| *n)
        .collect();
    let takes = |client: &str| {
        listed.is_empty()
            || listed
                .iter()
                .any(|l| client == *l || client.starts_with(&format!("{l}/")))
    };
    let mut callers: BTreeMap<String, (Date, u64)> = BTreeMap::new();
    let mut late: BTreeMap<String, (BTreeSet<Date>, u64)> = BTreeMap::new();
    for f in files {
        for (&(t, p, cl, d), &n) in &f.rows {
            let path_counts = c.whole_tool || PATHS[p] == "field:query";
            if TOOLS[t] != "search" || !path_counts || !takes(CLIENTS[cl]) || d < ws {
                continue;
            }
            let client = CLIENTS[cl].to_string();
            if d <= we {
                let e = callers.entry(client).or_insert((day(d), 0));
                e.0 = e.0.max(day(d));
                e.1 += n;
            } else {
                let e = late.entry(client).or_default();
                e.0.insert(day(d));
                e.1 += n;
            }
        }
    }
    let covered = (ws..=we).filter(|d| data(*d)).count() as u32;
    let needed = c.min_coverage.unwrap_or(c.quiet_for).min(c.quiet_for);
    let cleared = callers.is_empty() && late.is_empty() && covered >= needed;
    Expected::Decided {
        cleared,
        window: (day(ws), day(we)),
        covered,
        needed,
        callers,
        late,
        // a cleared removal reports no gaps (it may have some, within
        // min_coverage); a refused one every day of the window without data
        gaps: if cleared {
            BTreeSet::new()
        } else {
            (ws..=we).filter(|d| !data(*d)).map(day).collect()
        },
    }
}

fn actual(c: &Case, files: &[RefFile]) -> Result<Expected, TestCaseError> {
    let mut read: Vec<(String, Evidence)> = vec![];
    for (i, f) in files.iter().enumerate() {
        let name = format!("f{i}.json");
        let e = parse(&f.json(), &name)
            .map_err(|e| TestCaseError::fail(format!("generated file does not read: {e}")))?;
        read.push((name, e));
    }
    let Ok(merged) = merge(&read) else {
        return Ok(Expected::Unmerged);
    };
    let condition = RemovalCondition {
        quiet_for: c.quiet_for,
        clients: LISTABLE
            .iter()
            .zip(&c.listed)
            .filter(|(_, on)| **on)
            .map(|(n, _)| n.to_string())
            .collect(),
        min_coverage: c.min_coverage,
        note: None,
        pos: Default::default(),
    };
    let today = day(c.today);
    let decision = if c.whole_tool {
        clears_tool(&condition, &merged, "search", today)
    } else {
        clears(&condition, &merged, "search", "field:query", today)
    };
    Ok(match decision {
        Decision::Cleared { window, covered } => Expected::Decided {
            cleared: true,
            window,
            covered,
            needed: condition.coverage_needed(),
            callers: BTreeMap::new(),
            late: BTreeMap::new(),
            gaps: BTreeSet::new(),
        },
        Decision::Refused(r) => {
            // runs of days, as the report shows them: consecutive and apart
            for l in &r.late {
                prop_assert_eq!(runs(expand(&l.days).into_iter()), l.days.clone());
            }
            prop_assert_eq!(runs(expand(&r.gaps).into_iter()), r.gaps.clone());
            Expected::Decided {
                cleared: false,
                window: r.window,
                covered: r.covered,
                needed: r.needed,
                callers: r
                    .callers
                    .iter()
                    .map(|c| (c.client.clone(), (c.last_hit, c.hits)))
                    .collect(),
                late: r
                    .late
                    .iter()
                    .map(|l| (l.client.clone(), (expand(&l.days), l.hits)))
                    .collect(),
                gaps: expand(&r.gaps),
            }
        }
    })
}

fn expand(runs: &[(Date, Date)]) -> BTreeSet<Date> {
    runs.iter()
        .flat_map(|(a, b)| (a.to_unix_days()..=b.to_unix_days()).map(Date::from_unix_days))
        .collect()
}

#[test]
fn the_gate_decides_as_the_documented_rule() {
    #[derive(Default)]
    struct Seen {
        unmerged: Cell<u32>,
        cleared: Cell<u32>,
        callers: Cell<u32>,
        late: Cell<u32>,
        short: Cell<u32>,
        yielded_overlap: Cell<u32>,
    }
    let seen = Seen::default();
    let bump = |c: &Cell<u32>| c.set(c.get() + 1);
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases: 1500,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::from_seed(RngAlgorithm::ChaCha, &[40; 32]),
    );
    let result = runner.run(&case(), |c| {
        let files = files_of(&c);
        let want = reference(&c, &files);
        let got = actual(&c, &files)?;
        match &want {
            Expected::Unmerged => bump(&seen.unmerged),
            Expected::Decided {
                cleared,
                covered,
                needed,
                callers,
                late,
                ..
            } => {
                if *cleared {
                    bump(&seen.cleared);
                }
                if !callers.is_empty() {
                    bump(&seen.callers);
                }
                if !late.is_empty() {
                    bump(&seen.late);
                }
                if covered < needed {
                    bump(&seen.short);
                }
                if files.windows(2).any(|w| w[1].from <= w[0].to) {
                    bump(&seen.yielded_overlap);
                }
            }
        }
        prop_assert_eq!(got, want, "case {:?}\nfiles {:?}", c, files);
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    println!(
        "gate decision vs reference: 1500 cases; {} unmerged, {} cleared, {} with callers in the window, {} with calls after it, {} short of data, {} merged from overlapping files",
        seen.unmerged.get(),
        seen.cleared.get(),
        seen.callers.get(),
        seen.late.get(),
        seen.short.get(),
        seen.yielded_overlap.get()
    );
    // every outcome reached often enough for the comparison to mean something
    for (what, n) in [
        ("files that cannot be merged", seen.unmerged.get()),
        ("cleared", seen.cleared.get()),
        ("refused for a caller in the window", seen.callers.get()),
        ("refused for a call after the window", seen.late.get()),
        ("refused for too little data", seen.short.get()),
        ("overlapping files merged", seen.yielded_overlap.get()),
    ] {
        assert!(n >= 50, "only {n} of 1500 cases: {what}");
    }
}
