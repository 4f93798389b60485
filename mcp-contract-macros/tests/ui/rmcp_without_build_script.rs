//! `mcp_contract::rmcp!()` in a package without a build script: the error
//! names `build.rs` and `mcp-contract-build`, not rustc's bare `OUT_DIR`.

fn main() {
    let _contract = mcp_contract::rmcp!();
}
