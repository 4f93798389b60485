/// Search the catalog.
#[mcp_contract_macros::tool(name = "search", read_only)]
struct SearchArgs {
    query: String,
}

fn main() {}
