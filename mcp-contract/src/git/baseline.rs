//! Which commit the candidate is compared with: `--against REV`, or by
//! default the merge-base of HEAD with the upstream default branch
//! (`origin/HEAD`, else `origin/main`, `origin/master`, `main`, `master`).
//! The merge-base, not the branch tip: changes that landed on main after the
//! branch forked are not this branch's changes.

use super::Repo;
use crate::error::InputError;

/// The resolved baseline commit and how it was chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Baseline {
    pub commit: String,
    pub short: String,
    /// E.g. `merge-base of HEAD and origin/main` or `--against v1.2.0`.
    pub description: String,
    /// The default baseline is HEAD itself (on the default branch, or a
    /// branch that has not moved from it): only what is not committed yet
    /// can differ.
    pub at_head: bool,
}

/// Resolves the baseline, refusing every situation in which it could not
/// see the history it needs (never a silent "nothing changed").
pub fn resolve_baseline(repo: &Repo, against: Option<&str>) -> Result<Baseline, InputError> {
    let Some(head) = repo.resolve_commit("HEAD")? else {
        return Err(InputError::new(
            repo.root.display().to_string(),
            "the repository has no commits yet, so there is no baseline to compare with",
        )
        .fix("commit the lockfile first (`git add contracts/ && git commit`); a surface that was never published has nothing to break"));
    };
    if repo.is_shallow()? {
        return Err(InputError::new(
            repo.root.display().to_string(),
            "this is a shallow clone: the baseline and the lockfile's history may be cut off",
        )
        .fix("run `git fetch --unshallow` (in GitHub Actions: `actions/checkout` with `fetch-depth: 0`)"));
    }
    if let Some(rev) = against {
        let Some(commit) = repo.resolve_commit(rev)? else {
            return Err(InputError::new(
                "--against",
                format!("git does not know the revision `{rev}`"),
            )
            .fix(format!("fetch it first (`git fetch origin {rev}`), or pass a revision that exists (`git log --oneline` lists them)")));
        };
        return Ok(Baseline {
            short: repo.short(&commit),
            description: format!("--against {rev}"),
            at_head: commit == head,
            commit,
        });
    }
    let on_branch = repo.git(["symbolic-ref", "--quiet", "HEAD"])?.ok;
    if !on_branch {
        return Err(InputError::new(
            repo.root.display().to_string(),
            "HEAD is detached, so the branch to compare with is unknown (a detached HEAD on main would compare the commit with itself)",
        )
        .fix("pass the baseline explicitly: `--against origin/main` (in GitHub Actions: `--against origin/${{ github.base_ref }}` for pull requests, `--against HEAD~1` for pushes)"));
    }
    let Some(branch) = default_branch(repo)? else {
        return Err(InputError::new(
            repo.root.display().to_string(),
            "cannot find the default branch: no origin/HEAD, origin/main, origin/master, main or master",
        )
        .fix("pass the baseline explicitly (`--against REV`), or set the remote's default with `git remote set-head origin --auto`"));
    };
    let out = repo.git(["merge-base", "HEAD", &branch])?;
    let merge_base = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.ok || merge_base.is_empty() {
        return Err(InputError::new(
            repo.root.display().to_string(),
            format!("HEAD and {branch} have no common ancestor"),
        )
        .fix("pass the baseline explicitly with `--against REV`"));
    }
    let at_head = merge_base == head;
    let description = if at_head {
        format!("HEAD, where {branch} is")
    } else {
        format!("merge-base of HEAD and {branch}")
    };
    Ok(Baseline {
        short: repo.short(&merge_base),
        at_head,
        commit: merge_base,
        description,
    })
}

/// The upstream default branch as a revision name (`origin/main`, `main`...).
fn default_branch(repo: &Repo) -> Result<Option<String>, InputError> {
    let out = repo.git(["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"])?;
    if out.ok {
        let full = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if let Some(short) = full.strip_prefix("refs/remotes/") {
            if repo.resolve_commit(&full)?.is_some() {
                return Ok(Some(short.to_string()));
            }
        }
    }
    // The candidates in order of preference, asked of git in one process:
    // `for-each-ref` lists those that exist (in its own order), with what
    // they point at.
    const CANDIDATES: [(&str, &str); 4] = [
        ("refs/remotes/origin/main", "origin/main"),
        ("refs/remotes/origin/master", "origin/master"),
        ("refs/heads/main", "main"),
        ("refs/heads/master", "master"),
    ];
    // (`%(*objecttype)`: what an annotated tag peels to, as `^{commit}` would)
    let mut args = vec![
        "for-each-ref",
        "--format=%(objecttype) %(*objecttype) %(refname)",
    ];
    args.extend(CANDIDATES.iter().map(|(full, _)| *full));
    let listed = repo.git_ok(args)?;
    let commits: Vec<&str> = listed
        .lines()
        .filter_map(|l| {
            let (kind, rest) = l.split_once(' ')?;
            let (peeled, name) = rest.split_once(' ')?;
            (kind == "commit" || peeled == "commit").then_some(name)
        })
        .collect();
    Ok(CANDIDATES
        .iter()
        .find(|(full, _)| commits.contains(full))
        .map(|(_, short)| short.to_string()))
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// git at `dir` with the environment the checks scrub (a `GIT_DIR`
    /// inherited from a hook must not redirect the test's repository).
    fn git(dir: &Path, args: &[&str]) {
        let ok = crate::git::command_in(dir)
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .output()
            .expect("git runs")
            .status
            .success();
        assert!(ok, "git {args:?}");
    }

    /// The default branch is the first candidate that exists, in the
    /// documented order, whatever order git lists them in.
    #[test]
    fn default_branch_prefers_the_remote_then_main_then_master() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        git(dir, &["init", "-q", "-b", "master"]);
        git(dir, &["commit", "-q", "--allow-empty", "-m", "one"]);
        let repo = Repo::discover(dir).unwrap();
        let branch = || default_branch(&repo).unwrap();
        assert_eq!(branch().as_deref(), Some("master"));
        git(dir, &["branch", "main"]);
        assert_eq!(branch().as_deref(), Some("main"));
        git(dir, &["update-ref", "refs/remotes/origin/master", "HEAD"]);
        assert_eq!(branch().as_deref(), Some("origin/master"));
        git(dir, &["update-ref", "refs/remotes/origin/main", "HEAD"]);
        assert_eq!(branch().as_deref(), Some("origin/main"));
        // an annotated tag's object counts as the commit it peels to; a
        // ref to anything else is not a branch to compare with
        git(dir, &["tag", "-a", "-m", "t", "t1"]);
        git(
            dir,
            &["update-ref", "refs/remotes/origin/main", "refs/tags/t1"],
        );
        assert_eq!(branch().as_deref(), Some("origin/main"));
        git(
            dir,
            &["update-ref", "refs/remotes/origin/main", "HEAD^{tree}"],
        );
        assert_eq!(branch().as_deref(), Some("origin/master"));
    }
}
