//! [`UsageRecorder`]: usage evidence written by the server itself, for a
//! server without a metrics backend. A [`DeprecationHook`] that counts every
//! compatibility path per tool, path, client and UTC day, and flushes the
//! counts into a usage-evidence file (`mcp-contract-usage` v1, see
//! [`crate::usage`]) that `cargo mcp-contract usage` and `check --usage`
//! read.
//!
//! - **Days.** A hit is booked on the [`Clock`]'s day when it is recorded.
//!   The recorder *covers* every day from the first it saw (its start) to
//!   the last (the latest hit or flush): it was running and counting then.
//!   A flush adds those days to the file's range; days between the file's
//!   old end and this process's first day are `no_data` (no recorder was
//!   running: a gap, not a zero). A day the file already has stays as it
//!   was, except that a day this recorder covered is never a gap.
//! - **Flush.** [`flush`](UsageRecorder::flush) writes now (under the
//!   file's lock, atomically, see [`crate::usage::write`]);
//!   [`flush_every`](UsageRecorder::flush_every) starts a thread that
//!   flushes at start, then every interval, and once more when stopped; the
//!   recorder also flushes when dropped. Hits between the last flush and an
//!   unclean exit (a kill) are lost, so the interval bounds the loss.
//! - **Errors.** A flush that fails (a corrupt or newer-version file,
//!   which is never overwritten; an unwritable directory) keeps its counts
//!   for the next try and is an error from `flush`; the thread prints each
//!   new error once to stderr and as a `tracing` error event.
//! - **Bounds.** At most [`MAX_KEYS`] tool/path/client keys; once full, a
//!   new client's hits are counted under the client [`OVERFLOW_CLIENT`]
//!   (said once on stderr), so no hit is dropped. Client names and versions
//!   are cut to [`MAX_NAME`](super::caller::MAX_NAME) bytes.
//! - **`/metrics`.** [`prometheus_text`](UsageRecorder::prometheus_text)
//!   is the counts since start as Prometheus text, for a server that is
//!   scraped instead.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use super::caller::Caller;
use super::clock::{Clock, SystemClock};
use super::events::TARGET;
use super::telemetry::{DeprecationHook, Usage};
use crate::date::Date;
use crate::error::InputError;
use crate::usage::write::{self, Hits};
use crate::usage::{expose, Evidence, Key};

/// The most tool/path/client keys one recorder counts apart.
pub const MAX_KEYS: usize = 10_000;
/// The client that hits are counted under once [`MAX_KEYS`] is reached.
pub const OVERFLOW_CLIENT: &str = "(other)";

/// Counts per tool, path, client and day, flushed to an evidence file.
pub struct UsageRecorder {
    file: PathBuf,
    clock: Arc<dyn Clock>,
    state: Mutex<State>,
    /// One flush at a time from this process (the file lock covers others).
    flushing: Mutex<()>,
    /// The error the flush thread or drop reported last (each is said once).
    reported: Mutex<Option<InputError>>,
}

struct State {
    /// The first and last day this recorder saw.
    seen: (Date, Date),
    /// Hits not yet in the file.
    pending: Hits,
    /// Hits per key since start (for `/metrics`).
    totals: BTreeMap<Key, u64>,
    /// The covered days the last successful flush wrote.
    written: Option<(Date, Date)>,
    overflowed: bool,
}

impl std::fmt::Debug for UsageRecorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UsageRecorder")
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

impl UsageRecorder {
    /// A recorder writing to `file`, dated by the system clock.
    pub fn new(file: impl Into<PathBuf>) -> Self {
        Self::with_clock(file, Arc::new(SystemClock))
    }

    /// A recorder writing to `file`, dated by `clock`; it starts covering
    /// `clock.today()`.
    pub fn with_clock(file: impl Into<PathBuf>, clock: Arc<dyn Clock>) -> Self {
        let today = clock.today();
        UsageRecorder {
            file: file.into(),
            clock,
            state: Mutex::new(State {
                seen: (today, today),
                pending: Hits::new(),
                totals: BTreeMap::new(),
                written: None,
                overflowed: false,
            }),
            flushing: Mutex::new(()),
            reported: Mutex::new(None),
        }
    }

    /// The evidence file written.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The first and last day this recorder covers so far.
    pub fn covered(&self) -> (Date, Date) {
        self.lock().seen
    }

