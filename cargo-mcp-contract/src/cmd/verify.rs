//! `cargo mcp-contract verify --server [--lockfile PATH] -- CMD`: the live
//! surface must equal the committed lockfile, byte for byte once canonical.
//! A live tool whose `inputSchema` is not an object schema is refused
//! (exit 2) unless `--allow-non-object-input` ([`crate::cmd::accepted`]).

use std::path::{Path, PathBuf};

use mcp_contract::check::packages;
use mcp_contract::{load, lockfile, report};
use mcp_contract_driver::{capture, verify};

use crate::cmd::accepted::AcceptArgs;
use crate::cmd::live::{self, ServerArgs};
use crate::output::{self, ColorChoice};

#[derive(clap::Args)]
pub struct Args {
    /// Start the server command given after `--` and read its surface over stdio (implied by --url/--config)
    #[arg(long, required_unless_present_any = ["url", "config"])]
    server: bool,
    /// The committed lockfile to compare with
    #[arg(long, default_value = lockfile::DEFAULT_PATH)]
    lockfile: PathBuf,
    /// Colour the report
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    #[command(flatten)]
    accept: AcceptArgs,
    #[command(flatten)]
    live: ServerArgs,
}

pub fn run(args: Args) -> u8 {
    let cmd = match args.live.endpoint() {
        Ok(c) => c,
        Err(code) => return code,
    };
    let locked = match lockfile::read(&args.lockfile) {
        Ok(s) => s,
        Err(e) => return output::input_error(&e),
    };
    let captured = match capture(&cmd, &args.live.options()) {
        Ok(c) => c,
        Err(e) => return live::driver_error(&e),
    };
    if let Err(code) = args.accept.check(
        &captured.surface,
        &format!("tools/list of `{cmd}`"),
        &|name| load::published::locate_in_listing(&captured.tools, name),
    ) {
        return code;
    }
    let live = mcp_contract_driver::capture::with_locked_versions(captured.surface, &locked);
    let v = verify::verify(&locked, &live);
    if let Some(note) = &v.tools_only {
        eprintln!("note: {note}");
    }
    // The release is not contract: a version the lockfile records that the
    // server no longer gives is said, not failed (the version rule reads it).
    let recorded = std::fs::read_to_string(&args.lockfile)
        .ok()
        .and_then(|t| lockfile::release(&t, "").ok().flatten())
        .and_then(|r| r.version);
    if let (Some(was), now) = (&recorded, &captured.server.version) {
        if Some(was) != now.as_ref() {
            eprintln!(
                "note: {} records serverInfo.version {was}, the server now gives {}: `cargo mcp-contract snapshot` records the new release (the contract is compared below)",
                args.lockfile.display(),
                now.as_deref().unwrap_or("none")
            );
        }
    }
    if v.identical() {
        output::outln!(
            "{} matches the live surface of `{cmd}` ({} tools)",
            args.lockfile.display(),
            locked.len()
        );
        return output::OK;
    }
    let what = if v
        .differing
        .iter()
        .all(|d| locked.get(d).is_some() || live.get(d).is_some())
    {
        "tool(s)"
    } else {
        "entries"
    };
    output::outln!(
        "the live surface of `{cmd}` differs from {} in {} {what}: {}",
        args.lockfile.display(),
        v.differing.len(),
        v.differing.join(", ")
    );
    if !v.report.changes.is_empty() {
        output::out!(
            "{}",
            report::render_human(&v.report, output::use_color(args.color))
        );
    }
    for tool in v.unclassified() {
        let keys = verify::differing_keys(&locked, &live, &tool);
        let what = if locked.get(&tool).is_some() || live.get(&tool).is_some() {
            format!("tool `{tool}`")
        } else {
            format!("`{tool}`")
        };
        output::outln!(
            "{what}: {} differs (no compatibility rule judges this)",
            keys.iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if v.cosmetic_only() {
        output::outln!("note: every difference is cosmetic, but the lockfile must still record exactly what the server publishes");
    }
    eprintln!(
        "error: the server does not publish what {} records\n  help: {}",
        args.lockfile.display(),
        fix(&args)
    );
    output::FAILED
}

/// The fix for a server that does not publish its lockfile. A lockfile the
/// package's build step (mcp-contract-build) writes comes from the sources:
/// a snapshot would be undone by the next build, so the fix is the build.
fn fix(args: &Args) -> String {
    match build_step_package(&args.lockfile) {
        Some(package) => format!(
            "`{package}`'s build script (mcp-contract-build) writes this lockfile from its sources, so a snapshot would be undone by the next build: rebuild with `cargo build -p {package}`, review the lockfile's diff and verify the server that build produced; if it still differs, the server changes its tools at run time (serve them through `mcp_contract::rmcp::Contracted`)"
        ),
        None => format!(
            "if the live surface is the intended contract, refresh the lockfile with `cargo mcp-contract snapshot --server -o {} {}` and review its diff; otherwise rebuild the server from the commit that wrote the lockfile",
            args.lockfile.display(),
            args.live.shell_words()
        ),
    }
}

/// The package whose build step writes `lockfile`: the package cargo finds
/// at or above it, with a build-dependency on mcp-contract-build and this
/// file as its lockfile (`None` outside a cargo project, or when `cargo
/// metadata` cannot tell).
fn build_step_package(lockfile: &Path) -> Option<String> {
    let lockfile = lockfile.canonicalize().ok()?;
    let found =
        packages::find_from_dir(lockfile.parent()?, &super::build_script::lockfile_of).ok()??;
    found
        .into_iter()
        .find(|p| p.uses_build_step && p.lockfile.canonicalize().is_ok_and(|l| l == lockfile))
        .map(|p| p.name)
}
