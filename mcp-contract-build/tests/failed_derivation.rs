//! A build whose derivation fails never writes the lockfile: each edit
//! below makes one tool's schema unreadable, and the lockfile the last
//! good build wrote stays byte for byte what it was — with the build cache
//! and without, whichever tool fails (the first derived or a later one).
//! Among them the edit that used to rewrite it: a verbatim schema on a
//! field of a type no macro strips it from, which the build step read
//! while the crate then failed to compile.
//!
//! The good build is an rmcp server adopting with its real-server idiom,
//! `#[schemars(schema_with = "json_object_schema")]` (a literal function),
//! locked as schemars publishes it.

use std::path::Path;

use mcp_contract_build::{Builder, Mode};
use serde_json::{json, Value};

// The shared cache-test helpers: this test only dates its edits.
#[allow(dead_code)]
mod outdir;
use outdir::age;

const SERVER: &str = r#"use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};
use schemars::{JsonSchema, Schema, SchemaGenerator};

fn json_object_schema(_generator: &mut SchemaGenerator) -> Schema {
    schemars::json_schema!({"type": "object", "additionalProperties": true})
}

#[derive(serde::Deserialize, JsonSchema)]
pub struct Common {
    /// Extra fields, passed through.
    #[schemars(schema_with = "json_object_schema")]
    pub extra: Option<serde_json::Value>,
}

#[derive(serde::Deserialize, JsonSchema)]
pub struct CreateArgs {
    pub name: String,
    #[serde(flatten)]
    pub common: Common,
}

#[derive(serde::Deserialize, JsonSchema)]
pub struct ListArgs {
    pub limit: u32,
}

#[derive(serde::Serialize, JsonSchema)]
pub struct Listed {
    pub names: Vec<String>,
}

pub struct Server;

#[tool_router]
impl Server {
    /// Creates one.
    #[tool]
    async fn create(&self, Parameters(a): Parameters<CreateArgs>) -> String {
        a.name
    }

    /// Lists them.
    #[tool]
    async fn list(&self, Parameters(a): Parameters<ListArgs>) -> Json<Listed> {
        Json(Listed { names: vec![] })
    }
}
"#;

const LOCK: &str = "contracts/mcp-contract.lock";

fn write(root: &Path, text: &str) {
    let path = root.join("src/lib.rs");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    age(&path);
}

/// A build in update mode (the mode that writes), with the cache in
/// `out` or, without `out`, none.
fn build(root: &Path, out: Option<&Path>) -> Result<(), String> {
    let builder = Builder::new()
        .manifest_dir(root)
        .package("adopter")
        .mode(Mode::Update)
        .quiet();
    let builder = match out {
        Some(out) => builder.out_dir(out),
        None => builder.no_cache(),
    };
    builder.build().map(|_| ()).map_err(|e| e.to_string())
}

#[test]
fn a_literal_schema_with_function_locks_as_schemars_publishes_it() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), SERVER);
    build(dir.path(), None).unwrap();
    let lock: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(LOCK)).unwrap()).unwrap();
    // Flattened, and not an `Option` as far as schemars knows: required
    // (the lockfile's canonical form sorts `required`).
    assert_eq!(
        lock["tools"]["create"]["inputSchema"],
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "extra": {
                    "type": "object",
                    "additionalProperties": true,
                    "description": "Extra fields, passed through."
                }
            },
            "required": ["extra", "name"]
        })
    );
}

#[test]
fn a_failed_derivation_leaves_the_lockfile_byte_identical() {
    let edits: [(&str, &str, &str); 4] = [
        (
            "a type the build step cannot read, in the first tool",
            "    pub name: String,\n    #[serde(flatten)]",
            "    pub name: String,\n    pub when: vendor::Timestamp,\n    #[serde(flatten)]",
        ),
        (
            "a type the build step cannot read, in a later tool",
            "    pub limit: u32,",
            "    pub limit: u32,\n    pub when: vendor::Timestamp,",
        ),
        (
            "a schema_with function that is no longer a literal",
            r#"schemars::json_schema!({"type": "object", "additionalProperties": true})"#,
            "String::json_schema(_generator)",
        ),
        (
            "a verbatim schema where no macro removes it (the crate would not compile)",
            "    pub limit: u32,",
            "    #[mcp_contract(schema = r#\"{\"type\": \"integer\"}\"#)]\n    pub limit: u32,",
        ),
    ];
    for cached in [true, false] {
        for (what, from, to) in edits {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            let out = root.join("out");
            let out = cached.then_some(out.as_path());
            write(root, SERVER);
            build(root, out).unwrap_or_else(|e| panic!("the good build failed: {e}"));
            let before = std::fs::read(root.join(LOCK)).unwrap();
            assert!(SERVER.contains(from), "{what}: the server has no {from:?}");
            write(root, &SERVER.replacen(from, to, 1));
            let err = build(root, out).expect_err(what);
            assert!(err.contains("src/lib.rs:"), "{what}: {err}");
            assert!(
                std::fs::read(root.join(LOCK)).unwrap() == before,
                "{what} (cache: {cached}): the failed build rewrote the lockfile"
            );
        }
    }
}
