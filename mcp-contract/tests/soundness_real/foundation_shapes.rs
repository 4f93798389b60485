//! Seeds for what the comparator's foundations read, in the shapes real
//! servers publish: draft-07 documents as zod-to-json-schema writes them
//! for the MCP TypeScript SDK (`definitions`, a root `$ref`, path
//! references, tuples as array `items`, `exclusiveMinimum: 0`) and by hand
//! (`$ref` with sibling keywords, `additionalItems`, `dependencies` with
//! name lists and schemas); a draft-04 document (boolean exclusives beside
//! `minimum`/`maximum`, an `id: "#money"` anchor `$ref`'d by name);
//! recursive enums in schemars' form (`Expr` with a `Literal` `oneOf`, and
//! the same types as schemars derives them) and a JSON-value-like recursive
//! `anyOf`; thirty object alternatives; a shared `$defs` type first reached
//! beneath nodes that accept nothing (an array with `maxItems: 0`, a closed
//! object requiring an undeclared name) and used live elsewhere; names
//! declared only in `required`; `enum`/`const` fields (past 2^53 too); and
//! pydantic's float bounds and decimal `multipleOf`.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{json, Value};

const DRAFT04: &str = "http://json-schema.org/draft-04/schema#";
const DRAFT07: &str = "http://json-schema.org/draft-07/schema#";
const DRAFT2020: &str = "https://json-schema.org/draft/2020-12/schema";

/// schemars' `enum Expr { Lit(Literal), Not(Box<Expr>), All(Vec<Expr>) }`,
/// derived for real (the untagged `Literal` is an `anyOf` there).
mod derived {
    #![allow(dead_code)]
    use schemars::JsonSchema;

    #[derive(JsonSchema)]
    #[serde(untagged)]
    pub enum Literal {
        Str(String),
        Int(i64),
        Bool(bool),
    }

    #[derive(JsonSchema)]
    pub enum Expr {
        Lit(Literal),
        Not(Box<Expr>),
        All(Vec<Expr>),
    }

    /// A tool's arguments holding one.
    #[derive(JsonSchema)]
    pub struct FilterArgs {
        pub filter: Expr,
        pub limit: Option<u32>,
    }
}

fn schemars_root<T: JsonSchema>() -> Value {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    serde_json::to_value(schema).expect("a schema serializes")
}

/// schemars' object variant of an externally tagged enum.
fn variant(name: &str, schema: Value) -> Value {
    json!({"type": "object", "properties": {name: schema}, "required": [name], "additionalProperties": false})
}

fn expr_defs() -> Value {
    json!({
        "Expr": {"oneOf": [
            variant("Lit", json!({"$ref": "#/$defs/Literal"})),
            variant("Not", json!({"$ref": "#/$defs/Expr"})),
            variant("All", json!({"type": "array", "items": {"$ref": "#/$defs/Expr"}})),
        ]},
        "Literal": {"oneOf": [
            {"type": "string"},
            {"type": "integer", "format": "int64"},
            {"type": "boolean"}
        ]}
    })
}

fn json_value_branches(self_ref: &str) -> Value {
    json!([
        {"type": "null"},
        {"type": "boolean"},
        {"type": "number"},
        {"type": "string"},
        {"type": "array", "items": {"$ref": self_ref}},
        {"type": "object", "additionalProperties": {"$ref": self_ref}}
    ])
}

