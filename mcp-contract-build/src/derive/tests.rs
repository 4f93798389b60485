//! Unit tests of the derive engine's public entry points, mostly the error
//! path: every failure names the type, the file and the line, and says how
//! to get out.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::*;

fn index_of(source: &str) -> TypeIndex {
    let file = crate::source::Source::parse(source).expect("test source parses");
    TypeIndex::new(vec![(PathBuf::from("src/lib.rs"), file, Vec::new())])
}

fn ty(s: &str) -> syn::Type {
    syn::parse_str(s).expect("a type")
}

#[test]
fn unknown_type_names_type_file_line_and_escape_hatch() {
    let ix = index_of(
        "use serde::Deserialize;\n\
         #[derive(Deserialize)]\n\
         pub struct Args {\n\
             pub name: String,\n\
             pub gadget: Frobnicator,\n\
         }\n",
    );
    let err = input_schema_for(&ix, &ty("Args"), &[]).unwrap_err();
    assert_eq!(err.type_name, "Frobnicator");
    assert_eq!(err.file, Path::new("src/lib.rs"));
    assert_eq!(err.line, 5);
    assert!(err.message.contains("Frobnicator"), "{}", err.message);
    assert!(
        err.help.contains("#[mcp_contract(schema = "),
        "{}",
        err.help
    );
    assert!(err.help.contains("#[schemars(with = "), "{}", err.help);
    let shown = err.to_string();
    assert!(
        shown.starts_with("src/lib.rs:5: cannot derive a schema for `Frobnicator`: "),
        "{shown}"
    );
    assert!(shown.contains("\n  help: "), "{shown}");
}

#[test]
fn unknown_foreign_type_is_an_error_not_an_empty_schema() {
    let ix = index_of(
        "pub struct Args {\n\
             pub started: std::time::Instant,\n\
         }\n",
    );
    let err = schema_for(&ix, &ty("Args"), &[]).unwrap_err();
    assert_eq!(err.type_name, "std::time::Instant");
    assert_eq!(err.line, 2);
    assert!(
        err.message.contains("std::time::Instant"),
        "{}",
        err.message
    );
}

#[test]
fn unknown_root_type_points_at_the_root() {
    let ix = index_of("pub struct Args { pub a: u8 }\n");
    let err = schema_for(&ix, &ty("Missing"), &[]).unwrap_err();
    assert_eq!(err.type_name, "Missing");
    assert_eq!(err.file, Path::new("src/lib.rs"));
}

#[test]
fn override_attribute_is_used_verbatim() {
    let ix = index_of(
        "#[mcp_contract::schema] pub struct Args {\n\
             /// Ignored: the override is verbatim.\n\
             #[mcp_contract(schema = r#\"{\"type\": \"string\", \"format\": \"duration\"}\"#)]\n\
             pub wait: humantime::Duration,\n\
             pub maybe: Option<u8>,\n\
         }\n",
    );
    let schema = input_schema_for(&ix, &ty("Args"), &[]).unwrap();
    assert_eq!(
        schema["properties"]["wait"],
        json!({"type": "string", "format": "duration"})
    );
    assert_eq!(schema["required"], json!(["wait"]));
}

#[test]
fn invalid_override_json_is_reported_with_its_line() {
    let ix = index_of(
        "#[mcp_contract::schema] pub struct Args {\n\
             #[mcp_contract(schema = \"{not json\")]\n\
             pub wait: u8,\n\
         }\n",
    );
    let err = schema_for(&ix, &ty("Args"), &[]).unwrap_err();
    assert!(err.message.contains("not valid JSON"), "{}", err.message);
    assert_eq!(err.line, 2);
}

#[test]
fn schemars_with_resolves_the_named_type() {
    let ix = index_of(
        "pub struct Args {\n\
             #[schemars(with = \"String\")]\n\
             pub started: std::time::Instant,\n\
         }\n",
    );
    let schema = schema_for(&ix, &ty("Args"), &[]).unwrap();
    assert_eq!(schema["properties"]["started"], json!({"type": "string"}));
}

#[test]
fn schema_with_function_is_an_error() {
    let ix = index_of(
        "pub struct Args {\n\
             #[schemars(schema_with = \"make_schema\")]\n\
             pub x: u8,\n\
         }\n",
    );
    let err = schema_for(&ix, &ty("Args"), &[]).unwrap_err();
    assert!(err.message.contains("schema_with"), "{}", err.message);
    assert_eq!(err.line, 2);
    assert!(
        err.help.contains("#[mcp_contract(schema = "),
        "{}",
        err.help
    );
}

