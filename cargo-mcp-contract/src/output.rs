//! Shared printing helpers: colour detection, error printing, exit codes.

use std::io::IsTerminal;

use mcp_contract::InputError;

/// Exit status: nothing breaking.
pub const OK: u8 = 0;
/// Exit status: a breaking (or, with --fail-on, otherwise failing) change.
pub const FAILED: u8 = 1;
/// Exit status: usage or input error.
pub const ERROR: u8 = 2;

/// `--format` of the commands that print for people or for machines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Should stdout be coloured? `auto` honours NO_COLOR and whether stdout is a terminal.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// Prints an input error as `error: file: location: message` plus help; returns exit status 2.
pub fn input_error(e: &InputError) -> u8 {
    eprintln!("error: {e}");
    ERROR
}

/// Set once stdout's reader has gone: everything printed after is dropped.
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes to stdout (what [`out!`] and [`outln!`] expand to). A reader that
/// has gone (`cargo mcp-contract diff A B | head -1`) ends the printing
/// quietly: the rest is dropped and the command still exits with its own
/// status, as cargo does, where `print!` would panic (exit 101). Any other
/// write error (a full disk behind a redirection) is an exit-2 error.
pub fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    if let Err(e) = std::io::stdout().lock().write_fmt(args) {
        stdout_failed(e);
    }
}

/// Flushes stdout before the process exits, under [`write_stdout`]'s rules.
pub fn flush_stdout() {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    if STDOUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    if let Err(e) = std::io::stdout().lock().flush() {
        stdout_failed(e);
    }
}

fn stdout_failed(e: std::io::Error) {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
        return;
    }
    eprintln!(
        "error: standard output: cannot write: {e}\n  help: check where the output goes (a full disk, a closed file)"
    );
    std::process::exit(ERROR.into());
}

/// `print!` that never panics on a closed stdout (see [`write_stdout`]).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!($($arg)*))
    };
}
pub(crate) use out;

/// `println!` that never panics on a closed stdout (see [`write_stdout`]).
macro_rules! outln {
    () => {
        $crate::output::write_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::write_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use outln;
