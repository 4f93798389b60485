//! Seeds from what schemars 1.x really publishes: the root schema
//! (`SchemaSettings::draft2020_12()`) of every type in the build step's
//! schema-parity fixtures, compiled in from `mcp-contract-build/tests/parity/`
//! (read in place, not copied). Enums give `oneOf`/`anyOf` roots, structs
//! `$defs` with `$ref` branches, integers their `format` widths.

#[path = "../../../mcp-contract-build/tests/parity/fixtures.rs"]
mod fixtures;
#[macro_use]
#[path = "../../../mcp-contract-build/tests/parity/types.rs"]
mod types;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;

fn raw<T: JsonSchema>() -> Value {
    let schema = SchemaSettings::draft2020_12()
        .into_generator()
        .into_root_schema_for::<T>();
    serde_json::to_value(schema).expect("a schema serializes")
}

macro_rules! seeds {
    ($($($seg:ident)::+),* $(,)?) => {
        vec![$((stringify!($($seg)::+), raw::<fixtures::$($seg)::+>())),*]
    };
}

/// `(type name, schemars root schema)` for every parity fixture type.
pub fn all() -> Vec<(&'static str, Value)> {
    with_parity_types!(seeds)
}
