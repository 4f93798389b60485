//! The build step's rmcp discovery and derivation on real servers nobody
//! here wrote: `../shared/rmcp-servers/` (source excerpts of six open-source
//! rmcp servers, read in place). For every server:
//! - every `#[tool]` attribute in its files is found (the count equals the
//!   attribute lines in the files);
//! - each found tool gets a schema, or a build error that names the file,
//!   the line, the construct and an escape hatch; never a panic, never a
//!   silent `{}`;
//! - where rust-sdk's own tests (`crates/rmcp/tests/*.rs`) assert what rmcp
//!   generates, the derived tool says the same.
//!
//! How each server's files are read is `rmcp_servers_derive`'s (shared with
//! the runtime layer's test on the same tools). What still fails is
//! counted and printed (`--nocapture`) per server.
//!
//! Without `../shared` the test says so and passes; with `CI` set it fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use mcp_contract::Tool;
use mcp_contract_build::rmcp::eval::eval_json;
use serde_json::{json, Value};

mod rmcp_servers_derive;
mod rmcp_servers_dir;
use rmcp_servers_derive::{run_server, Outcome};
use rmcp_servers_dir::{rs_files, shared};

/// Whether an rmcp tool's or prompt's help says what to do, and nothing
/// that does not work for it: never a verbatim schema, which rmcp (it
/// publishes what schemars derives) would not publish.
fn names_a_fix(help: &str) -> bool {
    let help = help.trim_start().trim_start_matches("help:").trim();
    !help.is_empty()
        && !help.contains("#[mcp_contract(schema")
        && !help.contains("#[mcp_contract::schema(")
}

/// Lines that are a `#[tool]` / `#[tool(` / `#[rmcp::tool...` attribute.
fn attribute_lines(files: &[PathBuf], name: &str) -> BTreeSet<(PathBuf, usize)> {
    let mut out = BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim_start();
            for prefix in [
                format!("#[{name}]"),
                format!("#[{name}("),
                format!("#[rmcp::{name}"),
            ] {
                if t.starts_with(&prefix) {
                    out.insert((f.clone(), i + 1));
                }
            }
        }
    }
    out
}

fn check_server(name: &str) -> Option<Vec<Outcome>> {
    let dir = shared()?.join(name);
    let mut files = Vec::new();
    rs_files(&dir, &mut files);
    let attrs = attribute_lines(&files, "tool");
    let (outcomes, prompts) = run_server(&dir);
    let prompt_attrs = attribute_lines(&files, "prompt");
    assert_eq!(
        prompts.len(),
        prompt_attrs.len(),
        "{name}: {} #[prompt] attributes in the files, {} prompts found",
        prompt_attrs.len(),
        prompts.len()
    );
    let mut prompts_derived = 0;
    for p in &prompts {
        match &p.result {
            Ok(_) => prompts_derived += 1,
            Err(e) => {
                assert!(e.contains(&format!("prompt `{}`", p.name)), "{name}: {e}");
                assert!(e.contains("help:") && names_a_fix(e), "{name}: {e}");
                eprintln!("  prompt error: {}", e.lines().next().unwrap_or_default());
            }
        }
    }
    if !prompts.is_empty() {
        eprintln!(
            "{name}: {} #[prompt] found (= attributes in the files), {prompts_derived} derived",
            prompts.len()
        );
    }
    // Every attribute found: compare the attribute lines with the fns found
    // (each fn's line is after its attribute, before the next one).
    let found: BTreeSet<PathBuf> = outcomes.iter().map(|o| o.found.file.clone()).collect();
    for (f, line) in &attrs {
        let n = outcomes
            .iter()
            .filter(|o| &o.found.file == f && o.found.line > *line && o.found.line <= line + 200)
            .count();
        if n == 0 {
            eprintln!(
                "{name}: no tool found after the attribute at {}:{line} ({} files with tools)",
                f.display(),
                found.len()
            );
        }
    }
    assert_eq!(
        outcomes.len(),
        attrs.len(),
        "{name}: {} #[tool] attributes in the files, {} tools found",
        attrs.len(),
        outcomes.len()
    );
    let mut derived = 0;
    let mut errors: BTreeMap<String, usize> = BTreeMap::new();
    for o in &outcomes {
        match &o.result {
            Ok(tool) => {
                derived += 1;
                assert_ne!(
                    tool.input_schema,
                    json!({}),
                    "{name}: `{}` input is `{{}}`",
                    tool.name
                );
                assert_eq!(
                    tool.input_schema["type"], "object",
                    "{name}: `{}`",
                    tool.name
                );
                if let Some(out) = &tool.output_schema {
                    assert_ne!(out, &json!({}), "{name}: `{}` output is `{{}}`", tool.name);
                }
            }
            Err(e) => {
                let first = e.lines().next().unwrap_or_default();
                let (file, _) = first.split_once(".rs:").unwrap_or_default();
                assert!(
                    !file.is_empty(),
                    "{name}: error must name the file and line: {e}"
                );
                assert!(
                    first.contains(&format!("tool `{}`", o.found.name)),
                    "{name}: error must name the tool: {e}"
                );
                let help = e.lines().find(|l| l.trim_start().starts_with("help:"));
                let help = help.unwrap_or_else(|| panic!("{name}: error without help: {e}"));
                assert!(
                    names_a_fix(help),
                    "{name}: the help must name an escape hatch: {e}"
                );
                // The construct: `cannot derive a schema for `T`` or `cannot evaluate ...`.
                let construct = first.split(": ").skip(2).collect::<Vec<_>>().join(": ");
                *errors.entry(construct).or_default() += 1;
            }
        }
    }
    eprintln!(
        "{name}: {} #[tool] found (= attributes in the files), {derived} derived, {} build errors",
        outcomes.len(),
        outcomes.len() - derived
    );
    for (construct, n) in &errors {
        eprintln!("  {n} × {construct}");
    }
    if name.contains("rust-sdk") {
        PROMPTS
            .with(|c| *c.borrow_mut() = prompts.into_iter().map(|p| (p.name, p.result)).collect());
    }
    Some(outcomes)
}

