//! `cargo mcp-contract check`: gate the working-tree lockfile against the
//! lockfile in git history; every breaking change needs an entry in
//! `contracts/migrations.toml`.

use std::path::{Path, PathBuf};

use mcp_contract::check::run::{
    Candidate, CheckRun, FixtureFinding, FixtureResults, LockfileRun, RunError,
};
use mcp_contract::check::{self, packages, repo};
use mcp_contract::git::moved::Side;
use mcp_contract::migrations::Date;
use mcp_contract::report::{check_human, check_json, github, junit, markdown, sarif};
use mcp_contract::{lockfile, witness, InputError, Severity};

use crate::cmd::check_usage;
use crate::cmd::live::{self, ServerArgs};
use crate::cmd::staged;
use crate::output::{self, ColorChoice};

mod consumer;
mod served;

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
    /// Flagged descriptions (text addressed to the model, invisible
    /// characters, references to other tools, credentials, encoded blobs)
    Description,
    /// Every change of a description or of the server's instructions
    DescriptionChanged,
}

/// `--fail-on`'s values as the gate's two thresholds: the severity (the
/// lowest given; breaking always fails) and the description category's level.
pub(crate) fn thresholds(
    fail_on: &[FailOn],
) -> (Severity, Option<mcp_contract::rules::DescriptionLevel>) {
    use mcp_contract::rules::DescriptionLevel;
    let severity = if fail_on.contains(&FailOn::Behavioral) {
        Severity::Behavioral
    } else {
        Severity::Breaking
    };
    let description = if fail_on.contains(&FailOn::DescriptionChanged) {
        Some(DescriptionLevel::Changed)
    } else if fail_on.contains(&FailOn::Description) {
        Some(DescriptionLevel::Flagged)
    } else {
        None
    };
    (severity, description)
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
    /// What must be acknowledged in the migration record: a severity
    /// (breaking, behavioral) and/or the description category (description:
    /// flagged descriptions; description-changed: every description change);
    /// comma-separated or repeated
    #[arg(long, value_enum, value_delimiter = ',', default_value = "breaking")]
    fail_on: Vec<FailOn>,
    /// Also fail on record entries that match nothing and on passed removal dates
    #[arg(long)]
    strict: bool,
    /// Fail when a declared version (the package's Cargo.toml, the captured
    /// serverInfo.version, server.json) does not carry the bump the change
    /// requires: breaking -> major, additive -> minor, else patch (before
    /// 1.0 one place down, as cargo reads 0.y.z)
    #[arg(long)]
    require_version_bump: bool,
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
    /// Also check that what each build-step package's binaries serve is
    /// the lockfile: builds them and starts each under the probe (the
    /// Contracted wrapper writes how every locked tool is served, then
    /// exits); a tool served differently fails the check
    #[arg(long, conflicts_with_all = ["server", "staged", "lockfile"])]
    served: bool,
    /// Skip the witness search (no `= witness:` lines, `witness`/`proof` null in JSON)
    #[arg(long, conflicts_with = "write_fixtures")]
    no_witness: bool,
    /// Write each input witness of a failing or acknowledged change as a
    /// contract fixture in contracts/fixtures/<tool>/ (existing files are kept)
    #[arg(long)]
    write_fixtures: bool,
    /// Usage evidence (mcp-contract-usage JSON, oldest range first;
    /// repeatable, merged): removing a deprecated path (an alias, a
    /// server-applied default, an old major version, a deprecated tool)
    /// passes only when it shows no call in the quiet window of the
    /// removal's typed condition and no gap there
    #[arg(long = "usage", value_name = "FILE", num_args = 1..)]
    usage: Vec<PathBuf>,
    /// Remove deprecated paths without usage evidence, on purpose: each
    /// such removal passes and is reported as waived in every format
    #[arg(long, conflicts_with = "usage")]
    no_usage_evidence: bool,
    /// Write `evidence = { sha256, from, to }` into the migration-record
    /// entry of each removal the --usage evidence cleared, when it is missing
    /// or different (only on change; refused when CI is set)
    #[arg(long, requires = "usage", conflicts_with = "staged")]
    record_evidence: bool,
    /// The day to take as today (UTC, YYYY-MM-DD; default: the current
    /// date): it ends the usage gate's quiet window and dates the removal
    /// warnings. For tests and for re-running a past decision
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = check_usage::parse_day)]
    today: Option<Date>,
    #[command(flatten)]
    live: ServerArgs,
}

