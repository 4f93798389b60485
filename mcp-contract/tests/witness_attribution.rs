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

/// The changes from `old` to `new`, each with its witness searched.
fn proven_diff(old: &Surface, new: &Surface) -> Vec<Change> {
    let mut changes = diff_surfaces(old, new).changes;
    proven(&mut changes, old, new);
    changes
}

/// A surface read from its `tools/list` (or whole-surface) JSON.
fn surface(v: Value) -> Surface {
    mcp_contract::load::surface_from_value(&v, "test").unwrap()
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
    let changes = proven_diff(&old, &new);
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
    let changes = proven_diff(&old, &new);
    let w = removal_witness(&changes, "b");
    assert_eq!(w.kind, WitnessKind::Rejected, "{w:?}");
    assert!(w.value.get("b").is_some(), "{w:?}");
    for c in changes.iter().filter(|c| c.severity == Severity::Breaking) {
        assert!(c.proof.as_ref().unwrap().is_backed(), "{c:?}");
    }
}

/// The README's first example (`examples/surfaces/search-v1.json` ->
/// `search-v2.json`) makes two fields required at once. Both verdicts share
/// the keyword `/inputSchema/required`; each witness must omit its own field
/// and its detail must name that field, not the neighbour the validator
/// happens to list first.
#[test]
fn each_new_required_field_has_its_own_witness() {
    let surfaces = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/surfaces");
    let old = read_surface(&surfaces.join("search-v1.json")).unwrap();
    let new = read_surface(&surfaces.join("search-v2.json")).unwrap();
    let changes = proven_diff(&old, &new);
    for (field, other) in [("region", "search_text"), ("search_text", "region")] {
        let c = changes
            .iter()
            .find(|c| c.rule == "input.required-added" && c.subject.as_deref() == Some(field))
            .unwrap_or_else(|| panic!("no required-added for {field}: {changes:#?}"));
        assert_eq!(c.proof, Some(Proof::Proven), "{c:?}");
        let w = c.witness.as_ref().unwrap();
        assert_eq!(w.kind, WitnessKind::Rejected, "{w:?}");
        assert_eq!(
            w.detail,
            format!("\"{field}\" is a required property"),
            "{w:?}"
        );
        assert!(w.value.get(field).is_none(), "{w:?}");
        // only this field is missing: the call sends the other new required one
        assert!(w.value.get(other).is_some(), "{w:?}");
    }
}

/// The same on the output side: two fields no longer guaranteed, each
/// witness leaves out its own and its detail names it.
#[test]
fn each_output_field_no_longer_required_has_its_own_witness() {
    let tool = |schema: Value| {
        let mut t = mcp_contract::Tool::new("t");
        t.input_schema = json!({"type": "object"});
        t.output_schema = Some(schema);
        let mut s = Surface::new();
        s.insert(t);
        s
    };
    let props = json!({"a": {"type": "string"}, "b": {"type": "string"}});
    let old = tool(json!({"type": "object", "properties": props, "required": ["a", "b"]}));
    let new = tool(json!({"type": "object", "properties": props}));
    let changes = proven_diff(&old, &new);
    for (field, other) in [("a", "b"), ("b", "a")] {
        let c = changes
            .iter()
            .find(|c| c.rule == "output.required-removed" && c.subject.as_deref() == Some(field))
            .unwrap_or_else(|| panic!("no required-removed for {field}: {changes:#?}"));
        let w = c.witness.as_ref().unwrap();
        assert_eq!(w.kind, WitnessKind::Unexpected, "{w:?}");
        assert_eq!(
            w.detail,
            format!("\"{field}\" is a required property"),
            "{w:?}"
        );
        assert!(w.value.get(field).is_none(), "{w:?}");
        assert!(w.value.get(other).is_some(), "{w:?}");
    }
}

/// Two required members of a closed object removed together: every call
/// the old schema takes sends both, and the new schema's one complaint
/// names both. Each removal's witness is that complaint (a published
/// browser automation server did this between two releases).
#[test]
fn members_removed_together_from_a_closed_object_each_have_a_witness() {
    let tool = |props: Value, required: Value| {
        surface(json!([{"name": "drag", "inputSchema": {"type": "object",
                "properties": props, "required": required, "additionalProperties": false}}]))
    };
    let old = tool(
        json!({"startRef": {"type": "string"}, "endRef": {"type": "string"}, "element": {"type": "string"}}),
        json!(["startRef", "endRef", "element"]),
    );
    let new = tool(json!({"element": {"type": "string"}}), json!(["element"]));
    let changes = proven_diff(&old, &new);
    for field in ["startRef", "endRef"] {
        let w = removal_witness(&changes, field);
        assert_eq!(w.kind, WitnessKind::Rejected, "{w:?}");
        assert!(w.detail.contains(&format!("'{field}'")), "{w:?}");
    }
}

