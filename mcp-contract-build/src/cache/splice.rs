//! Replacing one member's value in JSON text the step wrote earlier, without
//! parsing the whole document: how a rebuild that re-derived a few tools
//! updates the lockfile, the compatibility plan and the rmcp manifest by
//! re-serializing only those tools' parts.
//!
//! Why: build scripts run unoptimized, and rendering a 200-tool surface
//! (serializing, hashing every entry, writing three whole-surface files)
//! cost more than the derivation an edit needs. The documents are
//! canonical serde_json output (sorted keys; pretty with two-space
//! indentation, or compact), so a member's text is found by scanning for
//! its key path, and a value rendered at the right depth is the text the
//! full render would have produced. The builder only splices into files it
//! can show are the ones it wrote (content hash or stamp), and the cache's
//! equivalence test checks the result byte for byte against a full run.

use std::ops::Range;

use serde_json::Value;

/// How a document is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `serde_json::to_string_pretty` (two-space indentation).
    Pretty,
    /// `serde_json::to_string`.
    Compact,
}

/// `text` with the value at `path` (object keys from the root) replaced by
/// `value`, rendered as the full document would render it; `None` when the
/// path is not there or the text is not the JSON this scanner reads.
pub fn replace(text: &str, path: &[&str], value: &Value, layout: Layout) -> Option<String> {
    let span = value_span(text.as_bytes(), path)?;
    let rendered = render_at(value, path.len(), layout);
    let mut out = String::with_capacity(text.len() + rendered.len());
    out.push_str(&text[..span.start]);
    out.push_str(&rendered);
    out.push_str(&text[span.end..]);
    Some(out)
}

/// `value` as it appears nested `depth` objects deep.
fn render_at(value: &Value, depth: usize, layout: Layout) -> String {
    match layout {
        Layout::Compact => value.to_string(),
        Layout::Pretty => {
            let text = serde_json::to_string_pretty(value).unwrap_or_default();
            let pad = "  ".repeat(depth);
            // JSON strings hold no raw newline: every line break is layout.
            text.replace('\n', &format!("\n{pad}"))
        }
    }
}

/// The byte range of the value at `path`.
pub fn value_span(text: &[u8], path: &[&str]) -> Option<Range<usize>> {
    let mut at = skip_ws(text, 0);
    for key in path {
        let wanted = serde_json::to_string(key).ok()?;
        at = member(text, at, wanted.as_bytes())?;
    }
    // Only the value replaced is scanned to its end: the text after it is
    // kept as it is.
    Some(at..skip_value(text, at)?)
}

/// Where the value of the member whose raw (quoted) key is `key` starts,
/// in the object starting at `start`.
fn member(text: &[u8], start: usize, key: &[u8]) -> Option<usize> {
    if text.get(start) != Some(&b'{') {
        return None;
    }
    let mut at = skip_ws(text, start + 1);
    if text.get(at) == Some(&b'}') {
        return None;
    }
    loop {
        let key_end = skip_string(text, at)?;
        let found = &text[at..key_end] == key;
        at = skip_ws(text, key_end);
        if text.get(at) != Some(&b':') {
            return None;
        }
        let value = skip_ws(text, at + 1);
        if found {
            return Some(value);
        }
        at = skip_ws(text, skip_value(text, value)?);
        match text.get(at)? {
            b',' => at = skip_ws(text, at + 1),
            _ => return None,
        }
    }
}

fn skip_ws(text: &[u8], mut at: usize) -> usize {
    while text.get(at).is_some_and(|b| b.is_ascii_whitespace()) {
        at += 1;
    }
    at
}

/// The end of the string starting at `at` (past its closing quote).
fn skip_string(text: &[u8], at: usize) -> Option<usize> {
    if text.get(at) != Some(&b'"') {
        return None;
    }
    let mut i = at + 1;
    loop {
        match text.get(i)? {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
}

/// The end of the value starting at `at`: strings and brackets are
/// balanced in one pass (no recursion, so any nesting depth is fine).
fn skip_value(text: &[u8], at: usize) -> Option<usize> {
    match text.get(at)? {
        b'"' => skip_string(text, at),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match text.get(i)? {
                    b'"' => {
                        i = skip_string(text, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let mut i = at;
            while text
                .get(i)
                .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
            {
                i += 1;
            }
            (i > at).then_some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Splicing a member gives exactly the text of rendering the changed
    /// document, in both layouts, at every depth, whatever the neighbours hold.
    #[test]
    fn a_spliced_member_is_the_full_render() {
        let doc = json!({
            "a": {"x": [1, {"y": "}\"]"}], "z": null},
            "tools": {
                "one": {"k": "v\\\"", "n": [1, 2, {"deep": {}}]},
                "two": {"k": []},
                "zzz": true
            },
            "revision": "sha256:00"
        });
        let cases: Vec<(Vec<&str>, Value)> = vec![
            (
                vec!["tools", "one"],
                json!({"k": "w", "n": [], "m": {"a\nb": 1}}),
            ),
            (vec!["tools", "two"], json!({"k": [1, [2, [3]]]})),
            (vec!["tools", "zzz"], json!(false)),
            (vec!["revision"], json!("sha256:ff")),
            (vec!["a", "x"], json!({})),
        ];
        for (path, value) in cases {
            let mut changed = doc.clone();
            let mut slot = &mut changed;
            for k in &path {
                slot = slot.get_mut(*k).unwrap();
            }
            *slot = value.clone();
            type Render = fn(&Value) -> serde_json::Result<String>;
            let layouts: [(Layout, Render); 2] = [
                (Layout::Pretty, serde_json::to_string_pretty),
                (Layout::Compact, serde_json::to_string),
            ];
            for (layout, render) in layouts {
                let before = render(&doc).unwrap();
                let after = replace(&before, &path, &value, layout).unwrap();
                assert_eq!(after, render(&changed).unwrap(), "{path:?} {layout:?}");
            }
        }
    }

    #[test]
    fn a_missing_member_or_foreign_text_is_none() {
        let text = serde_json::to_string_pretty(&json!({"tools": {"one": 1}})).unwrap();
        assert!(replace(&text, &["tools", "two"], &json!(1), Layout::Pretty).is_none());
        assert!(replace(&text, &["nope", "one"], &json!(1), Layout::Pretty).is_none());
        for bad in [
            "",
            "{",
            "{\"tools\": {\"one\": ",
            "[1]",
            "{\"tools\" 1}",
            "\"x",
        ] {
            assert!(replace(bad, &["tools", "one"], &json!(1), Layout::Pretty).is_none());
        }
    }
}
