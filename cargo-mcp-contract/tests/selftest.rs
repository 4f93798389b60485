//! `cargo mcp-contract selftest` on the demo server's contract: every
//! mutation is caught and the unmodified contract passes (exit 0); a
//! contract whose fixtures cannot catch a deleted alias reports the miss
//! (exit 1); a contract the gate already fails is exit 2. With `--server`
//! the demo binary cargo built beside this one replays every mutation too.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "../../tests/support/skip.rs"]
mod skip;

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/demo-server")
}

fn selftest(lockfile: &Path) -> (i32, String, String) {
    selftest_weakened(lockfile, None)
}

/// `weakened`: a rule the binary is told to drop (a switch only the test
/// build of the binary has: feature `test-switches`, from this package's
/// dev-dependencies).
fn selftest_weakened(lockfile: &Path, weakened: Option<&str>) -> (i32, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(["selftest", "--lockfile"])
        .arg(lockfile)
        .env_remove("CI")
        .env_remove("MCP_CONTRACT_TEST_WEAKEN_RULE");
    if let Some(rule) = weakened {
        cmd.env("MCP_CONTRACT_TEST_WEAKEN_RULE", rule);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn every_mutation_of_the_demo_contract_is_caught() {
    let (code, stdout, stderr) = selftest(&demo().join("contracts/mcp-contract.lock"));
    eprintln!("{stdout}");
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(!stdout.contains("**missed**"), "{stdout}");
    assert!(stdout.contains("unmodified contract passes"), "{stdout}");
    // Each kind ran at least once, and was caught by what should catch it.
    for (kind, by) in [
        ("add required argument", "input.required-added"),
        ("remove output field", "output.property-removed"),
        ("narrow a type", "input.type-narrowed"),
        ("widen annotation authority", "annotations."),
        // the usage gate (no evidence) and the legacy fixtures
        (
            "delete alias from record",
            "usage.no-evidence, fixture search_catalog/",
        ),
        ("tool error -> protocol error", "fixture "),
    ] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(kind) && l.contains(by)),
            "{kind} not caught by {by}:\n{stdout}"
        );
    }
}

/// The table's rows: (mutation, tool and change columns, caught-by column).
fn table_rows(stdout: &str) -> Vec<(String, String)> {
    let mut lines = stdout.lines();
    let header = lines.next().unwrap_or_default();
    let at = header
        .find("caught by")
        .unwrap_or_else(|| panic!("no table:\n{stdout}"));
    lines
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let split = l.char_indices().nth(at).map_or(l.len(), |(i, _)| i);
            (l[..split].to_string(), l[split..].to_string())
        })
        .collect()
}

/// The issue's "deliberately weaken one rule in a test build": the real
/// binary and engine, one registered rule switched off. The table must say
/// **missed** on exactly the rows that rule alone caught, and exit 1.
#[test]
fn a_weakened_rule_in_the_real_binary_is_reported_missed() {
    let rule = "annotations.destructive-added";
    let lock = demo().join("contracts/mcp-contract.lock");
    let (code, intact, stderr) = selftest(&lock);
    assert_eq!(code, 0, "{intact}{stderr}");
    let (code, weak, stderr) = selftest_weakened(&lock, Some(rule));
    eprintln!("selftest with `{rule}` weakened:\n{weak}");
    assert!(
        stderr.contains(&format!("rule `{rule}` is deliberately weakened")),
        "{stderr}"
    );
    assert_eq!(code, 1, "{weak}{stderr}");
    let summary = weak.lines().last().unwrap_or_default().to_string();
    let (intact, weak) = (table_rows(&intact), table_rows(&weak));
    assert_eq!(intact.len(), weak.len());
    let mut missed = 0;
    for ((row, by), (weak_row, weak_by)) in intact.iter().zip(&weak) {
        assert_eq!(row, weak_row);
        let only_that_rule = by.trim() == rule;
        assert_eq!(
            weak_by.trim() == "**missed**",
            only_that_rule,
            "{row}: {by} / {weak_by}"
        );
        missed += usize::from(only_that_rule);
    }
    assert!(
        missed > 0,
        "`{rule}` caught nothing alone: pick another rule"
    );
    assert!(
        summary.contains(&format!(", {missed} missed,")),
        "{summary}"
    );
}

#[test]
fn a_deleted_alias_without_a_legacy_fixture_is_caught_by_the_usage_gate() {
    let dir = tempfile::tempdir().unwrap();
    let contracts = dir.path().join("contracts");
    copy_dir(&demo().join("contracts"), &contracts);
    // Without the fixtures that use the old name, no fixture notices the
    // alias going; the usage gate does: removing a deprecated path needs
    // usage evidence (or the explicit waiver).
    for f in [
        "legacy_query.json",
        "both_names_same_value.json",
        "conflicting_aliases.json",
    ] {
        std::fs::remove_file(contracts.join("fixtures/search_catalog").join(f)).unwrap();
    }
    let (code, stdout, stderr) = selftest(&contracts.join("mcp-contract.lock"));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("delete alias from record") && l.contains("search_catalog"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.ends_with("usage.no-evidence"), "{line}");
    assert!(stdout.contains("0 missed"), "{stdout}");
}

#[test]
fn a_contract_the_gate_already_fails_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let contracts = dir.path().join("contracts");
    copy_dir(&demo().join("contracts"), &contracts);
    std::fs::write(
        contracts.join("fixtures/search_catalog/legacy_query.json"),
        r#"{"safe": true, "arguments": {"query": "x"}, "expect": {"outcome": "jsonrpc_error"}}"#,
    )
    .unwrap();
    let (code, stdout, stderr) = selftest(&contracts.join("mcp-contract.lock"));
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("the unmodified contract does not pass"),
        "{stderr}"
    );
}

#[test]
fn with_the_server_replay_catches_the_fixture_mutations_too() {
    let test = "with_the_server_replay_catches_the_fixture_mutations_too";
    let server = Path::new(BIN)
        .parent()
        .unwrap()
        .join(format!("demo-server{}", std::env::consts::EXE_SUFFIX));
    if !server.exists() {
        skip::skip(
            test,
            &format!(
                "{} is not built; `cargo build -p demo-server` builds it",
                server.display()
            ),
        );
        return;
    }
    let out = Command::new(BIN)
        .args(["selftest", "--lockfile"])
        .arg(demo().join("contracts/mcp-contract.lock"))
        .args(["--server", "--timeout", "20", "--"])
        .arg(&server)
        .env_remove("CI")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("tool error -> protocol error") && l.contains("replay ")),
        "{stdout}"
    );
}

#[test]
fn every_mutation_of_the_weather_contract_is_caught() {
    // the second example: an idiomatic rmcp server adopted with build.rs alone
    let lock = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/weather-server/contracts/mcp-contract.lock");
    let (code, stdout, stderr) = selftest(&lock);
    eprintln!("{stdout}");
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(!stdout.contains("**missed**"), "{stdout}");
    assert!(stdout.contains("0 missed"), "{stdout}");
    // the rename the record carries is guarded by its fixtures
    assert!(
        stdout.contains("delete alias from record") && stdout.contains("fixture get_forecast/"),
        "{stdout}"
    );
}
