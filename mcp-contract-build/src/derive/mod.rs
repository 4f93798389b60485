//! Source-level JSON Schema derivation: from the `syn` items of a crate to
//! the schema `schemars` 1.x would generate under rmcp's settings (draft
//! 2020-12, `$defs`), without compiling or running the crate.
//!
//! rmcp publishes a tool's `inputSchema` as
//! `SchemaSettings::draft2020_12().into_generator().into_root_schema_for::<Parameters<T>>()`
//! (deserialize contract, no `AddNullable` or other transform) with the root
//! `title` and `description` removed, and its `outputSchema` the same way for
//! `T` under the serialize contract (`SchemaSettings::for_serialize()`).
//! [`input_schema_for`] and [`output_schema_for`] reproduce exactly that;
//! [`schema_for`] is the untouched root schema (`$schema` and `title` kept).
//!
//! The escape hatch for a type the generator cannot read is a verbatim JSON
//! Schema: `#[mcp_contract::schema(r#"{...}"#)]` on the type's definition
//! (any struct or enum; the attribute macro leaves the type as written), or
//! `#[mcp_contract(schema = r#"{...}"#)]` on a field (it compiles in a tool's
//! argument struct, and in any type marked `#[mcp_contract::schema]`).
//! `#[schemars(with = "Type")]` works as in schemars (on types that derive
//! `JsonSchema`, where it compiles), and so do `#[schemars(schema_with =
//! "f")]` and a hand-written `impl JsonSchema` when what they return is a
//! JSON literal ([`literal`]): those are the forms that change what rmcp
//! publishes, which a verbatim schema does not ([`Publisher`]).

mod attrs;
mod builtin;
mod case;
mod container;
mod defaults;
mod docs;
mod error;
mod files;
mod gen;
mod hand_impl;
mod helpers;
mod index;
mod literal;
mod resolve;
mod schema_with;

use std::path::Path;

use serde_json::Value;

pub use error::{
    DeriveError, Escape, Hatch, Publisher, SCHEMA_OVERRIDE_ATTRIBUTE, TYPE_SCHEMA_ATTRIBUTE,
};
pub(crate) use files::{declared_children, is_cfg_test};
pub use files::{module_files, ModuleFile};
pub use index::{FileNames, ImplHead, ItemRef, TypeIndex};

/// Which side of serde a schema describes (schemars' `Contract`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contract {
    /// What the type accepts (tool inputs).
    Deserialize,
    /// What the type writes (tool outputs).
    Serialize,
}

/// Schema for the Rust type `ty` written in module `module` (resolves `use`,
/// `self::`, `super::`, `crate::` paths): the root schema schemars generates
/// with `SchemaSettings::draft2020_12()` (`$schema` and `title` included).
pub fn schema_for(
    index: &TypeIndex,
    ty: &syn::Type,
    module: &[String],
) -> Result<Value, DeriveError> {
    schema_for_contract(index, ty, module, Contract::Deserialize)
}

/// Like [`schema_for`], for either contract.
pub fn schema_for_contract(
    index: &TypeIndex,
    ty: &syn::Type,
    module: &[String],
    contract: Contract,
) -> Result<Value, DeriveError> {
    generate(index, ty, module, contract, false)
}

/// The `inputSchema` rmcp publishes for a tool taking `Parameters<ty>`:
/// deserialize contract, root `title`/`description` removed. The root must
/// be an object schema (rmcp rejects anything else).
pub fn input_schema_for(
    index: &TypeIndex,
    ty: &syn::Type,
    module: &[String],
) -> Result<Value, DeriveError> {
    let mut schema = generate(index, ty, module, Contract::Deserialize, true)?;
    match schema.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        other => {
            let found = match other {
                Some(v) => format!("`type` is {v}"),
                None => "there is no `type`".to_string(),
            };
            let file = index
                .module_file(module)
                .unwrap_or(Path::new(""))
                .to_path_buf();
            return Err(DeriveError {
                type_name: resolve::type_text(ty),
                line: index.line_in(&file, ty),
                file,
                message: format!(
                    "an MCP tool's inputSchema must have root type \"object\", but {found}"
                ),
                help: "take the arguments as a struct with named fields".into(),
                escape: None,
            });
        }
    }
    strip_root_metadata(&mut schema);
    Ok(schema)
}

/// The `outputSchema` rmcp publishes for a tool returning `Json<ty>`:
/// serialize contract, root `title`/`description` removed.
pub fn output_schema_for(
    index: &TypeIndex,
    ty: &syn::Type,
    module: &[String],
) -> Result<Value, DeriveError> {
    let mut schema = generate(index, ty, module, Contract::Serialize, false)?;
    strip_root_metadata(&mut schema);
    Ok(schema)
}

fn strip_root_metadata(schema: &mut Value) {
    if let Value::Object(o) = schema {
        o.remove("title");
        o.remove("description");
    }
}

fn generate(
    index: &TypeIndex,
    ty: &syn::Type,
    module: &[String],
    contract: Contract,
    parameters_wrapper: bool,
) -> Result<Value, DeriveError> {
    let file = index
        .module_file(module)
        .unwrap_or(Path::new(""))
        .to_path_buf();
    let scope = resolve::Scope::new(module, &file);
    let mut gen = gen::Gen::new(index, contract);
    let run = |gen: &mut gen::Gen<'_>| -> error::PResult<Value> {
        let resolved = gen.resolve(ty, &scope)?;
        // rmcp's `Parameters<T>` has `schema_id() == T::schema_name()`.
        let root_id = if parameters_wrapper {
            Some(gen.schema_name(&resolved)?)
        } else {
            None
        };
        gen.root(&resolved, root_id)
    };
    run(&mut gen).map_err(|p| p.at(&file, index.line_in(&file, ty)).into_error())
}

#[cfg(test)]
mod tests;
