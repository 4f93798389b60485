//! `cargo mcp-contract history [TOOL]`: each tool's timeline from the
//! lockfile's git history, followed across the commits that moved it.

use std::path::PathBuf;

use mcp_contract::git::Repo;
use mcp_contract::{history, lockfile, migrations, report};

use crate::output::{self, Format};

#[derive(clap::Args)]
pub struct Args {
    /// Show only this tool
    tool: Option<String>,
    /// The lockfile whose history to walk
    #[arg(long, value_name = "PATH", default_value = lockfile::DEFAULT_PATH)]
    lockfile: PathBuf,
    /// Walk the history up to this revision
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    rev: String,
    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

pub fn run(args: Args) -> u8 {
    let result = (|| {
        let repo = Repo::discover(&args.lockfile)?;
        let rel = repo.relative(&args.lockfile)?;
        if repo.resolve_commit("HEAD")?.is_none() {
            return Err(mcp_contract::InputError::new(
                repo.root.display().to_string(),
                "the repository has no commits yet: there is no history",
            )
            .fix("commit the lockfile first"));
        }
        if repo.is_shallow()? {
            return Err(mcp_contract::InputError::new(repo.root.display().to_string(), "this is a shallow clone: the lockfile's history is cut off")
                .fix("run `git fetch --unshallow` (in GitHub Actions: `actions/checkout` with `fetch-depth: 0`)"));
        }
        let Some(commit) = repo.resolve_commit(&args.rev)? else {
            return Err(mcp_contract::InputError::new(
                "--rev",
                format!("git does not know the revision `{}`", args.rev),
            )
            .fix("pass a revision that exists (`git log --oneline` lists them)"));
        };
        // A lockfile moved since (`git mv`, not committed yet) has the
        // history of the path it was moved from; a committed move is
        // followed by the walk itself.
        let walked = mcp_contract::git::moved::locate(
            &repo,
            &commit,
            &rel,
            None,
            mcp_contract::git::moved::Side::WorkTree,
        )?
        .map_or(rel, |l| l.path);
        let h = history::from_repo(&repo, &commit, &walked)?;
        let (record, _) = migrations::read(&migrations::path_for(&args.lockfile))?;
        Ok((h, record))
    })();
    let (h, record) = match result {
        Ok(x) => x,
        Err(e) => return output::input_error(&e),
    };
    if let Some(t) = &args.tool {
        if !h.timelines.contains_key(t) {
            let names: Vec<&str> = h.timelines.keys().map(String::as_str).collect();
            eprintln!(
                "error: no tool `{t}` in the history of {} ({} revisions)",
                args.lockfile.display(),
                h.revisions
            );
            match migrations::did_you_mean(t, &names) {
                Some(s) => eprintln!("  help: did you mean `{s}`?"),
                None => eprintln!("  help: `cargo mcp-contract history` lists every tool"),
            }
            return output::ERROR;
        }
    }
    let text = match args.format {
        Format::Human => report::history::render_human(&h, &record, args.tool.as_deref()),
        Format::Json => report::history::render_json(&h, &record, args.tool.as_deref()),
    };
    output::out!("{text}");
    output::OK
}
