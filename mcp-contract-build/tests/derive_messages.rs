//! What the build step says when it cannot read a schema, written out in
//! full: each error's place, its cause (the construct that only running
//! code knows), and a help that starts with what works for whoever
//! publishes the tool — schemars forms for rmcp tools (rmcp publishes what
//! schemars derives), the verbatim schema (feature `macros`) for
//! `#[mcp_contract::tool]` tools.

use std::path::PathBuf;

use mcp_contract_build::derive::{input_schema_for, Publisher, TypeIndex};
use mcp_contract_build::source::Source;

/// The error deriving `Args` from `src/lib.rs` = `text` gives, as printed
/// for tools `publisher` publishes.
fn error(text: &str, publisher: Publisher) -> String {
    let file = Source::parse(text).expect("the fixture parses");
    let index = TypeIndex::new(vec![(PathBuf::from("src/lib.rs"), file, vec![])]);
    let ty: syn::Type = syn::parse_str("Args").unwrap();
    match input_schema_for(&index, &ty, &[]) {
        Ok(schema) => panic!("derived: {schema}"),
        Err(e) => e.published_by(publisher).to_string(),
    }
}

const RMCP_HELP: &str = "rmcp publishes what schemars derives, so change that in a form the build step reads: `#[schemars(with = \"u32\")]` on the field, naming a type the build step reads; or `#[schemars(schema_with = \"my_schema\")]` on the field with `fn my_schema(_: &mut SchemaGenerator) -> Schema { json_schema!({ ... }) }` (JSON values only); or, on a type of your own, `impl JsonSchema` whose `json_schema` returns such a literal";

const SCHEMA_WITH_COMPUTED: &str = r#"use schemars::{JsonSchema, Schema, SchemaGenerator};

fn meta_schema(generator: &mut SchemaGenerator) -> Schema {
    let mut schema = String::json_schema(generator);
    schema.insert("format".into(), "uri".into());
    schema
}

fn built(generator: &mut SchemaGenerator) -> Schema {
    make(generator)
}

#[derive(serde::Deserialize, JsonSchema)]
pub struct Args {
    #[schemars(schema_with = "meta_schema")]
    pub meta: String,
    #[schemars(schema_with = "built")]
    pub other: String,
}
"#;

#[test]
fn a_schema_with_function_that_computes_is_refused_at_its_body() {
    assert_eq!(
        error(SCHEMA_WITH_COMPUTED, Publisher::Schemars),
        "src/lib.rs:3: cannot derive a schema for `String`: `#[schemars(schema_with = \"meta_schema\")]`: \
         the function `meta_schema` has a body of 3 statements, not one expression\n  \
         help: make the function's body one `json_schema!({ ... })` literal (JSON values only, nothing \
         interpolated), or name a type the build step reads with `#[schemars(with = \"Type\")]`"
    );
    let only_the_call = SCHEMA_WITH_COMPUTED.replace("\"meta_schema\"", "\"built\"");
    assert_eq!(
        error(&only_the_call, Publisher::Macro),
        "src/lib.rs:10: cannot derive a schema for `String`: `#[schemars(schema_with = \"built\")]`: \
         the function `built` calls `make(..)`, which the build step cannot run\n  \
         help: make the function's body one `json_schema!({ ... })` literal (JSON values only, nothing \
         interpolated), or name a type the build step reads with `#[schemars(with = \"Type\")]`; or give \
         the field's schema verbatim with `#[mcp_contract(schema = r#\"{ ... }\"#)]` on the field (outside \
         a tool's argument struct, also put `#[mcp_contract::schema]` on the type that declares it), \
         which needs mcp-contract's `macros` feature"
    );
}

#[test]
fn an_interpolated_value_is_named_with_its_place_in_the_literal() {
    let text = r#"use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

const DESCRIPTION: &str = "Free-form metadata.";

fn json_object_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "object",
        "additionalProperties": true,
        "description": DESCRIPTION,
    })
}

