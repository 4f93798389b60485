#[mcp_contract_macros::tool(name = "search", version = 0)]
struct SearchArgs {
    query: String,
}

fn main() {}
