//! `INSTRUCTIONS=1`: rustc's instruction count (callgrind) for the crate
//! with the step and the crate without it, after each edit. On a shared or
//! virtual machine wall time moves from run to run by more than the step
//! costs (memory effects: the same compilation's user time varies by tens
//! of percent); the instruction count of one compilation does not (about
//! ±0.3%), so it is the figure to compare across machines and commits.
//! The build script's share is timed separately by the bench.
//!
//! The doc edit changes the comment's length (see the bench's docs): the
//! crate without the step then encodes its metadata as the crate with it
//! does. (An edit that moves no byte lets rustc reuse that crate's
//! metadata instead, about 14% of these compilations.)
//!
//! The bench binary is its own `RUSTC_WRAPPER` ([`wrap_if_asked`]): it runs
//! the bench crates' library compilations under valgrind and every other
//! compilation (dependencies, build scripts, `rustc -vV`) as is.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Set (to the callgrind output file) when this process is the wrapper.
const OUT_ENV: &str = "SNAPSHOT_200_CALLGRIND_OUT";

/// When this process runs as cargo's `RUSTC_WRAPPER` (see the module
/// docs): runs the compilation and exits with its status.
pub fn wrap_if_asked() {
    let Some(out) = std::env::var_os(OUT_ENV) else {
        return;
    };
    let mut args = std::env::args_os().skip(1);
    let rustc = args.next().expect("cargo passes rustc's path first");
    let args: Vec<OsString> = args.collect();
    let flag = |name: &str, value: &dyn Fn(&str) -> bool| {
        args.windows(2)
            .any(|w| w[0] == name && value(&w[1].to_string_lossy()))
    };
    let bench_lib =
        flag("--crate-name", &|v| v.starts_with("bench_")) && flag("--crate-type", &|v| v == "lib");
    let status = if bench_lib && !out.is_empty() {
        Command::new("valgrind")
            .args(["-q", "--tool=callgrind", "--dump-instr=no"])
            .arg(format!("--callgrind-out-file={}", out.to_string_lossy()))
            .arg(&rustc)
            .args(&args)
            .status()
    } else {
        Command::new(&rustc).args(&args).status()
    };
    let code = match status {
        Ok(s) => s.code().unwrap_or(1),
        Err(e) => {
            eprintln!("snapshot_200 wrapper: cannot run {rustc:?} (valgrind?): {e}");
            2
        }
    };
    std::process::exit(code);
}

/// Whether valgrind can be run; the mode needs it.
pub fn check_valgrind() {
    let ok = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "INSTRUCTIONS=1 runs rustc under callgrind: install valgrind (e.g. `apt install valgrind`)"
    );
}

/// `cargo` (from `command`) with this binary as `RUSTC_WRAPPER`: the bench
/// crate's library is compiled under callgrind into `out`, or as is when
/// `out` is `None` (a first build with the wrapper, in case cargo
/// fingerprints it).
pub fn wrapped(mut command: Command, out: Option<&Path>) -> Command {
    let exe = std::env::current_exe().expect("the bench binary's path");
    command
        .env("RUSTC_WRAPPER", exe)
        .env(OUT_ENV, out.map(Path::as_os_str).unwrap_or_default());
    command
}

/// The instruction total of a callgrind output file.
pub fn total(out: &Path) -> u64 {
    let text = std::fs::read_to_string(out)
        .unwrap_or_else(|e| panic!("{}: {e} (did rustc run on the crate?)", out.display()));
    text.lines()
        .find_map(|l| {
            l.strip_prefix("summary:")
                .or_else(|| l.strip_prefix("totals:"))
                .and_then(|n| n.trim().parse().ok())
        })
        .unwrap_or_else(|| panic!("{}: no instruction total", out.display()))
}

/// Where the callgrind output of one compilation goes.
pub fn out_file(root: &Path, side: &str, edit: &str) -> PathBuf {
    root.join(format!("callgrind.{side}.{edit}.out"))
}
