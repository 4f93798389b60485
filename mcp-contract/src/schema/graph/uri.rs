//! URI references as JSON Schema reads them: `$id`, `$ref` and
//! `$dynamicRef` resolved against the base URI in scope (RFC 3986 §5.2,
//! dot segments removed), fragments split off and percent-decoded, JSON
//! pointers split into tokens. Documents without a base URI get a private
//! one (`urn:mcp-contract:doc<N>`), so relative references inside them
//! still resolve among their own resources.

use std::borrow::Cow;

/// The parts of a URI reference (RFC 3986 appendix B).
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
}

fn parse(s: &str) -> Parts<'_> {
    let s = s.split_once('#').map_or(s, |(u, _)| u);
    let (scheme, rest) = match s.find(':') {
        Some(i)
            if i > 0
                && s[..i]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && s[..i].starts_with(|c: char| c.is_ascii_alphabetic())
                && !s[..i].contains('/') =>
        {
            (Some(&s[..i]), &s[i + 1..])
        }
        _ => (None, s),
    };
    let (authority, rest) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find(['/', '?']).unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    let (path, query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
    }
}

fn remove_dot_segments(path: &str) -> String {
    let mut input = path.to_string();
    let mut out = String::new();
    while !input.is_empty() {
        if let Some(r) = input.strip_prefix("../") {
            input = r.to_string();
        } else if let Some(r) = input.strip_prefix("./") {
            input = r.to_string();
        } else if input.starts_with("/./") {
            input = input[2..].to_string();
        } else if input == "/." {
            input = "/".to_string();
        } else if input.starts_with("/../") || input == "/.." {
            input = if input == "/.." {
                "/".to_string()
            } else {
                input[3..].to_string()
            };
            match out.rfind('/') {
                Some(i) => out.truncate(i),
                None => out.clear(),
            }
        } else if input == "." || input == ".." {
            input.clear();
        } else {
            let start = usize::from(input.starts_with('/'));
            let end = input[start..].find('/').map_or(input.len(), |i| i + start);
            out.push_str(&input[..end]);
            input = input[end..].to_string();
        }
    }
    out
}

/// `reference` resolved against `base` (both without fragments or with:
/// the result keeps the reference's fragment).
pub fn resolve(base: &str, reference: &str) -> String {
    let fragment = reference.split_once('#').map(|(_, f)| f);
    let r = parse(reference);
    let b = parse(base);
    let mut out = String::new();
    let push_scheme = |out: &mut String, s: Option<&str>| {
        if let Some(s) = s {
            out.push_str(s);
            out.push(':');
        }
    };
    let push_auth = |out: &mut String, a: Option<&str>| {
        if let Some(a) = a {
            out.push_str("//");
            out.push_str(a);
        }
    };
    if r.scheme.is_some() {
        push_scheme(&mut out, r.scheme);
        push_auth(&mut out, r.authority);
        out.push_str(&remove_dot_segments(r.path));
        if let Some(q) = r.query {
            out.push('?');
            out.push_str(q);
        }
    } else {
        push_scheme(&mut out, b.scheme);
        if r.authority.is_some() {
            push_auth(&mut out, r.authority);
            out.push_str(&remove_dot_segments(r.path));
            if let Some(q) = r.query {
                out.push('?');
                out.push_str(q);
            }
        } else {
            push_auth(&mut out, b.authority);
            if r.path.is_empty() {
                out.push_str(b.path);
                if let Some(q) = r.query.or(b.query) {
                    out.push('?');
                    out.push_str(q);
                }
            } else {
                let merged = if r.path.starts_with('/') {
                    r.path.to_string()
                } else if b.authority.is_some() && b.path.is_empty() {
                    format!("/{}", r.path)
                } else {
                    match b.path.rfind('/') {
                        Some(i) => format!("{}{}", &b.path[..=i], r.path),
                        // an opaque base (`urn:x:y`): the reference replaces its last segment
                        None if b.scheme.is_some() && b.authority.is_none() => {
                            match b.path.rfind(':') {
                                Some(i) => format!("{}{}", &b.path[..=i], r.path),
                                None => r.path.to_string(),
                            }
                        }
                        None => r.path.to_string(),
                    }
                };
                out.push_str(&remove_dot_segments(&merged));
                if let Some(q) = r.query {
                    out.push('?');
                    out.push_str(q);
                }
            }
        }
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// The URI without its fragment, and the fragment (`""` when none).
pub fn split_fragment(uri: &str) -> (&str, &str) {
    uri.split_once('#').unwrap_or((uri, ""))
}

/// `%xx` escapes decoded (fragments are percent-encoded JSON pointers).
pub fn percent_decode(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// The tokens of a JSON pointer (`/a~1b/0` → `["a/b", "0"]`); `None` when
/// it is not one.
pub fn pointer_tokens(p: &str) -> Option<Vec<String>> {
    if p.is_empty() {
        return Some(vec![]);
    }
    let rest = p.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// One pointer token escaped (`a/b` → `a~1b`).
pub fn escape_token(t: &str) -> Cow<'_, str> {
    if t.contains(['~', '/']) {
        Cow::Owned(t.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3986_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../../g", "http://a/g"),
            ("", "http://a/b/c/d;p?q"),
        ] {
            assert_eq!(resolve(base, r), want, "{r}");
        }
        assert_eq!(
            resolve("urn:uuid:deadbeef-1234", "#/$defs/x"),
            "urn:uuid:deadbeef-1234#/$defs/x"
        );
        assert_eq!(
            resolve("http://localhost:1234/draft2020-12/tree", "node"),
            "http://localhost:1234/draft2020-12/node"
        );
    }

    #[test]
    fn pointers() {
        assert_eq!(
            pointer_tokens("/a~1b/0/~0"),
            Some(vec!["a/b".into(), "0".into(), "~".into()])
        );
        assert_eq!(percent_decode("/foo%22bar"), "/foo\"bar");
        assert_eq!(percent_decode("%25"), "%");
    }
}