/// Thirty browser actions, each an object alternative tagged by `action`.
fn actions() -> Value {
    const NAMES: [&str; 30] = [
        "click",
        "type",
        "scroll",
        "hover",
        "drag",
        "drop",
        "select",
        "focus",
        "blur",
        "press",
        "release",
        "wait",
        "navigate",
        "back",
        "forward",
        "reload",
        "screenshot",
        "upload",
        "download",
        "copy",
        "paste",
        "cut",
        "undo",
        "redo",
        "zoom",
        "resize",
        "open",
        "close",
        "submit",
        "clear",
    ];
    let branches: Vec<Value> = NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (props, required) = match i % 5 {
                0 => (
                    json!({"selector": {"type": "string", "minLength": 1}}),
                    json!(["action", "selector"]),
                ),
                1 => (
                    json!({"x": {"type": "integer", "format": "int32"}, "y": {"type": "integer", "format": "int32"}}),
                    json!(["action", "x", "y"]),
                ),
                2 => (
                    json!({"text": {"type": "string", "maxLength": 256}}),
                    json!(["action"]),
                ),
                3 => (
                    json!({"ms": {"type": "integer", "format": "uint32", "minimum": 0, "maximum": 60000}}),
                    json!(["action", "ms"]),
                ),
                _ => (
                    json!({"url": {"type": "string", "pattern": "^[a-z]+://"}}),
                    json!(["action", "url"]),
                ),
            };
            let mut props = props;
            props["action"] = json!({"type": "string", "const": name});
            json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
        })
        .collect();
    json!({
        "$schema": DRAFT2020, "title": "Act", "type": "object",
        "properties": {
            "step": {"$ref": "#/$defs/Action"},
            "history": {"type": "array", "items": {"$ref": "#/$defs/Action"}, "maxItems": 16},
            "session": {"type": "string"}
        },
        "required": ["step"],
        "$defs": {"Action": {"anyOf": branches}}
    })
}

