//! The breaking changes between two one-tool surfaces, for tests that state
//! verdicts on schema pairs (included with `#[path]` by each such test).

use mcp_contract::load::surface_from_value;
use mcp_contract::{diff_surfaces, Severity, Surface};
use serde_json::{json, Value};

/// A surface of one tool `t` with these schemas.
pub fn tool(input: Value, output: Option<Value>) -> Surface {
    let mut t = json!({"name": "t", "inputSchema": input});
    if let Some(o) = output {
        t["outputSchema"] = o;
    }
    surface_from_value(&json!([t]), "test").expect("loads")
}

/// (rule, pointer) of every breaking change from `old` to `new` inputs.
pub fn breaking_in(old: Value, new: Value) -> Vec<(&'static str, String)> {
    breaking(tool(old, None), tool(new, None))
}

/// (rule, pointer) of every breaking change from `old` to `new` outputs.
pub fn breaking_out(old: Value, new: Value) -> Vec<(&'static str, String)> {
    let obj = json!({"type": "object"});
    breaking(tool(obj.clone(), Some(old)), tool(obj, Some(new)))
}

/// (rule, pointer) of every breaking change between two surfaces.
pub fn breaking(old: Surface, new: Surface) -> Vec<(&'static str, String)> {
    diff_surfaces(&old, &new)
        .changes
        .into_iter()
        .filter(|c| c.severity == Severity::Breaking)
        .map(|c| (c.rule, c.pointer))
        .collect()
}
