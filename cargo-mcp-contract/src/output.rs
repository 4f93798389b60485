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
