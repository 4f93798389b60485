#[mcp_contract_macros::tool(name = "search")]
struct SearchArgs {
    query: String,
    #[mcp_contract(alias = "query")]
    search_text: String,
}

fn main() {}
