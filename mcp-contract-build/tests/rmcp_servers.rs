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
//! The excerpts are not buildable crates (some modules are missing, most
//! pin an older rmcp), so each source directory is indexed by path
//! convention: a crate root (or each of several bin/test roots) at module
//! `[]`, every other file at the module its path names. Sibling crates are
//! given as `cargo metadata` gives them to the build step: the package's
//! path dependencies (directly or through `[workspace.dependencies]`, read
//! from the excerpts' real manifests), each loaded on demand when a path
//! reaches it (its files by the same convention). What still fails is
//! counted and printed (`--nocapture`) per server.
//!
//! Without `../shared` the test says so and passes; with `CI` set it fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use mcp_contract::Tool;
use mcp_contract_build::derive::{ModuleFile, TypeIndex};
use mcp_contract_build::metadata::CrateSource;
use mcp_contract_build::rmcp::eval::eval_json;
use mcp_contract_build::rmcp::prompts::prompt_for;
use mcp_contract_build::rmcp::surface::tool_for;
use mcp_contract_build::rmcp::{find_rmcp_prompts, find_rmcp_tools, FoundRmcpTool};
use mcp_contract_build::source::Source;
use serde_json::{json, Value};

mod rmcp_servers_dir;
use rmcp_servers_dir::{rs_files, shared};

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

/// Module path of `file` under `src` by convention.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs").to_string();
    if stem != "mod" {
        parts.push(stem);
    }
    parts
}

/// The indexes of one source directory: one per crate root (every other
/// file of the directory included), or one for the whole directory.
fn units(src: &Path, every_top_file_is_a_root: bool) -> Vec<Vec<ModuleFile>> {
    let mut files = Vec::new();
    rs_files(src, &mut files);
    // A test crate (`tests/*.rs`) is compiled with `cfg(test)` on: its
    // `#[cfg(test)]` modules are part of it.
    let test_crate = src.ends_with("tests");
    let parse = |p: &Path| {
        let mut file = Source::parse(std::fs::read_to_string(p).unwrap()).unwrap();
        if test_crate {
            for item in &mut file.syntax_mut().items {
                if let syn::Item::Mod(m) = item {
                    m.attrs.retain(|a| !a.path().is_ident("cfg"));
                }
            }
        }
        file
    };
    let is_top = |p: &Path| p.parent() == Some(src);
    let roots: Vec<PathBuf> = files
        .iter()
        .filter(|p| {
            is_top(p)
                && (every_top_file_is_a_root
                    || p.file_name()
                        .is_some_and(|n| n == "lib.rs" || n == "main.rs"))
        })
        .cloned()
        .collect();
    let rest: Vec<ModuleFile> = files
        .iter()
        .filter(|p| !roots.contains(p))
        .map(|p| (p.clone(), parse(p), module_of(src, p)))
        .collect();
    if roots.is_empty() {
        return vec![rest];
    }
    roots
        .iter()
        .map(|r| {
            let mut unit = vec![(r.clone(), parse(r), vec![])];
            unit.extend(rest.iter().cloned());
            unit
        })
        .collect()
}

fn manifest(dir: &Path) -> Option<toml_edit::DocumentMut> {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .ok()?
        .parse()
        .ok()
}

/// The path dependencies of the package in `package_dir` (`extern` name,
/// directory), directly or through the workspace root's
/// `[workspace.dependencies]`.
fn path_deps(server: &Path, package_dir: &Path) -> Vec<(String, PathBuf)> {
    let Some(doc) = manifest(package_dir) else {
        return vec![];
    };
    let workspace = manifest(server);
    let mut out = vec![];
    let Some(deps) = doc.get("dependencies").and_then(|d| d.as_table_like()) else {
        return out;
    };
    for (key, item) in deps.iter() {
        let path_of = |item: &toml_edit::Item| {
            item.get("path")
                .and_then(|p| p.as_str())
                .map(str::to_string)
        };
        let dir = if let Some(p) = path_of(item) {
            package_dir.join(p)
        } else if item.get("workspace").and_then(|w| w.as_bool()) == Some(true) {
            let Some(p) = workspace
                .as_ref()
                .and_then(|w| w.get("workspace")?.get("dependencies")?.get(key))
                .and_then(path_of)
            else {
                continue;
            };
            server.join(p)
        } else {
            continue;
        };
        out.push((key.replace('-', "_"), dir));
    }
    out
}

/// The crates `cargo metadata` would list for the package in
/// `package_dir`: its path dependencies and theirs (`deps`: the package's
/// own; `dirs[i]`: the directory of `crates[i]`).
struct Siblings {
    deps: BTreeMap<String, usize>,
    crates: Vec<CrateSource>,
    dirs: Vec<PathBuf>,
}

fn siblings(server: &Path, package_dir: &Path) -> Siblings {
    let mut s = Siblings {
        deps: BTreeMap::new(),
        crates: vec![],
        dirs: vec![],
    };
    let mut pending = vec![(None, package_dir.to_path_buf())];
    while let Some((from, dir)) = pending.pop() {
        for (name, dep) in path_deps(server, &dir) {
            let i = match s.dirs.iter().position(|d| d == &dep) {
                Some(i) => i,
                None => {
                    let lib = manifest(&dep)
                        .and_then(|m| m.get("package")?.get("name")?.as_str().map(str::to_string))
                        .unwrap_or_else(|| name.clone())
                        .replace('-', "_");
                    s.crates.push(CrateSource {
                        name: lib,
                        root: dep.join("src/lib.rs"),
                        deps: BTreeMap::new(),
                    });
                    s.dirs.push(dep.clone());
                    pending.push((Some(s.dirs.len() - 1), dep.clone()));
                    s.dirs.len() - 1
                }
            };
            match from {
                None => s.deps.insert(name, i),
                Some(f) => s.crates[f].deps.insert(name, i),
            };
        }
    }
    s
}

