//! Doc comments as text: a tool's description defaults to the doc comment of
//! its argument type.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The `///` lines of `attrs`, each trimmed, joined by `\n`, trimmed as a
/// whole; `None` when there is no (non-blank) doc comment.
pub fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let Meta::NameValue(nv) = &attr.meta {
            if let Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) = &nv.value
            {
                for line in s.value().split('\n') {
                    lines.push(line.trim().to_string());
                }
            }
        }
    }
    let text = lines.join("\n");
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_and_trims_lines() {
        let item: syn::ItemStruct = syn::parse_quote! {
            /// Search the catalog.
            ///
            ///   Returns at most `limit` hits.
            struct S;
        };
        assert_eq!(
            doc_text(&item.attrs).as_deref(),
            Some("Search the catalog.\n\nReturns at most `limit` hits.")
        );
        let bare: syn::ItemStruct = syn::parse_quote! { struct S; };
        assert_eq!(doc_text(&bare.attrs), None);
    }
}
