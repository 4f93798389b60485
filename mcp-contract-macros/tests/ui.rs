//! Misuse of `#[mcp_contract::tool]` and `#[mcp_contract::schema]` gives a
//! short, spanned compile error; the escape-hatch spellings the build step's
//! help recommends compile.

#[test]
fn misuse_is_a_spanned_compile_error() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}

#[test]
fn escape_hatch_spellings_compile() {
    let t = trybuild::TestCases::new();
    t.pass("tests/pass/*.rs");
}
