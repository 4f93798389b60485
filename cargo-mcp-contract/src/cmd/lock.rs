//! `cargo mcp-contract lock --config FILE [SERVER…]`: capture every server
//! a client configuration names (or only those given) into the consumer
//! lockfile (`mcp-contract.servers.lock`), each with its `serverInfo` and
//! its per-entry digests. Servers not given keep their entries; a server
//! the configuration no longer names is dropped when all are locked. If any
//! server cannot be captured, each failure is printed and nothing is written.

use std::path::PathBuf;

use mcp_contract::consumer::{self, ConsumerLock, LockedServer};
use mcp_contract::lockfile;

use crate::cmd::live::ServerArgs;
use crate::cmd::servers;
use crate::output;

#[derive(clap::Args)]
pub struct Args {
    /// The consumer lockfile to write (its record, for `check --config`, is the same name with .toml)
    #[arg(long, value_name = "PATH", default_value = consumer::DEFAULT_LOCKFILE)]
    lockfile: PathBuf,
    /// Lock only these servers of the configuration (default: every one)
    #[arg(value_name = "SERVER")]
    servers: Vec<String>,
    #[command(flatten)]
    live: ServerArgs,
}

pub fn run(args: Args) -> u8 {
    let Some(config) = args.live.config.clone() else {
        eprintln!("error: `lock` needs --config FILE\n  help: `cargo mcp-contract lock --config .mcp.json` locks every server the configuration starts");
        return output::ERROR;
    };
    if args.live.name.is_some() || args.live.url.is_some() || !args.live.command.is_empty() {
        eprintln!("error: `lock` takes the servers from --config only\n  help: name the servers to lock after the options: `cargo mcp-contract lock --config {} NAME`", config.display());
        return output::ERROR;
    }
    let mut lock = match consumer::lock::read(&args.lockfile) {
        Ok(Some((lock, _))) => lock,
        Ok(None) => ConsumerLock::default(),
        Err(e) => return output::input_error(&e),
    };
    let captured = match servers::capture_all(&config, &args.live.options(), &args.servers) {
        Ok(c) => c,
        Err(e) => return output::input_error(&e),
    };
    let mut failed = 0;
    let configured: Vec<String> = captured.iter().map(|c| c.name.clone()).collect();
    for c in captured {
        match c.result {
            Ok((surface, release)) => {
                // contract versions are declared, not published: keep the locked ones
                let surface = match lock.servers.get(&c.name) {
                    Some(old) => {
                        mcp_contract_driver::capture::with_locked_versions(surface, &old.surface)
                    }
                    None => surface,
                };
                eprintln!(
                    "locked `{}`: {} tools, {} prompts, {} resources ({})",
                    c.name,
                    surface.tools.len(),
                    surface.prompts.len(),
                    surface.resources.len() + surface.resource_templates.len(),
                    release
                        .version
                        .as_deref()
                        .map_or("no serverInfo.version".to_string(), |v| format!(
                            "version {v}"
                        ))
                );
                lock.servers
                    .insert(c.name, LockedServer { release, surface });
            }
            Err(_) if c.disabled => {
                eprintln!(
                    "skipped `{}`: disabled in the configuration (its lock entry, if any, is kept)",
                    c.name
                );
            }
            Err(why) => {
                failed += 1;
                eprintln!("error: server `{}` of {}: {why}", c.name, config.display());
            }
        }
    }
    if failed > 0 {
        eprintln!(
            "error: {failed} server(s) could not be captured: {} is unchanged",
            args.lockfile.display()
        );
        return output::ERROR;
    }
    if args.servers.is_empty() {
        let gone: Vec<String> = lock
            .servers
            .keys()
            .filter(|k| !configured.contains(k))
            .cloned()
            .collect();
        for name in gone {
            eprintln!("dropped `{name}`: the configuration no longer names it");
            lock.servers.remove(&name);
        }
    }
    match lockfile::write_if_changed(&args.lockfile, &lock.render()) {
        Ok(true) => eprintln!(
            "wrote {} ({} servers)",
            args.lockfile.display(),
            lock.servers.len()
        ),
        Ok(false) => eprintln!(
            "{} is up to date ({} servers)",
            args.lockfile.display(),
            lock.servers.len()
        ),
        Err(e) => {
            eprintln!("error: {}: cannot write the lockfile: {e}\n  help: check that the directory is writable", args.lockfile.display());
            return output::ERROR;
        }
    }
    output::OK
}
