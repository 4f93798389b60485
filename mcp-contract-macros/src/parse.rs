//! Turns the annotated item's tokens into a `syn::Item`; the attribute's own
//! arguments are parsed together with their checks in [`crate::validate`].

use proc_macro2::TokenStream;

/// The item under the attribute.
pub fn parse(item: TokenStream) -> syn::Result<syn::Item> {
    syn::parse2(item)
}
