//! `cargo mcp-contract install-hook`: a git pre-commit hook running the check.

use mcp_contract::git::hook::{install_pre_commit, HookInstall};
use mcp_contract::git::Repo;

use crate::output;

#[derive(clap::Args)]
pub struct Args {
    /// Replace a pre-commit hook that mcp-contract did not write (kept as pre-commit.bak)
    #[arg(long)]
    force: bool,
    /// Extra arguments for `cargo mcp-contract check` in the hook (e.g. "--workspace")
    #[arg(long, value_name = "ARGS", default_value = "")]
    check_args: String,
}

pub fn run(args: Args) -> u8 {
    let repo = match Repo::discover(std::path::Path::new(".")) {
        Ok(r) => r,
        Err(e) => return output::input_error(&e),
    };
    match install_pre_commit(&repo, args.force, &args.check_args) {
        Ok(HookInstall::Created(p)) => eprintln!("installed {}", p.display()),
        Ok(HookInstall::Updated(p)) => eprintln!("updated {}", p.display()),
        Ok(HookInstall::Replaced(p, backup)) => eprintln!(
            "installed {} (the previous hook is kept at {})",
            p.display(),
            backup.display()
        ),
        Err(e) => return output::input_error(&e),
    }
    output::OK
}
