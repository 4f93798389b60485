//! The canonical lockfile cut into one text segment per tool, without
//! parsing it. A lockfile is rendered deterministically (two-space indent,
//! sorted keys, one tool entry per `    "NAME": {` … `    }` block), so two
//! revisions can be compared tool by tool by text, and only the tools whose
//! text differs need to be parsed. This is what keeps `check` close to the
//! cost of reading one lockfile and `history` close to `git log -p`.
//!
//! Text that is not in the canonical layout (hand-formatted, an older
//! format) is reported as `None`, and callers parse it fully instead.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::error::InputError;
use crate::lockfile;
use crate::model::{Surface, Tool};

/// One tool's entry text, from its opening `{` to its closing `}`.
pub type Segments<'a> = BTreeMap<String, &'a str>;

/// The header every canonical lockfile starts with, up to the tools.
fn header() -> String {
    let empty = lockfile::render(&Surface::new());
    // `..."tools": {}\n}\n` -> everything up to and including `"tools": `.
    let at = empty
        .find("\"tools\": ")
        .map(|i| i + "\"tools\": ".len())
        .unwrap_or(0);
    empty[..at].to_string()
}

/// Cuts canonical lockfile text into per-tool segments; `None` when the
/// text is not in the canonical layout of this crate's lockfile version.
pub fn split(text: &str) -> Option<Segments<'_>> {
    let head = header();
    let rest = text.strip_prefix(head.as_str())?;
    let mut out = BTreeMap::new();
    if rest == "{}\n}\n" {
        return Some(out);
    }
    let body = rest.strip_prefix("{\n")?.strip_suffix("  }\n}\n")?;
    let base = text.len() - rest.len() + 2;
    let mut offset = 0;
    let mut open: Option<(String, usize)> = None;
    for line in body.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let l = line.strip_suffix('\n')?;
        if let Some(after) = l.strip_prefix("    ") {
            if after.starts_with(' ') {
                continue;
            }
            match &open {
                None => {
                    let key_json = after.strip_suffix(": {")?;
                    let name: String =
                        match key_json.strip_prefix('"').and_then(|k| k.strip_suffix('"')) {
                            Some(plain) if !plain.contains(['\\', '"']) => plain.to_string(),
                            _ => serde_json::from_str(key_json).ok()?,
                        };
                    let brace = start + 4 + key_json.len() + 2;
                    open = Some((name, brace));
                }
                Some((name, brace)) => {
                    if after != "}" && after != "}," {
                        return None;
                    }
                    let end = start + 5;
                    let seg = &text[base + brace..base + end];
                    if out.insert(name.clone(), seg).is_some() {
                        return None;
                    }
                    open = None;
                }
            }
        } else {
            return None;
        }
    }
    if open.is_some() {
        return None;
    }
    Some(out)
}

/// Parses one tool's entry text (with the digest check the lockfile reader applies).
pub fn parse_tool(name: &str, segment: &str, file: &str) -> Result<Tool, InputError> {
    let entry: Value = crate::json::from_str(segment).map_err(|e| {
        InputError::new(file, format!("tool `{name}`: invalid JSON: {e}"))
            .at(format!("/tools/{}", lockfile::escape_pointer(name)))
            .fix("regenerate the lockfile")
    })?;
    let mut tools = Map::new();
    tools.insert(name.to_string(), entry);
    let mut root = Map::new();
    root.insert(
        "lockfile_version".into(),
        Value::from(lockfile::LOCKFILE_VERSION),
    );
    root.insert("tools".into(), Value::Object(tools));
    let mut surface = lockfile::from_value(&Value::Object(root), file)?;
    surface.tools.remove(name).ok_or_else(|| {
        InputError::new(file, format!("tool `{name}` vanished while parsing"))
            .fix("regenerate the lockfile")
    })
}

/// Two lockfile texts reduced to the tools whose text differs: the diff of
/// the reduced pair is the diff of the full pair (identical tools produce
/// no change and take no part in rename detection). Falls back to parsing
/// both fully when either is not canonical. `old` is `None` for a lockfile
/// that did not exist.
pub fn reduce_pair(
    old: Option<(&str, &str)>,
    new: (&str, &str),
) -> Result<(Option<Surface>, Surface), InputError> {
    let (new_text, new_file) = new;
    let split_new = split(new_text);
    let split_old = old.map(|(t, _)| split(t));
    match (split_old, split_new) {
        (None, Some(n)) => Ok((None, parse_all(&n, new_file)?)),
        (Some(Some(o)), Some(n)) => {
            let (old_file, new_file) = (old.map(|o| o.1).unwrap_or(""), new_file);
            let mut os = Surface::new();
            let mut ns = Surface::new();
            for (name, seg) in &o {
                if n.get(name) != Some(seg) {
                    os.insert(parse_tool(name, seg, old_file)?);
                }
            }
            for (name, seg) in &n {
                if o.get(name) != Some(seg) {
                    ns.insert(parse_tool(name, seg, new_file)?);
                }
            }
            Ok((Some(os), ns))
        }
        _ => {
            let old = match old {
                Some((t, f)) => Some(lockfile::parse(t.as_bytes(), f)?),
                None => None,
            };
            Ok((old, lockfile::parse(new_text.as_bytes(), new_file)?))
        }
    }
}

fn parse_all(segments: &Segments<'_>, file: &str) -> Result<Surface, InputError> {
    let mut s = Surface::new();
    for (name, seg) in segments {
        s.insert(parse_tool(name, seg, file)?);
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn surface(names: &[&str]) -> Surface {
        let mut s = Surface::new();
        for n in names {
            let mut t = Tool::new(*n);
            t.description = Some(format!("tool {n} with \"quotes\" and }} braces"));
            s.insert(t);
        }
        s
    }

    #[test]
    fn splits_canonical_text_into_parsable_segments() {
        let s = surface(&["a", "b/c", "ü"]);
        let text = lockfile::render(&s);
        let segs = split(&text).expect("canonical");
        assert_eq!(segs.len(), 3);
        for (name, seg) in &segs {
            assert_eq!(&parse_tool(name, seg, "x").unwrap(), s.get(name).unwrap());
        }
        assert_eq!(split(&lockfile::render(&Surface::new())).unwrap().len(), 0);
    }

    #[test]
    fn refuses_non_canonical_text() {
        let text = lockfile::render(&surface(&["a"]));
        assert!(split(&text.replace("  ", "\t")).is_none());
        let compact = crate::canonical::to_compact_string(&lockfile::to_value(&surface(&["a"])));
        assert!(split(&compact).is_none());
    }

    #[test]
    fn reduced_pair_keeps_only_differing_tools() {
        let old = surface(&["a", "b", "c"]);
        let mut new = surface(&["a", "b", "d"]);
        new.tools.get_mut("b").unwrap().description = Some("changed".into());
        let (ot, nt) = (lockfile::render(&old), lockfile::render(&new));
        let (o, n) = reduce_pair(Some((&ot, "old")), (&nt, "new")).unwrap();
        let o = o.unwrap();
        assert_eq!(o.tools.keys().collect::<Vec<_>>(), ["b", "c"]);
        assert_eq!(n.tools.keys().collect::<Vec<_>>(), ["b", "d"]);
        assert_eq!(
            crate::diff_surfaces(&o, &n),
            crate::diff_surfaces(&old, &new)
        );
    }
}
