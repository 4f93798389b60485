//! Witnesses on real history: every before/after pair of the
//! github-mcp-server snapshots in `../shared/corpus/` (read in place). Every
//! breaking verdict must be `proven` or `by-construction`, and every witness
//! is re-checked here with the `jsonschema` crate on both sides. Prints the
//! counts per proof and witness kind, and the witnesses of five pairs (of
//! five different rules). No exception: an `unproven` verdict fails the
//! test, even one the witness pass shows to be provably compatible (reason
//! `compatible: ...`, a conservative engine guess, listed for the engine).
//!
//! The corpus lives beside the repository: without it the test says so and
//! skips locally; with `CI` set or `MCP_CONTRACT_REQUIRE_LIVE=1` it fails
//! (`tests/support/skip.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_contract::load::read_surface;
use mcp_contract::rules::Severity;
use mcp_contract::witness::{self, Proof, WitnessKind};
use mcp_contract::{diff_surfaces, Surface};
use serde_json::{json, Value};

#[path = "../../tests/support/skip.rs"]
mod skip;

fn corpus(test: &str) -> Option<PathBuf> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/github-mcp-server");
    if dir.is_dir() {
        return Some(dir);
    }
    skip::skip(
        test,
        &format!(
            "corpus not found at {} (it lives beside the repository in shared/)",
            dir.display()
        ),
    );
    None
}

fn schema(s: &Surface, tool: &str, output: bool) -> Option<Value> {
    let t = s.get(tool)?;
    if output {
        t.output_schema.clone()
    } else if t.input_schema.is_null() {
        Some(json!({"type": "object"}))
    } else {
        Some(t.input_schema.clone())
    }
}

/// Re-checks one witness with the default validator; `None` when it holds.
fn recheck(
    kind: WitnessKind,
    old: Option<Value>,
    new: Option<Value>,
    value: &Value,
) -> Option<String> {
    let valid = |s: &Option<Value>| -> bool {
        match s {
            Some(s) => jsonschema::validator_for(s)
                .map(|v| v.is_valid(value))
                .unwrap_or(false),
            None => true, // no schema: anything goes
        }
    };
    let ok = match kind {
        WitnessKind::Rejected => valid(&old) && !valid(&new),
        WitnessKind::Ignored => valid(&old) && valid(&new),
        WitnessKind::Reinterpreted => valid(&old),
        WitnessKind::Unexpected => valid(&new) && !valid(&old),
        WitnessKind::Call | WitnessKind::Hint => true,
    };
    (!ok).then(|| format!("{kind:?} witness {value} does not hold"))
}

#[test]
fn every_corpus_breaking_verdict_is_proven_or_by_construction() {
    let Some(corpus) = corpus("every_corpus_breaking_verdict_is_proven_or_by_construction") else {
        return;
    };
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(corpus.join("pairs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 333, "the corpus README promises 333 pairs");
    let mut proofs: BTreeMap<String, usize> = BTreeMap::new();
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut problems = vec![];
    let mut engine_should_drop: Vec<String> = vec![];
    let mut shown: Vec<String> = vec![];
    let mut shown_rules: Vec<&str> = vec![];
    for dir in &dirs {
        let read = |f: &str| read_surface(&dir.join(f)).unwrap_or_else(|e| panic!("{e}"));
        let (old, new) = (read("before.json"), read("after.json"));
        let mut report = diff_surfaces(&old, &new);
        witness::attach(&mut report, &old, &new, &witness::Options::default());
        for c in report
            .changes
            .iter()
            .filter(|c| c.severity == Severity::Breaking)
        {
            let name = pair_name(dir);
            let proof = c.proof.as_ref().expect("a breaking change without a proof");
            *proofs
                .entry(format!("{} {}", c.rule, proof.as_str()))
                .or_default() += 1;
            if let Proof::Unproven { reason } = proof {
                if reason.starts_with("compatible:") {
                    // the witness pass shows the verdict is a conservative guess the engine should drop
                    engine_should_drop.push(format!(
                        "{name}: {} {} {}: {reason}",
                        c.rule, c.tool, c.pointer
                    ));
                }
                problems.push(format!(
                    "{name}: {} {} {}: unproven: {reason}",
                    c.rule, c.tool, c.pointer
                ));
            }
            let Some(w) = &c.witness else { continue };
            *kinds.entry(w.kind.as_str()).or_default() += 1;
            let output =
                c.pointer.starts_with("/outputSchema") || c.rule == "tool.output-schema-removed";
            let (os, ns) = (schema(&old, &c.tool, output), schema(&new, &c.tool, output));
            if let Some(p) = recheck(w.kind, os, ns, &w.value) {
                problems.push(format!("{name}: {} {} {}: {p}", c.rule, c.tool, c.pointer));
            }
            if shown.len() < 5 && !shown_rules.contains(&c.rule) {
                shown_rules.push(c.rule);
                shown.push(format!(
                    "{name} {} {} {}\n    = witness: {}",
                    c.rule,
                    c.tool,
                    c.pointer,
                    w.sentence()
                ));
            }
        }
    }
    println!("corpus witnesses: proofs by rule {proofs:?}; witness kinds {kinds:?}");
    for s in &shown {
        println!("  {s}");
    }
    println!(
        "verdicts the engine should drop (provably compatible): {}",
        engine_should_drop.len()
    );
    for s in &engine_should_drop {
        println!("  {s}");
    }
    assert!(
        !proofs.is_empty(),
        "no breaking verdict in the corpus: the test measures nothing"
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

fn pair_name(dir: &Path) -> String {
    dir.file_name().unwrap().to_string_lossy().into_owned()
}
