//! Finding the lockfiles of cargo packages (`-p PKG`, `--workspace`,
//! `--manifest-path`, or the package around the current directory, so that a
//! plain `check` judges a package the same way `-p` does) with `cargo metadata`, and telling whether a package
//! that refreshes its lockfile in a build script (mcp-contract-build) has
//! sources newer than its lockfile, with the command that refreshes it.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::error::InputError;
use crate::lockfile::DEFAULT_PATH;

/// A package and where its lockfile lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageLockfile {
    pub name: String,
    pub dir: PathBuf,
    pub lockfile: PathBuf,
    /// The package has a build-dependency on mcp-contract-build.
    pub uses_build_step: bool,
    /// The package's build script (`build.rs`, or `package.build`), if any.
    pub build_script: Option<PathBuf>,
}

impl PackageLockfile {
    /// The package's manifest.
    pub fn manifest(&self) -> PathBuf {
        self.dir.join("Cargo.toml")
    }
}

/// Where a package's build step keeps its lockfile, when not at
/// [`DEFAULT_PATH`] (what its `build.rs` configures: the caller reads it).
pub type LockfileOf<'a> = &'a dyn Fn(&PackageLockfile) -> Result<Option<PathBuf>, InputError>;

/// Packages selected by `-p` (one name) or all workspace members, that have
/// a lockfile (or, for a named package, where it should be).
pub fn find(
    manifest_path: Option<&Path>,
    package: Option<&str>,
    lockfile_of: LockfileOf<'_>,
) -> Result<Vec<PackageLockfile>, InputError> {
    let (all, shown) = list(manifest_path, lockfile_of)?;
    let Some(want) = package else {
        return Ok(all.into_iter().filter(|p| p.lockfile.exists()).collect());
    };
    let names: Vec<&str> = all.iter().map(|p| p.name.as_str()).collect();
    if !names.contains(&want) {
        let hint = match crate::migrations::did_you_mean(want, &names) {
            Some(s) => format!("did you mean `-p {s}`?"),
            None => format!("workspace packages: {}", names.join(", ")),
        };
        return Err(
            InputError::new(shown, format!("no package `{want}` in the workspace")).fix(hint),
        );
    }
    Ok(all.into_iter().filter(|p| p.name == want).collect())
}

/// The package (or workspace) `check` means when run in `dir` with no
/// `--lockfile`, `-p` or `--workspace`, found the way cargo finds it: the
/// nearest `Cargo.toml` at or above `dir`. A package's manifest selects that
/// package (its lockfile where it should be, even when absent); a virtual
/// workspace manifest selects every member that has a lockfile. `Ok(None)`:
/// no manifest at or above `dir` (not a cargo project).
pub fn find_from_dir(
    dir: &Path,
    lockfile_of: LockfileOf<'_>,
) -> Result<Option<Vec<PackageLockfile>>, InputError> {
    let Some(manifest) = dir
        .ancestors()
        .map(|d| d.join("Cargo.toml"))
        .find(|m| m.is_file())
    else {
        return Ok(None);
    };
    let (all, _) = list(Some(&manifest), lockfile_of)?;
    let package_dir = manifest.parent().unwrap_or(Path::new("."));
    let mine: Vec<PackageLockfile> = all
        .iter()
        .filter(|p| same_dir(&p.dir, package_dir))
        .cloned()
        .collect();
    if mine.is_empty() {
        // A virtual manifest: the whole workspace.
        return Ok(Some(
            all.into_iter().filter(|p| p.lockfile.exists()).collect(),
        ));
    }
    Ok(Some(mine))
}

/// The package among `found` whose lockfile is `lockfile`.
pub fn owner_of<'a>(found: &'a [PackageLockfile], lockfile: &Path) -> Option<&'a PackageLockfile> {
    found.iter().find(|p| same_dir(&p.lockfile, lockfile))
}

fn same_dir(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// Every workspace member (`cargo metadata --no-deps`), and how the manifest is shown.
fn list(
    manifest_path: Option<&Path>,
    lockfile_of: LockfileOf<'_>,
) -> Result<(Vec<PackageLockfile>, String), InputError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["metadata", "--no-deps", "--format-version", "1"]);
    if let Some(m) = manifest_path {
        cmd.arg("--manifest-path").arg(m);
    }
    let out = cmd.output().map_err(|e| {
        InputError::new("cargo", format!("cannot run `cargo metadata`: {e}"))
            .fix("run inside a cargo project, or pass the lockfile with --lockfile")
    })?;
    let shown = manifest_path
        .map(|m| m.display().to_string())
        .unwrap_or_else(|| "Cargo.toml".into());
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(InputError::new(
            shown,
            format!(
                "`cargo metadata` failed: {}",
                err.lines()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("")
                    .trim()
            ),
        )
        .fix("fix the manifest, or pass the lockfile with --lockfile"));
    }
    let meta: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        InputError::new(&shown, format!("unreadable `cargo metadata` output: {e}"))
            .fix("pass the lockfile with --lockfile")
    })?;
    let mut all = vec![];
    for p in meta["packages"].as_array().into_iter().flatten() {
        let name = p["name"].as_str().unwrap_or_default().to_string();
        let Some(manifest) = p["manifest_path"].as_str() else {
            continue;
        };
        let dir = Path::new(manifest)
            .parent()
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let lockfile = dir.join(DEFAULT_PATH);
        let uses_build_step = p["dependencies"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|d| d["name"] == "mcp-contract-build" && d["kind"] == "build");
        let build_script = p["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|t| {
                t["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == "custom-build"))
            })
            .and_then(|t| t["src_path"].as_str())
            .map(PathBuf::from);
        let mut found = PackageLockfile {
            name,
            dir,
            lockfile,
            uses_build_step,
            build_script,
        };
        if let Some(configured) = lockfile_of(&found)? {
            found.lockfile = found.dir.join(configured);
        }
        all.push(found);
    }
    Ok((all, shown))
}
