//! Per-field contract attributes: `#[mcp_contract(alias = "query")]` names a
//! deprecated name the field is still accepted under (the runtime
//! compatibility layer reads these); `#[mcp_contract(schema = "...")]` gives
//! a field's JSON Schema verbatim (read by the build step's schema
//! derivation). They are not real attributes, so the tool macro strips them
//! from the item it emits.

use syn::parse::{Parse, ParseStream};
use syn::{Field, Ident, LitStr, Token};

/// The helper attribute's name.
pub const FIELD_ATTR: &str = "mcp_contract";

/// One deprecated name of a field.
#[derive(Debug, Clone)]
pub struct Alias {
    /// The old name, as callers may still send it.
    pub alias: LitStr,
    /// The Rust field it feeds.
    pub field: Ident,
}

/// Whether `attr` is a `#[mcp_contract(...)]` field attribute.
pub fn is_field_attr(attr: &syn::Attribute) -> bool {
    attr.path().is_ident(FIELD_ATTR)
}

/// Removes every `#[mcp_contract(...)]` attribute from `item` and its fields.
pub fn strip_field_attrs(item: &mut syn::ItemStruct) {
    item.attrs.retain(|a| !is_field_attr(a));
    for field in item.fields.iter_mut() {
        field.attrs.retain(|a| !is_field_attr(a));
    }
}

/// The contract attributes of one field, in source order.
pub(crate) fn field_aliases(field: &Field) -> syn::Result<Vec<Alias>> {
    let mut out = Vec::new();
    for attr in field.attrs.iter().filter(|a| is_field_attr(a)) {
        let ident = match &field.ident {
            Some(i) => i.clone(),
            None => {
                return Err(syn::Error::new_spanned(
                    attr,
                    "contract attributes need a named field",
                ))
            }
        };
        let args: FieldArgs = attr.parse_args()?;
        out.extend(args.aliases.into_iter().map(|alias| Alias {
            alias,
            field: ident.clone(),
        }));
    }
    Ok(out)
}

struct FieldArgs {
    aliases: Vec<LitStr>,
}

impl Parse for FieldArgs {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut aliases = Vec::new();
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            if key == "alias" {
                aliases.push(input.parse()?);
            } else if key == "schema" {
                input.parse::<LitStr>()?;
            } else {
                return Err(syn::Error::new(
                    key.span(),
                    format!("unknown field attribute `{key}`, expected `alias` or `schema`"),
                ));
            }
            if input.is_empty() {
                break;
            }
            input.parse::<Token![,]>()?;
        }
        Ok(FieldArgs { aliases })
    }
}
