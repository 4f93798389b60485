//! A rename entry acknowledges that a field's name moved, nothing about its
//! schema: `get_order(id: string)` becoming `order_id: integer`, served with
//! the alias `id` taking the integer schema, rejects `{"id": "A-1001"}`. The
//! check reports that narrowing at the alias unless an entry of its own
//! acknowledges it; an alias that accepts what the old field did passes.

mod check_support;

use check_support::*;
use serde_json::{json, Value};

const RENAME: &str = r#"[[acknowledge]]
tool = "get_order"
rule = "input.property-removed"
pointer = "/inputSchema/properties/id"
subject = "id"
reason = "id is now order_id"
owner = "@orders"
transition = { kind = "rename", from = "id", to = "order_id" }
"#;

const NARROWING: &str = r#"
[[acknowledge]]
tool = "get_order"
rule = "input.type-narrowed"
pointer = "/inputSchema/properties/id/type"
from = "string"
to = "integer"
reason = "order ids are numbers; the string ids were never issued"
owner = "@orders"
transition = { kind = "other", note = "no caller sent a string id" }
"#;

/// v1 `get_order(id: string)` committed; in the working tree the build's
/// output for the rename to `order_id: <new_type>`: the alias `id` with the
/// new field's schema, deprecated, and the `anyOf` of the two names.
fn renamed(new_type: &str) -> TestRepo {
    let r = TestRepo::new();
    r.lock(json!([{"name": "get_order", "inputSchema": {
        "type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}}]));
    r.commit("get_order by id");
    r.lock(json!([{"name": "get_order", "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": new_type},
            "id": {"type": new_type, "deprecated": true,
                   "description": "Deprecated: renamed to `order_id`; send `order_id` instead."}
        },
        "anyOf": [{"required": ["order_id"]}, {"required": ["id"]}]}}]));
    r.write(RECORD, RENAME);
    r
}

#[test]
fn an_alias_narrower_than_the_old_field_fails_at_the_alias() {
    let r = renamed("integer");
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("error[input.type-narrowed]"), "{run:?}");
    assert!(
        run.stdout
            .contains("(get_order /inputSchema/properties/id/type)"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("acknowledges that the name moved"),
        "{run:?}"
    );
    // The rename itself is still acknowledged by its entry.
    assert!(
        run.stdout.contains("acknowledged[input.property-removed]"),
        "{run:?}"
    );
    let json = r.check(&["--against", "HEAD", "--format", "json"]);
    let v: Value = serde_json::from_str(&json.stdout).expect("json");
    let narrowed = v["checks"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["rule"] == "input.type-narrowed")
        .cloned()
        .expect("the narrowing is reported");
    assert_eq!(narrowed["fails"], true, "{narrowed}");
    assert_eq!(narrowed["pointer"], "/inputSchema/properties/id/type");
    // Witnessed on the published alias: a string id, accepted before, rejected now.
    assert_eq!(narrowed["witness"]["kind"], "rejected", "{narrowed}");
    assert!(narrowed["witness"]["value"]["id"].is_string(), "{narrowed}");
    assert_eq!(narrowed["proof"]["status"], "proven", "{narrowed}");
}

#[test]
fn the_narrowing_acknowledged_on_its_own_passes() {
    let r = renamed("integer");
    r.write(RECORD, &format!("{RENAME}{NARROWING}"));
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("acknowledged[input.type-narrowed]"),
        "{run:?}"
    );
}

#[test]
fn an_alias_that_accepts_what_the_old_field_did_passes() {
    let r = renamed("string");
    let run = r.check(&["--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!run.stdout.contains("error["), "{run:?}");
    assert!(!run.stdout.contains("warning:"), "{run:?}");
}