pub fn run(args: Args) -> u8 {
    if let (Some(config), None) = (&args.live.config, &args.live.name) {
        return consumer::run(&args, config);
    }
    let usage = match check_usage::Gate::read(
        &args.usage,
        args.no_usage_evidence,
        args.today,
        args.record_evidence,
    ) {
        Ok(u) => u,
        Err(code) => return code,
    };
    let (live_candidate, live_release) = match live_candidate(&args) {
        Ok(Some((s, r))) => (Some(s), Some(r)),
        Ok(None) => (None, None),
        Err(code) => return code,
    };
    let staged = match args.staged.then(staged::export_here).transpose() {
        Ok(s) => s,
        Err(code) => return code,
    };
    if let Some(st) = &staged {
        if !staged::touches_contracts(st) {
            eprintln!("{}", staged::nothing_to_check(st, args.lockfile.as_deref()));
            return output::OK;
        }
    }
    let selection = match &staged {
        Some(_) => staged::select(&args.package, args.lockfile.as_deref()),
        None => select(&args),
    };
    let mut run = CheckRun::default();
    let mut known = std::collections::BTreeSet::new();
    match selection {
        Err(e) => run.errors.push(RunError::input(None, &e)),
        Ok(selection) => {
            for target in targets(selection, live_candidate.is_some()) {
                let l = check_one(
                    &args,
                    &target,
                    (live_candidate.as_ref(), live_release.as_ref()),
                    staged.as_ref(),
                    (&usage, &mut known),
                );
                run.lockfiles.push(l);
            }
        }
    }
    run.usage = usage.run_part(&run.lockfiles, &known);
    print_run(&run, args.format, args.color);
    run.exit_code()
}

/// One lockfile to check, and how its candidate is judged.
struct Target {
    lockfile: PathBuf,
    candidate: Candidate,
    package: Option<packages::PackageLockfile>,
}

fn targets(selection: Selection, live: bool) -> Vec<Target> {
    match selection {
        Selection::Lockfile(lockfile) => vec![Target {
            lockfile,
            candidate: if live {
                Candidate::LiveServer
            } else {
                Candidate::Lockfile
            },
            package: None,
        }],
        Selection::Packages(found) => found
            .into_iter()
            .map(|p| Target {
                lockfile: p.lockfile.clone(),
                candidate: if p.uses_build_step {
                    Candidate::BuildStep {
                        package: p.name.clone(),
                    }
                } else {
                    Candidate::Package {
                        package: p.name.clone(),
                    }
                },
                package: Some(p),
            })
            .collect(),
    }
}

/// Checks one lockfile: freshness (build-step packages), the gate, the
/// witnesses, `--write-fixtures`, the contract fixtures. Whatever stops a
/// step is kept in the result, never only printed.
fn check_one(
    args: &Args,
    target: &Target,
    (live_candidate, live_release): (
        Option<&mcp_contract::Surface>,
        Option<&mcp_contract::model::Release>,
    ),
    staged: Option<&staged::Staged>,
    (usage, known): (&check_usage::Gate, &mut std::collections::BTreeSet<String>),
) -> LockfileRun {
    let path = &target.lockfile;
    let mut l = LockfileRun::new(shown(path), target.candidate.clone());
    let package = target.package.as_ref();
    let name = package.map(|p| p.name.as_str());
    // A typo or a merge conflict in the record or the lockfile is the first
    // cause of whatever the steps below would report: it alone is reported.
    let read_from = staged.map_or_else(|| path.clone(), |st| st.in_tree(path));
    l.errors = check::inputs::first_causes(&read_from, &l.lockfile, name, staged.is_none());
    if !l.errors.is_empty() {
        return l;
    }
    // A package whose build step writes its lockfile: the candidate must be
    // what the sources say now, or the gate judges the past.
    if let Some(p) = package.filter(|p| p.uses_build_step) {
        let verified = match staged {
            Some(st) => st.verify_fresh(p),
            None => super::build_script::read(p, p.build_script.as_deref())
                .map_err(|e| e.to_string())
                .and_then(|script| {
                    mcp_contract_build::verify_fresh(&p.dir, &p.name, &p.lockfile, script.as_ref())
                        .map_err(|e| e.to_string())
                }),
        };
        if let Err(text) = verified {
            l.errors.push(RunError::text(name, &l.lockfile, text));
            return l;
        }
    }
    let (fail_on, fail_on_description) = thresholds(&args.fail_on);
    let prepared = repo::prepare(repo::RepoCheck {
        tree: staged.map(|s| s.tree.dir.as_path()),
        package: package.map(|p| (p.name.as_str(), p.dir.as_path())),
        side: match staged {
            Some(_) => Side::Index,
            None => Side::WorkTree,
        },
        lockfile: path,
        against: args.against.as_deref(),
        candidate: live_candidate.cloned(),
        fail_on,
        fail_on_description,
        strict: args.strict,
        today: usage.today,
    });
    match prepared {
        Ok((input, ctx)) => {
            for (short, why) in &ctx.history_skipped {
                eprintln!(
                    "warning: history revision {short} of {} skipped: {why}",
                    ctx.lockfile
                );
            }
            // (the surfaces are reduced to the tools that differ unless live)
            let reduced_from = ctx
                .candidate_text
                .as_deref()
                .filter(|_| live_candidate.is_none());
            let sides = check::usage::Sides::of(&input, reduced_from);
            let mut outcome = gate(args.no_witness, input);
            usage.judge(&sides, &mut outcome, &ctx, path, &read_from, &mut l, known);
            if args.write_fixtures {
                if let Err(e) = write_fixtures(path, &outcome) {
                    l.errors.push(RunError::text(name, &l.lockfile, e));
                }
            }
            let manifest = package.map(|p| p.manifest());
            let reading = mcp_contract::version::read::Reading {
                lockfile: path,
                tree: staged.map(|s| s.tree.dir.as_path()),
                baseline_commit: &ctx.baseline.commit,
                package: package
                    .zip(manifest.as_deref())
                    .map(|(p, m)| (p.name.as_str(), m)),
                live: live_release,
                baseline_lockfile: ctx.baseline_lockfile.as_deref(),
            };
            match mcp_contract::version::read::declared(&reading) {
                Ok(declared) => {
                    l.version = Some(mcp_contract::version::judge(
                        &outcome.changes,
                        outcome.new_surface,
                        declared,
                        args.require_version_bump,
                    ))
                }
                Err(e) => l.errors.push(RunError::input(name, &e)),
            }
            l.lockfile = ctx.lockfile.clone();
            l.checked = Some((outcome, ctx));
        }
        Err(e) => l.errors.push(RunError::input(name, &e)),
    }
    let fixture_lockfile = match staged {
        Some(st) => st.in_tree(path),
        None => path.clone(),
    };
    match check_fixtures(&fixture_lockfile, &l) {
        Ok(f) => l.fixtures = f,
        Err(e) => {
            let e = match staged {
                Some(st) => st.as_working(e),
                None => e,
            };
            l.errors.push(RunError::input(name, &e));
        }
    }
    // (after the gate: the lockfile is named as the repository names it)
    if let Some(p) = package.filter(|p| args.served && p.uses_build_step) {
        match served::check(p, &l.lockfile) {
            Ok(s) => l.served = Some(s),
            Err(text) => l.errors.push(RunError::text(name, &l.lockfile, text)),
        }
    }
    l
}

