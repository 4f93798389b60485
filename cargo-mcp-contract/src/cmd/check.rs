//! `cargo mcp-contract check`: gate the working-tree lockfile against the
//! lockfile in git history; every breaking change needs an entry in
//! `contracts/migrations.toml`.

use std::path::PathBuf;

use mcp_contract::check::{self, packages, repo, Status};
use mcp_contract::migrations::Date;
use mcp_contract::report::{check_human, check_json, gate, github, junit, markdown, sarif};
use mcp_contract::{lockfile, witness, Severity};

use crate::cmd::live::{self, ServerArgs};
use crate::cmd::staged;
use crate::output::{self, ColorChoice};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    /// GitHub Actions workflow commands (annotations on the lockfile lines)
    Github,
    /// SARIF 2.1.0
    Sarif,
    /// JUnit XML
    Junit,
    /// Markdown for a pull-request comment
    Markdown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Breaking,
    Behavioral,
}

#[derive(clap::Args)]
pub struct Args {
    /// The baseline revision (default: merge-base of HEAD with origin/HEAD, else main/master)
    #[arg(long, value_name = "REV")]
    against: Option<String>,
    /// The lockfile to check (its migrations.toml sits beside it)
    #[arg(long, value_name = "PATH", conflicts_with_all = ["package", "workspace"])]
    lockfile: Option<PathBuf>,
    /// Check this cargo package's contracts/mcp-contract.lock
    #[arg(short = 'p', long, value_name = "PKG", conflicts_with = "workspace")]
    package: Option<String>,
    /// Check every workspace package that has a contracts/mcp-contract.lock
    #[arg(long)]
    workspace: bool,
    /// The Cargo.toml of the package or workspace
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// The lowest severity that must be acknowledged in the migration record
    #[arg(long, value_enum, default_value_t = FailOn::Breaking)]
    fail_on: FailOn,
    /// Also fail on record entries that match nothing and on passed removal dates
    #[arg(long)]
    strict: bool,
    /// Colour the human report
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Use the live surface of the server command given after `--` as the candidate
    #[arg(long, conflicts_with_all = ["package", "workspace", "manifest_path"])]
    server: bool,
    /// Check what the next commit contains (the index), not the working tree:
    /// every workspace package with a lockfile, when a source, manifest or
    /// contract file is staged (the pre-commit hook runs this)
    #[arg(long, conflicts_with = "server")]
    staged: bool,
    /// Skip the witness search (no `= witness:` lines, `witness`/`proof` null in JSON)
    #[arg(long, conflicts_with = "write_fixtures")]
    no_witness: bool,
    /// Write each input witness of a failing or acknowledged change as a
    /// contract fixture in contracts/fixtures/<tool>/ (existing files are kept)
    #[arg(long)]
    write_fixtures: bool,
    #[command(flatten)]
    live: ServerArgs,
}

