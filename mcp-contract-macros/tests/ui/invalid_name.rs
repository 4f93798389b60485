#[mcp_contract_macros::tool(name = "search catalog")]
struct SearchArgs {
    query: String,
}

fn main() {}
