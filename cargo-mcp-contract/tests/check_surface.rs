//! `check` and `history` over prompts, resources and the server section in
//! real temporary git repositories: a removed prompt fails the gate with a
//! `prompt = ...` entry to paste, the entry acknowledges it, a removed
//! resource that comes back with another type trips the reserved-name rule,
//! and `history` shows their timelines.

mod check_support;

use check_support::*;
use serde_json::json;

fn surface(prompts: serde_json::Value, resources: serde_json::Value) -> serde_json::Value {
    json!({
        "tools": [{"name": "search", "inputSchema": {"type": "object"}}],
        "prompts": prompts,
        "resources": resources,
        "server": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "prompts": {}, "resources": {}}}
    })
}

#[test]
fn a_removed_prompt_fails_until_acknowledged() {
    let r = TestRepo::new();
    r.lock(surface(
        json!([{"name": "summarize", "arguments": [{"name": "text", "required": true}]}]),
        json!([{"uri": "file:///schema.json", "name": "schema", "mimeType": "application/json"}]),
    ));
    r.commit("publish");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.lock(surface(
        json!([]),
        json!([{"uri": "file:///schema.json", "name": "schema", "mimeType": "application/json"}]),
    ));
    let run = r.check(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("error[prompt.removed]"), "{run:?}");
    assert!(run.stdout.contains("prompt = \"summarize\""), "{run:?}");
    r.write(
        RECORD,
        "[[acknowledge]]\nprompt = \"summarize\"\nrule = \"prompt.removed\"\npointer = \"\"\nsubject = \"summarize\"\nreason = \"folded into search\"\nowner = \"@docs\"\ntransition = { kind = \"removal\" }\n",
    );
    let run = r.check(&[]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("acknowledged[prompt.removed]"),
        "{run:?}"
    );
}

#[test]
fn a_resource_back_with_another_type_is_a_reserved_name_and_history_shows_it() {
    let r = TestRepo::new();
    let schema =
        |mime: &str| json!([{"uri": "file:///schema", "name": "schema", "mimeType": mime}]);
    r.lock(surface(json!([]), schema("application/json")));
    r.commit("publish the schema");
    r.lock(surface(json!([]), json!([])));
    r.commit("retire the schema");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.lock(surface(json!([]), schema("text/markdown")));
    let run = r.check(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[resource.reserved-name-reused]"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("resource = \"file:///schema\""),
        "{run:?}"
    );
    r.commit("bring it back");
    let run = r.run(&["history"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("resource file:///schema"), "{run:?}");
}
