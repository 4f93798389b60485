//! Faults lose nothing: a writer killed (SIGKILL) at any step of an atomic
//! write leaves the old file or the new one, and writers racing on the same
//! lockfile (two builds with different target directories) never leave a
//! torn or mixed file.
//!
//! The writers are real processes: this test binary re-runs itself with
//! `ATOMIC_WRITE_CHILD` set, and the child writes through
//! `mcp_contract::lockfile::write_if_changed`'s own code path
//! ([`mcp_contract::atomic`]), stopping at the requested step.

#![cfg(unix)]

#[path = "../../tests/support/scratch.rs"]
mod scratch;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_contract::atomic::{self, Step};

const CHILD: &str = "ATOMIC_WRITE_CHILD";

/// Big enough that a torn write would be visible to a reader.
fn contents(tag: u8, len: usize) -> Vec<u8> {
    let mut v: Vec<u8> = (0..len)
        .map(|i| b'a' + ((i + tag as usize) % 26) as u8)
        .collect();
    v[0] = tag;
    v.push(b'\n');
    v
}

fn spawn_child(test: &str, mode: &str) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(CHILD, mode)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

/// A fresh scratch directory for one test, removed when it ends.
fn scratch(name: &str) -> scratch::Scratch {
    scratch::scratch(&format!("atomic-{name}"))
}

fn step_name(s: Step) -> String {
    format!("{s:?}")
}

/// Child: write `new` to `path`, print `STOPPED` at `step` and wait to be killed.
fn stop_at(step: &str, path: &Path, len: usize) {
    let new = contents(b'N', len);
    atomic::write_observed(path, &new, &mut |s| {
        if step_name(s) == step {
            let mut out = std::io::stdout().lock();
            writeln!(out, "STOPPED").unwrap();
            out.flush().unwrap();
            loop {
                std::thread::sleep(Duration::from_secs(60));
            }
        }
    })
    .unwrap();
}

#[test]
fn a_kill_at_any_step_leaves_the_old_or_the_new_file() {
    const TEST: &str = "a_kill_at_any_step_leaves_the_old_or_the_new_file";
    const LEN: usize = 1 << 20;
    if let Ok(mode) = std::env::var(CHILD) {
        let (step, path) = mode.split_once(':').unwrap();
        return stop_at(step, Path::new(path), LEN);
    }
    let old = contents(b'O', LEN);
    let new = contents(b'N', LEN);
    let mut outcomes = vec![];
    for step in Step::ALL {
        let dir = scratch(&format!("kill-{step:?}"));
        let path = dir.join("mcp-contract.lock");
        std::fs::write(&path, &old).unwrap();
        let mut child = spawn_child(TEST, &format!("{}:{}", step_name(step), path.display()));
        // The harness prints its own text first (`test NAME ... `, no newline).
        let stopped = BufReader::new(child.stdout.take().unwrap())
            .lines()
            .map_while(Result::ok)
            .any(|l| l.trim_end().ends_with("STOPPED"));
        assert!(stopped, "the child did not reach {step:?}");
        child.kill().unwrap(); // SIGKILL: no destructor, no cleanup runs
        child.wait().unwrap();
        let now = std::fs::read(&path).unwrap();
        let which = if now == old {
            "old"
        } else if now == new {
            "new"
        } else {
            panic!(
                "killed at {step:?}: the file is neither old nor new ({} bytes)",
                now.len()
            )
        };
        // Before the rename the old file must still be there; after it, the new one.
        let expected = if matches!(step, Step::Renamed | Step::DirSynced) {
            "new"
        } else {
            "old"
        };
        assert_eq!(which, expected, "killed at {step:?}");
        // A later write still succeeds next to whatever temporary file the kill left.
        mcp_contract::lockfile::write_if_changed(&path, "after\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "after\n");
        outcomes.push(format!("{step:?}: {which}"));
        let _ = std::fs::remove_dir_all(&dir);
    }
    eprintln!("kill at each step -> {outcomes:?}");
}

#[test]
fn racing_writers_never_leave_a_torn_or_mixed_file() {
    const TEST: &str = "racing_writers_never_leave_a_torn_or_mixed_file";
    const LEN: usize = 256 << 10;
    const ROUNDS: usize = 200;
    if let Ok(mode) = std::env::var(CHILD) {
        let (tag, path) = mode.split_once(':').unwrap();
        let mine = contents(tag.as_bytes()[0], LEN);
        let theirs = contents(if tag == "A" { b'B' } else { b'A' }, LEN);
        // Alternate so every write changes the file (write_if_changed skips equal content).
        for i in 0..ROUNDS {
            let text = if i % 2 == 0 { &mine } else { &theirs };
            mcp_contract::lockfile::write_if_changed(
                Path::new(path),
                std::str::from_utf8(text).unwrap(),
            )
            .unwrap();
        }
        return;
    }
    let dir = scratch("race");
    let path = dir.join("mcp-contract.lock");
    let (a, b) = (contents(b'A', LEN), contents(b'B', LEN));
    std::fs::write(&path, &a).unwrap();
    let mut writers = [
        spawn_child(TEST, &format!("A:{}", path.display())),
        spawn_child(TEST, &format!("B:{}", path.display())),
    ];
    let mut reads = 0usize;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let done = writers.iter_mut().all(|c| c.try_wait().unwrap().is_some());
        let now = std::fs::read(&path).unwrap();
        assert!(
            now == a || now == b,
            "read {reads}: a torn or mixed lockfile ({} bytes)",
            now.len()
        );
        reads += 1;
        if done {
            break;
        }
        assert!(Instant::now() < deadline, "writers did not finish");
    }
    for w in &mut writers {
        assert!(w.wait().unwrap().success());
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "mcp-contract.lock")
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    eprintln!("2 writers x {ROUNDS} writes of {LEN} bytes, {reads} reads: always whole");
    let _ = std::fs::remove_dir_all(&dir);
}