/// The gate on a prepared input, witnesses attached.
pub(crate) fn gate(no_witness: bool, mut input: check::CheckInput) -> check::CheckOutcome {
    // Entries this change adds match the changes as the check printed
    // them, before the build applied their transitions.
    let added =
        mcp_contract_build::unapply::new_entries(&input.record, input.baseline_record.as_ref());
    // The aliases taken out are compared with the old fields they rename.
    input.aliases = mcp_contract_build::unapply::unapply(&mut input.candidate, &added);
    let surfaces = (!no_witness).then(|| (input.baseline.clone(), input.candidate.clone()));
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
    outcome
}

/// Prints the run in `format`: the report on stdout; errors (and, for the
/// machine formats, the fixture summary) on stderr, where CI logs show them.
fn print_run(run: &CheckRun, format: Format, color: ColorChoice) {
    let text = match format {
        Format::Human => {
            let report = check_human::render(run, output::use_color(color));
            output::out!("{}", report.out);
            eprint!("{}", report.err);
            return;
        }
        Format::Json => check_json::render(run),
        Format::Github => github::render(run),
        Format::Sarif => sarif::render(run),
        Format::Junit => junit::render(run),
        Format::Markdown => markdown::render(run),
    };
    output::out!("{text}");
    for l in &run.lockfiles {
        eprint!("{}", check_human::fixtures(l));
        eprint!("{}", check_human::served(l));
    }
    eprint!("{}", check_human::errors(run));
}

/// A path as the user would name it: relative to the current directory when inside it.
fn shown(path: &Path) -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    path.strip_prefix(&cwd)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// What `check` checks.
pub(crate) enum Selection {
    /// One lockfile, named or the default in the current directory.
    Lockfile(PathBuf),
    /// Cargo packages (`-p`, `--workspace`, `--manifest-path`, or the package
    /// of the current directory).
    Packages(Vec<packages::PackageLockfile>),
}

