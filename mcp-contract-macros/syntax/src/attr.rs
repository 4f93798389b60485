//! The arguments of `#[mcp_contract::tool(...)]`, parsed but not yet checked
//! against the item they annotate (see [`crate::item`]).

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitBool, LitInt, LitStr, Token, Type};

/// The MCP annotation hints; `None` means "not declared" (the spec default applies).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotations {
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub idempotent: Option<bool>,
    pub open_world: Option<bool>,
}

impl Annotations {
    /// `(published key, value)` for every declared hint, in a fixed order.
    pub fn hints(&self) -> Vec<(&'static str, bool)> {
        [
            ("readOnlyHint", self.read_only),
            ("destructiveHint", self.destructive),
            ("idempotentHint", self.idempotent),
            ("openWorldHint", self.open_world),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect()
    }
}

/// Everything written inside `#[mcp_contract::tool(...)]`.
#[derive(Debug, Clone)]
pub struct ToolAttr {
    pub name: Option<LitStr>,
    pub version: Option<LitInt>,
    pub title: Option<LitStr>,
    pub description: Option<LitStr>,
    pub output: Option<Type>,
    pub annotations: Annotations,
    pub reserved: Vec<LitStr>,
    /// Where the arguments are, for errors about the attribute as a whole.
    pub span: Span,
}

const EXPECTED: &str = "expected one of: name, version, title, description, output, read_only, destructive, idempotent, open_world, reserved";

impl Parse for ToolAttr {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut attr = ToolAttr {
            name: None,
            version: None,
            title: None,
            description: None,
            output: None,
            annotations: Annotations::default(),
            reserved: Vec::new(),
            span: input.span(),
        };
        let mut seen: Vec<String> = Vec::new();
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            let k = key.to_string();
            if seen.contains(&k) {
                return Err(syn::Error::new(
                    key.span(),
                    format!("duplicate argument `{k}`"),
                ));
            }
            seen.push(k.clone());
            match k.as_str() {
                "name" => attr.name = Some(value(input)?),
                "title" => attr.title = Some(value(input)?),
                "description" => attr.description = Some(value(input)?),
                "version" => attr.version = Some(value(input)?),
                "output" => attr.output = Some(value(input)?),
                "read_only" => attr.annotations.read_only = Some(flag(input)?),
                "destructive" => attr.annotations.destructive = Some(flag(input)?),
                "idempotent" => attr.annotations.idempotent = Some(flag(input)?),
                "open_world" => attr.annotations.open_world = Some(flag(input)?),
                "reserved" => {
                    let content;
                    syn::parenthesized!(content in input);
                    let names = Punctuated::<LitStr, Token![,]>::parse_terminated(&content)?;
                    attr.reserved = names.into_iter().collect();
                }
                _ => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!("unknown argument `{k}`, {EXPECTED}"),
                    ))
                }
            }
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(attr)
    }
}

/// `= <value>` after a key.
fn value<T: Parse>(input: ParseStream) -> syn::Result<T> {
    input.parse::<Token![=]>()?;
    input.parse()
}

/// A bare flag (`read_only`) or an explicit `read_only = false`.
fn flag(input: ParseStream) -> syn::Result<bool> {
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        Ok(input.parse::<LitBool>()?.value)
    } else {
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(tokens: proc_macro2::TokenStream) -> syn::Result<ToolAttr> {
        syn::parse2(tokens)
    }

    #[test]
    fn parses_every_argument() {
        let a = parse(quote::quote! {
            name = "search", version = 2, title = "Search", description = "Find things",
            output = crate::out::Hits, read_only, destructive = false, reserved("q", "old"),
        })
        .unwrap();
        assert_eq!(a.name.unwrap().value(), "search");
        assert_eq!(a.version.unwrap().base10_parse::<u64>().unwrap(), 2);
        assert_eq!(a.title.unwrap().value(), "Search");
        assert_eq!(a.description.unwrap().value(), "Find things");
        assert!(a.output.is_some());
        assert_eq!(
            a.annotations.hints(),
            vec![("readOnlyHint", true), ("destructiveHint", false)]
        );
        let reserved: Vec<String> = a.reserved.iter().map(LitStr::value).collect();
        assert_eq!(reserved, ["q", "old"]);
    }

    #[test]
    fn rejects_unknown_and_duplicate_arguments() {
        let e = parse(quote::quote! { name = "a", nmae = "b" }).unwrap_err();
        assert!(e.to_string().starts_with("unknown argument `nmae`"), "{e}");
        let e = parse(quote::quote! { name = "a", name = "b" }).unwrap_err();
        assert_eq!(e.to_string(), "duplicate argument `name`");
    }
}