#[derive(serde::Deserialize, JsonSchema)]
pub struct Args {
    #[schemars(schema_with = "json_object_schema")]
    pub meta: serde_json::Map<String, serde_json::Value>,
}
"#;
    assert_eq!(
        error(text, Publisher::Schemars),
        "src/lib.rs:6: cannot derive a schema for `serde_json::Map<String, serde_json::Value>`: \
         `#[schemars(schema_with = \"json_object_schema\")]`: the function `json_object_schema` \
         interpolates `DESCRIPTION` at `/description` in its `json_schema!` body\n  \
         help: make the function's body one `json_schema!({ ... })` literal (JSON values only, nothing \
         interpolated), or name a type the build step reads with `#[schemars(with = \"Type\")]`"
    );
}

#[test]
fn a_schema_with_path_that_names_no_function_is_refused_at_the_attribute() {
    let text = r#"#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    #[schemars(schema_with = "elsewhere::schema")]
    pub meta: String,
}
"#;
    assert_eq!(
        error(text, Publisher::Schemars),
        "src/lib.rs:3: cannot derive a schema for `String`: `#[schemars(schema_with = \"elsewhere::schema\")]`: \
         `elsewhere::schema` is not a function of this crate or of a crate the build step reads, so what \
         it returns is unknown\n  \
         help: make the function's body one `json_schema!({ ... })` literal (JSON values only, nothing \
         interpolated), or name a type the build step reads with `#[schemars(with = \"Type\")]`"
    );
}

#[test]
fn a_hand_written_impl_is_refused_at_what_it_runs() {
    let text = r#"use std::borrow::Cow;
use schemars::{JsonSchema, Schema, SchemaGenerator};

pub struct Meta;

impl JsonSchema for Meta {
    fn schema_name() -> Cow<'static, str> {
        "Meta".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema_for::<String>()
    }
}

#[derive(serde::Deserialize, JsonSchema)]
pub struct Args {
    pub meta: Meta,
}
"#;
    let lead = "src/lib.rs:12: cannot derive a schema for `Meta`: the type implements `JsonSchema` by hand, \
         and its `json_schema` calls `generator.subschema_for(..)`, which the build step cannot run\n  \
         help: have `json_schema` return a JSON literal (`json_schema!({ ... })`, JSON values only) with a \
         string-literal `schema_name`, or hand over to another type (`Other::json_schema(generator)`, \
         with `Other`'s `schema_name`)";
    assert_eq!(
        error(text, Publisher::Schemars),
        format!("{lead}; or {RMCP_HELP}")
    );
    let named = text.replace("\"Meta\".into()", "format!(\"Meta\").into()");
    assert_eq!(
        error(
            &named.replace(
                "generator.subschema_for::<String>()",
                "schemars::json_schema!({\"type\": \"string\"})"
            ),
            Publisher::Schemars
        ),
        format!(
            "src/lib.rs:7: cannot derive a schema for `Meta`: the type implements `JsonSchema` by hand, \
             and its `schema_name` is not a string literal\n  \
             help: have `json_schema` return a JSON literal (`json_schema!({{ ... }})`, JSON values only) \
             with a string-literal `schema_name`, or hand over to another type \
             (`Other::json_schema(generator)`, with `Other`'s `schema_name`); or {RMCP_HELP}"
        )
    );
}

const UNKNOWN_TYPE: &str = r#"#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub name: String,
    pub when: vendor::Timestamp,
}
"#;

#[test]
fn an_unreadable_type_in_an_rmcp_tool_gets_schemars_forms_only() {
    let shown = error(UNKNOWN_TYPE, Publisher::Schemars);
    assert_eq!(
        shown,
        format!(
            "src/lib.rs:4: cannot derive a schema for `vendor::Timestamp`: `vendor::Timestamp` is not a \
             type of this crate nor one schemars knows (std, serde_json, chrono, uuid, url)\n  \
             help: {RMCP_HELP}"
        )
    );
    assert!(!shown.contains("mcp_contract"), "{shown}");
}

