//! `cargo mcp-contract snapshot --from FILE [-o PATH]` and
//! `cargo mcp-contract snapshot --server [-o PATH] [--timeout SECS] -- CMD [ARGS…]`,
//! `cargo mcp-contract snapshot --url URL [--header "NAME: VALUE"]…` and
//! `cargo mcp-contract snapshot --config .mcp.json --name NAME`.
//! A tool whose `inputSchema` is not an object schema is refused (exit 2)
//! unless `--allow-non-object-input` ([`crate::cmd::accepted`]).

use std::path::PathBuf;

use mcp_contract::model::Release;
use mcp_contract::{load, lockfile, Surface};

use crate::cmd::accepted::AcceptArgs;
use crate::cmd::live::{self, ServerArgs};
use crate::output;

#[derive(clap::Args)]
pub struct Args {
    /// A captured surface: a tools/list result (bare or JSON-RPC), an array of tools, one tool, or a lockfile
    #[arg(long, required_unless_present_any = ["server", "url", "config"], conflicts_with_all = ["server", "url", "config"])]
    from: Option<PathBuf>,
    /// Start the server command given after `--` and read its surface over stdio (implied by --url/--config)
    #[arg(long)]
    server: bool,
    /// Where to write the lockfile (`-` for stdout)
    #[arg(short = 'o', long, default_value = lockfile::DEFAULT_PATH)]
    output: PathBuf,
    #[command(flatten)]
    accept: AcceptArgs,
    #[command(flatten)]
    live: ServerArgs,
}

pub fn run(args: Args) -> u8 {
    let (surface, release) = match read(&args) {
        Ok(s) => s,
        Err(code) => return code,
    };
    // A capture records the release it was taken from (the version rule
    // reads it); a surface read from a file has none.
    let text = lockfile::render_captured(&surface, &release);
    if args.output.as_os_str() == "-" {
        output::out!("{text}");
        return output::OK;
    }
    match lockfile::write_if_changed(&args.output, &text) {
        Ok(true) => eprintln!("wrote {} ({} tools)", args.output.display(), surface.len()),
        Ok(false) => eprintln!(
            "{} is up to date ({} tools)",
            args.output.display(),
            surface.len()
        ),
        Err(e) => {
            eprintln!("error: {}: cannot write lockfile: {e}\n  help: check that the directory is writable", args.output.display());
            return output::ERROR;
        }
    }
    output::OK
}

fn read(args: &Args) -> Result<(Surface, Release), u8> {
    if !args.server && !args.live.remote() {
        if !args.live.command.is_empty() {
            eprintln!("error: a server command after `--` needs --server\n  help: `cargo mcp-contract snapshot --server -- CMD`");
            return Err(output::ERROR);
        }
        let from = args.from.as_deref().unwrap_or(std::path::Path::new("-"));
        let allow = args.accept.allow_non_object_input;
        let surface =
            load::published::read_accepted(from, allow).map_err(|e| output::input_error(&e))?;
        args.accept.warn(&surface);
        return Ok((surface, Release::default()));
    }
    let cmd = args.live.endpoint()?;
    let captured = mcp_contract_driver::capture(&cmd, &args.live.options())
        .map_err(|e| live::driver_error(&e))?;
    args.accept.check(
        &captured.surface,
        &format!("tools/list of `{cmd}`"),
        &|name| load::published::locate_in_listing(&captured.tools, name),
    )?;
    let s = &captured.server;
    let lists: String = captured
        .lists
        .iter()
        .map(|(method, items, pages)| format!(", {items} from {method} ({pages} page(s))"))
        .collect();
    eprintln!(
        "captured {} tools from {} {} (protocol {}, {} tools/list page(s){lists})",
        captured.surface.len(),
        s.name.as_deref().unwrap_or("the server"),
        s.version.as_deref().unwrap_or(""),
        s.protocol_version,
        captured.pages
    );
    let release = Release {
        name: s.name.clone(),
        version: s.version.clone(),
    };
    // Contract versions are not published: keep the ones already recorded.
    let surface = match lockfile::read(&args.output) {
        Ok(existing) => {
            mcp_contract_driver::capture::with_locked_versions(captured.surface, &existing)
        }
        Err(_) => captured.surface,
    };
    Ok((surface, release))
}
