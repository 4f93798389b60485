//! `selftest` reports a weakened gate: the demo server's contract is
//! mutated with the real plan (`mcp_contract::selftest::plan`), and each
//! lockfile mutation is judged by a gate built here from the real engine
//! (`diff_surfaces`, breaking changes fail) — once as it is, once with one
//! rule deliberately weakened (its changes dropped, as a rule that stopped
//! firing would). The intact gate catches every lockfile mutation; the
//! weakened one makes the table say **missed** on exactly the rows that
//! rule caught, and `all_caught` false. (The CLI's own run on the demo,
//! with record and fixture mutations too, is
//! `cargo-mcp-contract/tests/selftest.rs`.)

use std::path::Path;

use mcp_contract::selftest::{self, Kind, Planned, Row, Verdict};
use mcp_contract::{diff_surfaces, fixtures, lockfile, migrations, Severity};

fn rows(weakened: Option<&str>) -> Vec<Row> {
    let contracts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/demo-server/contracts");
    let lock = contracts.join("mcp-contract.lock");
    let base = lockfile::read(&lock).unwrap();
    let record_path = migrations::path_for(&lock);
    let text = std::fs::read_to_string(&record_path).unwrap();
    let (record, _) = migrations::read(&record_path).unwrap();
    let found = fixtures::read_dir(&contracts.join("fixtures")).unwrap();
    let mut out = vec![];
    for p in selftest::plan(&base, &record, &text, &found, "fixtures") {
        let Planned::Mutation(m) = p else { continue };
        let Some(mutated) = &m.lockfile else { continue };
        let new = lockfile::parse(mutated.as_bytes(), "mutated.lock").unwrap();
        let caught: Vec<String> = diff_surfaces(&base, &new)
            .changes
            .iter()
            .filter(|c| c.severity == Severity::Breaking && Some(c.rule) != weakened)
            .map(|c| c.rule.to_string())
            .collect();
        out.push(Row {
            kind: m.kind,
            tool: m.tool,
            detail: m.detail,
            verdict: Some(if caught.is_empty() {
                Verdict::Missed
            } else {
                Verdict::Caught(caught)
            }),
        });
    }
    out
}

#[test]
fn the_intact_gate_catches_every_lockfile_mutation() {
    let rows = rows(None);
    assert!(rows.len() >= 20, "{}", rows.len());
    assert!(
        selftest::all_caught(&rows, true),
        "{}",
        selftest::render(&rows, true)
    );
}

#[test]
fn a_weakened_rule_is_reported_missed() {
    let rule = "annotations.destructive-added";
    let intact = rows(None);
    let weak = rows(Some(rule));
    let table = selftest::render(&weak, true);
    eprintln!("gate with `{rule}` weakened:\n{table}");
    assert!(!selftest::all_caught(&weak, true));
    // Missed exactly where that rule was the only catch.
    for (a, b) in intact.iter().zip(&weak) {
        let only_that_rule =
            matches!(&a.verdict, Some(Verdict::Caught(by)) if by.iter().all(|r| r == rule));
        assert_eq!(
            matches!(b.verdict, Some(Verdict::Missed)),
            only_that_rule,
            "{:?} {}",
            a.kind,
            a.tool
        );
    }
    let missed: Vec<&Row> = weak
        .iter()
        .filter(|r| matches!(r.verdict, Some(Verdict::Missed)))
        .collect();
    assert!(!missed.is_empty());
    assert!(
        missed.iter().all(|r| r.kind == Kind::WidenAnnotation),
        "{table}"
    );
    assert!(table.contains("**missed**"), "{table}");
}
