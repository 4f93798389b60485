//! Per-client telemetry from the runtime layer, end to end inside one
//! process: the caller reaches every hook, every path taken is a `tracing`
//! event with the documented fields and never an argument value, and the
//! usage recorder writes evidence the reader accepts (per client and day,
//! gaps where no recorder ran, a corrupt file refused and kept, several
//! writers on one file) and serves counts the Prometheus importer reads
//! back.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use mcp_contract::date::Date;
use mcp_contract::runtime::plan::{Alias, CompatPlan, Reserved, ToolPlan};
use mcp_contract::runtime::{
    events, Caller, Compat, DeprecationHook, ManualClock, Usage, UsageRecorder,
};
use mcp_contract::usage::{self, Evidence, Key};
use serde_json::{json, Map, Value};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

const SECRET: &str = "s3cret-value-4711";

fn plan() -> CompatPlan {
    let mut p = CompatPlan {
        revision: "sha256:0".into(),
        ..CompatPlan::default()
    };
    p.tools.insert(
        "search".into(),
        ToolPlan {
            properties: vec!["search_text".into()],
            aliases: vec![Alias {
                from: "query".into(),
                to: "search_text".into(),
                required: true,
                until: None,
                removal: None,
            }],
            ..ToolPlan::default()
        },
    );
    p.tools.insert(
        "order".into(),
        ToolPlan {
            properties: vec!["lines".into()],
            reserved: vec![Reserved {
                name: "note".into(),
                replacement: None,
                note: None,
            }],
            ..ToolPlan::default()
        },
    );
    p
}

fn args(v: Value) -> Option<Map<String, Value>> {
    v.as_object().cloned()
}

fn d(s: &str) -> Date {
    Date::parse(s).unwrap()
}

fn key(client: &str) -> Key {
    Key {
        tool: "search".into(),
        path: "field:query".into(),
        client: client.into(),
    }
}

/// What a hook was told: tool, usage key, client key, agent.
type Heard = (String, String, String, Option<String>);

#[derive(Default)]
struct Capture(Mutex<Vec<Heard>>);

impl DeprecationHook for Capture {
    fn record(&self, tool: &str, usage: &Usage, caller: &Caller<'_>) {
        self.0.lock().unwrap().push((
            tool.into(),
            usage.key(),
            caller.client_key().to_string(),
            caller.agent().map(String::from),
        ));
    }
}

#[test]
fn every_hook_hears_the_caller_and_prepare_alone_is_unknown() {
    let a = Arc::new(Capture::default());
    let b = Arc::new(Capture::default());
    let compat = Compat::new(plan())
        .with_hook(a.clone())
        .with_hook(b.clone());
    let claude = Caller::client("claude-desktop", "1.2");
    compat.prepare_for("search", args(json!({"query": "x"})), &claude);
    compat.prepare_for(
        "order",
        args(json!({"note": "n"})),
        &claude.with_agent("nightly"),
    );
    compat.prepare("search", args(json!({"query": "y"})));
    compat.prepare_for("search", args(json!({"search_text": "z"})), &claude);
    let seen = a.0.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            (
                "search".into(),
                "field:query".into(),
                "claude-desktop/1.2".into(),
                None
            ),
            (
                "order".into(),
                "rejected:RESERVED_FIELD".into(),
                "claude-desktop/1.2".into(),
                Some("nightly".into())
            ),
            (
                "search".into(),
                "field:query".into(),
                "unknown".into(),
                None
            ),
        ]
    );
    assert_eq!(*b.0.lock().unwrap(), seen, "the second hook hears the same");
}

/// One event: target, level, fields.
type Seen = (String, String, BTreeMap<String, String>);

/// A subscriber that keeps every event.
#[derive(Default, Clone)]
struct Events(Arc<Mutex<Vec<Seen>>>);

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl Visit for Fields<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().into(), value.into());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name().into(), format!("{value:?}"));
    }
}

