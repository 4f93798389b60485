#[mcp_contract_macros::tool(version = 1)]
struct SearchArgs {
    query: String,
}

fn main() {}
