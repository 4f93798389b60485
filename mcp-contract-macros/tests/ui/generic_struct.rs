#[mcp_contract_macros::tool(name = "search")]
struct SearchArgs<T> {
    query: T,
}

fn main() {}
