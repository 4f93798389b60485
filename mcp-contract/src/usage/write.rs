//! Adding a server's own counts to a usage-evidence file, for servers
//! without a metrics backend (the runtime layer's
//! [`UsageRecorder`](crate::runtime::recorder::UsageRecorder) calls it on
//! every flush).
//!
//! One update: take the file's lock, read the file if it exists (validated
//! by the one reader, [`read`](super::read)); a file that does not validate
//! is an error and is left exactly as it is), [`extend`] it, replace it
//! atomically ([`crate::atomic`]), release the lock.
//!
//! [`extend`] is what a day means: the writer says which days it *covered*
//! (it was running and counting on each of them). The range grows to take
//! them in; days the range newly takes in that nobody covered (between the
//! file's old end and the writer's first day: no recorder was running) are
//! `no_data`, a gap and not a zero; a covered day is never a gap.
//!
//! Several processes may flush into one file: each update holds an
//! exclusive lock (`File::try_lock`: `flock` on Unix, `LockFileEx` on
//! Windows) on a lock file beside it (`.NAME.lock`, left in place), waiting
//! at most [`LOCK_WAIT`]. Two replicas of one server writing one file is
//! then correct: each adds its own counts and its own days. The lock is
//! advisory and local: on a network file system without lock support, give
//! each process its own file and merge them with `cargo mcp-contract usage`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::model::{Evidence, Key, MAX_DAYS};
use crate::date::Date;
use crate::error::InputError;

/// Hits per key and day, as a writer adds them.
pub type Hits = BTreeMap<Key, BTreeMap<Date, u64>>;

/// The longest an update waits for another writer's lock.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// `old` (the file as read, if any) with `hits` added and the days
/// `covered.0..=covered.1` counted as covered. Every hit must lie in
/// `covered`.
pub fn extend(
    old: Option<&Evidence>,
    covered: (Date, Date),
    hits: &Hits,
    file: &str,
) -> Result<Evidence, InputError> {
    let (first, last) = covered;
    if let Some((key, day)) = hits
        .iter()
        .flat_map(|(k, days)| days.keys().map(move |d| (k, *d)))
        .find(|(_, d)| *d < first || *d > last)
    {
        return Err(InputError::new(
            file,
            format!(
                "a hit of `{}` {} on {day} lies outside the days counted, {first}..{last}",
                key.tool, key.path
            ),
        )
        .fix("record hits only on days the recorder covers (a bug in the writer)"));
    }
    let (from, to) = match old {
        Some(o) => (o.from.min(first), o.to.max(last)),
        None => (first, last),
    };
    if to.to_unix_days() - from.to_unix_days() >= MAX_DAYS {
        return Err(InputError::new(
            file,
            format!("the evidence would cover {from}..{to}, longer than {MAX_DAYS} days"),
        )
        .at("/range")
        .fix("start a new evidence file (keep the old one and merge both with `cargo mcp-contract usage`)"));
    }
    let mut e = Evidence::empty(from, to);
    let is_covered = |d: Date| d >= first && d <= last;
    for day in e.days().collect::<Vec<_>>() {
        let gap = match old {
            // inside the old range: a gap stays a gap unless covered now
            Some(o) if day >= o.from && day <= o.to => o.no_data.contains(&day),
            // newly taken in: a gap unless covered now
            _ => true,
        };
        if gap && !is_covered(day) {
            e.no_data.insert(day);
        }
    }
    for source in old.map(|o| &o.hits).into_iter().chain([hits]) {
        for (key, days) in source {
            for (day, n) in days {
                e.add(key.clone(), *day, *n);
            }
        }
    }
    Ok(e)
}

/// Adds `hits` and the covered days to the evidence file at `path`
/// (created if absent), under the file's lock; returns what was written.
/// A file that does not validate is an error and stays untouched.
pub fn update(path: &Path, covered: (Date, Date), hits: &Hits) -> Result<Evidence, InputError> {
    let file = path.display().to_string();
    let _lock = lock(path).map_err(|e| {
        InputError::new(&file, format!("cannot lock the usage evidence: {e}"))
            .fix("make the file's directory writable; another writer holds the lock too long if this persists")
    })?;
    let exists = path.try_exists().map_err(|e| {
        InputError::new(&file, format!("cannot read usage evidence: {e}"))
            .fix("check the path and its permissions")
    })?;
    let old = if exists {
        Some(super::read::read(path)?)
    } else {
        None
    };
    let evidence = extend(old.as_ref(), covered, hits, &file)?;
    let mut text =
        serde_json::to_string_pretty(&evidence.to_json()).expect("evidence serializes as JSON");
    text.push('\n');
    crate::atomic::write(path, text.as_bytes()).map_err(|e| {
        InputError::new(&file, format!("cannot write usage evidence: {e}"))
            .fix("make the file's directory writable (the previous contents are kept)")
    })?;
    Ok(evidence)
}

