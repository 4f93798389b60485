//! Source-level JSON Schema derivation: from the `syn` items of a crate to
//! the schema `schemars` 1.x would generate under rmcp's settings (draft
//! 2020-12, `$defs`), without compiling or running the crate.
