//! `cargo mcp-contract`: the command-line front end. It parses arguments,
//! calls the `mcp-contract` library and prints; no contract logic lives here.
//!
//! Exit status: 0 nothing breaking (or everything acknowledged), 1 a
//! breaking change, 2 a usage or input error.

mod cmd;
mod output;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "cargo mcp-contract",
    bin_name = "cargo mcp-contract",
    version,
    about = "Keep an MCP server's tool schemas a contract that cannot break by accident"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compare two tool surfaces and report every change by rule
    Diff(cmd::diff::Args),
    /// Write the canonical lockfile for a tool surface
    Snapshot(cmd::snapshot::Args),
    /// Check that a live server publishes exactly what the lockfile records
    Verify(cmd::verify::Args),
    /// Send the recorded contract fixtures to a live server and check each outcome
    Replay(cmd::replay::Args),
    /// Gate the lockfile against git history: every breaking change needs a migration-record entry
    Check(cmd::check::Args),
    /// Capture every server a client configuration names into the consumer lockfile
    Lock(cmd::lock::Args),
    /// What changed between two revisions, for the people who call the server (Markdown or JSON)
    Changelog(cmd::changelog::Args),
    /// Show each tool's timeline from the lockfile's git history
    History(cmd::history::Args),
    /// Install a git pre-commit hook that runs the check
    InstallHook(cmd::install_hook::Args),
    /// List every compatibility rule
    Rules(cmd::rules::ListArgs),
    /// Explain one rule
    Explain(cmd::rules::ExplainArgs),
    /// Mutate a copy of the contract the way careless changes would and show the gate catches each
    Selftest(cmd::selftest::Args),
    /// Show who still takes each old path, from usage evidence (or import it from Prometheus text)
    Usage(cmd::usage::Args),
}

fn main() -> ExitCode {
    if let Some(rule) = mcp_contract::diff::weaken::weakened_rule() {
        // only a test build of this binary can get here (feature `test-switches`)
        eprintln!(
            "warning: rule `{rule}` is deliberately weakened ({}, a switch of this test build)",
            mcp_contract::diff::weaken::VAR
        );
    }
    // `cargo mcp-contract ...` runs us as `cargo-mcp-contract mcp-contract ...`.
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.get(1).is_some_and(|a| a == "mcp-contract") {
        args.remove(1);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let code = match cli.command {
        Command::Diff(a) => cmd::diff::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::History(a) => cmd::history::run(a),
        Command::Changelog(a) => cmd::changelog::run(a),
        Command::Lock(a) => cmd::lock::run(a),
        Command::InstallHook(a) => cmd::install_hook::run(a),
        Command::Snapshot(a) => cmd::snapshot::run(a),
        Command::Verify(a) => cmd::verify::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Rules(a) => cmd::rules::list(a),
        Command::Explain(a) => cmd::rules::explain(a),
        Command::Selftest(a) => cmd::selftest::run(a),
        Command::Usage(a) => cmd::usage::run(a),
    };
    // what is still buffered, under the same rules as every print (a closed
    // pipe is quiet, another write error exits 2)
    output::flush_stdout();
    ExitCode::from(code)
}
