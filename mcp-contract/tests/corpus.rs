//! The classifier on real history: every before/after pair of the
//! github-mcp-server tool snapshots in `../shared/corpus/` (read in place,
//! never copied). Nothing may panic, everything terminates, and a few
//! well-understood changes must be classified as they are.
//!
//! Without the corpus each test says so and skips; with `CI` set or
//! `MCP_CONTRACT_REQUIRE_LIVE=1` it fails (`tests/support/skip.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_contract::load::read_surface;
use mcp_contract::rules::Severity;
use mcp_contract::{diff_surfaces, DiffReport};

#[path = "../../tests/support/skip.rs"]
mod skip;

fn corpus(test: &str) -> Option<PathBuf> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/github-mcp-server");
    if dir.is_dir() {
        Some(dir)
    } else {
        skip::skip(
            test,
            &format!(
                "corpus not found at {} (it lives beside the repository in shared/)",
                dir.display()
            ),
        );
        None
    }
}

fn diff_dir(dir: &Path) -> DiffReport {
    let old = read_surface(&dir.join("before.json")).unwrap_or_else(|e| panic!("{e}"));
    let new = read_surface(&dir.join("after.json")).unwrap_or_else(|e| panic!("{e}"));
    diff_surfaces(&old, &new)
}

fn sorted_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

#[test]
fn every_corpus_pair_is_classified() {
    let Some(corpus) = corpus("every_corpus_pair_is_classified") else {
        return;
    };
    let pairs = sorted_dirs(&corpus.join("pairs"));
    assert_eq!(pairs.len(), 333, "the corpus README promises 333 pairs");
    let mut breaking_pairs = 0;
    let mut by_rule: BTreeMap<&str, usize> = BTreeMap::new();
    for dir in &pairs {
        let report = diff_dir(dir);
        if report.is_breaking() {
            breaking_pairs += 1;
            let mut rules: Vec<&str> = report
                .changes
                .iter()
                .filter(|c| c.severity == Severity::Breaking)
                .map(|c| c.rule)
                .collect();
            rules.sort();
            rules.dedup();
            for r in rules {
                *by_rule.entry(r).or_default() += 1;
            }
        }
    }
    println!(
        "corpus: {} pairs, {breaking_pairs} breaking; pairs per breaking rule: {by_rule:?}",
        pairs.len()
    );
    assert!(breaking_pairs > 0 && breaking_pairs < pairs.len());
}

#[test]
fn known_corpus_changes_are_classified_as_they_are() {
    let Some(corpus) = corpus("known_corpus_changes_are_classified_as_they_are") else {
        return;
    };
    // 0001: get_file_contents replaced `branch` by `ref`/`sha` on an open object.
    let r = diff_dir(&corpus.join("pairs/0001"));
    let removed = r
        .changes
        .iter()
        .find(|c| c.rule == "input.property-removed")
        .expect("branch removal reported");
    assert_eq!(removed.pointer, "/inputSchema/properties/branch");
    assert!(
        removed.message.contains("silently ignored"),
        "{}",
        removed.message
    );
    assert!(r
        .changes
        .iter()
        .any(|c| c.rule == "input.property-added" && c.subject.as_deref() == Some("ref")));
    // 0050: annotations restated at their defaults: no change at all.
    assert!(diff_dir(&corpus.join("pairs/0050")).changes.is_empty());
}

#[test]
fn corpus_renames_are_breaking_removals_with_hints() {
    let Some(corpus) = corpus("corpus_renames_are_breaking_removals_with_hints") else {
        return;
    };
    for dir in sorted_dirs(&corpus.join("renames")) {
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
        let (from, to) = (
            meta["before_tool"].as_str().unwrap(),
            meta["after_tool"].as_str().unwrap(),
        );
        let report = diff_dir(&dir);
        let removed = report
            .changes
            .iter()
            .find(|c| c.rule == "tool.removed")
            .expect("removal reported");
        assert_eq!(removed.tool, from);
        assert_eq!(removed.severity, Severity::Breaking);
        if meta["json_identical_except_name"] == true {
            assert_eq!(
                removed.hint.as_deref(),
                Some(format!("probable rename to `{to}`").as_str()),
                "{}",
                dir.display()
            );
        }
    }
}

#[test]
fn deleted_tools_are_breaking_removals() {
    let Some(corpus) = corpus("deleted_tools_are_breaking_removals") else {
        return;
    };
    for dir in sorted_dirs(&corpus.join("deleted")) {
        let last = read_surface(&dir.join("last.json")).unwrap();
        let report = diff_surfaces(&last, &mcp_contract::Surface::new());
        assert!(report
            .changes
            .iter()
            .all(|c| c.rule == "tool.removed" && c.severity == Severity::Breaking));
        assert_eq!(report.changes.len(), 1);
    }
}
