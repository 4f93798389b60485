//! Every registered rule has a fixture pair that fires it and one that must
//! not; every fixture file names a registered rule. (The engine names the
//! rules it emits by [`RuleId`] variant, so it cannot emit an unregistered
//! one; every variant is a rule here.)

use std::path::PathBuf;

use mcp_contract::load::surface_from_value;
use mcp_contract::rules::RuleId;
use mcp_contract::{diff_surfaces, Surface};
use serde_json::{json, Value};

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/rules")
}

/// Turns one side of a fixture pair into a surface for `rule`'s namespace.
/// A fixture schema is the schema of one field, `v`, of the arguments (or
/// of the structured result): MCP only ever sends objects at the root.
fn field(v: &Value) -> Value {
    let mut inner = v.clone();
    let defs = inner.as_object_mut().and_then(|m| m.remove("$defs"));
    let mut root = json!({"type": "object", "properties": {"v": inner}});
    if let Some(defs) = defs {
        root["$defs"] = defs;
    }
    root
}

/// The schema of a case as the tool publishes it: wrapped as the field `v`
/// of an object, or (`"at": "root"`) as the schema root itself.
fn side(rule: &str, case: &Value, v: &Value) -> Surface {
    let schema = if case.get("at").and_then(Value::as_str) == Some("root") {
        v.clone()
    } else {
        field(v)
    };
    let value = if rule.starts_with("input.") {
        json!([{"name": "t", "inputSchema": schema}])
    } else if rule.starts_with("output.") {
        json!([{"name": "t", "inputSchema": {"type": "object"}, "outputSchema": schema}])
    } else {
        v.clone()
    };
    surface_from_value(&value, rule)
        .unwrap_or_else(|e| panic!("fixture for {rule} does not load: {e}"))
}

fn rules_reported(rule: &str, case: &Value) -> Vec<&'static str> {
    // Reserved-name rules need the lockfile's history (`history`: surfaces
    // published before `old`, oldest first); every side is a whole surface.
    if let Some(history) = case.get("history").and_then(Value::as_array) {
        let load = |v: &Value| {
            surface_from_value(v, rule)
                .unwrap_or_else(|e| panic!("fixture for {rule} does not load: {e}"))
        };
        let past: Vec<Surface> = history.iter().map(load).collect();
        let (old, new) = (load(&case["old"]), load(&case["new"]));
        return mcp_contract::check::reserved::changes_with_history(&past, &old, &new)
            .iter()
            .map(|c| c.rule)
            .collect();
    }
    let old = side(rule, case, &case["old"]);
    let new = side(rule, case, &case["new"]);
    diff_surfaces(&old, &new)
        .changes
        .iter()
        .map(|c| c.rule)
        .collect()
}

#[test]
fn every_rule_fires_on_its_fixture_and_stays_quiet_on_the_other() {
    let mut failures = vec![];
    for id in RuleId::ALL {
        let rule = id.rule();
        let path = fixtures_dir().join(format!("{}.json", rule.id));
        let Ok(text) = std::fs::read_to_string(&path) else {
            failures.push(format!("{}: no fixture file {}", rule.id, path.display()));
            continue;
        };
        let cases: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let fires = cases["fires"].as_array().cloned().unwrap_or_default();
        let quiet = cases["quiet"].as_array().cloned().unwrap_or_default();
        if fires.is_empty() || quiet.is_empty() {
            failures.push(format!(
                "{}: needs at least one `fires` and one `quiet` pair",
                rule.id
            ));
        }
        for (i, case) in fires.iter().enumerate() {
            let got = rules_reported(rule.id, case);
            if !got.contains(&rule.id) {
                failures.push(format!(
                    "{}: fires[{i}] did not fire (reported {got:?})",
                    rule.id
                ));
            }
        }
        for (i, case) in quiet.iter().enumerate() {
            let got = rules_reported(rule.id, case);
            if got.contains(&rule.id) {
                failures.push(format!("{}: quiet[{i}] fired", rule.id));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_fixture_file_names_a_registered_rule() {
    for entry in std::fs::read_dir(fixtures_dir()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(id) = name.strip_suffix(".json") {
            assert!(
                RuleId::parse(id).is_some(),
                "fixture {name} names no registered rule"
            );
        }
    }
}