    /// Hits per key since start, sorted.
    pub fn totals(&self) -> Vec<(Key, u64)> {
        self.lock()
            .totals
            .iter()
            .map(|(k, n)| (k.clone(), *n))
            .collect()
    }

    /// The counts since start as Prometheus text (serve it with
    /// [`expose::CONTENT_TYPE`]).
    pub fn prometheus_text(&self) -> String {
        expose::exposition(self.lock().totals.iter().map(|(k, n)| (k, *n)))
    }

    /// Adds the pending counts and the covered days (through today) to the
    /// file now. `Ok(None)`: nothing new since the last flush. On an error
    /// the counts stay pending for the next flush and the file is as it was.
    pub fn flush(&self) -> Result<Option<Evidence>, InputError> {
        let _one = self.flushing.lock().unwrap_or_else(|e| e.into_inner());
        let today = self.clock.today();
        let (covered, pending) = {
            let mut s = self.lock();
            s.see(today);
            if s.pending.is_empty() && s.written == Some(s.seen) {
                return Ok(None);
            }
            (s.seen, std::mem::take(&mut s.pending))
        };
        match write::update(&self.file, covered, &pending) {
            Ok(evidence) => {
                self.lock().written = Some(covered);
                Ok(Some(evidence))
            }
            Err(e) => {
                let mut s = self.lock();
                for (key, days) in pending {
                    for (day, n) in days {
                        s.add_pending(key.clone(), day, n);
                    }
                }
                Err(e)
            }
        }
    }

    /// Starts a thread that flushes now, every `interval`, and once more
    /// when the returned handle is stopped or dropped.
    pub fn flush_every(self: &Arc<Self>, interval: Duration) -> std::io::Result<FlushThread> {
        let (stop, stopped) = mpsc::channel::<()>();
        let recorder = Arc::clone(self);
        let handle = std::thread::Builder::new()
            .name("mcp-contract-usage".into())
            .spawn(move || {
                loop {
                    recorder.flush_reporting();
                    match stopped.recv_timeout(interval) {
                        Err(RecvTimeoutError::Timeout) => {}
                        _ => break,
                    }
                }
                recorder.flush_reporting();
            })?;
        Ok(FlushThread {
            stop: Some(stop),
            handle: Some(handle),
        })
    }

