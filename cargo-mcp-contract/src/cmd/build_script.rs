//! The build step as a package's `build.rs` configures it, for the commands
//! that run it outside cargo (`check`'s freshness check, `--staged`, the
//! hook and the Action through them): where its lockfile is, and the
//! escape hatches it gives ([`mcp_contract_build::build_script`]).

use std::path::{Path, PathBuf};

use mcp_contract::check::packages::PackageLockfile;
use mcp_contract::InputError;
use mcp_contract_build::build_script::{self, BuildScript};

/// What the build script at `path` configures (`None`: the package uses no
/// build step, or has no build script to configure it).
pub fn read(p: &PackageLockfile, path: Option<&Path>) -> Result<Option<BuildScript>, InputError> {
    match path {
        Some(path) if p.uses_build_step => build_script::read(path).map(Some).map_err(input_error),
        _ => Ok(None),
    }
}

/// The lockfile the package's build script configures, for
/// [`mcp_contract::check::packages::find`].
pub fn lockfile_of(p: &PackageLockfile) -> Result<Option<PathBuf>, InputError> {
    Ok(read(p, p.build_script.as_deref())?.and_then(|s| s.lockfile))
}

fn input_error(e: mcp_contract_build::Error) -> InputError {
    match e {
        mcp_contract_build::Error::BuildScript {
            file,
            line,
            column,
            message,
            help,
        } => {
            let err = InputError::new(file.display().to_string(), message).fix(help);
            if line > 0 {
                err.at(format!("line {line}, column {column}"))
            } else {
                err
            }
        }
        other => InputError::new("build.rs", other.to_string()),
    }
}
