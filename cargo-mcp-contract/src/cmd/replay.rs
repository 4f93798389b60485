//! `cargo mcp-contract replay --server [--fixtures DIR] -- CMD`: send every
//! fixture marked safe to a live server and check the outcome of each.
//! Point it at an isolated test instance: the calls really run.
//!
//! Exit status: 0 every fixture sent behaved as recorded; 1 one did not;
//! 2 the replay could not run, or sent nothing (no fixture marked safe and
//! ready): a replay that checked nothing is no pass, and what is missing is
//! in the fixture files, so it is an input problem, not a failed check.

use std::path::PathBuf;

use mcp_contract::fixtures;
use mcp_contract_driver::replay::{self, Status};

use crate::cmd::live::{self, ServerArgs};
use crate::output;

#[derive(clap::Args)]
pub struct Args {
    /// Start the server command given after `--` and call it over stdio (implied by --url/--config)
    #[arg(long, required_unless_present_any = ["url", "config"])]
    server: bool,
    /// The fixtures directory (`<tool>/<name>.json` inside)
    #[arg(long, default_value = fixtures::DEFAULT_DIR)]
    fixtures: PathBuf,
    #[command(flatten)]
    live: ServerArgs,
}

pub fn run(args: Args) -> u8 {
    let cmd = match args.live.endpoint() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let all = match fixtures::read_dir(&args.fixtures) {
        Ok(f) => f,
        Err(e) => return output::input_error(&e),
    };
    if all.is_empty() {
        eprintln!(
            "error: {}: no fixtures\n  help: add files such as {}/<tool>/<name>.json (see the README's fixture format)",
            args.fixtures.display(),
            args.fixtures.display()
        );
        return output::ERROR;
    }
    let report = match replay::replay_server(&cmd, &args.live.options(), &all) {
        Ok(r) => r,
        Err(e) => return live::driver_error(&e),
    };
    for entry in &report.entries {
        let file = entry.file.display();
        match &entry.status {
            Status::Passed => output::outln!("ok    {} {file}", entry.tool),
            Status::Skipped(why) => output::outln!("skip  {} {file}: {why}", entry.tool),
            Status::Failed(mismatches) => {
                for m in mismatches {
                    output::outln!("FAIL  {} {file}: {m}", entry.tool);
                }
            }
        }
    }
    output::outln!(
        "replay: {} passed, {} failed, {} skipped",
        report.passed(),
        report.failed(),
        report.skipped()
    );
    if report.failed() > 0 {
        output::FAILED
    } else if report.passed() == 0 {
        eprintln!(
            "error: {}: nothing was sent, so nothing was checked: every fixture was skipped (reasons above)\n  help: mark the fixtures whose calls have no effect outside this test instance with \"safe\": true (fixtures written by `check --write-fixtures` first need the placeholder arguments their `x-review` lists replaced, and `x-review` deleted)",
            args.fixtures.display()
        );
        output::ERROR
    } else {
        output::OK
    }
}
