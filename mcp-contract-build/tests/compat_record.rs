//! The build step reads `contracts/migrations.toml`: its transitions shape the
//! locked (and published) schemas and the plan written to `OUT_DIR`; a
//! malformed record, or a source alias the record does not back, fails the
//! build with the file and line.

use std::path::Path;

use mcp_contract::runtime::{CompatPlan, PLAN_PATH};
use mcp_contract::{lockfile, Surface};
use mcp_contract_build::{Builder, Mode};

const SOURCE: &str = r#"
use serde::Deserialize;

/// Look things up.
#[mcp_contract::tool(name = "lookup", version = 1)]
#[derive(Debug, Deserialize)]
pub struct LookupArgs {
    /// What to look up.
    pub search_text: String,
    pub region: String,
}
"#;

const RECORD: &str = r#"
[[acknowledge]]
tool = "lookup"
rule = "input.property-removed"
pointer = "/inputSchema/properties/query"
subject = "query"
reason = "clearer"
owner = "@t"
transition = { kind = "rename", from = "query", to = "search_text", removal = "no calls using query for 30 days" }

[[acknowledge]]
tool = "lookup"
rule = "input.required-added"
pointer = "/inputSchema/required"
subject = "region"
reason = "residency"
owner = "@t"
transition = { kind = "default", field = "region", value = "eu" }
"#;

fn package(source: &str, record: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), source).unwrap();
    if let Some(r) = record {
        std::fs::create_dir_all(dir.path().join("contracts")).unwrap();
        std::fs::write(dir.path().join("contracts/migrations.toml"), r).unwrap();
    }
    dir
}

fn generate(dir: &Path) -> Result<Surface, String> {
    Builder::new()
        .manifest_dir(dir)
        .package("pkg")
        .out_dir(dir.join("out"))
        .mode(Mode::Update)
        .quiet()
        .generate()
        .map(|s| s.surface)
        .map_err(|e| e.to_string())
}

#[test]
fn transitions_shape_the_locked_schema_and_the_plan() {
    let dir = package(SOURCE, Some(RECORD));
    let surface = generate(dir.path()).unwrap();
    let schema = &surface.get("lookup").unwrap().input_schema;
    assert_eq!(schema["properties"]["query"]["deprecated"], true);
    assert_eq!(
        schema["properties"]["search_text"]["description"],
        "What to look up."
    );
    assert_eq!(schema["properties"]["region"]["default"], "eu");
    assert!(schema.get("required").is_none(), "{schema}");
    assert_eq!(
        schema["anyOf"],
        serde_json::json!([{ "required": ["search_text"] }, { "required": ["query"] }])
    );

    let locked = lockfile::read(&dir.path().join(lockfile::DEFAULT_PATH)).unwrap();
    assert_eq!(locked, surface, "locked == generated");
    let plan = std::fs::read_to_string(dir.path().join("out").join(PLAN_PATH)).unwrap();
    let plan = CompatPlan::from_json(&plan).unwrap();
    let tool = &plan.tools["lookup"];
    assert_eq!(tool.aliases[0].from, "query");
    assert!(tool.aliases[0].required);
    assert_eq!(tool.defaults[0].field, "region");
    assert_eq!(tool.properties, ["region", "search_text"]);
}

#[test]
fn without_a_record_the_schema_is_the_derived_one() {
    let dir = package(SOURCE, None);
    let surface = generate(dir.path()).unwrap();
    let schema = &surface.get("lookup").unwrap().input_schema;
    assert!(schema["properties"].get("query").is_none());
    assert_eq!(
        schema["required"],
        serde_json::json!(["search_text", "region"])
    );
}

#[test]
fn a_malformed_record_fails_the_build_with_its_line() {
    let bad = RECORD.replace("kind = \"default\"", "kind = \"defualt\"");
    let dir = package(SOURCE, Some(&bad));
    let err = generate(dir.path()).unwrap_err();
    assert!(
        err.contains("migrations.toml:18:23: unknown transition kind `defualt`"),
        "{err}"
    );
    assert!(!err.starts_with("error:"), "{err}");
    assert!(err.contains("did you mean `default`"), "{err}");
}

#[test]
fn a_rename_to_a_field_that_does_not_exist_fails_the_build() {
    let bad = RECORD.replace("to = \"search_text\"", "to = \"search\"");
    let dir = package(SOURCE, Some(&bad));
    let err = generate(dir.path()).unwrap_err();
    assert!(err.contains("migrations.toml:2:1"), "{err}");
    assert!(err.contains("no field `search`"), "{err}");
}

#[test]
fn a_source_alias_needs_a_rename_in_the_record() {
    let source = SOURCE.replace(
        "pub search_text: String,",
        "#[mcp_contract(alias = \"q\")]\n    pub search_text: String,",
    );
    let dir = package(&source, Some(RECORD));
    let err = generate(dir.path()).unwrap_err();
    assert!(err.contains("alias `q` of `lookup` has no rename"), "{err}");

    let backed = source.replace("alias = \"q\"", "alias = \"query\"");
    let dir = package(&backed, Some(RECORD));
    generate(dir.path()).unwrap();
}

#[test]
fn an_input_schema_that_admits_no_object_fails_the_build() {
    let source = r##"
/// Echo a word.
#[mcp_contract::tool(name = "echo")]
#[mcp_contract::schema(r#"{"type": "string"}"#)]
pub struct EchoArgs {
    pub word: String,
}
"##;
    let dir = package(source, None);
    let err = generate(dir.path()).unwrap_err();
    assert!(err.contains("root type \"object\""), "{err}");
    assert!(err.contains("lib.rs:"), "{err}");
}