#[test]
fn uncomputable_default_is_an_error() {
    let ix = index_of(
        "#[derive(serde::Serialize)]\n\
         pub struct Args {\n\
             #[serde(default = \"from_env\")]\n\
             pub limit: u32,\n\
         }\n\
         fn from_env() -> u32 { std::env::var(\"N\").unwrap().parse().unwrap() }\n",
    );
    let err = schema_for(&ix, &ty("Args"), &[]).unwrap_err();
    assert!(err.message.contains("cannot compute"), "{}", err.message);
    assert_eq!(err.file, Path::new("src/lib.rs"));
    assert!(err.line == 3 || err.line == 6, "line {}", err.line);
}

#[test]
fn enum_arguments_are_refused_as_input_schema() {
    let ix = index_of("pub enum Args { A, B }\n");
    let err = input_schema_for(&ix, &ty("Args"), &[]).unwrap_err();
    assert!(err.message.contains("\"object\""), "{}", err.message);
    // The plain schema is still available.
    let schema = schema_for(&ix, &ty("Args"), &[]).unwrap();
    assert_eq!(schema["enum"], json!(["A", "B"]));
}

#[test]
fn types_resolve_across_modules_and_aliases() {
    let ix = index_of(
        "mod a {\n\
             pub mod b { pub struct Leaf { pub v: super::Id } }\n\
             pub type Id = u64;\n\
         }\n\
         use a::b::Leaf as Renamed;\n\
         pub struct Args { pub leaf: Renamed, pub other: crate::a::b::Leaf }\n",
    );
    let schema = input_schema_for(&ix, &ty("Args"), &[]).unwrap();
    assert_eq!(
        schema["properties"]["leaf"],
        json!({"$ref": "#/$defs/Leaf"})
    );
    assert_eq!(
        schema["properties"]["other"],
        json!({"$ref": "#/$defs/Leaf"})
    );
    assert_eq!(
        schema["$defs"]["Leaf"]["properties"]["v"],
        json!({"type": "integer", "format": "uint64", "minimum": 0})
    );
}

