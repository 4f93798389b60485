//! Installing the git pre-commit hook that runs `cargo mcp-contract check`
//! (respecting `core.hooksPath` and linked worktrees), without ever
//! clobbering a hook someone else wrote unless asked to (`--force`, which
//! keeps the old one as `pre-commit.bak`).

use std::path::PathBuf;

use super::Repo;
use crate::error::InputError;

/// The line that marks a hook as ours.
pub const HOOK_MARKER: &str = "# installed by `cargo mcp-contract install-hook`";

/// What installing did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookInstall {
    Created(PathBuf),
    /// Our own hook was already there; it was rewritten.
    Updated(PathBuf),
    /// A foreign hook was replaced; it was kept at the second path.
    Replaced(PathBuf, PathBuf),
}

/// The hook script.
pub fn hook_script(check_args: &str) -> String {
    let args = if check_args.trim().is_empty() {
        String::new()
    } else {
        format!(" {}", check_args.trim())
    };
    format!(
        "#!/bin/sh\n{HOOK_MARKER}\n# Blocks a commit whose MCP tool contract breaks callers without an entry in\n# contracts/migrations.toml, or whose staged lockfile is not what its staged\n# sources build. Skip once with `git commit --no-verify`.\nexec cargo mcp-contract check --staged{args}\n"
    )
}

/// Where git looks for hooks in this work tree.
pub fn hooks_dir(repo: &Repo) -> Result<PathBuf, InputError> {
    let configured = repo.git(["config", "--get", "core.hooksPath"])?;
    if configured.ok {
        let p = String::from_utf8_lossy(&configured.stdout)
            .trim()
            .to_string();
        if !p.is_empty() {
            let path = PathBuf::from(&p);
            return Ok(if path.is_absolute() {
                path
            } else {
                repo.root.join(path)
            });
        }
    }
    let common = repo.git_ok(["rev-parse", "--git-common-dir"])?;
    let common = PathBuf::from(common);
    let common = if common.is_absolute() {
        common
    } else {
        repo.root.join(common)
    };
    Ok(common.join("hooks"))
}

/// Installs the pre-commit hook.
pub fn install_pre_commit(
    repo: &Repo,
    force: bool,
    check_args: &str,
) -> Result<HookInstall, InputError> {
    let dir = hooks_dir(repo)?;
    let path = dir.join("pre-commit");
    let script = hook_script(check_args);
    let shown = path.display().to_string();
    let existing = std::fs::read_to_string(&path).ok();
    let outcome = match &existing {
        None => HookInstall::Created(path.clone()),
        Some(text) if text.contains(HOOK_MARKER) => HookInstall::Updated(path.clone()),
        Some(_) if !force => {
            return Err(InputError::new(&shown, "a pre-commit hook that mcp-contract did not write is already installed")
                .fix("add `cargo mcp-contract check` to it yourself, or pass --force to replace it (the old hook is kept as pre-commit.bak)"));
        }
        Some(_) => HookInstall::Replaced(path.clone(), dir.join("pre-commit.bak")),
    };
    let write_err = |e: std::io::Error| {
        InputError::new(&shown, format!("cannot write the hook: {e}"))
            .fix("check that the hooks directory is writable")
    };
    std::fs::create_dir_all(&dir).map_err(write_err)?;
    if let HookInstall::Replaced(_, backup) = &outcome {
        std::fs::copy(&path, backup).map_err(write_err)?;
    }
    crate::lockfile::write_if_changed(&path, &script).map_err(write_err)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(write_err)?;
    }
    Ok(outcome)
}
