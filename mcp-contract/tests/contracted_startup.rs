//! A server whose tools are served differently from the lockfile publishes
//! them as served while its calls are checked against the locked contract:
//! the wrapper says so on stderr when it is built, in one line naming the
//! tools, in every build (the line is printed unconditionally; a release
//! build used to say nothing). Observed from a child process, since stderr
//! is what a deployment sees.

use std::process::Command;

use mcp_contract::rmcp::{Contract, Contracted};
use rmcp::model::Tool;
use rmcp::ServerHandler;
use serde_json::{json, Value};

const CHILD: &str = "MCP_CONTRACT_TEST_STARTUP_CHILD";
const TEST: &str = "the_wrapper_names_tools_served_differently_when_it_starts";

fn tool(v: Value) -> Tool {
    serde_json::from_value(v).unwrap()
}

fn contract() -> Contract {
    let locked = |name: &str| json!({"name": name, "inputSchema": {"type": "object", "properties": {"to": {"type": "string"}}}});
    let manifest = json!({
        "derived": {"a": locked("a"), "b": locked("b")},
        "published": {"a": locked("a"), "b": locked("b")},
        "features": {}
    });
    Contract::from_build(&manifest.to_string(), r#"{"revision": "r", "tools": {}}"#).unwrap()
}

/// Serves `a` rewritten (a run-time schema edit), `b` as locked, and `c`,
/// which the lockfile does not have.
struct Rewriting;

impl ServerHandler for Rewriting {
    fn get_tool(&self, name: &str) -> Option<Tool> {
        let to = if name == "a" { "integer" } else { "string" };
        Some(tool(
            json!({"name": name, "inputSchema": {"type": "object", "properties": {"to": {"type": to}}}}),
        ))
    }
}

#[test]
fn the_wrapper_names_tools_served_differently_when_it_starts() {
    if std::env::var_os(CHILD).is_some() {
        let server = Contracted::new(Rewriting, contract());
        // what `tools/list` then publishes: `a` already named, `c` unlocked
        for name in ["a", "b", "c"] {
            let served = server.inner().get_tool(name).unwrap();
            server.publish(served);
        }
        return;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", TEST, "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("mcp-contract:"))
        .collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    let startup = lines[0];
    assert!(
        startup.contains("1 tool is served differently from the lockfile")
            && startup.contains("`a` (at /inputSchema/properties/to/type)")
            && startup.contains("still checked against the locked contract"),
        "{startup}"
    );
    assert!(!startup.contains("`b`"), "{startup}");
    assert!(
        lines[1].contains("tool `c`") && lines[1].contains("not in the lockfile"),
        "{}",
        lines[1]
    );
}
