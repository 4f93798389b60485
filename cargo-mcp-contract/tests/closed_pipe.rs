//! Output into a pipe whose reader has gone (`cargo mcp-contract diff A B |
//! head -1`, `rules | head -c1`): the command stops printing and exits with
//! its own status, quietly, as cargo does; never the panic `println!` gives
//! on a closed stdout (exit 101 and a "failed printing to stdout" message).
//!
//! Each run gets a stdout whose read end is closed before the binary starts,
//! so its first write fails with EPIPE whatever the output's length.

#![cfg(unix)]

use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// A pipe's write end, its read end already closed.
fn closed_pipe() -> Stdio {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe(2)");
    // SAFETY: pipe(2) just returned both descriptors, owned by nobody else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    Stdio::from(write)
}

fn surfaces() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/surfaces")
}

/// Runs the binary with a closed stdout; returns its exit code and stderr.
fn run_closed(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-contract"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(closed_pipe())
        .stderr(Stdio::piped())
        .output()
        .expect("binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// (relative to this crate's directory, where tests run)
const WEATHER_LOCK: &str = "../examples/weather-server/contracts/mcp-contract.lock";

#[test]
fn a_closed_stdout_ends_each_command_quietly_with_its_own_status() {
    let v1 = surfaces().join("search-v1.json");
    let v2 = surfaces().join("search-v2.json");
    let (v1, v2) = (v1.to_str().unwrap(), v2.to_str().unwrap());
    let cases: &[(&[&str], i32)] = &[
        // breaking changes found: still 1, though nobody reads the report
        (&["diff", v1, v2], 1),
        (&["diff", "--format", "json", v1, v2], 1),
        (&["mcp-contract", "diff", v1, v2], 1),
        (&["diff", v1, v1], 0),
        (&["rules"], 0),
        (&["rules", "--json"], 0),
        (&["explain", "input.required-added"], 0),
        (&["--help"], 0),
        (&["diff", "--help"], 0),
        (&["--version"], 0),
        // the gate itself: the weather example's lockfile against HEAD
        (
            &["check", "--lockfile", WEATHER_LOCK, "--against", "HEAD"],
            0,
        ),
    ];
    for (args, code) in cases {
        let (got, stderr) = run_closed(args);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("failed printing"),
            "{args:?} panicked on a closed stdout:\n{stderr}"
        );
        assert_eq!(stderr, "", "{args:?} is not quiet on a closed stdout");
        assert_eq!(got, Some(*code), "{args:?} exit status on a closed stdout");
    }
}