fn temp_crate(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let root = std::env::temp_dir().join(format!("mcp-derive-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    root
}

#[test]
fn module_files_follows_the_module_tree() {
    let root = temp_crate(
        "tree",
        &[
            (
                "src/lib.rs",
                "mod tools;\n#[path = \"odd/place.rs\"]\nmod moved;\n#[cfg(test)]\nmod absent;\n",
            ),
            (
                "src/tools/mod.rs",
                "pub mod search;\nmod inline { mod deep; }\n",
            ),
            ("src/tools/search.rs", "pub struct Args { pub q: String }\n"),
            ("src/tools/inline/deep.rs", "pub struct Deep;\n"),
            ("src/odd/place.rs", "pub struct Moved;\n"),
        ],
    );
    let files = module_files(&root, Path::new("src/lib.rs")).unwrap();
    let mut seen: Vec<(String, String)> = files
        .iter()
        .map(|(p, _, m)| (p.display().to_string(), m.join("::")))
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        vec![
            ("src/lib.rs".to_string(), String::new()),
            ("src/odd/place.rs".to_string(), "moved".to_string()),
            (
                "src/tools/inline/deep.rs".to_string(),
                "tools::inline::deep".to_string()
            ),
            ("src/tools/mod.rs".to_string(), "tools".to_string()),
            (
                "src/tools/search.rs".to_string(),
                "tools::search".to_string()
            ),
        ]
    );
    let ix = TypeIndex::new(files);
    let schema = input_schema_for(&ix, &ty("search::Args"), &["tools".to_string()]).unwrap();
    assert_eq!(schema["required"], json!(["q"]));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn missing_module_file_is_an_error_at_the_declaration() {
    let root = temp_crate("missing", &[("src/lib.rs", "\n\nmod gone;\n")]);
    let err = module_files(&root, Path::new("src/lib.rs")).unwrap_err();
    assert_eq!(err.file, Path::new("src/lib.rs"));
    assert_eq!(err.line, 3);
    assert_eq!(err.type_name, "crate::gone");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn syntax_error_is_reported_with_its_line() {
    let root = temp_crate(
        "syntax",
        &[("src/lib.rs", "pub struct A {\n  x: u8,\n  y: ,\n}\n")],
    );
    let err = module_files(&root, Path::new("src/lib.rs")).unwrap_err();
    assert_eq!(err.line, 3);
    assert!(err.message.contains("cannot parse"), "{}", err.message);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn type_level_override_is_used_for_every_use_of_the_type() {
    let ix = index_of(
        "#[mcp_contract::schema(r#\"{\"type\": \"string\", \"pattern\": \"^[0-9a-f]{40}$\"}\"#)]\n\
         pub struct Sha(Vec<u8>);\n\
         pub struct Args { pub head: Sha, pub base: Option<Sha> }\n",
    );
    let schema = input_schema_for(&ix, &ty("Args"), &[]).unwrap();
    assert_eq!(
        schema["$defs"]["Sha"],
        json!({"type": "string", "pattern": "^[0-9a-f]{40}$"})
    );
    assert_eq!(schema["properties"]["head"], json!({"$ref": "#/$defs/Sha"}));
    assert_eq!(schema["required"], json!(["head"]));
}

/// Types schemars supports through optional features we do not compile in
/// the parity test; their schemas as schemars 1.2 writes them.
#[test]
fn optional_feature_types_follow_schemars() {
    let ix = index_of(
        "pub struct Args {\n\
             pub map: indexmap::IndexMap<String, u8>,\n\
             pub set: indexmap::IndexSet<String>,\n\
             pub amount: rust_decimal::Decimal,\n\
             pub either: either::Either<u8, String>,\n\
             pub small: smallvec::SmallVec<[bool; 4]>,\n\
             pub short: smol_str::SmolStr,\n\
             pub bounded: arrayvec::ArrayVec<u8, 3>,\n\
             pub when: jiff::Timestamp,\n\
             pub version: semver::Version,\n\
             pub raw: bytes::Bytes,\n\
         }\n",
    );
    let s = schema_for(&ix, &ty("Args"), &[]).unwrap();
    let p = &s["properties"];
    let u8_schema = json!({"type": "integer", "format": "uint8", "minimum": 0, "maximum": 255});
    assert_eq!(
        p["map"],
        json!({"type": "object", "additionalProperties": u8_schema})
    );
    assert_eq!(
        p["set"],
        json!({"type": "array", "uniqueItems": true, "items": {"type": "string"}})
    );
    assert_eq!(
        p["amount"],
        json!({"type": ["string", "number"], "pattern": r"^-?\d+(\.\d+)?([eE]\d+)?$"})
    );
    assert_eq!(
        p["either"]["oneOf"][1]["properties"]["Right"],
        json!({"type": "string"})
    );
    assert_eq!(
        p["small"],
        json!({"type": "array", "items": {"type": "boolean"}})
    );
    assert_eq!(p["short"], json!({"type": "string"}));
    assert_eq!(
        p["bounded"],
        json!({"type": "array", "items": u8_schema, "maxItems": 3})
    );
    assert_eq!(p["when"], json!({"type": "string", "format": "date-time"}));
    assert_eq!(p["version"], json!({"$ref": "#/$defs/SemVer"}));
    assert_eq!(p["raw"], json!({"$ref": "#/$defs/Bytes"}));
    assert_eq!(s["$defs"]["Bytes"]["type"], json!(["array", "string"]));
    let out = output_schema_for(&ix, &ty("Args"), &[]).unwrap();
    assert_eq!(out["$defs"]["Bytes"]["type"], json!("array"));
    assert_eq!(out["properties"]["amount"]["type"], json!("string"));
}

#[test]
fn hand_written_json_schema_impl_is_refused() {
    let ix = index_of(
        "pub struct Custom;\n\
         impl schemars::JsonSchema for Custom {\n\
             fn schema_name() -> std::borrow::Cow<'static, str> { \"Custom\".into() }\n\
             fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema { todo_schema() }\n\
         }\n\
         pub struct Args { pub c: Custom }\n",
    );
    let err = input_schema_for(&ix, &ty("Args"), &[]).unwrap_err();
    assert_eq!(err.type_name, "Custom");
    // The line of what only running code knows: the call in `json_schema`.
    assert_eq!(err.line, 4);
    assert_eq!(
        err.message,
        "the type implements `JsonSchema` by hand, and its `json_schema` calls `todo_schema(..)`, \
         which the build step cannot run"
    );
}

/// An impl that only hands over to another type (and keeps its name) is
/// that type's schema, as schemars publishes it; one that renames it, or
/// does anything else, is still refused.
#[test]
fn hand_written_impl_that_delegates_is_the_other_types_schema() {
    let ix = index_of(
        "#[derive(schemars::JsonSchema)]\n\
         pub struct StyleOp { pub bold: bool }\n\
         pub struct StyleOpInput(u8);\n\
         impl schemars::JsonSchema for StyleOpInput {\n\
             fn schema_name() -> std::borrow::Cow<'static, str> { \"StyleOp\".into() }\n\
             fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema { StyleOp::json_schema(g) }\n\
         }\n\
         pub struct Renamed(u8);\n\
         impl schemars::JsonSchema for Renamed {\n\
             fn schema_name() -> std::borrow::Cow<'static, str> { \"Other\".into() }\n\
             fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema { StyleOp::json_schema(g) }\n\
         }\n\
         pub struct Qualified(u8);\n\
         impl schemars::JsonSchema for Qualified {\n\
             fn schema_name() -> std::borrow::Cow<'static, str> { StyleOp::schema_name() }\n\
             fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema { <StyleOp as schemars::JsonSchema>::json_schema(g) }\n\
         }\n\
         pub struct Args { pub ops: Vec<StyleOpInput>, pub q: Qualified }\n\
         pub struct Bad { pub r: Renamed }\n",
    );
    let s = input_schema_for(&ix, &ty("Args"), &[]).unwrap();
    assert_eq!(
        s["properties"]["ops"]["items"],
        json!({"$ref": "#/$defs/StyleOp"})
    );
    assert_eq!(s["properties"]["q"], json!({"$ref": "#/$defs/StyleOp"}));
    assert_eq!(
        s["$defs"]["StyleOp"]["properties"]["bold"],
        json!({"type": "boolean"})
    );
    let err = input_schema_for(&ix, &ty("Bad"), &[]).unwrap_err();
    assert_eq!(err.type_name, "Renamed");
    assert!(err.message.contains("by hand"), "{}", err.message);
}

#[test]
fn json_schema_repr_enums_are_integer_enums() {
    let ix = index_of(
        "/// Log level.\n\
         #[derive(schemars::JsonSchema_repr)]\n\
         #[repr(u8)]\n\
         pub enum Level { Low = 1, Mid, High = 10 }\n\
         pub struct Args { pub level: Level }\n",
    );
    let schema = schema_for(&ix, &ty("Args"), &[]).unwrap();
    assert_eq!(
        schema["$defs"]["Level"],
        json!({"type": "integer", "enum": [1, 2, 10], "description": "Log level."})
    );
}

/// A path into a dependency marks the crate wanted; loaded, its types
/// resolve (`crate::` and `pub use` inside it); a name it does not have
/// keeps the "not a type" error.
#[test]
fn types_of_another_crate_load_that_crate_on_demand() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("other/src")).unwrap();
    std::fs::write(
        dir.path().join("other/src/lib.rs"),
        "mod inner;\npub use inner::Point;\npub struct Unit(pub crate::inner::Point);\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("other/src/inner.rs"),
        "/// A point.\npub struct Point { pub x: i32 }\n",
    )
    .unwrap();
    let other = crate::metadata::CrateSource {
        name: "other".into(),
        root: dir.path().join("other/src/lib.rs"),
        deps: Default::default(),
    };
    let deps = [("renamed".to_string(), 0)].into_iter().collect();
    let mut ix = index_of("pub struct Args { pub at: renamed::Point, pub u: renamed::Unit }\n")
        .with_crates(deps, vec![other]);
    let first = schema_for(&ix, &ty("Args"), &[]).unwrap_err();
    assert!(first.message.contains("renamed::Point"), "{first}");
    assert_eq!(ix.take_wanted(), vec![0]);
    ix.load_crate(0, dir.path()).unwrap();
    let schema = schema_for(&ix, &ty("Args"), &[]).unwrap();
    assert_eq!(schema["$defs"]["Point"]["description"], "A point.");
    assert_eq!(schema["properties"]["u"]["$ref"], "#/$defs/Unit");
    assert!(ix.take_wanted().is_empty());
    let err = schema_for(&ix, &ty("renamed::Missing"), &[]).unwrap_err();
    assert!(err.message.contains("is not a type of this crate"), "{err}");
}
