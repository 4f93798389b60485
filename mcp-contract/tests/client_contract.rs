//! What `docs/client-authors.md` tells client authors is what the runtime
//! layer does: its example definition hashes to the revision it shows (in
//! Rust and with the page's own Python function, run by `python3`), its
//! request `_meta` key is the one the layer reads, and its refusal is the
//! one the layer writes for that call.

use std::path::Path;
use std::process::Command;

use mcp_contract::load;
use mcp_contract::runtime::{plan, wire, Compat, Prepared};
use mcp_contract::Surface;
use serde_json::{json, Value};

const PAGE: &str = "docs/client-authors.md";

/// The page's fenced blocks of `lang`, in order.
fn blocks(lang: &str) -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(PAGE))
        .unwrap();
    let mut out = vec![];
    let mut current: Option<String> = None;
    for line in text.lines() {
        match &mut current {
            None if line == format!("```{lang}") => current = Some(String::new()),
            Some(body) if line == "```" => {
                out.push(std::mem::take(body));
                current = None;
            }
            Some(body) => {
                body.push_str(line);
                body.push('\n');
            }
            None => {}
        }
    }
    out
}

fn example_tool() -> Value {
    let mut tool: Value = serde_json::from_str(&blocks("json")[0]).unwrap();
    tool["_meta"].as_object_mut().unwrap().clear();
    tool.as_object_mut().unwrap().remove("_meta");
    tool
}

#[test]
fn the_example_definition_hashes_to_the_revision_it_shows() {
    let shown: Value = serde_json::from_str(&blocks("json")[0]).unwrap();
    let revision = shown["_meta"][wire::REVISION].as_str().unwrap().to_string();
    let tool = load::tool_from_value(&example_tool(), PAGE, "").unwrap();
    assert_eq!(
        tool.digest(),
        revision,
        "the lockfile digest of the example"
    );
    assert_eq!(wire::revision_of_definition(&shown), Some(revision.clone()));

    // the page's Python function, on the definition as sent (with `_meta`
    // and a key of the server's own beside the layer's)
    let mut sent = shown.clone();
    sent["_meta"]["ui/x"] = json!(1);
    let with_own = {
        let mut t = example_tool();
        t["_meta"] = json!({"ui/x": 1});
        load::tool_from_value(&t, PAGE, "").unwrap().digest()
    };
    let python = blocks("python").join("\n");
    let script = format!(
        "{python}\nimport sys\nfor line in sys.stdin:\n    print(revision(json.loads(line)))\n"
    );
    let input = format!("{shown}\n{sent}\n");
    let out = run_python(&script, &input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, [revision.as_str(), with_own.as_str()], "{out}");
}

fn run_python(script: &str, input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(script)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs the page's snippet (it is on every machine this project uses)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_request_key_is_the_one_the_layer_reads() {
    let request: Value = serde_json::from_str(&blocks("json")[1]).unwrap();
    let meta = request["_meta"].as_object().unwrap();
    assert!(meta.contains_key(wire::REVISION));
    assert!(wire::stated_revision(Some(meta)).is_some());
}

#[test]
fn the_refusal_shown_is_the_one_written() {
    let mut tool = example_tool();
    tool["inputSchema"]["properties"]["limit"] =
        json!({"type": "integer", "minimum": 1, "maximum": 50});
    let surface: Surface = load::surface_from_value(&json!([tool]), PAGE).unwrap();
    let record = Default::default();
    let compat = Compat::new(plan::derive(&record, &surface, "sha256:0").unwrap());
    let Prepared::Reject(stale) = compat.prepare(
        "search_catalog",
        json!({"search_text": "usb", "limit": 51})
            .as_object()
            .cloned(),
    ) else {
        panic!("refused")
    };
    let written = stale.structured();
    let shown: Value = serde_json::from_str(&blocks("json")[2]).unwrap();
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&shown), keys(&written));
    for k in [
        "error_code",
        "tool",
        "fields",
        "errors",
        "required_action",
        "side_effect_started",
        "nothing_executed",
        "message",
    ] {
        assert_eq!(shown[k], written[k], "`{k}`");
    }
    assert!(written["tool_revision"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));
}
