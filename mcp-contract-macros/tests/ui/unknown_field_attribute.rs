#[mcp_contract_macros::tool(name = "search")]
struct SearchArgs {
    #[mcp_contract(rename = "q")]
    query: String,
}

fn main() {}
