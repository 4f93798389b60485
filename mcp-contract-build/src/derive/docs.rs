//! Doc comments as schemars 1.x turns them into `title`/`description`: the
//! `#[doc]` lines joined with `\n` (one leading space stripped from each),
//! trimmed; a first line starting with `#` is the title, the rest the
//! description.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The concatenated doc text, `None` when there is no `#[doc]` attribute.
pub(crate) fn doc_string(attrs: &[Attribute]) -> Result<Option<String>, String> {
    let mut out: Option<String> = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let Meta::NameValue(nv) = &attr.meta else {
            continue;
        };
        let line = match &nv.value {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => {
                let v = s.value();
                match v.strip_prefix(' ') {
                    Some(rest) => rest.to_string(),
                    None => v,
                }
            }
            _ => {
                return Err(
                    "a `#[doc = ...]` that is not a string literal (e.g. `include_str!`) cannot be read from source"
                        .into(),
                )
            }
        };
        match &mut out {
            Some(s) => {
                s.push('\n');
                s.push_str(&line);
            }
            None => out = Some(line),
        }
    }
    Ok(out)
}

/// schemars' `get_title_and_description`.
pub(crate) fn title_and_description(doc: &str) -> (String, String) {
    let trimmed = doc.trim_matches(|c: char| c.is_ascii_whitespace());
    if trimmed.starts_with('#') {
        let (first, description) = match trimmed.find('\n') {
            Some(i) => (&trimmed[..i], &trimmed[i..]),
            None => (trimmed, ""),
        };
        let title = first
            .trim_start_matches('#')
            .trim_matches(|c: char| c.is_ascii_whitespace());
        (
            title.to_string(),
            description
                .trim_matches(|c: char| c.is_ascii_whitespace())
                .to_string(),
        )
    } else {
        (String::new(), trimmed.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_doc_is_a_description() {
        assert_eq!(
            title_and_description("  Search the index.\n\nMore text.  "),
            (String::new(), "Search the index.\n\nMore text.".to_string())
        );
    }

    #[test]
    fn heading_is_a_title() {
        assert_eq!(
            title_and_description("# Search\n\nFind things."),
            ("Search".to_string(), "Find things.".to_string())
        );
    }

    #[test]
    fn doc_lines_lose_one_leading_space() {
        let item: syn::ItemStruct = syn::parse_str("///  two spaces\n/// one\nstruct A;").unwrap();
        assert_eq!(
            doc_string(&item.attrs).unwrap().unwrap(),
            " two spaces\none"
        );
    }
}
