//! `cargo mcp-contract snapshot --from FILE [-o PATH]`.

use std::path::PathBuf;

use mcp_contract::{load, lockfile};

use crate::output;

#[derive(clap::Args)]
pub struct Args {
    /// A captured surface: a tools/list result (bare or JSON-RPC), an array of tools, one tool, or a lockfile
    #[arg(long)]
    from: PathBuf,
    /// Where to write the lockfile (`-` for stdout)
    #[arg(short = 'o', long, default_value = lockfile::DEFAULT_PATH)]
    output: PathBuf,
}

pub fn run(args: Args) -> u8 {
    let surface = match load::read_surface(&args.from) {
        Ok(s) => s,
        Err(e) => return output::input_error(&e),
    };
    let text = lockfile::render(&surface);
    if args.output.as_os_str() == "-" {
        print!("{text}");
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
