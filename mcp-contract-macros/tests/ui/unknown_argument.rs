#[mcp_contract_macros::tool(name = "search", readonly)]
struct SearchArgs {
    query: String,
}

fn main() {}