impl Subscriber for Events {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut fields = BTreeMap::new();
        event.record(&mut Fields(&mut fields));
        let m = event.metadata();
        self.0
            .lock()
            .unwrap()
            .push((m.target().into(), m.level().to_string(), fields));
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[test]
fn each_path_is_one_tracing_event_with_the_documented_fields_and_no_values() {
    let events = Events::default();
    let compat = Compat::new(plan());
    tracing::subscriber::with_default(events.clone(), || {
        compat.prepare_for(
            "search",
            args(json!({"query": SECRET})),
            &Caller::client("claude-desktop", "1.2").with_agent("tenant-a"),
        );
        compat.prepare("order", args(json!({"note": SECRET, "lines": [SECRET]})));
        // the current contract's shape: no path taken, no event
        compat.prepare("search", args(json!({"search_text": SECRET})));
    });
    let seen = events.0.lock().unwrap().clone();
    assert_eq!(seen.len(), 2, "{seen:?}");
    let want = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    assert_eq!(seen[0].0, events::TARGET);
    assert_eq!(seen[0].1, "INFO");
    assert_eq!(
        seen[0].2,
        want(&[
            ("message", "compatibility path taken"),
            ("tool", "search"),
            ("path", "field:query"),
            ("client.name", "claude-desktop"),
            ("client.version", "1.2"),
            ("agent", "tenant-a"),
        ])
    );
    assert_eq!(
        seen[1].2,
        want(&[
            ("message", "compatibility path taken"),
            ("tool", "order"),
            ("path", "rejected:RESERVED_FIELD"),
        ]),
        "an unknown client has no client fields"
    );
    assert!(!format!("{seen:?}").contains(SECRET), "{seen:?}");
}

fn recorder(path: &std::path::Path, clock: &Arc<ManualClock>) -> Arc<UsageRecorder> {
    Arc::new(UsageRecorder::with_clock(path, clock.clone()))
}

#[test]
fn restarts_leave_gaps_and_per_client_counts_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("usage.json");
    let clock = Arc::new(ManualClock::new(d("2026-11-01")));

    // the first process runs 11-01 and 11-02
    let first = recorder(&path, &clock);
    let compat = Compat::new(plan()).with_hook(first.clone());
    let claude = Caller::client("claude-desktop", "1.2");
    compat.prepare_for("search", args(json!({"query": SECRET})), &claude);
    compat.prepare_for("search", args(json!({"query": SECRET})), &claude);
    clock.set(d("2026-11-02"));
    compat.prepare("search", args(json!({"query": SECRET})));
    first.flush().unwrap();
    drop(compat);
    drop(first);

    // nothing runs on 11-03 and 11-04; the second process starts on 11-05
    clock.set(d("2026-11-05"));
    let second = recorder(&path, &clock);
    let compat = Compat::new(plan()).with_hook(second.clone());
    compat.prepare_for(
        "search",
        args(json!({"query": SECRET})),
        &Caller::client("batch", "0.9"),
    );
    second.flush().unwrap();

    let e: Evidence = usage::read(&path).unwrap();
    assert_eq!((e.from, e.to), (d("2026-11-01"), d("2026-11-05")));
    assert_eq!(
        e.no_data.iter().copied().collect::<Vec<_>>(),
        [d("2026-11-03"), d("2026-11-04")],
        "the days no recorder ran are gaps, not zeros"
    );
    assert_eq!(e.hits[&key("claude-desktop/1.2")][&d("2026-11-01")], 2);
    assert_eq!(e.hits[&key("unknown")][&d("2026-11-02")], 1);
    assert_eq!(e.hits[&key("batch/0.9")][&d("2026-11-05")], 1);
    assert_eq!(e.hits.len(), 3);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains(SECRET), "{text}");
}

