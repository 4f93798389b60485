//! Locks every `#[mcp_contract::tool]` of this server in
//! `contracts/mcp-contract.lock` and hands the locked definitions to the macro.

fn main() {
    mcp_contract_build::snapshot();
}
