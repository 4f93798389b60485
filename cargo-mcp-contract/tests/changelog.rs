//! `changelog` renders the gate's findings: for every step of this
//! repository's demo history (the demo server's lockfile and migration
//! record, as committed), the changelog between two revisions lists each
//! finding `check --against OLDER` makes on the newer revision exactly
//! once, and nothing else; the record's new deprecations are listed apart,
//! as the record's. The history is replayed into a scratch repository (the
//! two files per revision, as committed), so `check` can run on each
//! revision's checkout; the changelog of the real repository's revisions
//! is the same.

#[path = "../../tests/support/scratch.rs"]
mod scratch;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");
const LOCK: &str = "examples/demo-server/contracts/mcp-contract.lock";
const RECORD: &str = "examples/demo-server/contracts/migrations.toml";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .env_remove("CI")
        .env("MCP_CONTRACT_NO_HISTORY_CACHE", "1")
        .output()
        .unwrap()
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// A finding as both reports name it: its identity and its acknowledgement.
type Finding = (String, String, Option<u64>);

fn tally(items: impl Iterator<Item = Finding>) -> BTreeMap<Finding, usize> {
    let mut m = BTreeMap::new();
    for f in items {
        *m.entry(f).or_default() += 1;
    }
    m
}

/// The demo history's revisions, oldest first.
fn demo_revisions() -> Vec<String> {
    let root = root();
    let shallow = git(&root, &["rev-parse", "--is-shallow-repository"]);
    assert_eq!(
        shallow.trim(),
        "false",
        "this clone is shallow: the demo history is cut off; `git fetch --unshallow` first"
    );
    let revs: Vec<String> = git(
        &root,
        &["log", "--reverse", "--format=%H", "--", LOCK, RECORD],
    )
    .lines()
    .map(str::to_string)
    .collect();
    assert!(
        revs.len() >= 4,
        "the demo history has {} revisions",
        revs.len()
    );
    revs
}

