//! Reserved names and `cargo mcp-contract history`, from real git history.

mod check_support;

use check_support::*;
use serde_json::{json, Value};

fn with_fetch(url_type: &str) -> Value {
    let mut tools = search(json!({"query": {"type": "string"}}));
    tools.as_array_mut().unwrap().push(json!({
        "name": "fetch",
        "inputSchema": {"type": "object", "properties": {"url": {"type": url_type}}, "required": ["url"]}
    }));
    tools
}

#[test]
fn a_removed_tool_name_reused_with_another_type_fails() {
    let r = TestRepo::new();
    r.lock(with_fetch("string"));
    r.commit("publish fetch");
    r.lock(search(json!({"query": {"type": "string"}})));
    r.write(RECORD, "[[acknowledge]]\ntool = \"fetch\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"fetch\"\nreason = \"unused\"\nowner = \"@me\"\ntransition = { kind = \"removal\" }\n");
    r.commit("remove fetch");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.lock(with_fetch("integer"));
    let run = r.check(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[tool.reserved-name-reused]"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("tool `fetch` was published before"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("rule = \"tool.reserved-name-reused\""),
        "{run:?}"
    );

    // Restoring the old contract exactly is allowed.
    r.lock(with_fetch("string"));
    let restored = r.check(&[]);
    assert_eq!(restored.code, 0, "{restored:?}");
}

#[test]
fn a_removed_field_name_reused_with_another_type_fails_unless_acknowledged() {
    let r = TestRepo::new();
    r.lock(search(
        json!({"query": {"type": "string"}, "limit": {"type": "integer"}}),
    ));
    r.commit("publish limit");
    r.lock(search(json!({"query": {"type": "string"}})));
    r.commit("remove limit");
    r.git(&["checkout", "-q", "-b", "feature"]);
    r.lock(search(
        json!({"query": {"type": "string"}, "limit": {"type": "string", "enum": ["low", "high"]}}),
    ));
    let run = r.check(&[]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[input.reserved-name-reused]"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("input field \"limit\" was published before"),
        "{run:?}"
    );

    r.write(RECORD, "[[acknowledge]]\ntool = \"search\"\nrule = \"input.reserved-name-reused\"\npointer = \"/inputSchema/properties/limit\"\nsubject = \"limit\"\nreason = \"no caller used limit for a year\"\nowner = \"@me\"\ntransition = { kind = \"other\", note = \"limit is now a coarse level\" }\n");
    let acked = r.check(&[]);
    assert_eq!(acked.code, 0, "{acked:?}");
}

#[test]
fn history_shows_each_tools_timeline_with_commits() {
    let r = TestRepo::new();
    r.lock(with_fetch("string"));
    let c1 = r.commit("publish search and fetch");
    r.lock(json!([
        {"name": "search", "description": "Search documents.", "inputSchema": {"type": "object", "properties": {"search_text": {"type": "string"}}}},
        {"name": "fetch", "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]}}
    ]));
    let c2 = r.commit("rename query");
    r.write("README", "unrelated\n");
    r.commit("unrelated");
    r.lock(search(json!({"search_text": {"type": "string"}})));
    r.write(
        RECORD,
        "[tools.search]\ndeprecated = 2030-01-01\nreplacement = \"search_v2\"\n",
    );
    let c3 = r.commit("remove fetch");
    let short = |c: &str| r.git(&["rev-parse", "--short", c]);

    let run = r.run(&["history"]);
    assert_eq!(run.code, 0, "{run:?}");
    let out = &run.stdout;
    assert!(
        out.contains(&format!("introduced  {}", short(&c1))),
        "{out}"
    );
    assert!(
        out.contains(&format!("changed     {}", short(&c2))),
        "{out}"
    );
    assert!(
        out.contains("[1 breaking, 1 additive: input.property-added, input.property-removed]"),
        "{out}"
    );
    assert!(
        out.contains(&format!("removed     {}", short(&c3))),
        "{out}"
    );
    assert!(out.contains("deprecated  2030-01-01"), "{out}");
    assert!(!out.contains("unrelated"), "{out}");

    let one = r.run(&["history", "fetch", "--format", "json"]);
    assert_eq!(one.code, 0, "{one:?}");
    let v: Value = serde_json::from_str(&one.stdout).unwrap();
    let events: Vec<&str> = v["tools"][0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["introduced", "removed"]);
    assert_eq!(v["revisions"], 3);

    let typo = r.run(&["history", "fetc"]);
    assert_eq!(typo.code, 2, "{typo:?}");
    assert!(typo.stderr.contains("did you mean `fetch`?"), "{typo:?}");
}

#[test]
fn install_hook_respects_foreign_hooks_and_hooks_path() {
    let r = TestRepo::new();
    r.write("README", "x\n");
    r.commit("init");
    let hook = r.abs(".git/hooks/pre-commit");
    let run = r.run(&["install-hook"]);
    assert_eq!(run.code, 0, "{run:?}");
    let text = std::fs::read_to_string(&hook).unwrap();
    assert!(
        text.contains("exec cargo mcp-contract check --staged"),
        "{text}"
    );
    // Ours: reinstalling updates it.
    assert_eq!(r.run(&["install-hook", "--check-args=--workspace"]).code, 0);
    assert!(std::fs::read_to_string(&hook)
        .unwrap()
        .contains("check --staged --workspace"));
    // Foreign: refused without --force, replaced (and kept) with it.
    std::fs::write(&hook, "#!/bin/sh\necho mine\n").unwrap();
    let refused = r.run(&["install-hook"]);
    assert_eq!(refused.code, 2, "{refused:?}");
    assert!(refused.stderr.contains("--force"), "{refused:?}");
    assert_eq!(
        std::fs::read_to_string(&hook).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    assert_eq!(r.run(&["install-hook", "--force"]).code, 0);
    assert_eq!(
        std::fs::read_to_string(r.abs(".git/hooks/pre-commit.bak")).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    // core.hooksPath is honoured.
    r.git(&["config", "core.hooksPath", ".githooks"]);
    assert_eq!(r.run(&["install-hook"]).code, 0);
    assert!(r.abs(".githooks/pre-commit").exists());
}
