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
    // Without the CLI, `cargo mcp-contract` would only say "no such command":
    // name the install command instead. Cargo finds subcommands on PATH and
    // in $CARGO_HOME/bin, so both count as installed.
    let install = format!(
        "cargo install --locked --git {} cargo-mcp-contract",
        env!("CARGO_PKG_REPOSITORY")
    );
    format!(
        "#!/bin/sh\n{HOOK_MARKER}\n# Blocks a commit whose MCP tool contract breaks callers without an entry in\n# contracts/migrations.toml, or whose staged lockfile is not what its staged\n# sources build. Skip once with `git commit --no-verify`.\n\
if ! command -v cargo-mcp-contract >/dev/null 2>&1 && ! [ -x \"${{CARGO_HOME:-$HOME/.cargo}}/bin/cargo-mcp-contract\" ]; then\n\
\x20 echo 'error: this pre-commit hook runs `cargo mcp-contract check`, but cargo-mcp-contract is not installed' >&2\n\
\x20 echo '  help: install it with `{install}`, or skip the check for one commit with `git commit --no-verify`' >&2\n\
\x20 exit 1\n\
fi\n\
exec cargo mcp-contract check --staged{args}\n"
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

#[cfg(all(test, unix))]
mod tests {
    use super::hook_script;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;
    use std::process::Command;

    fn executable(path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// Runs the hook with `bin` (holding a stand-in `cargo` that says it
    /// ran) first on PATH and an empty CARGO_HOME unless `cargo_home` is given.
    fn run_hook(dir: &Path, cargo_home: &Path) -> (Option<i32>, String) {
        let hook = dir.join("pre-commit");
        executable(&hook, &hook_script(""));
        let out = Command::new("sh")
            .arg(&hook)
            .env(
                "PATH",
                format!("{}:/usr/bin:/bin", dir.join("bin").display()),
            )
            .env("CARGO_HOME", cargo_home)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    #[test]
    fn without_the_cli_the_hook_names_the_install_command() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        let home = dir.path().join("cargo-home");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(home.join("bin")).unwrap();
        executable(
            &bin.join("cargo"),
            "#!/bin/sh\necho \"cargo ran: $*\" >&2\nexit 101\n",
        );
        let (code, err) = run_hook(dir.path(), &home);
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains(&format!(
                "cargo install --locked --git {} cargo-mcp-contract",
                env!("CARGO_PKG_REPOSITORY")
            )),
            "{err}"
        );
        assert!(err.contains("git commit --no-verify"), "{err}");
        assert!(!err.contains("cargo ran"), "{err}");

        // Installed in CARGO_HOME (cargo looks there even off PATH): the check runs.
        executable(&home.join("bin/cargo-mcp-contract"), "#!/bin/sh\n");
        let (code, err) = run_hook(dir.path(), &home);
        assert_eq!(code, Some(101), "{err}");
        assert!(
            err.contains("cargo ran: mcp-contract check --staged"),
            "{err}"
        );

        // On PATH: the check runs.
        std::fs::remove_file(home.join("bin/cargo-mcp-contract")).unwrap();
        executable(&bin.join("cargo-mcp-contract"), "#!/bin/sh\n");
        let (code, err) = run_hook(dir.path(), &home);
        assert_eq!(code, Some(101), "{err}");
        assert!(
            err.contains("cargo ran: mcp-contract check --staged"),
            "{err}"
        );
    }
}