/// `(name, schema)` for every seed here.
pub fn all() -> Vec<(&'static str, Value)> {
    vec![
        // (a) draft-07, as the MCP TypeScript SDK publishes a zod object
        (
            "d07-ts-sdk-input",
            json!({
                "$schema": DRAFT07, "type": "object",
                "properties": {
                    "url": {"type": "string", "format": "uri"},
                    "method": {"type": "string", "enum": ["GET", "POST", "PUT", "DELETE"], "default": "GET"},
                    "headers": {"type": "object", "additionalProperties": {"type": "string"}},
                    "timeout_ms": {"type": "integer", "exclusiveMinimum": 0, "maximum": 60000, "default": 5000},
                    "retries": {"type": "integer", "minimum": 0, "maximum": 5},
                    "body": {"type": "string", "maxLength": 4096},
                    "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z][a-z0-9]*$"}, "maxItems": 8},
                    "range": {"type": "array", "minItems": 2, "maxItems": 2, "items": [{"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 0}]},
                    "mode": {"type": "string", "const": "sync"}
                },
                "required": ["url"],
                "additionalProperties": false
            }),
        ),
        // (a) draft-07 by hand: definitions, siblings of $ref (ignored),
        // tuples with additionalItems, dependencies of both kinds
        (
            "d07-search-args",
            json!({
                "$schema": DRAFT07, "title": "SearchArgs", "type": "object",
                "definitions": {
                    "Query": {"type": "string", "minLength": 1, "maxLength": 256},
                    "Point": {"type": "array", "items": [
                        {"type": "number", "minimum": -90, "maximum": 90},
                        {"type": "number", "minimum": -180, "maximum": 180}
                    ], "additionalItems": false, "minItems": 2},
                    "Sort": {"type": "string", "enum": ["relevance", "date", "price"]}
                },
                "properties": {
                    "query": {"$ref": "#/definitions/Query", "maxLength": 8, "description": "beside $ref: ignored in draft-07"},
                    "near": {"$ref": "#/definitions/Point", "description": "lat, lon"},
                    "sort": {"$ref": "#/definitions/Sort", "default": "relevance"},
                    "order": {"type": "string", "enum": ["asc", "desc"]},
                    "facets": {"type": "array", "items": [{"type": "string"}, {"type": "integer", "minimum": 1}], "additionalItems": {"type": "boolean"}},
                    "page": {"type": "integer", "minimum": 1},
                    "per_page": {"type": "integer", "exclusiveMinimum": 0, "maximum": 100},
                    "cursor": {"type": "string", "pattern": "^[a-z0-9]+$"},
                    "price_step": {"type": "number", "multipleOf": 0.01, "minimum": 0},
                    "phone": {"type": "string", "pattern": "^[+]?[0-9]{7,15}$"}
                },
                "required": ["query"],
                "dependencies": {
                    "cursor": ["page"],
                    "order": {"properties": {"sort": {"enum": ["date", "price"]}}, "required": ["sort"]}
                }
            }),
        ),
        // (a) draft-07 output, zod-to-json-schema with a name: a root $ref
        // into definitions, and a reused schema referenced by its path
        (
            "d07-zod-output",
            json!({
                "$ref": "#/definitions/SearchResult",
                "definitions": {
                    "SearchResult": {
                        "type": "object",
                        "properties": {
                            "items": {"type": "array", "items": {
                                "type": "object",
                                "properties": {
                                    "id": {"type": "string"},
                                    "score": {"type": "number", "minimum": 0, "maximum": 1},
                                    "kind": {"type": "string", "enum": ["doc", "image", "video"]},
                                    "slug": {"type": "string", "pattern": "^[a-z][a-z0-9]*$"}
                                },
                                "required": ["id", "score"],
                                "additionalProperties": false
                            }},
                            "best": {"$ref": "#/definitions/SearchResult/properties/items/items"},
                            "total": {"type": "integer", "minimum": 0},
                            "next": {"type": ["string", "null"]},
                            "took_ms": {"type": "number", "exclusiveMinimum": 0},
                            "status": {"type": "string", "const": "ok"}
                        },
                        "required": ["items", "total", "status"],
                        "additionalProperties": false
                    }
                },
                "$schema": DRAFT07
            }),
        ),
        // (b) draft-04: boolean exclusives, an `id` anchor referenced by name
        (
            "d04-invoice",
            json!({
                "$schema": DRAFT04, "title": "CreateInvoice", "type": "object",
                "definitions": {
                    "money": {
                        "id": "#money", "type": "object",
                        "properties": {
                            "amount": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "multipleOf": 0.01},
                            "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}
                        },
                        "required": ["amount", "currency"],
                        "additionalProperties": false
                    }
                },
                "properties": {
                    "total": {"$ref": "#money"},
                    "discount": {"$ref": "#money", "description": "beside $ref: ignored in draft-04"},
                    "quantity": {"type": "integer", "minimum": 0, "exclusiveMinimum": true, "maximum": 1000},
                    "rate": {"type": "number", "minimum": 0, "maximum": 1, "exclusiveMaximum": true},
                    "sku": {"type": "string", "pattern": "^[A-Z0-9-]+$"},
                    "status": {"type": "string", "enum": ["draft", "sent", "paid"]},
                    "customer_id": {"type": "integer", "minimum": 1, "maximum": 9007199254740993u64}
                },
                "required": ["total", "quantity"]
            }),
        ),
        // (c) schemars' recursive enum, Literal a oneOf of string/int64/boolean
        (
            "expr-schemars-style",
            json!({
                "$schema": DRAFT2020, "title": "FilterArgs", "type": "object",
                "properties": {
                    "filter": {"$ref": "#/$defs/Expr"},
                    "limit": {"type": ["integer", "null"], "format": "uint32", "minimum": 0}
                },
                "required": ["filter"],
                "$defs": expr_defs()
            }),
        ),
        (
            "expr-output-root",
            json!({"$schema": DRAFT2020, "title": "Expr", "$ref": "#/$defs/Expr", "$defs": expr_defs()}),
        ),
        ("expr-derived", schemars_root::<derived::FilterArgs>()),
        ("expr-derived-root", schemars_root::<derived::Expr>()),
        // (c) serde_json::Value spelled out
        (
            "json-value-input",
            json!({
                "$schema": DRAFT2020, "title": "SetValue", "type": "object",
                "properties": {
                    "key": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$", "maxLength": 64},
                    "value": {"$ref": "#/$defs/V"}
                },
                "required": ["key", "value"],
                "$defs": {"V": {"anyOf": json_value_branches("#/$defs/V")}}
            }),
        ),
        (
            "json-value-output-root",
            json!({"$schema": DRAFT2020, "title": "Value", "anyOf": json_value_branches("#")}),
        ),
        // (d) thirty object alternatives
        ("anyOf-30-actions", actions()),
        // (e) a shared type first reached beneath nodes that accept nothing
        (
            "dead-then-live-tag",
            json!({
                "$schema": DRAFT2020, "title": "Label", "type": "object",
                "properties": {
                    "archived": {"type": "array", "maxItems": 0, "items": {"$ref": "#/$defs/Tag"}},
                    "blocked": {"type": "object", "properties": {"tag": {"$ref": "#/$defs/Tag"}}, "required": ["missing"], "additionalProperties": false},
                    "primary": {"$ref": "#/$defs/Tag"},
                    "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}}
                },
                "required": ["primary"],
                "$defs": {"Tag": {"type": "string", "maxLength": 16}}
            }),
        ),
        // (f) names declared only in `required`
        (
            "required-only-either",
            json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 100}
                },
                "anyOf": [{"required": ["id"]}, {"required": ["name"]}]
            }),
        ),
        (
            "required-only-token",
            json!({
                "type": "object",
                "properties": {"owner": {"type": "string"}, "repo": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$"}},
                "required": ["owner", "repo", "token"]
            }),
        ),
        // (g) enum-of-strings and const fields
        (
            "enums-and-consts",
            json!({
                "$schema": DRAFT2020, "title": "Configure", "type": "object",
                "properties": {
                    "mode": {"type": "string", "enum": ["fast", "safe", "auto"]},
                    "level": {"type": "integer", "enum": [1, 2, 3]},
                    "version": {"const": "v1"},
                    "kind": {"type": "string", "const": "search"},
                    "scale": {"type": "number", "enum": [0.5, 1.0, 2]},
                    "flags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "uniqueItems": true},
                    "big": {"type": "integer", "enum": [9007199254740992u64, 9007199254740993u64]},
                    "limit": {"type": "integer", "const": 9007199254740993u64},
                    "sort": {"enum": ["asc", "desc", null]}
                },
                "required": ["mode", "version"]
            }),
        ),
        (
            "status-output",
            json!({
                "$schema": DRAFT2020, "type": "object",
                "properties": {
                    "state": {"type": "string", "enum": ["queued", "running", "done", "failed"]},
                    "code": {"type": "integer", "enum": [0, 1, 2]},
                    "ok": {"const": true},
                    "region": {"type": "string", "enum": ["eu", "us"]}
                },
                "required": ["state", "ok"]
            }),
        ),
        // pydantic v2: float bounds, decimal multipleOf, Optional as anyOf
        (
            "pydantic-order",
            json!({
                "title": "OrderArgs", "type": "object",
                "properties": {
                    "price": {"exclusiveMinimum": 0.0, "multipleOf": 0.01, "title": "Price", "type": "number"},
                    "quantity": {"exclusiveMinimum": 0, "maximum": 1000, "title": "Quantity", "type": "integer"},
                    "discount": {"anyOf": [{"maximum": 1.0, "minimum": 0.0, "type": "number"}, {"type": "null"}], "default": null, "title": "Discount"},
                    "sku": {"pattern": "^[A-Z]{3}-[0-9]{4}$", "title": "Sku", "type": "string"},
                    "currency": {"enum": ["EUR", "USD"], "title": "Currency", "type": "string"},
                    "step": {"multipleOf": 0.1, "title": "Step", "type": "number"},
                    "account": {"maximum": 9007199254740993u64, "minimum": -9007199254740993i64, "title": "Account", "type": "integer"}
                },
                "required": ["price", "quantity", "sku"]
            }),
        ),
    ]
}