#[test]
fn a_corrupt_file_is_refused_and_kept_and_the_counts_wait() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("usage.json");
    let corrupt = b"{\"format\": \"mcp-contract-usage\", \"version\": 1, \"range\": {\"from\": \"2026-11-01\"";
    std::fs::write(&path, corrupt).unwrap();
    let clock = Arc::new(ManualClock::new(d("2026-11-01")));
    let r = recorder(&path, &clock);
    let compat = Compat::new(plan()).with_hook(r.clone());
    compat.prepare_for(
        "search",
        args(json!({"query": "x"})),
        &Caller::client("a", "1"),
    );
    let err = r.flush().unwrap_err();
    assert_eq!(err.file, path.display().to_string());
    assert!(err.message.starts_with("invalid JSON"), "{err}");
    assert!(err.location.is_some() && err.fix.is_some(), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), corrupt, "overwritten");
    // repaired by hand (here: removed): the waiting count is written
    std::fs::remove_file(&path).unwrap();
    r.flush().unwrap();
    assert_eq!(
        usage::read(&path).unwrap().hits[&key("a/1")][&d("2026-11-01")],
        1
    );
}

#[test]
fn writers_on_one_file_take_turns_and_lose_no_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("usage.json");
    let clock = Arc::new(ManualClock::new(d("2026-11-01")));
    const WRITERS: usize = 4;
    const ROUNDS: u64 = 10;
    std::thread::scope(|s| {
        for w in 0..WRITERS {
            let (path, clock) = (&path, &clock);
            s.spawn(move || {
                let r = recorder(path, clock);
                let client = format!("w{w}");
                for _ in 0..ROUNDS {
                    r.record(
                        "search",
                        &Usage::DeprecatedField {
                            from: "query".into(),
                            to: "search_text".into(),
                        },
                        &Caller::client(&client, "1"),
                    );
                    r.flush().unwrap();
                }
            });
        }
    });
    let e = usage::read(&path).unwrap();
    for w in 0..WRITERS {
        assert_eq!(
            e.hits[&key(&format!("w{w}/1"))][&d("2026-11-01")],
            ROUNDS,
            "writer {w}"
        );
    }
}

#[test]
fn the_exposition_round_trips_through_the_prometheus_importer() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(d("2025-12-03")));
    let r = recorder(&dir.path().join("usage.json"), &clock);
    let compat = Compat::new(plan()).with_hook(r.clone());
    let claude = Caller::client("claude-desktop", "1.2");
    // a scrape on 2025-12-03 and one on 2025-12-04, as Prometheus stamps them
    let mut scrapes = String::new();
    let mut scrape = |text: String, ms: i64| {
        for line in text.lines() {
            if line.starts_with('#') {
                scrapes.push_str(&format!("{line}\n"));
            } else {
                scrapes.push_str(&format!("{line} {ms}\n"));
            }
        }
    };
    compat.prepare_for("search", args(json!({"query": "x"})), &claude);
    scrape(r.prometheus_text(), 1_764_720_000_000);
    compat.prepare_for("search", args(json!({"query": "x"})), &claude);
    compat.prepare_for("search", args(json!({"query": "x"})), &claude);
    compat.prepare("order", args(json!({"note": "x"})));
    scrape(r.prometheus_text(), 1_764_806_400_000);
    let e = usage::prometheus::import(&scrapes, "scrapes").unwrap();
    assert_eq!((e.from, e.to), (d("2025-12-03"), d("2025-12-04")));
    // the first scrape is the baseline; the increase lands on the second day
    assert_eq!(e.hits[&key("claude-desktop/1.2")][&d("2025-12-04")], 2);
    let order = Key {
        tool: "order".into(),
        path: "rejected:RESERVED_FIELD".into(),
        client: "unknown".into(),
    };
    // a series first seen in the second scrape started from zero in the window
    assert_eq!(e.hits[&order][&d("2025-12-04")], 1);
    assert_eq!(e.hits.len(), 2);
    // the totals the exposition serves are the recorder's
    let totals: BTreeMap<Key, u64> = r.totals().into_iter().collect();
    assert_eq!(totals[&key("claude-desktop/1.2")], 3);
    assert_eq!(totals[&order], 1);
}
