//! The whole adoption: lock every `#[tool]` of this server.

fn main() {
    mcp_contract_build::snapshot();
}
