//! `mcp-contract-build`: used from `build.rs`. During `cargo build` it finds
//! every tool annotated with `#[mcp_contract::tool]` in the package's
//! sources, derives each tool's input and output JSON Schema from the Rust
//! types, and keeps `contracts/mcp-contract.lock` current (writing only when
//! its content changed; never writing in CI or locked mode).

pub mod derive;
