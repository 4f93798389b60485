//! `cargo mcp-contract changelog [--from REV] [--to REV]`: what changed for
//! the people who call the server, between two revisions of the lockfile.
//! The findings are the gate's (`check --against FROM` on the newer
//! revision, witnesses aside), rendered by [`mcp_contract::report::changelog`].

use std::path::{Path, PathBuf};

use mcp_contract::check::packages;
use mcp_contract::check::repo::{self, RepoCheck};
use mcp_contract::git::{BlobReader, Repo};
use mcp_contract::migrations::{self, Date};
use mcp_contract::report::changelog::{self as render, LockfileChangelog};
use mcp_contract::{changelog, lockfile, InputError, Severity};

use crate::output;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Markdown,
    Json,
}

#[derive(clap::Args)]
pub struct Args {
    /// The older revision (default: `check`'s baseline, the merge-base of HEAD with origin/HEAD, else main/master)
    #[arg(long, value_name = "REV")]
    from: Option<String>,
    /// The newer revision (default: the working tree)
    #[arg(long, value_name = "REV")]
    to: Option<String>,
    /// The lockfile (its migrations.toml sits beside it)
    #[arg(long, value_name = "PATH", conflicts_with_all = ["package", "workspace"])]
    lockfile: Option<PathBuf>,
    /// This cargo package's contracts/mcp-contract.lock
    #[arg(short = 'p', long, value_name = "PKG", conflicts_with = "workspace")]
    package: Option<String>,
    /// Every workspace package that has a contracts/mcp-contract.lock
    #[arg(long)]
    workspace: bool,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    format: Format,
}

pub fn run(args: Args) -> u8 {
    let lockfiles = match select(&args) {
        Ok(l) => l,
        Err(e) => return output::input_error(&e),
    };
    let mut prepared = vec![];
    for path in &lockfiles {
        match prepare(&args, path) {
            Ok(p) => prepared.push(p),
            Err(e) => return output::input_error(&e),
        }
    }
    let logs: Vec<LockfileChangelog<'_>> = prepared
        .iter()
        .map(|p| LockfileChangelog {
            lockfile: &p.ctx.lockfile,
            from_short: &p.ctx.baseline.short,
            from_description: &p.ctx.baseline.description,
            to: &p.to,
            new_surface: p.outcome.new_surface,
            changelog: changelog::build(&p.outcome, p.older_record.as_ref()),
        })
        .collect();
    let text = match args.format {
        Format::Markdown => render::render_markdown(&logs),
        Format::Json => render::render_json(&logs),
    };
    output::out!("{text}");
    output::OK
}

struct Prepared {
    ctx: repo::CheckContext,
    outcome: mcp_contract::check::CheckOutcome,
    older_record: Option<migrations::MigrationRecord>,
    to: String,
}

fn select(args: &Args) -> Result<Vec<PathBuf>, InputError> {
    if let Some(l) = &args.lockfile {
        return Ok(vec![l.clone()]);
    }
    if args.package.is_none() && !args.workspace {
        return Ok(vec![PathBuf::from(lockfile::DEFAULT_PATH)]);
    }
    let found = packages::find(
        None,
        args.package.as_deref(),
        &super::build_script::lockfile_of,
    )?;
    if found.is_empty() {
        return Err(InputError::new(
            "Cargo.toml",
            format!("no workspace package has a {}", lockfile::DEFAULT_PATH),
        )
        .fix("pass --lockfile PATH"));
    }
    Ok(found.into_iter().map(|p| p.lockfile).collect())
}

/// A scratch copy of the newer revision's lockfile and record, removed on drop.
struct Exported(PathBuf);

impl Drop for Exported {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The newer revision's lockfile and record, copied out of git objects to
/// the places `check --staged` reads them from.
fn export(path: &Path, rev: &str) -> Result<(Exported, String), InputError> {
    let at = path.parent().filter(|p| !p.as_os_str().is_empty());
    let repo = Repo::discover(at.unwrap_or(Path::new(".")))?;
    let Some(commit) = repo.resolve_commit(rev)? else {
        return Err(
            InputError::new("--to", format!("git does not know the revision `{rev}`"))
                .fix("pass a revision that exists (`git log --oneline` lists them)"),
        );
    };
    let rel = repo.relative(path)?;
    let rel_record = repo.relative(&migrations::path_for(path))?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let dir = Exported(std::env::temp_dir().join(format!(
        "mcp-contract-changelog-{}-{nanos}",
        std::process::id()
    )));
    let mut reader = BlobReader::start(&repo)?;
    for rel in [&rel, &rel_record] {
        if let Some(bytes) = reader.read(&format!("{commit}:{rel}"))? {
            let to = dir.0.join(rel);
            let written = std::fs::create_dir_all(to.parent().unwrap_or(&dir.0))
                .and_then(|_| std::fs::write(&to, bytes));
            if let Err(e) = written {
                return Err(InputError::new(
                    to.display().to_string(),
                    format!("cannot write a scratch copy: {e}"),
                )
                .fix("check that the temporary directory is writable (TMPDIR)"));
            }
        }
    }
    reader.finish()?;
    Ok((dir, repo.short(&commit)))
}

fn prepare(args: &Args, path: &Path) -> Result<Prepared, InputError> {
    let exported = args
        .to
        .as_deref()
        .map(|rev| export(path, rev))
        .transpose()?;
    let (input, ctx) = repo::prepare(RepoCheck {
        lockfile: path,
        against: args.from.as_deref(),
        candidate: None,
        tree: exported.as_ref().map(|(d, _)| d.0.as_path()),
        package: None,
        side: match args.to.as_deref() {
            Some(rev) => mcp_contract::git::moved::Side::Revision(rev),
            None => mcp_contract::git::moved::Side::WorkTree,
        },
        fail_on: Severity::Breaking,
        fail_on_description: None,
        strict: false,
        today: Date::today(),
    })?;
    let older_record = input.baseline_record.clone();
    let mut ctx = ctx;
    ctx.baseline.description = ctx.baseline.description.replace("--against", "--from");
    // the gate `check` runs, witnesses aside: the same findings
    let outcome = super::check::gate(true, input);
    Ok(Prepared {
        ctx,
        outcome,
        older_record,
        to: exported.map_or_else(|| "the working tree".to_string(), |(_, short)| short),
    })
}