#[test]
fn an_unreadable_type_in_a_macro_tool_gets_the_verbatim_schema_first() {
    assert_eq!(
        error(UNKNOWN_TYPE, Publisher::Macro),
        "src/lib.rs:4: cannot derive a schema for `vendor::Timestamp`: `vendor::Timestamp` is not a \
         type of this crate nor one schemars knows (std, serde_json, chrono, uuid, url)\n  \
         help: give the JSON Schema verbatim with `#[mcp_contract(schema = r#\"{ ... }\"#)]` on the field \
         (outside a tool's argument struct, also put `#[mcp_contract::schema]` on the type that declares \
         it), or with `#[mcp_contract::schema(r#\"{ ... }\"#)]` on the type's definition (both need \
         mcp-contract's `macros` feature); or, on a type that derives `schemars::JsonSchema`, name a type \
         the build step reads with `#[schemars(with = \"OtherType\")]` (e.g. `String`)"
    );
}

#[test]
fn a_verbatim_schema_where_it_does_not_compile_is_refused_before_anything_is_written() {
    let text = r##"#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct Args {
    pub name: String,
    #[mcp_contract(schema = r#"{"type": "string"}"#)]
    pub when: vendor::Timestamp,
}
"##;
    assert_eq!(
        error(text, Publisher::Macro),
        "src/lib.rs:4: cannot derive a schema for `Args`: `#[mcp_contract(schema = ...)]` here does not \
         compile: `Args` is neither a `#[mcp_contract::tool]` argument struct nor marked \
         `#[mcp_contract::schema]`\n  \
         help: put `#[mcp_contract::schema]` on `Args` (it needs mcp-contract's `macros` feature): the \
         macro removes the attribute"
    );
    assert_eq!(
        error(text, Publisher::Schemars),
        format!(
            "src/lib.rs:4: cannot derive a schema for `Args`: `#[mcp_contract(schema = ...)]` here does not \
             compile: `Args` is neither a `#[mcp_contract::tool]` argument struct nor marked \
             `#[mcp_contract::schema]`\n  \
             help: remove it: {RMCP_HELP}"
        )
    );
}

#[test]
fn an_uncomputable_default_in_an_rmcp_tool_says_what_the_build_step_computes() {
    let text = r#"#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct Args {
    #[serde(default = "from_env")]
    pub region: String,
}

fn from_env() -> String {
    std::env::var("REGION").unwrap_or_default()
}
"#;
    assert_eq!(
        error(text, Publisher::Schemars),
        "src/lib.rs:3: cannot derive a schema for `std::env::var(\"REGION\").unwrap_or_default()`: \
         cannot compute this value from source: unsupported method call\n  \
         help: use a literal or a simple constructor (`\"text\".to_string()`, `vec![..]`, `Some(..)`, a \
         `const`, a function whose body is one such expression)"
    );
}

#[test]
fn a_container_schema_with_in_a_macro_tool_points_at_the_type_level_schema() {
    let text = r#"fn any(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "object", "title": generator.settings().meta_schema})
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
#[schemars(schema_with = "any")]
pub struct Args(serde_json::Map<String, serde_json::Value>);
"#;
    assert_eq!(
        error(text, Publisher::Macro),
        "src/lib.rs:2: cannot derive a schema for `Args`: `#[schemars(schema_with = \"any\")]`: the \
         function `any` interpolates `generator.settings().meta_schema` at `/title` in its \
         `json_schema!` body\n  \
         help: make the function's body one `json_schema!({ ... })` literal (JSON values only, nothing \
         interpolated), or name a type the build step reads with `#[schemars(with = \"Type\")]`; or give \
         the JSON Schema verbatim with `#[mcp_contract(schema = r#\"{ ... }\"#)]` on the field (outside a \
         tool's argument struct, also put `#[mcp_contract::schema]` on the type that declares it), or \
         with `#[mcp_contract::schema(r#\"{ ... }\"#)]` on the type's definition (both need \
         mcp-contract's `macros` feature); or, on a type that derives `schemars::JsonSchema`, name a type \
         the build step reads with `#[schemars(with = \"OtherType\")]` (e.g. `String`)"
    );
}
