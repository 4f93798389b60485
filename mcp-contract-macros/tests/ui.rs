//! Misuse of `#[mcp_contract::tool]` gives a short, spanned compile error.

#[test]
fn misuse_is_a_spanned_compile_error() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
