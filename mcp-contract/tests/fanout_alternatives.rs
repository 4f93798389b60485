//! Reproducer (found by issue 15's hostile-input work): `$ref` fan-out
//! through the branches of an `anyOf` is exponential in the comparator.
//!
//! Each level's `anyOf` has two branches that both reach the next level
//! (two properties, and `items`). Through plain properties the comparator's
//! memo keeps this polynomial (`equivalences.rs`,
//! `shared_definitions_do_not_blow_up`); through alternatives each trial
//! pairing (`diff/alternatives.rs`, `Cx::trial`) starts from a copy of the
//! memo and throws what it learned away, so every level multiplies the work
//! (measured on a debug build: 10 levels 3.2 s, 12 levels 15.7 s, about
//! ×2.2 per level). A schema with 24 levels must still be compared in
//! bounded time; the test gives it 60 seconds on a separate thread and
//! fails (rather than hangs) when it does not finish.

use std::sync::mpsc;
use std::time::Duration;

use mcp_contract::diff::{diff_schema, Direction};
use serde_json::json;

fn fan_out(levels: usize, leaf: &str) -> serde_json::Value {
    let mut defs = serde_json::Map::new();
    for i in 0..levels {
        let next = format!("#/$defs/L{}", i + 1);
        defs.insert(
            format!("L{i}"),
            json!({"anyOf": [
                {"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}},
                {"type": "array", "items": {"$ref": next}}
            ]}),
        );
    }
    defs.insert(format!("L{levels}"), json!({"type": leaf}));
    json!({"type": "object", "properties": {"root": {"$ref": "#/$defs/L0"}}, "$defs": defs})
}

#[test]
fn ref_fan_out_through_any_of_stays_polynomial() {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let changes = diff_schema(
            &fan_out(24, "number"),
            &fan_out(24, "integer"),
            Direction::Input,
            "t",
        );
        let _ = tx.send(changes.iter().map(|c| c.rule).collect::<Vec<_>>());
    });
    let rules = rx.recv_timeout(Duration::from_secs(60)).expect(
        "24 levels of $ref fan-out through anyOf were not compared within 60 s (exponential)",
    );
    // the narrowed leaf is reported, as a narrowed type or as alternatives
    // that no longer cover what they did
    assert!(
        rules.contains(&"input.type-narrowed") || rules.contains(&"input.variant-removed"),
        "{rules:?}"
    );
}
