//! `check --staged` (what the pre-commit hook runs): the gate and the
//! build-step freshness check on what the commit contains, read from a copy
//! of the index ([`mcp_contract::git::staged`]), never from the working tree.

use std::path::{Path, PathBuf};

use mcp_contract::check::packages::{self, PackageLockfile};
use mcp_contract::git::staged::{export, StagedTree};
use mcp_contract::git::Repo;
use mcp_contract::lockfile;

use super::check::Selection;
use crate::output;

/// The staged tree of the repository around the current directory.
pub struct Staged {
    pub repo: Repo,
    pub tree: StagedTree,
}

pub fn export_here() -> Result<Staged, u8> {
    let repo = Repo::discover(Path::new(".")).map_err(|e| output::input_error(&e))?;
    let tree = export(&repo).map_err(|e| output::input_error(&e))?;
    Ok(Staged { repo, tree })
}

/// Does the commit change anything a lockfile depends on: Rust sources (of
/// any crate: a tool's types may live in another one), manifests,
/// `Cargo.lock`, or a `contracts/` file?
pub fn touches_contracts(st: &Staged) -> bool {
    st.tree.changed.iter().any(|p| {
        p.ends_with(".rs")
            || p.ends_with("Cargo.toml")
            || p.ends_with("Cargo.lock")
            || p.starts_with("contracts/")
            || p.contains("/contracts/")
    })
}

/// What `check --staged` says when the commit touches no contract. Outside
/// a cargo project the lockfile is captured from the running server, so a
/// staged change to the server's code cannot reach it: that is said, with
/// the command that captures it again.
pub fn nothing_to_check(st: &Staged, lockfile_arg: Option<&Path>) -> String {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let in_cargo_project = cwd.ancestors().any(|d| d.join("Cargo.toml").is_file());
    let lock = lockfile_arg.unwrap_or(Path::new(lockfile::DEFAULT_PATH));
    if in_cargo_project || !lock.is_file() || st.tree.changed.is_empty() {
        return "mcp-contract: nothing staged touches a contract (no source, manifest or contracts/ file)".to_string();
    }
    const NAMED: usize = 3;
    let mut files = st.tree.changed[..st.tree.changed.len().min(NAMED)].join(", ");
    if st.tree.changed.len() > NAMED {
        files.push_str(&format!(" and {} more", st.tree.changed.len() - NAMED));
    }
    let lock = lock.display();
    format!(
        "mcp-contract: nothing staged touches {lock}: it is captured from the running server, not derived from the sources, so the change to {files} reaches it only when the server is captured again\n  help: capture it with `cargo mcp-contract snapshot --server -o {lock} -- CMD` (CMD: the command that starts the server, e.g. `python server.py`), then `git add {lock}`"
    )
}

/// `-p PKG` or `--lockfile PATH` as given; otherwise every package of the
/// workspace with a lockfile (a change in one crate can move another's
/// contract), or the default lockfile outside a cargo project.
pub fn select(
    package: &Option<String>,
    lockfile_arg: Option<&Path>,
) -> Result<Selection, mcp_contract::InputError> {
    if let Some(path) = lockfile_arg {
        return Ok(Selection::Lockfile(path.to_path_buf()));
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let in_cargo_project = cwd.ancestors().any(|d| d.join("Cargo.toml").is_file());
    if !in_cargo_project {
        return Ok(Selection::Lockfile(PathBuf::from(lockfile::DEFAULT_PATH)));
    }
    packages::find(None, package.as_deref(), &super::build_script::lockfile_of)
        .map(Selection::Packages)
}

impl Staged {
    /// `path` (in the working tree) at the same place in the staged copy.
    pub fn in_tree(&self, path: &Path) -> PathBuf {
        let abs = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir()
                .map(|d| d.join(path))
                .unwrap_or_else(|_| path.to_path_buf())
        };
        match self.repo.relative(&abs) {
            Ok(rel) => self.tree.dir.join(rel),
            Err(_) => path.to_path_buf(),
        }
    }

    /// An error about a file of the staged copy, naming the file as the
    /// working tree has it (the copy is gone once the check ends).
    pub fn as_working(&self, mut e: mcp_contract::InputError) -> mcp_contract::InputError {
        if let Ok(rel) = Path::new(&e.file).strip_prefix(&self.tree.dir) {
            let working = self.repo.root.join(rel);
            let cwd = std::env::current_dir().unwrap_or_default();
            e.file = working
                .strip_prefix(&cwd)
                .unwrap_or(&working)
                .display()
                .to_string();
        }
        e
    }

    /// The build step's freshness check on the staged sources and record.
    /// Messages name the repository's paths, not the scratch copy's.
    pub fn verify_fresh(&self, p: &PackageLockfile) -> Result<(), String> {
        let dir = self.in_tree(&p.dir);
        self.bring_cargo_lock(&dir);
        let lock = self.in_tree(&p.lockfile);
        let scratch = format!("{}/", self.tree.dir.display());
        let root = format!("{}/", self.repo.root.display());
        let staged_note = |e: String| {
            e.replace(&scratch, &root)
                + "\n  note: checked against the staged content (`git add` what the fix changes)"
        };
        let script = p.build_script.as_deref().map(|s| self.in_tree(s));
        let script = super::build_script::read(p, script.as_deref())
            .map_err(|e| staged_note(e.to_string()))?;
        mcp_contract_build::verify_fresh(&dir, &p.name, &lock, script.as_ref())
            .map_err(|e| staged_note(e.to_string()))
    }

    /// An untracked `Cargo.lock` (a library's, often) is what a build would
    /// use: copy it into the staged tree where the tree has none, so the
    /// dependencies resolve as they do in a build.
    fn bring_cargo_lock(&self, dir_in_tree: &Path) {
        for d in dir_in_tree.ancestors() {
            if !d.starts_with(&self.tree.dir) {
                break;
            }
            let in_tree = d.join("Cargo.lock");
            if in_tree.exists() {
                return;
            }
            let rel = d.strip_prefix(&self.tree.dir).unwrap_or(Path::new(""));
            let working = self.repo.root.join(rel).join("Cargo.lock");
            if working.is_file() {
                let _ = std::fs::copy(&working, &in_tree);
                return;
            }
        }
    }
}