#[test]
fn every_finding_of_check_appears_once_in_the_changelog_and_nothing_else() {
    let revs = demo_revisions();
    let dir = scratch::scratch("changelog-demo");
    git(&dir, &["init", "-q", "-b", "main"]);
    std::fs::create_dir_all(dir.join("contracts")).unwrap();
    let mut commits = vec![];
    for rev in &revs {
        for (from, to) in [(LOCK, "mcp-contract.lock"), (RECORD, "migrations.toml")] {
            let out = Command::new("git")
                .current_dir(root())
                .args(["show", &format!("{rev}:{from}")])
                .output()
                .unwrap();
            let path = dir.join("contracts").join(to);
            if out.status.success() {
                std::fs::write(&path, &out.stdout).unwrap();
            } else {
                let _ = std::fs::remove_file(&path);
            }
        }
        git(&dir, &["add", "-A"]);
        git(&dir, &["commit", "-q", "--allow-empty", "-m", &rev[..7]]);
        commits.push(git(&dir, &["rev-parse", "HEAD"]).trim().to_string());
    }
    let mut compared = 0;
    for (i, pair) in commits.windows(2).enumerate() {
        let (a, b) = (&pair[0], &pair[1]);
        let log = json(&cli(
            &dir,
            &[
                "changelog",
                "--lockfile",
                "contracts/mcp-contract.lock",
                "--from",
                a,
                "--to",
                b,
                "--format",
                "json",
            ],
        ));
        let items = log["changelogs"][0]["items"].as_array().unwrap().clone();
        git(&dir, &["checkout", "-q", b]);
        let out = cli(
            &dir,
            &[
                "check",
                "--lockfile",
                "contracts/mcp-contract.lock",
                "--against",
                a,
                "--format",
                "json",
                "--no-witness",
            ],
        );
        let check = json(&out);
        let changes = check["checks"][0]["changes"].as_array().unwrap().clone();
        let of_check = tally(changes.iter().map(|c| {
            (
                c["rule"].as_str().unwrap().to_string(),
                c["fingerprint"].as_str().unwrap().to_string(),
                c["acknowledged_by"]["line"].as_u64(),
            )
        }));
        let of_changelog = tally(items.iter().map(|c| {
            (
                c["rule"].as_str().unwrap().to_string(),
                c["fingerprint"].as_str().unwrap().to_string(),
                c["acknowledged"]["line"].as_u64(),
            )
        }));
        assert_eq!(of_changelog, of_check, "{} -> {}", revs[i], revs[i + 1]);
        // the Markdown lists the same items, each once, with its rule id
        let md = String::from_utf8(
            cli(
                &dir,
                &[
                    "changelog",
                    "--lockfile",
                    "contracts/mcp-contract.lock",
                    "--from",
                    a,
                    "--to",
                    b,
                ],
            )
            .stdout,
        )
        .unwrap();
        let listed = md.lines().filter(|l| l.starts_with("- `")).count();
        let deprecations = log["changelogs"][0]["deprecations"]
            .as_array()
            .unwrap()
            .len();
        assert_eq!(listed, items.len() + deprecations, "{md}");
        for c in &changes {
            let rule = c["rule"].as_str().unwrap();
            let msg = c["message"].as_str().unwrap();
            assert!(
                md.contains(&format!("{} (`{rule}`)", msg.replace('\n', " "))),
                "{rule}: {md}"
            );
        }
        // without --to, the working tree (this checkout) gives the same
        let here = json(&cli(
            &dir,
            &[
                "changelog",
                "--lockfile",
                "contracts/mcp-contract.lock",
                "--from",
                a,
                "--format",
                "json",
            ],
        ));
        assert_eq!(
            here["changelogs"][0]["items"],
            log["changelogs"][0]["items"]
        );
        compared += changes.len();
    }
    // revision 2 alone makes eleven (the other test reads them)
    assert!(
        compared >= 11,
        "only {compared} findings in the demo history"
    );
    // the real repository's revisions give the same changelog
    let (a, b) = (&revs[1], &revs[2]);
    let real = json(&cli(
        &root(),
        &[
            "changelog",
            "--lockfile",
            LOCK,
            "--from",
            a,
            "--to",
            b,
            "--format",
            "json",
        ],
    ));
    let replayed = json(&cli(
        &dir,
        &[
            "changelog",
            "--lockfile",
            "contracts/mcp-contract.lock",
            "--from",
            &commits[1],
            "--to",
            &commits[2],
            "--format",
            "json",
        ],
    ));
    assert_eq!(
        real["changelogs"][0]["items"],
        replayed["changelogs"][0]["items"]
    );
    assert!(!real["changelogs"][0]["items"]
        .as_array()
        .unwrap()
        .is_empty());
}

#[test]
fn sections_transitions_and_deprecations_of_the_demos_second_revision() {
    let revs = demo_revisions();
    // revision 2 of the demo server: a rename, a default, a removal with a replacement, a new major
    let out = cli(
        &root(),
        &[
            "changelog",
            "--lockfile",
            LOCK,
            "--from",
            &revs[1],
            "--to",
            &revs[2],
        ],
    );
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8(out.stdout).unwrap();
    let section = |title: &str| -> String {
        md.split(&format!("### {title}\n\n"))
            .nth(1)
            .unwrap_or_else(|| panic!("no {title} in {md}"))
            .split("\n\n")
            .next()
            .unwrap()
            .to_string()
    };
    let removed = section("Removed");
    assert!(
        removed.contains("`search_catalog`: \"query\" was removed")
            && removed.contains("acknowledged as rename query -> search_text until"),
        "{removed}"
    );
    assert!(
        removed.contains("acknowledged as removal; use `delivery_instructions` instead"),
        "{removed}"
    );
    assert!(
        section("Breaking").contains("acknowledged as default currency = \"EUR\""),
        "{md}"
    );
    assert!(section("Added").contains("`send_report_v2`: tool `send_report_v2` was added (`tool.added`); acknowledged as major version send_report -> send_report_v2"), "{md}");
    let deprecated = section("Deprecated");
    assert!(
        deprecated.contains("`send_report`: deprecated since")
            && deprecated.contains("use `send_report_v2` instead")
            && deprecated.contains("(migration record, line"),
        "{deprecated}"
    );
    assert!(
        section("Changed behaviour").contains("(`tool.description-changed`)"),
        "{md}"
    );
}
