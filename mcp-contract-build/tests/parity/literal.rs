//! Schemas written as JSON literals, reached through `mod literal;`:
//! `#[schemars(schema_with = "f")]` functions and hand-written
//! `impl JsonSchema` blocks whose result is a `json_schema!`/`json!`
//! literal, in every form real code turns a literal into a `Schema`, on
//! fields (plain, under `Option<>`, defaulted, flattened, in a flattened
//! struct), variants and containers.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The idiom of a real server (on 9 fields there): any JSON object.
fn json_object_schema(_: &mut SchemaGenerator) -> Schema {
    schemars::json_schema!({"type": "object", "additionalProperties": true})
}

fn duration_schema(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    json!({
        "type": "string",
        "format": "duration",
        "minLength": 1,
        "examples": ["1h", "-2.5m"],
        "x-bounds": [-1, 2.5, 1e3, null, true, 7u64, 0.1f32],
    })
    .try_into()
    .unwrap()
}

fn tags_schema(_: &mut SchemaGenerator) -> Schema {
    Schema::try_from(serde_json::json!({
        "type": "array",
        "items": {"type": "string", "pattern": "^[a-z]+$"},
        "uniqueItems": true,
    }))
    .expect("an object")
}

fn level_schema(_: &mut SchemaGenerator) -> Schema {
    serde_json::from_value(json!({"type": "integer", "minimum": 0, "maximum": 9})).unwrap()
}

fn anything(_: &mut SchemaGenerator) -> Schema {
    Schema::from(true)
}

fn unconstrained(_: &mut SchemaGenerator) -> Schema {
    Schema::default()
}

#[allow(clippy::needless_return)]
fn return_form(_: &mut SchemaGenerator) -> Schema {
    return json_schema!({"type": "string", "const": "fixed"});
}

pub mod schemas {
    use schemars::{json_schema, Schema, SchemaGenerator};

    pub fn point(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
            "required": ["x", "y"],
        })
    }
}

pub struct Helpers;

impl Helpers {
    fn label(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "maxLength": 40})
    }
}

/// `schema_with` on fields, in every form.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct SchemaWithFields {
    /// Free-form metadata.
    #[schemars(schema_with = "json_object_schema")]
    pub metadata: serde_json::Map<String, serde_json::Value>,
    /// Under `Option<>`: schemars still requires it (the function's type is
    /// not an `Option`).
    #[schemars(schema_with = "json_object_schema")]
    pub maybe: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "json_object_schema")]
    pub defaulted: Option<serde_json::Value>,
    #[schemars(schema_with = "duration_schema")]
    pub timeout: String,
    #[schemars(schema_with = "tags_schema", length(max = 5))]
    pub tags: Vec<String>,
    #[schemars(schema_with = "level_schema", title = "Level")]
    pub level: u8,
    #[schemars(schema_with = "anything")]
    pub any: serde_json::Value,
    #[schemars(schema_with = "unconstrained")]
    pub open: serde_json::Value,
    #[schemars(schema_with = "return_form")]
    pub fixed: String,
    #[schemars(schema_with = "schemas::point")]
    pub at: (f64, f64),
    #[schemars(schema_with = "Helpers::label")]
    pub label: String,
    pub many: Vec<Common>,
}

/// A struct flattened into others: its `schema_with` fields go with it.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Common {
    /// Extra properties.
    #[schemars(schema_with = "json_object_schema")]
    pub extra: Option<serde_json::Value>,
    pub note: String,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct Flattening {
    pub name: String,
    #[serde(flatten)]
    pub common: Common,
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct FlatteningOptional {
    pub name: String,
    #[serde(flatten)]
    pub common: Option<Common>,
}

/// `schema_with` on a flattened field itself.
#[derive(Deserialize, Serialize, JsonSchema)]
pub struct FlattenedWith {
    pub name: String,
    #[serde(flatten)]
    #[schemars(schema_with = "json_object_schema")]
    pub rest: serde_json::Map<String, serde_json::Value>,
}

/// `schema_with` on variants.
#[derive(Deserialize, Serialize, JsonSchema)]
pub enum WithVariants {
    Plain,
    #[schemars(schema_with = "json_object_schema")]
    Object(serde_json::Map<String, serde_json::Value>),
    #[schemars(schema_with = "schemas::point")]
    Point {
        x: f64,
        y: f64,
    },
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind")]
pub enum TaggedWithVariants {
    #[schemars(schema_with = "json_object_schema")]
    Object(serde_json::Map<String, serde_json::Value>),
    Other {
        n: u8,
    },
}

/// `schema_with` on a container.
#[derive(Deserialize, Serialize, JsonSchema)]
#[schemars(schema_with = "json_object_schema")]
pub struct OpaqueObject(serde_json::Map<String, serde_json::Value>);

/// Hand-written `impl JsonSchema` blocks with literal results.
#[derive(Deserialize, Serialize)]
pub struct Meta(serde_json::Map<String, serde_json::Value>);

impl JsonSchema for Meta {
    fn schema_name() -> Cow<'static, str> {
        "MetaMap".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "object", "additionalProperties": {"type": "string"}})
    }
}

/// Inlined where used.
#[derive(Deserialize, Serialize)]
pub struct Percent(f64);

impl JsonSchema for Percent {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Percent")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json!({"type": "number", "minimum": 0, "maximum": 100})
            .try_into()
            .unwrap()
    }
}

/// Same name as `Meta`, another id: schemars numbers the second.
#[derive(Deserialize, Serialize)]
pub struct OtherMeta(bool);

impl JsonSchema for OtherMeta {
    fn schema_name() -> Cow<'static, str> {
        "MetaMap".into()
    }

    fn schema_id() -> Cow<'static, str> {
        concat!(module_path!(), "::OtherMeta").into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "boolean"})
    }
}

#[derive(Deserialize, Serialize, JsonSchema)]
pub struct HandLiterals {
    pub meta: Meta,
    pub metas: Vec<Meta>,
    pub maybe_meta: Option<Meta>,
    pub percent: Percent,
    pub other: OtherMeta,
    pub fields: SchemaWithFields,
}
