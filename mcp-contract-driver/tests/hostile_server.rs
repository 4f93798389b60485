//! The driver's bounds against servers that attack the client: a line that
//! never ends, an endless stream of notifications, a flood of requests while
//! never reading stdin, `tools/list` paging forever, pages that add up to
//! too much, and a stderr flood. Each is an error (exit 2 from the CLI),
//! the server's whole process group is stopped, and the memory this process
//! used stays bounded: its peak resident set (`VmHWM` in `/proc/self/status`)
//! is measured after each case and printed.
//!
//! The bound, by construction: one stdout line is at most
//! `MAX_LINE_BYTES` (8 MiB); at most one line waits in the channel while
//! another is read and a third parsed; a capture keeps at most
//! `MAX_SURFACE_BYTES` (32 MiB of `tools/list` text); stderr keeps a 16 KiB
//! tail; at most 64 messages wait for a server that does not read its stdin.
//!
//! All cases run in one test, one after another, so that nothing else in
//! this process moves the peak.

#![cfg(target_os = "linux")]

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::PidFile;
use mcp_contract_driver::process::MAX_LINE_BYTES;
use mcp_contract_driver::session::MAX_SURFACE_BYTES;
use mcp_contract_driver::{capture, ErrorKind, Options, Protocol, ServerCommand};

/// Peak resident set of this process so far, in KiB.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/self/status")
}

fn hostile(mode: &str) -> (ServerCommand, PidFile) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/stubs/hostile-server.sh");
    let pids = PidFile::new(mode);
    let cmd = ServerCommand::new("sh")
        .arg(script.display().to_string())
        .arg(mode)
        .arg(pids.path.display().to_string());
    (cmd, pids)
}

/// The peak may not exceed this: the by-construction bound above plus the
/// test process itself, with room for the parsed form of what is held.
const LIMIT_KIB: u64 = 256 * 1024;

#[test]
fn hostile_servers_are_errors_with_bounded_memory_and_no_process_left() {
    let before = peak_rss_kib();
    eprintln!("peak RSS before: {before} KiB; limit {LIMIT_KIB} KiB (line bound {} MiB, surface bound {} MiB)", MAX_LINE_BYTES >> 20, MAX_SURFACE_BYTES >> 20);
    type Check = fn(&ErrorKind, &str) -> bool;
    let cases: [(&str, usize, Check); 6] = [
        ("long-line", 1, |k, m| {
            matches!(k, ErrorKind::Protocol { .. }) && m.contains("without a newline")
        }),
        ("endless-notifications", 1, |k, _| {
            matches!(k, ErrorKind::Timeout { .. })
        }),
        ("ping-flood", 1, |k, m| {
            matches!(k, ErrorKind::Io { .. }) && m.contains("has not read its stdin")
        }),
        ("paging-forever", 1, |k, m| {
            matches!(k, ErrorKind::Protocol { .. }) && m.contains("pages: `nextCursor` never ends")
        }),
        ("huge-pages", 1, |k, m| {
            matches!(k, ErrorKind::Protocol { .. }) && m.contains("add up to more than 32 MiB")
        }),
        ("stderr-flood", 2, |k, _| {
            matches!(k, ErrorKind::Timeout { .. })
        }),
    ];
    let options = Options {
        timeout: Duration::from_secs(3),
        protocol: Protocol::Handshake,
        ..Options::default()
    };
    for (mode, processes, expected) in cases {
        let (cmd, pids) = hostile(mode);
        let started = Instant::now();
        let err = capture(&cmd, &options).expect_err(mode);
        let message = err.to_string();
        assert!(expected(&err.kind, &message), "{mode}: {message}");
        pids.assert_all_gone(processes);
        let peak = peak_rss_kib();
        eprintln!(
            "{mode:<22} -> error in {:>5.2}s, peak RSS so far {peak} KiB: {}",
            started.elapsed().as_secs_f64(),
            message.lines().next().unwrap_or_default()
        );
        assert!(
            peak < LIMIT_KIB,
            "{mode}: peak RSS {peak} KiB over {LIMIT_KIB} KiB"
        );
        if mode == "stderr-flood" {
            assert!(err.stderr_tail.contains("stderr noise"), "{message}");
            assert!(
                err.stderr_tail.len() <= 16 * 1024,
                "{}",
                err.stderr_tail.len()
            );
        }
    }
}
