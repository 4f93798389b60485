//! `cargo mcp-contract replay --server [--fixtures DIR] -- CMD`: send every
//! fixture marked safe to a live server and check the outcome of each.
//! Point it at an isolated test instance: the calls really run.
//!
//! `replay --backward REV --server -- CMD` is the backward check before a
//! removal: the legacy calls of the contract committed at `REV` (its
//! fixtures that took a deprecated path under its plan) go to the server
//! built after the removal, and each must get the structured refusal
//! (`RESERVED_FIELD` / `STALE_TOOL_SCHEMA`, `side_effect_started: false`,
//! `required_action: refresh_tools`), never a success with another meaning
//! ([`mcp_contract::backward`]).
//!
//! Exit status: 0 every fixture sent behaved as expected; 1 one did not;
//! 2 the replay could not run, or sent nothing (no fixture marked safe and
//! ready, or no legacy call at `REV`): a replay that checked nothing is no
//! pass, and what is missing is in the fixture files, so it is an input
//! problem, not a failed check.

use std::path::PathBuf;

use mcp_contract::{backward, fixtures};
use mcp_contract_driver::replay::{self, Expect, Status};

use crate::cmd::live::{self, ServerArgs};
use crate::output;

#[derive(clap::Args)]
pub struct Args {
    /// Start the server command given after `--` and call it over stdio (implied by --url/--config)
    #[arg(long, required_unless_present_any = ["url", "config"])]
    server: bool,
    /// The fixtures directory (`<tool>/<name>.json` inside)
    #[arg(long, default_value = fixtures::DEFAULT_DIR, conflicts_with = "backward")]
    fixtures: PathBuf,
    /// The backward check: send the legacy calls of the contract committed at REV (fixtures that took a deprecated path under its migration record) and require the structured refusal for each
    #[arg(long, value_name = "REV")]
    backward: Option<String>,
    /// With --backward: the contracts directory (lockfile, migrations.toml, fixtures/) whose old revision is read
    #[arg(
        long,
        value_name = "DIR",
        default_value = "contracts",
        requires = "backward"
    )]
    contracts: PathBuf,
    #[command(flatten)]
    live: ServerArgs,
}

pub fn run(args: Args) -> u8 {
    let cmd = match args.live.endpoint() {
        Ok(c) => c,
        Err(code) => return code,
    };
    if let Some(rev) = &args.backward {
        return run_backward(&args, &cmd, rev);
    }
    let all = match fixtures::read_dir(&args.fixtures) {
        Ok(f) => f,
        Err(e) => return output::input_error(&e),
    };
    if all.is_empty() {
        eprintln!(
            "error: {}: no fixtures\n  help: add files such as {}/<tool>/<name>.json (the format: docs/fixtures.md)",
            args.fixtures.display(),
            args.fixtures.display()
        );
        return output::ERROR;
    }
    let report = match replay::replay_server(&cmd, &args.live.options(), &all, Expect::Recorded) {
        Ok(r) => r,
        Err(e) => return live::driver_error(&e),
    };
    print_report(&report, &args.fixtures.display().to_string())
}

fn run_backward(args: &Args, cmd: &mcp_contract_driver::Endpoint, rev: &str) -> u8 {
    let contracts = mcp_contract::git::Repo::discover(&args.contracts)
        .and_then(|repo| backward::Contract::at(&repo, rev, &args.contracts))
        .and_then(|old| Ok((old, backward::Contract::in_dir(&args.contracts)?)));
    let (old, new) = match contracts {
        Ok(both) => both,
        Err(e) => return output::input_error(&e),
    };
    let legacy = backward::legacy_calls(&old.plan, &new.plan, &old.fixtures);
    if legacy.is_empty() {
        eprintln!(
            "error: {}: no legacy call of a removal: none of the {} fixture(s) at {} takes a deprecated path (alias, default, old version) that {} no longer serves, so there is nothing to check\n  help: name the revision before the removal, and keep a fixture for each old caller (contracts/fixtures/<tool>/<name>.json using the deprecated name or tool) until its path is removed",
            args.contracts.display(),
            old.fixtures.len(),
            old.source,
            new.source
        );
        return output::ERROR;
    }
    for l in &legacy {
        output::outln!(
            "legacy {} {}: took {}, removed since {}",
            l.fixture.tool,
            l.fixture.file.display(),
            l.removed.join(", "),
            old.source
        );
    }
    let calls: Vec<fixtures::Fixture> = legacy.into_iter().map(|l| l.fixture).collect();
    let report = match replay::replay_server(cmd, &args.live.options(), &calls, Expect::Refusal) {
        Ok(r) => r,
        Err(e) => return live::driver_error(&e),
    };
    print_report(&report, &format!("the fixtures at {}", old.source))
}

fn print_report(report: &replay::ReplayReport, source: &str) -> u8 {
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
            "error: {source}: nothing was sent, so nothing was checked: every fixture was skipped (reasons above)\n  help: mark the fixtures whose calls have no effect outside this test instance with \"safe\": true (fixtures written by `check --write-fixtures` first need the placeholder arguments their `x-review` lists replaced, and `x-review` deleted)"
        );
        output::ERROR
    } else {
        output::OK
    }
}