    /// Flushes; a new error (not the one reported last) goes to stderr and
    /// to `tracing`.
    fn flush_reporting(&self) {
        let result = self.flush();
        let mut last = self.reported.lock().unwrap_or_else(|e| e.into_inner());
        match result {
            Ok(_) => *last = None,
            Err(e) => {
                if last.as_ref() != Some(&e) {
                    eprintln!("mcp-contract: usage evidence not written: {e}");
                    tracing::error!(target: TARGET, file = %self.file.display(), error = %e, "usage evidence not written");
                }
                *last = Some(e);
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves the counts intact.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl State {
    fn see(&mut self, day: Date) {
        self.seen = (self.seen.0.min(day), self.seen.1.max(day));
    }

    fn add_pending(&mut self, key: Key, day: Date, n: u64) {
        let c = self.pending.entry(key).or_default().entry(day).or_insert(0);
        *c = c.saturating_add(n);
    }
}

impl DeprecationHook for UsageRecorder {
    fn record(&self, tool: &str, usage: &Usage, caller: &Caller<'_>) {
        let day = self.clock.today();
        let mut key = Key {
            tool: tool.to_string(),
            path: usage.to_string(),
            client: caller.client_key().to_string(),
        };
        let mut s = self.lock();
        s.see(day);
        if s.totals.len() >= MAX_KEYS && !s.totals.contains_key(&key) {
            key.client = OVERFLOW_CLIENT.to_string();
            if !std::mem::replace(&mut s.overflowed, true) {
                eprintln!(
                    "mcp-contract: more than {MAX_KEYS} tool/path/client keys; further clients are counted as `{OVERFLOW_CLIENT}` in {}",
                    self.file.display()
                );
            }
        }
        let total = s.totals.entry(key.clone()).or_insert(0);
        *total = total.saturating_add(1);
        s.add_pending(key, day, 1);
    }
}

impl Drop for UsageRecorder {
    fn drop(&mut self) {
        self.flush_reporting();
    }
}

/// The periodic flush started by [`UsageRecorder::flush_every`]: stopping
/// or dropping it flushes once more and joins the thread.
#[derive(Debug)]
pub struct FlushThread {
    stop: Option<mpsc::Sender<()>>,
    handle: Option<JoinHandle<()>>,
}

impl FlushThread {
    /// Stops the thread after a last flush.
    pub fn stop(mut self) {
        self.join();
    }

    fn join(&mut self) {
        drop(self.stop.take());
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for FlushThread {
    fn drop(&mut self) {
        self.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::clock::ManualClock;

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    fn field() -> Usage {
        Usage::DeprecatedField {
            from: "query".into(),
            to: "search_text".into(),
        }
    }

    #[test]
    fn counts_per_client_and_day_and_flushes_once_per_change() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::new(d("2026-11-01")));
        let r = UsageRecorder::with_clock(dir.path().join("u.json"), clock.clone());
        let claude = Caller::client("claude-desktop", "1.2");
        r.record("search", &field(), &claude);
        r.record("search", &field(), &claude);
        clock.set(d("2026-11-02"));
        r.record("search", &field(), &Caller::UNKNOWN);
        let e = r.flush().unwrap().expect("written");
        assert_eq!((e.from, e.to), (d("2026-11-01"), d("2026-11-02")));
        let k = |client: &str| Key {
            tool: "search".into(),
            path: "field:query".into(),
            client: client.into(),
        };
        assert_eq!(e.hits[&k("claude-desktop/1.2")][&d("2026-11-01")], 2);
        assert_eq!(e.hits[&k("unknown")][&d("2026-11-02")], 1);
        assert_eq!(r.flush().unwrap(), None, "nothing new: no write");
        clock.set(d("2026-11-03"));
        let e = r.flush().unwrap().expect("a new day covered");
        assert_eq!(e.to, d("2026-11-03"));
        assert_eq!(
            e.hits[&k("claude-desktop/1.2")][&d("2026-11-01")],
            2,
            "counted once"
        );
        assert_eq!(
            r.totals(),
            [(k("claude-desktop/1.2"), 2), (k("unknown"), 1)]
        );
    }

    #[test]
    fn a_failed_flush_keeps_the_counts_for_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("u.json");
        std::fs::write(&path, b"not json").unwrap();
        let clock = Arc::new(ManualClock::new(d("2026-11-01")));
        let r = UsageRecorder::with_clock(&path, clock);
        r.record("search", &field(), &Caller::client("a", "1"));
        let err = r.flush().unwrap_err();
        assert!(err.message.starts_with("invalid JSON"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"not json");
        std::fs::remove_file(&path).unwrap();
        let e = r.flush().unwrap().expect("written");
        assert_eq!(crate::usage::rows(&e)[0].total, 1);
    }

    #[test]
    fn overflowing_clients_are_counted_not_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let clock = Arc::new(ManualClock::new(d("2026-11-01")));
        let r = UsageRecorder::with_clock(dir.path().join("u.json"), clock);
        let names: Vec<String> = (0..MAX_KEYS + 5).map(|i| format!("c{i}")).collect();
        for n in &names {
            r.record("search", &field(), &Caller::client(n, "1"));
        }
        let totals = r.totals();
        assert_eq!(totals.len(), MAX_KEYS + 1);
        let other: u64 = totals
            .iter()
            .filter(|(k, _)| k.client == OVERFLOW_CLIENT)
            .map(|(_, n)| n)
            .sum();
        assert_eq!(other, 5);
        assert_eq!(
            totals.iter().map(|(_, n)| n).sum::<u64>(),
            names.len() as u64
        );
    }

    #[test]
    fn the_thread_flushes_when_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("u.json");
        let clock = Arc::new(ManualClock::new(d("2026-11-01")));
        let r = Arc::new(UsageRecorder::with_clock(&path, clock));
        let thread = r.flush_every(Duration::from_secs(3600)).unwrap();
        r.record("search", &field(), &Caller::client("a", "1"));
        thread.stop();
        let e = crate::usage::read(&path).unwrap();
        assert_eq!(crate::usage::rows(&e)[0].total, 1);
        assert_eq!(r.flush().unwrap(), None);
    }
}
