//! A literal schema is read from a function's or an impl's body, which the
//! build cache must count among what a tool's derivation read: editing the
//! literal (in a `schema_with` function, an inherent one, a hand-written
//! `impl JsonSchema`) changes the lockfile, and the cached run writes byte
//! for byte what a run without the cache writes.

use std::path::Path;

use mcp_contract_build::{Builder, Mode};
use serde_json::{json, Value};

// The shared cache-test helpers: this test only dates its edits.
#[allow(dead_code)]
mod outdir;
use outdir::age;

const SERVER: &str = r#"use std::borrow::Cow;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

fn object_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({"type": "object", "additionalProperties": true})
}

pub struct Schemas;

impl Schemas {
    fn label(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "maxLength": 40})
    }
}

#[derive(serde::Deserialize)]
pub struct Percent(f64);

impl JsonSchema for Percent {
    fn schema_name() -> Cow<'static, str> {
        "Percent".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "number", "maximum": 100})
    }
}

#[derive(serde::Deserialize, JsonSchema)]
pub struct SetArgs {
    #[schemars(schema_with = "object_schema")]
    pub meta: serde_json::Value,
    #[schemars(schema_with = "Schemas::label")]
    pub label: String,
    pub share: Percent,
}

pub struct Server;

#[tool_router]
impl Server {
    /// Sets it.
    #[tool]
    async fn set(&self, Parameters(a): Parameters<SetArgs>) -> String {
        a.label
    }
}
"#;

fn build(root: &Path, lock: &str, cached: bool) -> Value {
    let builder = Builder::new()
        .manifest_dir(root)
        .package("literals")
        .lockfile(format!("contracts/{lock}"))
        .mode(Mode::Update)
        .quiet();
    let builder = if cached {
        builder.out_dir(root.join("out"))
    } else {
        builder.no_cache()
    };
    builder.build().unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(root.join("contracts").join(lock)).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn editing_a_literal_re_derives_the_tools_that_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let lib = root.join("src/lib.rs");
    std::fs::create_dir_all(lib.parent().unwrap()).unwrap();
    let mut text = SERVER.to_string();
    std::fs::write(&lib, &text).unwrap();
    age(&lib);
    let first = build(root, "cached.lock", true);
    assert_eq!(first, build(root, "plain.lock", false));
    let properties = |lock: &Value| lock["tools"]["set"]["inputSchema"]["properties"].clone();
    assert_eq!(
        properties(&first),
        json!({
            "meta": {"type": "object", "additionalProperties": true},
            "label": {"type": "string", "maxLength": 40},
            "share": {"$ref": "#/$defs/Percent"}
        })
    );
    let edits = [
        (
            r#"json_schema!({"type": "object", "additionalProperties": true})"#,
            r#"json_schema!({"type": "object", "additionalProperties": false})"#,
            "/meta",
            json!({"type": "object", "additionalProperties": false}),
        ),
        (
            r#""maxLength": 40"#,
            r#""maxLength": 80"#,
            "/label",
            json!({"type": "string", "maxLength": 80}),
        ),
        (
            r#""maximum": 100"#,
            r#""maximum": 1"#,
            "/share",
            json!({"$ref": "#/$defs/Percent"}),
        ),
    ];
    let mut before = first;
    for (from, to, property, expected) in edits {
        text = text.replacen(from, to, 1);
        std::fs::write(&lib, &text).unwrap();
        age(&lib);
        let cached = build(root, "cached.lock", true);
        assert_eq!(cached, build(root, "plain.lock", false), "{to}");
        assert_ne!(cached, before, "{to}: the lockfile did not change");
        assert_eq!(properties(&cached).pointer(property), Some(&expected));
        before = cached;
    }
    assert_eq!(
        before["tools"]["set"]["inputSchema"]["$defs"]["Percent"],
        json!({"type": "number", "maximum": 1})
    );
}