/// `.NAME.lock` beside `path`.
fn lock_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    dir.join(format!(".{name}.lock"))
}

/// Held while an update runs; dropping it (closing the file) releases the lock.
struct Lock {
    _file: std::fs::File,
}

fn lock(path: &Path) -> std::io::Result<Lock> {
    let lock = lock_path(path);
    if let Some(dir) = lock.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)?;
    let start = std::time::Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(Lock { _file: file }),
            Err(std::fs::TryLockError::WouldBlock) => {}
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        }
        if start.elapsed() >= LOCK_WAIT {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!(
                    "{} is held by another writer for more than {}s",
                    lock.display(),
                    LOCK_WAIT.as_secs()
                ),
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn hits(rows: &[(&str, &str, u64)]) -> Hits {
        let mut h = Hits::new();
        for (client, day, n) in rows {
            *h.entry(key(client)).or_default().entry(d(day)).or_insert(0) += n;
        }
        h
    }

    fn gaps(e: &Evidence) -> Vec<String> {
        e.no_data.iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn a_restart_leaves_a_gap_and_covered_days_are_never_gaps() {
        // first process: 11-01..11-02
        let a = extend(
            None,
            (d("2026-11-01"), d("2026-11-02")),
            &hits(&[("a/1", "2026-11-02", 2)]),
            "u",
        )
        .unwrap();
        assert_eq!(
            (a.from, a.to, a.no_data.len()),
            (d("2026-11-01"), d("2026-11-02"), 0)
        );
        // second process from 11-05: 11-03 and 11-04 had no recorder
        let b = extend(
            Some(&a),
            (d("2026-11-05"), d("2026-11-05")),
            &hits(&[("b/2", "2026-11-05", 1), ("a/1", "2026-11-05", 1)]),
            "u",
        )
        .unwrap();
        assert_eq!((b.from, b.to), (d("2026-11-01"), d("2026-11-05")));
        assert_eq!(gaps(&b), ["2026-11-03", "2026-11-04"]);
        assert_eq!(b.hits[&key("a/1")].values().sum::<u64>(), 3);
        // a replica that ran through 11-03..11-05 fills the gap it covered
        let c = extend(
            Some(&b),
            (d("2026-11-03"), d("2026-11-05")),
            &Hits::new(),
            "u",
        )
        .unwrap();
        assert!(c.no_data.is_empty(), "{:?}", gaps(&c));
        assert_eq!(c.hits, b.hits, "covering adds no hits");
    }

    #[test]
    fn an_earlier_writer_extends_the_range_backwards_with_gaps_between() {
        let late = extend(None, (d("2026-11-10"), d("2026-11-11")), &Hits::new(), "u").unwrap();
        let e = extend(
            Some(&late),
            (d("2026-11-06"), d("2026-11-07")),
            &Hits::new(),
            "u",
        )
        .unwrap();
        assert_eq!((e.from, e.to), (d("2026-11-06"), d("2026-11-11")));
        assert_eq!(gaps(&e), ["2026-11-08", "2026-11-09"]);
    }

    #[test]
    fn hits_outside_the_covered_days_and_overlong_ranges_are_refused() {
        let err = extend(
            None,
            (d("2026-11-01"), d("2026-11-02")),
            &hits(&[("a", "2026-11-03", 1)]),
            "u",
        )
        .unwrap_err();
        assert!(err.message.contains("outside the days counted"), "{err}");
        let old = Evidence::empty(d("2000-01-01"), d("2000-01-01"));
        let err = extend(
            Some(&old),
            (d("2026-11-01"), d("2026-11-01")),
            &Hits::new(),
            "u",
        )
        .unwrap_err();
        assert!(err.message.contains("longer than"), "{err}");
    }

    #[test]
    fn update_writes_what_the_reader_reads_and_refuses_a_corrupt_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("usage.json");
        let covered = (d("2026-11-01"), d("2026-11-01"));
        let written = update(&path, covered, &hits(&[("a/1", "2026-11-01", 4)])).unwrap();
        assert_eq!(super::super::read(&path).unwrap(), written);
        let again = update(&path, covered, &hits(&[("a/1", "2026-11-01", 1)])).unwrap();
        assert_eq!(again.hits[&key("a/1")][&d("2026-11-01")], 5);

        std::fs::write(
            &path,
            b"{\"format\": \"mcp-contract-usage\", \"version\": 9}",
        )
        .unwrap();
        let before = std::fs::read(&path).unwrap();
        let err = update(&path, covered, &Hits::new()).unwrap_err();
        assert!(err.message.contains("newer mcp-contract"), "{err}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "a corrupt file was overwritten"
        );
    }
}