fn select(args: &Args) -> Result<Selection, InputError> {
    let none_found = || {
        InputError::new(
            "Cargo.toml",
            format!("no workspace package has a {}", lockfile::DEFAULT_PATH),
        )
        .fix("generate one with `cargo build` (mcp-contract-build) or `cargo mcp-contract snapshot`, or pass --lockfile")
    };
    if let Some(path) = &args.lockfile {
        return Ok(Selection::Lockfile(path.clone()));
    }
    if args.package.is_some() || args.workspace || args.manifest_path.is_some() {
        let found = packages::find(
            args.manifest_path.as_deref(),
            args.package.as_deref(),
            &super::build_script::lockfile_of,
        )?;
        return match found.is_empty() {
            true => Err(none_found()),
            false => Ok(Selection::Packages(found)),
        };
    }
    let here = PathBuf::from(lockfile::DEFAULT_PATH);
    if args.server {
        return Ok(Selection::Lockfile(here));
    }
    // Anywhere inside a package or workspace: the nearest Cargo.toml decides,
    // as it does for cargo, and a package's own lockfile is judged as `-p`
    // judges it (its build step's freshness first). A lockfile here that no
    // package of that manifest owns is judged as written.
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    match packages::find_from_dir(&cwd, &super::build_script::lockfile_of)? {
        None => Ok(Selection::Lockfile(here)),
        Some(found) if here.exists() && packages::owner_of(&found, &cwd.join(&here)).is_none() => {
            Ok(Selection::Lockfile(here))
        }
        Some(found) if found.is_empty() => Err(none_found()),
        Some(found) => Ok(Selection::Packages(found)),
    }
}

/// Runs `contracts/fixtures/` beside the lockfile through its published
/// schema and the compatibility plan of its migration record
/// (`mcp_contract::runtime::fixture_check`). `Ok(None)`: no fixtures.
/// Files are named relative to the repository root once the check knows it.
fn check_fixtures(
    lockfile: &Path,
    l: &LockfileRun,
) -> Result<Option<FixtureResults>, mcp_contract::InputError> {
    use mcp_contract::runtime::fixture_check;
    let report = fixture_check::check_contracts(lockfile)?;
    if report.checked == 0 {
        return Ok(None);
    }
    // `contracts/fixtures` as the repository names it, else as found.
    let dir = match &l.checked {
        Some((_, ctx)) => Path::new(&ctx.lockfile)
            .parent()
            .unwrap_or(Path::new(""))
            .join("fixtures"),
        None => PathBuf::from(shown(&report.dir)),
    };
    let failures = report
        .failures
        .iter()
        .map(|f| FixtureFinding {
            tool: f.tool.clone(),
            file: match f.file.strip_prefix(&report.dir) {
                Ok(rel) => dir.join(rel).display().to_string(),
                Err(_) => shown(&f.file),
            },
            problem: f.problem.clone(),
        })
        .collect();
    Ok(Some(FixtureResults {
        dir: dir.display().to_string(),
        checked: report.checked,
        failures,
    }))
}

/// Fills the witness and proof of every breaking change (decided first, proven after).
fn attach_witnesses(
    outcome: &mut check::CheckOutcome,
    baseline: mcp_contract::Surface,
    candidate: &mcp_contract::Surface,
    opts: &witness::Options,
) {
    // A change at a renamed field's alias is witnessed on the surface it
    // was found on (the alias in place), the others on the candidate.
    let (at_alias, elsewhere): (Vec<usize>, Vec<usize>) =
        (0..outcome.changes.len()).partition(|i| outcome.alias_changes.contains(i));
    for (indices, new) in [(elsewhere, candidate), (at_alias, &outcome.alias_surface)] {
        let mut changes: Vec<mcp_contract::Change> = indices
            .iter()
            .map(|&i| outcome.changes[i].change.clone())
            .collect();
        witness::attach_changes(&mut changes, &baseline, new, opts);
        for (i, c) in indices.into_iter().zip(changes) {
            outcome.changes[i].change = c;
        }
    }
}

/// `--write-fixtures`: the input witnesses as fixtures beside the lockfile;
/// says on stderr what it wrote.
fn write_fixtures(lockfile: &Path, outcome: &check::CheckOutcome) -> Result<(), String> {
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
        Err(e) => Err(format!("cannot write fixtures under {}: {e}\n  help: check the directory's permissions, or run without --write-fixtures", dir.display())),
    }
}

/// With `--server`, the surface the running server publishes and the
/// release it says it is.
fn live_candidate(
    args: &Args,
) -> Result<Option<(mcp_contract::Surface, mcp_contract::model::Release)>, u8> {
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
        Ok(c) => {
            let release = mcp_contract::model::Release {
                name: c.server.name.clone(),
                version: c.server.version.clone(),
            };
            let surface = match lockfile::read(&recorded) {
                Ok(locked) => {
                    mcp_contract_driver::capture::with_locked_versions(c.surface, &locked)
                }
                Err(_) => c.surface,
            };
            Ok(Some((surface, release)))
        }
        Err(e) => Err(live::driver_error(&e)),
    }
}
