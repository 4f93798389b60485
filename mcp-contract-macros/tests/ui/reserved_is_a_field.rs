#[mcp_contract_macros::tool(name = "search", reserved("query"))]
struct SearchArgs {
    query: String,
}

fn main() {}