/// A sibling crate's files by path convention (`lib.rs` at `[]`), with an
/// empty module for each directory the excerpt has no `mod.rs` for.
fn crate_files(src: &Path) -> Vec<ModuleFile> {
    let mut paths = Vec::new();
    if src.is_dir() {
        rs_files(src, &mut paths);
    }
    let mut files: Vec<ModuleFile> = paths
        .iter()
        .filter(|p| !p.ends_with("main.rs") && !p.components().any(|c| c.as_os_str() == "bin"))
        .map(|p| {
            let file = Source::parse(std::fs::read_to_string(p).unwrap()).unwrap();
            let module = if p == &src.join("lib.rs") {
                vec![]
            } else {
                module_of(src, p)
            };
            (p.clone(), file, module)
        })
        .collect();
    let have: BTreeSet<Vec<String>> = files.iter().map(|f| f.2.clone()).collect();
    let mut missing = BTreeSet::new();
    for m in &have {
        for n in 0..m.len() {
            if !have.contains(&m[..n]) {
                missing.insert(m[..n].to_vec());
            }
        }
    }
    for m in missing {
        let path = m
            .iter()
            .fold(src.to_path_buf(), |p, s| p.join(s))
            .join("mod.rs");
        files.push((path, Source::parse("").unwrap(), m));
    }
    files
}

struct Outcome {
    found: FoundRmcpTool,
    result: Result<Tool, String>,
}

/// One `#[prompt]`: its name and its lockfile entry, or the build error.
struct PromptOutcome {
    name: String,
    result: Result<Value, String>,
}

/// Discovery and derivation on every source directory of one server.
fn run_server(server: &Path) -> (Vec<Outcome>, Vec<PromptOutcome>) {
    let mut srcs = Vec::new();
    let mut all = Vec::new();
    rs_files(server, &mut all);
    let dirs: BTreeSet<PathBuf> = all
        .iter()
        .map(|p| p.parent().unwrap().to_path_buf())
        .collect();
    for d in &dirs {
        let is_src = d.file_name().is_some_and(|n| n == "src" || n == "tests")
            && !dirs
                .iter()
                .any(|o| o != d && d.starts_with(o) && o.file_name().is_some_and(|n| n == "src"));
        if is_src {
            let many_roots = d.ends_with("tests") || d.ends_with("examples/servers/src");
            srcs.push((d.clone(), many_roots));
        }
    }
    // Source directories without a `src`/`tests` parent in the excerpt.
    for d in &dirs {
        if !srcs.iter().any(|(s, _)| d.starts_with(s)) {
            let root = d
                .ancestors()
                .find(|a| a.file_name().is_some_and(|n| n == "src"));
            if let Some(r) = root {
                if !srcs.iter().any(|(s, _)| s == r) {
                    srcs.push((r.to_path_buf(), false));
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut seen_prompts = BTreeSet::new();
    let mut out = Vec::new();
    let mut prompts = Vec::new();
    for (src, many) in srcs {
        let sib = siblings(server, src.parent().unwrap());
        for files in units(&src, many) {
            let found = find_rmcp_tools(&files).expect("discovery");
            let found_prompts = find_rmcp_prompts(&files).expect("prompt discovery");
            let mut index = TypeIndex::new(files).with_crates(sib.deps.clone(), sib.crates.clone());
            // As the build step does: derive, load the crates a path
            // reached, derive again (bounded: each round loads a crate).
            let (tool_results, prompt_results) = loop {
                let prompt_results: Vec<_> = found_prompts
                    .iter()
                    .map(|p| {
                        prompt_for(&index, Path::new("/"), p, &BTreeMap::new())
                            .map(|p| p.to_entry())
                            .map_err(|e| e.to_string())
                    })
                    .collect();
                let tool_results: Vec<_> = found
                    .iter()
                    .map(|f| {
                        tool_for(&index, Path::new("/"), f, &BTreeMap::new())
                            .map_err(|e| e.to_string())
                    })
                    .collect();
                let wanted = index.take_wanted();
                if wanted.is_empty() {
                    break (tool_results, prompt_results);
                }
                for i in wanted {
                    index.add_crate_files(i, crate_files(&sib.dirs[i].join("src")));
                }
            };
            for (p, result) in found_prompts.into_iter().zip(prompt_results) {
                if seen_prompts.insert((p.file.clone(), p.line)) {
                    prompts.push(PromptOutcome {
                        name: p.name.clone(),
                        result,
                    });
                }
            }
            for (f, result) in found.into_iter().zip(tool_results) {
                if seen.insert((f.file.clone(), f.line)) {
                    out.push(Outcome { found: f, result });
                }
            }
        }
    }
    (out, prompts)
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
                assert!(
                    e.contains("help:") && e.contains("mcp_contract"),
                    "{name}: {e}"
                );
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
                    help.contains("mcp_contract"),
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
