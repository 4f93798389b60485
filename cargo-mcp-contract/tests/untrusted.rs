//! Nothing executes, nothing escapes: a lockfile, migration record or
//! contract fixture from an untrusted pull request cannot make `check` read
//! outside the repository (symlinks, `..`), write anywhere, or run a
//! program; `verify`/`replay` start only the command given on the command
//! line, directly, never through a shell.

#![cfg(unix)]

mod check_support;

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use check_support::{search, TestRepo, LOCK, RECORD};

/// Text that must never appear in the output: it lives outside the repository.
const SECRET: &str = "TOP-SECRET-OUTSIDE-THE-REPO";

/// A repository with a committed lockfile, and a secret file beside (not in) it.
fn repo_and_secret() -> (TestRepo, tempfile::TempDir, PathBuf) {
    let repo = TestRepo::new();
    repo.lock(search(serde_json::json!({"query": {"type": "string"}})));
    repo.write(RECORD, "version = 1\n");
    repo.commit("publish");
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.json");
    std::fs::write(
        &secret,
        format!("{{\"safe\": true, \"arguments\": {{\"x\": \"{SECRET}\"}}, \"oops\": 1}}\n"),
    )
    .unwrap();
    (repo, outside, secret)
}

/// Every file under `dir` (except `.git`) with its length and mtime.
fn tree(dir: &Path) -> BTreeMap<PathBuf, (u64, SystemTime)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let meta = std::fs::symlink_metadata(e.path()).unwrap();
            if e.file_name() == ".git" {
                continue;
            }
            if meta.is_dir() {
                stack.push(e.path());
            }
            out.insert(e.path(), (meta.len(), meta.modified().unwrap()));
        }
    }
    out
}

fn assert_refused(repo: &TestRepo, what: &str) {
    let before = tree(repo.path());
    let run = repo.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 2, "{what}: {run:?}");
    assert!(
        !run.stdout.contains(SECRET) && !run.stderr.contains(SECRET),
        "{what}: {run:?}"
    );
    assert!(run.stderr.contains("symbolic link"), "{what}: {run:?}");
    assert_eq!(
        before,
        tree(repo.path()),
        "{what}: check wrote into the repository"
    );
}

#[test]
fn a_fixture_symlinked_outside_the_repository_is_refused() {
    let (repo, _outside, secret) = repo_and_secret();
    std::fs::create_dir_all(repo.abs("contracts/fixtures/search")).unwrap();
    symlink(&secret, repo.abs("contracts/fixtures/search/leak.json")).unwrap();
    assert_refused(&repo, "fixture file link");
}

#[test]
fn a_fixture_tool_directory_symlinked_outside_is_refused() {
    let (repo, outside, _secret) = repo_and_secret();
    std::fs::create_dir_all(repo.abs("contracts/fixtures")).unwrap();
    symlink(outside.path(), repo.abs("contracts/fixtures/search")).unwrap();
    assert_refused(&repo, "fixture directory link");
}

#[test]
fn a_fixtures_directory_symlinked_outside_is_refused() {
    let (repo, outside, _secret) = repo_and_secret();
    std::fs::create_dir_all(outside.path().join("search")).unwrap();
    std::fs::rename(
        outside.path().join("secret.json"),
        outside.path().join("search/secret.json"),
    )
    .unwrap();
    symlink(outside.path(), repo.abs("contracts/fixtures")).unwrap();
    assert_refused(&repo, "fixtures root link");
}

/// `check --write-fixtures` writes through the confinement reads go
/// through: a committed `contracts/fixtures -> ../../outside` is refused
/// before anything is written there.
#[test]
fn write_fixtures_never_writes_through_a_fixtures_link() {
    let demo = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/demo-server"
    ));
    let read = |rel: &str| std::fs::read_to_string(demo.join(rel)).unwrap();
    let repo = TestRepo::new();
    repo.write(LOCK, &read("tests/data/revision-1.lock"));
    repo.commit("revision 1");
    repo.write(LOCK, &read("contracts/mcp-contract.lock"));
    repo.write(RECORD, &read("contracts/migrations.toml"));
    let outside = tempfile::tempdir().unwrap();
    symlink(outside.path(), repo.abs("contracts/fixtures")).unwrap();
    let run = repo.check(&["--against", "HEAD", "--write-fixtures"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("symbolic link"), "{run:?}");
    let written: Vec<PathBuf> = tree(outside.path()).into_keys().collect();
    assert!(written.is_empty(), "written through the link: {written:?}");
}

#[test]
fn a_fixture_reached_through_dot_dot_is_refused() {
    let (repo, outside, _secret) = repo_and_secret();
    // contracts/fixtures/search -> ../../<outside> spelled with `..`.
    std::fs::create_dir_all(repo.abs("contracts/fixtures")).unwrap();
    let mut up = PathBuf::new();
    for _ in repo.abs("contracts/fixtures").components().skip(1) {
        up.push("..");
    }
    symlink(
        up.join(outside.path().strip_prefix("/").unwrap()),
        repo.abs("contracts/fixtures/search"),
    )
    .unwrap();
    assert_refused(&repo, "fixture directory via ..");
}

#[test]
fn a_lockfile_or_record_symlinked_outside_the_repository_is_refused() {
    for target in [LOCK, RECORD] {
        let (repo, _outside, secret) = repo_and_secret();
        std::fs::remove_file(repo.abs(target)).unwrap();
        symlink(&secret, repo.abs(target)).unwrap();
        assert_refused(&repo, target);
    }
}

#[test]
fn a_record_linked_to_a_file_inside_the_repository_is_fine() {
    // The record may be a link to another file of the same repository.
    let (repo, _outside, _secret) = repo_and_secret();
    repo.write("shared/migrations.toml", "version = 1\n");
    std::fs::remove_file(repo.abs(RECORD)).unwrap();
    symlink("../shared/migrations.toml", repo.abs(RECORD)).unwrap();
    let run = repo.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
}

/// `verify`/`replay`/`snapshot --server` run the program after `--` directly:
/// shell syntax in it or in its arguments is passed literally.
#[test]
fn server_commands_never_go_through_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("pwned");
    let m = marker.display().to_string();
    let lock = dir.path().join("x.lock");
    std::fs::write(&lock, "{}").unwrap();
    let attempts: Vec<Vec<String>> = vec![
        vec![format!("true; touch {m}")],
        vec![format!("$(touch {m})")],
        vec![
            "/bin/echo".into(),
            format!("$(touch {m})"),
            format!("`touch {m}`"),
            format!("; touch {m}"),
        ],
    ];
    for sub in ["verify", "replay", "snapshot"] {
        for cmd in &attempts {
            let mut args: Vec<String> = vec![
                sub.into(),
                "--server".into(),
                "--timeout".into(),
                "5".into(),
            ];
            match sub {
                "verify" => args.extend(["--lockfile".into(), lock.display().to_string()]),
                "replay" => args.extend(["--fixtures".into(), dir.path().display().to_string()]),
                _ => args.extend([
                    "-o".into(),
                    dir.path().join("out.lock").display().to_string(),
                ]),
            }
            args.push("--".into());
            args.extend(cmd.iter().cloned());
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = check_support::run_in(dir.path(), &argv);
            assert_eq!(run.code, 2, "{sub} {cmd:?}: {run:?}");
            assert!(!marker.exists(), "{sub} {cmd:?} ran a shell");
        }
    }
    assert!(!dir.path().join("out.lock").exists());
}
