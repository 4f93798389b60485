#[mcp_contract_macros::tool(name = "search")]
enum SearchArgs {
    ByText(String),
}

fn main() {}