pub fn run(args: Args) -> u8 {
    let live_candidate = match live_candidate(&args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let staged = match args.staged.then(staged::export_here).transpose() {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(st) = &staged {
        if !staged::touches_contracts(st) {
            eprintln!("mcp-contract: nothing staged touches a contract (no source, manifest or contracts/ file)");
            return output::OK;
        }
    }
    // Each package is checked on its own: one that cannot be checked is
    // reported and the others still are; the exit status is the worst.
    let mut worst = output::OK;
    let selection = match &staged {
        Some(_) => staged::select(&args.package, args.lockfile.as_deref()),
        None => select(&args),
    };
    let lockfiles: Vec<PathBuf> = match selection {
        Err(code) => return code,
        Ok(Selection::Lockfile(path)) => vec![path],
        Ok(Selection::Packages(found)) => {
            let mut fresh = vec![];
            for p in found {
                // A package whose build step writes its lockfile: the candidate
                // must be what the sources say now, or the gate judges the past.
                if p.uses_build_step {
                    let verified = match &staged {
                        Some(st) => st.verify_fresh(&p),
                        None => mcp_contract_build::verify_fresh(&p.dir, &p.name, &p.lockfile)
                            .map_err(|e| e.to_string()),
                    };
                    if let Err(e) = verified {
                        eprintln!("error: package `{}`: {e}", p.name);
                        worst = output::ERROR;
                        continue;
                    }
                }
                fresh.push(p.lockfile);
            }
            fresh
        }
    };
    let fail_on = match args.fail_on {
        FailOn::Breaking => Severity::Breaking,
        FailOn::Behavioral => Severity::Behavioral,
    };
    let mut results = vec![];
    for path in &lockfiles {
        let prepared = repo::prepare(repo::RepoCheck {
            tree: staged.as_ref().map(|s| s.tree.dir.as_path()),
            lockfile: path,
            against: args.against.as_deref(),
            candidate: live_candidate.clone(),
            fail_on,
            strict: args.strict,
            today: Date::today(),
        });
        let (mut input, ctx) = match prepared {
            Ok(p) => p,
            Err(e) => {
                worst = worst.max(output::input_error(&e));
                continue;
            }
        };
        // Entries this change adds match the changes as the check printed
        // them, before the build applied their transitions.
        let added =
            mcp_contract_build::unapply::new_entries(&input.record, input.baseline_record.as_ref());
        mcp_contract_build::unapply::unapply(&mut input.candidate, &added);
        for (short, why) in &ctx.history_skipped {
            eprintln!(
                "warning: history revision {short} of {} skipped: {why}",
                ctx.lockfile
            );
        }
        let surfaces =
            (!args.no_witness).then(|| (input.baseline.clone(), input.candidate.clone()));
        let started = std::time::Instant::now();
        let mut outcome = check::run(input);
        if let Some((baseline, candidate)) = surfaces {
            let opts = witness::Options::after_diff(started.elapsed());
            attach_witnesses(
                &mut outcome,
                baseline.unwrap_or_default(),
                &candidate,
                &opts,
            );
        }
        if args.write_fixtures {
            if let Err(code) = write_fixtures(path, &outcome) {
                return code;
            }
        }
        results.push((outcome, ctx));
    }
    let reports: Vec<gate::GateReport<'_>> = results
        .iter()
        .map(|(outcome, ctx)| gate::GateReport {
            lockfile: &ctx.lockfile,
            record: &ctx.record,
            baseline_short: &ctx.baseline.short,
            baseline_description: &ctx.baseline.description,
            candidate_text: ctx.candidate_text.as_deref(),
            outcome,
        })
        .collect();
    let text = match args.format {
        Format::Human => check_human::render(&reports, output::use_color(args.color)),
        Format::Json => check_json::render(&reports),
        Format::Github => github::render(&reports),
        Format::Sarif => sarif::render(&reports),
        Format::Junit => junit::render(&reports),
        Format::Markdown => markdown::render(&reports),
    };
    if !reports.is_empty() {
        print!("{text}");
    }
    let fixture_lockfiles: Vec<PathBuf> = match &staged {
        Some(st) => lockfiles.iter().map(|l| st.in_tree(l)).collect(),
        None => lockfiles.clone(),
    };
    let fixtures = check_fixtures(&fixture_lockfiles, args.format == Format::Human);
    let status = match (gate::overall(&reports), fixtures) {
        (Status::Invalid, _) => output::ERROR,
        (_, Err(code)) => code,
        (Status::Failed, _) | (_, Ok(false)) => output::FAILED,
        (Status::Passed, Ok(true)) => output::OK,
    };
    worst.max(status)
}

/// What `check` checks.
pub(crate) enum Selection {
    /// One lockfile, named or the default in the current directory.
    Lockfile(PathBuf),
    /// Cargo packages (`-p`, `--workspace`, `--manifest-path`, or the package
    /// of the current directory).
    Packages(Vec<packages::PackageLockfile>),
}

fn select(args: &Args) -> Result<Selection, u8> {
    let none_found = || {
        eprintln!("error: no workspace package has a {}\n  help: generate one with `cargo build` (mcp-contract-build) or `cargo mcp-contract snapshot`, or pass --lockfile", lockfile::DEFAULT_PATH);
        output::ERROR
    };
    if let Some(path) = &args.lockfile {
        return Ok(Selection::Lockfile(path.clone()));
    }
    if args.package.is_some() || args.workspace || args.manifest_path.is_some() {
        return match packages::find(args.manifest_path.as_deref(), args.package.as_deref()) {
            Ok(found) if found.is_empty() => Err(none_found()),
            Ok(found) => Ok(Selection::Packages(found)),
            Err(e) => Err(output::input_error(&e)),
        };
    }
    let here = PathBuf::from(lockfile::DEFAULT_PATH);
    if here.exists() || args.server {
        return Ok(Selection::Lockfile(here));
    }
    // Anywhere inside a package or workspace: the nearest Cargo.toml decides,
    // as it does for cargo.
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    match packages::find_from_dir(&cwd) {
        Ok(Some(found)) if found.is_empty() => Err(none_found()),
        Ok(Some(found)) => Ok(Selection::Packages(found)),
        Ok(None) => Ok(Selection::Lockfile(here)),
        Err(e) => Err(output::input_error(&e)),
    }
}

/// Runs `contracts/fixtures/` beside each lockfile through its published
/// schema and the compatibility plan of its migration record
/// (`mcp_contract::runtime::fixture_check`). The report goes to stdout in
/// the human format, to stderr otherwise (machine formats stay parseable).
/// `Ok(false)` when a fixture fails.
fn check_fixtures(lockfiles: &[PathBuf], human: bool) -> Result<bool, u8> {
    use mcp_contract::runtime::fixture_check;
    let mut passed = true;
    for path in lockfiles {
        let report = fixture_check::check_contracts(path).map_err(|e| output::input_error(&e))?;
        if report.checked == 0 {
            continue;
        }
        let mut text = format!(
            "fixtures: {} checked in {}, {} failing\n",
            report.checked,
            report.dir.display(),
            report.failures.len()
        );
        for f in &report.failures {
            text.push_str(&format!("error[fixture]: {f}\n"));
        }
        if !report.passed() {
            text.push_str("  help: a legacy fixture that fails means a compatibility branch (alias, default, version) was removed from contracts/migrations.toml while callers may still rely on it; restore the entry, or change the fixture's expectation on purpose\n");
        }
        if human {
            print!("{text}");
        } else {
            eprint!("{text}");
        }
        passed &= report.passed();
    }
    Ok(passed)
}

/// Fills the witness and proof of every breaking change (decided first, proven after).
fn attach_witnesses(
    outcome: &mut check::CheckOutcome,
    baseline: mcp_contract::Surface,
    candidate: &mcp_contract::Surface,
    opts: &witness::Options,
) {
    let mut changes: Vec<mcp_contract::Change> =
        outcome.changes.iter().map(|g| g.change.clone()).collect();
    witness::attach_changes(&mut changes, &baseline, candidate, opts);
    for (g, c) in outcome.changes.iter_mut().zip(changes) {
        g.change = c;
    }
}

/// `--write-fixtures`: the input witnesses as fixtures beside the lockfile;
/// says on stderr what it wrote.
fn write_fixtures(lockfile: &std::path::Path, outcome: &check::CheckOutcome) -> Result<(), u8> {
    let dir = lockfile
        .parent()
        .unwrap_or(std::path::Path::new("."))
        .join(mcp_contract::fixtures::DEFAULT_DIR.trim_start_matches("contracts/"));
    match witness::write_fixtures(&dir, &outcome.changes, &outcome.record) {
        Ok(written) => {
            for w in written {
                let what = if w.written { "wrote" } else { "kept existing" };
                eprintln!("{what} fixture {}", w.path.display());
            }
            Ok(())
        }
        Err(e) => {
            eprintln!("error: cannot write fixtures under {}: {e}\n  help: check the directory's permissions, or run without --write-fixtures", dir.display());
            Err(output::ERROR)
        }
    }
}

/// With `--server`, the surface the running server publishes.
fn live_candidate(args: &Args) -> Result<Option<mcp_contract::Surface>, u8> {
    if !args.server && !args.live.remote() {
        if !args.live.command.is_empty() {
            eprintln!("error: a server command after `--` needs --server\n  help: `cargo mcp-contract check --server -- CMD`");
            return Err(output::ERROR);
        }
        return Ok(None);
    }
    let cmd = args.live.endpoint()?;
    let recorded = args
        .lockfile
        .clone()
        .unwrap_or_else(|| PathBuf::from(lockfile::DEFAULT_PATH));
    match mcp_contract_driver::capture(&cmd, &args.live.options()) {
        // Contract versions are not published: keep the ones recorded.
        Ok(c) => Ok(Some(match lockfile::read(&recorded) {
            Ok(locked) => mcp_contract_driver::capture::with_locked_versions(c.surface, &locked),
            Err(_) => c.surface,
        })),
        Err(e) => Err(live::driver_error(&e)),
    }
}