/// Prompts, resources and templates are judged from the listing: a
/// removal is its own proof, never "unproven" for want of a tool.
#[test]
fn a_removed_prompt_or_resource_is_proven_by_the_listing() {
    let old = surface(json!({"tools": [], "prompts": [{"name": "greet"}],
            "resources": [{"uri": "file:///a", "name": "a"}]}));
    let new = surface(json!({"tools": []}));
    let changes = proven_diff(&old, &new);
    let removed: Vec<&Change> = changes
        .iter()
        .filter(|c| c.severity == Severity::Breaking)
        .collect();
    assert!(removed.len() >= 2, "{changes:#?}");
    for c in removed {
        assert_eq!(c.proof, Some(Proof::ByConstruction), "{c:?}");
    }
}

/// Two object alternatives removed from a list's items: each removal's
/// witness is a value of that alternative, not of its sibling (a published
/// scraping server's `formats` lost `{"type": "json"}` and
/// `{"type": "screenshot"}` together).
#[test]
fn a_removed_alternative_is_witnessed_by_its_own_value() {
    let variant = |tag: &str| {
        json!({"type": "object", "properties": {"type": {"const": tag}},
            "required": ["type"], "additionalProperties": false})
    };
    let tool = |items: Value| {
        surface(json!([{"name": "scrape", "inputSchema": {"type": "object",
                "properties": {"formats": {"type": "array", "items": items}}}}]))
    };
    let old = tool(json!({"anyOf": [{"type": "string"}, variant("json"), variant("screenshot")]}));
    let new = tool(json!({"type": "string"}));
    let changes = proven_diff(&old, &new);
    for (i, tag) in [(1, "json"), (2, "screenshot")] {
        let c = changes
            .iter()
            .find(|c| {
                c.rule == "input.variant-removed" && c.pointer.ends_with(&format!("/anyOf/{i}"))
            })
            .unwrap_or_else(|| panic!("no removal of branch {i}: {changes:#?}"));
        assert_eq!(c.proof, Some(Proof::Proven), "{c:?}");
        let w = c.witness.as_ref().unwrap();
        assert_eq!(w.value["formats"][0]["type"], json!(tag), "{w:?}");
    }
}

/// A narrowing inside one `oneOf` alternative behind a reference: its
/// witness is a value of that alternative (a published workspace server's
/// `parent` variants each got a `const` tag; the witness of the first
/// variant's tag was a value only the third, whose member is optional, took).
#[test]
fn a_change_inside_an_alternative_is_witnessed_by_that_alternative() {
    let variant = |key: &str, tag: Option<&str>, required: bool| {
        let t = match tag {
            Some(tag) => json!({"type": "string", "const": tag}),
            None => json!({}),
        };
        let req = if required { json!([key]) } else { json!([]) };
        json!({"type": "object", "properties": {"type": t, key: {"type": "string"}},
            "required": req, "additionalProperties": false})
    };
    let tool = |tagged: bool| {
        let tag = |t: &'static str| tagged.then_some(t);
        surface(json!([{"name": "move", "inputSchema": {"type": "object",
                "properties": {"parent": {"$ref": "#/$defs/Parent"}}, "required": ["parent"],
                "$defs": {"Parent": {"oneOf": [variant("page_id", tag("page_id"), true),
                    variant("database_id", tag("database_id"), true),
                    variant("workspace", tag("workspace"), false)]}}}}]))
    };
    let (old, new) = (tool(false), tool(true));
    let changes = proven_diff(&old, &new);
    for (i, key) in [(0, "page_id"), (1, "database_id")] {
        let at = format!("/parent/oneOf/{i}/properties/type/const");
        let c = changes
            .iter()
            .find(|c| c.pointer.ends_with(&at))
            .unwrap_or_else(|| panic!("no change at {at}: {changes:#?}"));
        assert_eq!(c.proof, Some(Proof::Proven), "{c:?}");
        let w = c.witness.as_ref().unwrap();
        assert!(w.value["parent"].get(key).is_some(), "{at}: {w:?}");
    }
}
