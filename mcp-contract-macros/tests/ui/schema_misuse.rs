#[mcp_contract_macros::schema(type = "string")]
pub struct NotALiteral(u8);

#[mcp_contract_macros::schema]
pub struct AliasOutsideATool {
    #[mcp_contract(alias = "old")]
    pub new: u8,
}

#[mcp_contract_macros::schema]
#[mcp_contract(schema = r#"{"type": "string"}"#)]
pub struct OnTheTypeItself(u8);

#[mcp_contract_macros::schema]
pub enum VariantAlone {
    #[mcp_contract(schema = r#"{"type": "string"}"#)]
    A,
}

#[mcp_contract_macros::schema(r#"{"type": "string"}"#)]
pub fn not_a_type() {}

fn main() {}