thread_local! {
    static PROMPTS: std::cell::RefCell<Vec<(String, Result<Value, String>)>> = Default::default();
}

fn tool<'a>(outcomes: &'a [Outcome], file_suffix: &str, name: &str) -> &'a Tool {
    let o = outcomes
        .iter()
        .find(|o| o.found.name == name && o.found.file.ends_with(file_suffix))
        .unwrap_or_else(|| panic!("no tool `{name}` in {file_suffix}"));
    o.result
        .as_ref()
        .unwrap_or_else(|e| panic!("`{name}`: {e}"))
}

#[test]
fn rust_sdk_examples_and_tests() {
    let Some(outcomes) = check_server("modelcontextprotocol__rust-sdk") else {
        return;
    };
    let root = shared().unwrap().join("modelcontextprotocol__rust-sdk");
    let mut equal = 0;

    // test_complex_schema.rs: `expected_schema()` is the exact input schema.
    let path = root.join("crates/rmcp/tests/test_complex_schema.rs");
    let file = syn::parse_file(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let expected = file
        .items
        .iter()
        .find_map(|i| match i {
            syn::Item::Fn(f) if f.sig.ident == "expected_schema" => match f.block.stmts.last() {
                Some(syn::Stmt::Expr(e, None)) => eval_json(e).ok(),
                _ => None,
            },
            _ => None,
        })
        .expect("expected_schema() is literal JSON");
    assert_eq!(
        tool(&outcomes, "test_complex_schema.rs", "chat").input_schema,
        expected
    );
    equal += 1;

    // test_tool_macros.rs: Option<String> is `["string", "null"]`, no `nullable`,
    // the field's doc comment kept; a tool without parameters publishes
    // rmcp's empty object.
    let t = tool(&outcomes, "test_tool_macros.rs", "test_optional_i64");
    let props = &t.input_schema["properties"];
    assert_eq!(props["count"]["type"], json!(["integer", "null"]));
    equal += 1;
    let hello = tool(&outcomes, "test_tool_macros.rs", "hello");
    assert_eq!(
        hello.input_schema,
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(hello.description.as_deref(), Some("Say hello"));
    equal += 1;

    // test_json_schema_detection.rs: which tools have an output schema, and its type.
    let f = "test_json_schema_detection.rs";
    for (name, has, ty) in [
        ("with-json", true, Some("object")),
        ("without-json", false, None),
        ("result-with-json", true, Some("object")),
        ("explicit-schema", true, Some("object")),
        ("with-json-array", true, Some("array")),
        ("result-with-json-array", true, Some("array")),
        ("with-json-string", true, Some("string")),
    ] {
        let t = tool(&outcomes, f, name);
        assert_eq!(t.output_schema.is_some(), has, "{name}");
        if let (Some(out), Some(ty)) = (&t.output_schema, ty) {
            assert_eq!(out["type"], ty, "{name}");
        }
        equal += 1;
    }
    // `output_schema = schema_for_type::<TestData>()` is the untouched root
    // schema (`$schema` and `title` kept), unlike a derived output schema.
    let explicit = tool(&outcomes, f, "explicit-schema")
        .output_schema
        .clone()
        .unwrap();
    assert_eq!(explicit["title"], "TestData");

    // test_structured_output.rs: `calculate` outputs sum and product; `greeting` has none.
    let f = "test_structured_output.rs";
    let calc = tool(&outcomes, f, "calculate")
        .output_schema
        .clone()
        .unwrap();
    let text = calc.to_string();
    assert!(text.contains("sum") && text.contains("product"), "{text}");
    assert!(tool(&outcomes, f, "get-greeting").output_schema.is_none());
    equal += 2;

    // test_tool_macro_annotations.rs: annotations as declared.
    let annotated = outcomes
        .iter()
        .find(|o| o.found.file.ends_with("test_tool_macro_annotations.rs"))
        .unwrap();
    let t = annotated.result.as_ref().unwrap();
    assert_eq!(t.name, "direct-annotated-tool");
    assert_eq!(
        t.description.as_deref(),
        Some("Direct annotation test tool\nThis is used to test tool annotations")
    );
    assert_eq!(
        t.annotations.clone().map(Value::Object),
        Some(json!({"title": "Annotated Tool", "readOnlyHint": true}))
    );
    equal += 1;

    // examples: `Json<i32>` output (a non-object output schema).
    let f = "examples/transport/src/common/calculator.rs";
    assert!(tool(&outcomes, f, "sum").output_schema.is_none());
    let sub = tool(&outcomes, f, "sub").output_schema.clone().unwrap();
    assert_eq!(
        sub,
        json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "integer", "format": "int32"})
    );
    equal += 2;
    eprintln!(
        "modelcontextprotocol__rust-sdk: {equal} tools checked equal to rust-sdk's own assertions"
    );
}

