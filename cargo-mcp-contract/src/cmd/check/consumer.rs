//! `cargo mcp-contract check --config FILE`: the consumer's check. Every
//! server the client configuration names is captured again and judged
//! against the consumer lockfile by the same gate, witnesses and reports as
//! a server's own lockfile ([`mcp_contract::consumer`]); acknowledgements
//! come from the consumer's record beside the lockfile.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use mcp_contract::check::run::{Candidate, CheckRun, LockfileRun, RunError};
use mcp_contract::consumer::{self, ServerCandidate, ServerJudgement, ServerState};
use mcp_contract::witness;

use super::{attach_witnesses, print_run, shown, Args};
use crate::cmd::servers;
use crate::output;

pub(super) fn run(args: &Args, config: &Path) -> u8 {
    if let Some(flag) = [
        (args.server, "--server"),
        (args.staged, "--staged"),
        (args.workspace, "--workspace"),
        (args.package.is_some(), "--package"),
        (args.manifest_path.is_some(), "--manifest-path"),
        (args.against.is_some(), "--against"),
        (!args.usage.is_empty(), "--usage"),
        (args.no_usage_evidence, "--no-usage-evidence"),
        (args.write_fixtures, "--write-fixtures"),
        (!args.live.command.is_empty(), "a server command after `--`"),
    ]
    .iter()
    .find_map(|(on, name)| on.then_some(*name))
    {
        eprintln!("error: {flag} does not go with --config without --name (the consumer's check of every server the configuration names)\n  help: drop {flag}, or give --name NAME to gate your own server's lockfile with that server as the candidate");
        return output::ERROR;
    }
    let lockfile = args
        .lockfile
        .clone()
        .unwrap_or_else(|| PathBuf::from(consumer::DEFAULT_LOCKFILE));
    let lock_shown = shown(&lockfile);
    let config_shown = shown(config);
    let (lock, lock_text) = match consumer::lock::read(&lockfile) {
        Ok(Some(l)) => l,
        Ok(None) => {
            eprintln!("error: {lock_shown}: no consumer lockfile here\n  help: lock the servers first: `cargo mcp-contract lock --config {config_shown}` (or give --lockfile PATH)");
            return output::ERROR;
        }
        Err(e) => return output::input_error(&e),
    };
    let record_path = consumer::record_path_for(&lockfile);
    let record_shown = shown(&record_path);
    let (mut groups, whole) = match consumer::record::read(&record_path) {
        Ok(r) => r,
        Err(e) => return output::input_error(&e),
    };
    let captured = match servers::capture_all(config, &args.live.options(), &[]) {
        Ok(c) => c,
        Err(e) => return output::input_error(&e),
    };
    let (fail_on, fail_on_description) = super::thresholds(&args.fail_on);
    let today = args
        .today
        .unwrap_or_else(mcp_contract::migrations::Date::today);
    let mut run = CheckRun::default();
    for p in &whole {
        run.errors.push(RunError {
            package: None,
            file: p.file.clone(),
            line: Some(p.pos.line),
            column: Some(p.pos.column),
            text: p.to_string().trim_start_matches("error: ").to_string(),
        });
    }
    let mut names: BTreeSet<String> = captured.iter().map(|c| c.name.clone()).collect();
    names.extend(lock.servers.keys().cloned());
    names.extend(groups.keys().cloned());
    let mut captured: std::collections::BTreeMap<String, servers::Captured> =
        captured.into_iter().map(|c| (c.name.clone(), c)).collect();
    for name in names {
        let locked = lock.servers.get(&name);
        let mut errors = vec![];
        let (state, live) = match captured.remove(&name) {
            None => (ServerState::NotConfigured, None),
            Some(c) if c.disabled => (ServerState::Disabled, None),
            Some(c) => match c.result {
                Err(why) => {
                    errors.push(RunError::text(
                        None,
                        &config_shown,
                        format!("server `{name}` of {config_shown} could not be captured: {why}"),
                    ));
                    (ServerState::NotCaptured, None)
                }
                Ok((surface, release)) => {
                    let surface = match locked {
                        Some(l) => {
                            mcp_contract_driver::capture::with_locked_versions(surface, &l.surface)
                        }
                        None => surface,
                    };
                    let state = match locked {
                        None => ServerState::New,
                        Some(l) if consumer::pinned(&l.surface, &surface) => ServerState::Pinned,
                        Some(_) => ServerState::Compared,
                    };
                    (state, Some((surface, release)))
                }
            },
        };
        let candidate = ServerCandidate {
            server: name.clone(),
            config: config_shown.clone(),
            state,
            locked_version: locked.and_then(|l| l.release.version.clone()),
            live_version: live.as_ref().and_then(|(_, r)| r.version.clone()),
        };
        let judgement = ServerJudgement {
            candidate: &candidate,
            lockfile: &lock_shown,
            record_file: &record_shown,
            lock_text: Some(&lock_text),
            locked,
            live: live.map(|(s, _)| s),
            record: groups.remove(&name),
            fail_on,
            fail_on_description,
            strict: args.strict,
            today,
        };
        let mut l = LockfileRun::new(&lock_shown, Candidate::ConsumerServer(candidate.clone()));
        l.errors = errors;
        if let Some((input, ctx)) = judgement.prepare() {
            let surfaces =
                (!args.no_witness).then(|| (input.baseline.clone(), input.candidate.clone()));
            let started = std::time::Instant::now();
            let mut outcome = mcp_contract::check::run(input);
            if let Some((baseline, candidate)) = surfaces {
                let opts = witness::Options::after_diff(started.elapsed());
                attach_witnesses(
                    &mut outcome,
                    baseline.unwrap_or_default(),
                    &candidate,
                    &opts,
                );
            }
            for g in &mut outcome.changes {
                if let Some(e) = &mut g.migration_entry {
                    *e = consumer::suggest_for(&name, e);
                }
            }
            let declared = consumer::declared_version(&candidate, &lock_shown, ctx.line_offset);
            l.version = Some(mcp_contract::version::judge(
                &outcome.changes,
                outcome.new_surface,
                vec![declared],
                args.require_version_bump,
            ));
            l.checked = Some((outcome, ctx));
        }
        run.lockfiles.push(l);
    }
    print_run(&run, args.format, args.color);
    run.exit_code()
}
