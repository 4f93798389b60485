//! Each verdict's witness shows that change, not a neighbour's.
//!
//! The demo server's `create_order` (`examples/demo-server`, revision 1 to
//! the current lock) lost the optional `note` of an open object, and the
//! gate's view of the same release also makes `currency` required. The
//! witness of the removal must be a call that sends `note` (silently
//! ignored now), never the instance that only shows the new required field.

use std::path::Path;

use mcp_contract::load::read_surface;
use mcp_contract::rules::Severity;
use mcp_contract::witness::{self, Proof, WitnessKind};
use mcp_contract::{diff_surfaces, Change, Surface};
use serde_json::{json, Value};

fn demo(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/demo-server")
        .join(rel)
}

fn proven(changes: &mut [Change], old: &Surface, new: &Surface) {
    witness::attach_changes(changes, old, new, &witness::Options::default());
}

fn removal_witness(changes: &[Change], field: &str) -> witness::Witness {
    let c = changes
        .iter()
        .find(|c| c.rule == "input.property-removed" && c.subject.as_deref() == Some(field))
        .unwrap_or_else(|| panic!("no removal of {field}: {changes:#?}"));
    assert_eq!(c.proof, Some(Proof::Proven), "{c:?}");
    c.witness.clone().expect("a proven verdict has a witness")
}

#[test]
fn removed_field_witness_sends_that_field() {
    let old = read_surface(&demo("tests/data/revision-1.lock")).unwrap();
    let new = read_surface(&demo("contracts/mcp-contract.lock")).unwrap();
    let mut changes = diff_surfaces(&old, &new).changes;
    proven(&mut changes, &old, &new);
    let w = removal_witness(&changes, "note");
    assert_eq!(w.kind, WitnessKind::Ignored, "{w:?}");
    assert!(w.value.get("note").is_some(), "{w:?}");

    // the gate's view: `currency` is required as well (a default the record
    // serves); both verdicts are on the same object, each keeps its own witness
    let mut gated = new.clone();
    let t = gated.get("create_order").unwrap().clone();
    let mut t2 = t.clone();
    t2.input_schema["required"]
        .as_array_mut()
        .unwrap()
        .push(json!("currency"));
    gated.insert(t2);
    let mut changes = diff_surfaces(&old, &gated).changes;
    proven(&mut changes, &old, &gated);
    let w = removal_witness(&changes, "note");
    assert!(w.value.get("note").is_some(), "{w:?}");
    assert!(!w.detail.contains("currency"), "{w:?}");
    let required = changes
        .iter()
        .find(|c| c.rule == "input.required-added")
        .expect("currency became required");
    let rw = required.witness.as_ref().unwrap();
    assert!(rw.detail.contains("currency"), "{rw:?}");
}

#[test]
fn removed_field_of_a_closed_object_is_rejected_because_of_it() {
    let tool = |schema: Value| {
        let mut t = mcp_contract::Tool::new("t");
        t.input_schema = schema;
        let mut s = Surface::new();
        s.insert(t);
        s
    };
    let old = tool(
        json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "additionalProperties": false}),
    );
    let new = tool(
        json!({"type": "object", "properties": {"a": {"type": "string"}, "c": {"type": "string"}}, "required": ["c"], "additionalProperties": false}),
    );
    let mut changes = diff_surfaces(&old, &new).changes;
    proven(&mut changes, &old, &new);
    let w = removal_witness(&changes, "b");
    assert_eq!(w.kind, WitnessKind::Rejected, "{w:?}");
    assert!(w.value.get("b").is_some(), "{w:?}");
    for c in changes.iter().filter(|c| c.severity == Severity::Breaking) {
        assert!(c.proof.as_ref().unwrap().is_backed(), "{c:?}");
    }
}