#[test]
fn nvim_mcp() {
    check_server("linw1995__nvim-mcp");
}

#[test]
fn rudof() {
    let Some(outcomes) = check_server("rudof-project__rudof") else {
        return;
    };
    // `name =` differs from the fn name; `description =` wins over the doc comment.
    // `annotations(title = ...)` is published inside `annotations`.
    let titled = outcomes
        .iter()
        .filter_map(|o| o.result.as_ref().ok())
        .filter(|t| {
            t.annotations
                .as_ref()
                .is_some_and(|a| a.contains_key("title"))
        })
        .count();
    assert_eq!(titled, outcomes.len());
}

#[test]
fn stakpak_agent() {
    let Some(outcomes) = check_server("stakpak__agent") else {
        return;
    };
    let routers: BTreeSet<String> = outcomes
        .iter()
        .filter_map(|o| o.found.router.clone())
        .collect();
    assert!(routers.len() >= 4, "four routers: {routers:?}");
}

#[test]
fn mcp_server_terminal() {
    check_server("aybelatchane__mcp-server-terminal");
}

#[test]
fn spreadsheet_mcp() {
    let Some(outcomes) = check_server("PSU3D0__spreadsheet-mcp") else {
        return;
    };
    let gated: Vec<&str> = outcomes
        .iter()
        .filter(|o| o.found.features.iter().any(|f| f == "recalc"))
        .map(|o| o.found.name.as_str())
        .collect();
    assert!(
        !gated.is_empty(),
        "the recalc router is recorded with its feature"
    );
    eprintln!(
        "PSU3D0__spreadsheet-mcp: {} tools gated on feature `recalc`",
        gated.len()
    );
    // Types reached through `pub use spreadsheet_kit::tools::*;` in the
    // sibling crate; outputs through the local `type Json<T> = McpJson<Pruned<T>>`;
    // `StyleOpInput`'s hand-written impl hands over to `StyleOp`.
    let list = tool(&outcomes, "server.rs", "list_workbooks");
    assert!(
        list.output_schema.is_some(),
        "list_workbooks has an output schema"
    );
    let style = tool(&outcomes, "server.rs", "style_batch");
    let ops = &style.input_schema["properties"]["ops"]["items"];
    assert_eq!(
        ops,
        &json!({"$ref": "#/$defs/StyleOp"}),
        "{}",
        style.input_schema
    );
    assert!(style.input_schema["$defs"]["StyleOp"].is_object());
}
