//! Local `$ref` resolution (`#`, `#/$defs/...`, draft-07 `#/definitions/...`,
//! any JSON pointer into the same document) and load-time validation that
//! every local reference resolves and no reference chain loops without a
//! schema in between. Remote references are left opaque.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::Value;

use super::DATA_KEYWORDS;

/// A reference that cannot be followed, with where it is and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefError {
    /// JSON pointer of the offending `$ref`, relative to the schema root.
    pub pointer: String,
    pub message: String,
    pub fix: String,
}

/// Follows a local reference (`#...`) inside `root`. `None` for remote or dangling references.
pub fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    let fragment = percent_decode(fragment);
    if fragment.is_empty() {
        return Some(root);
    }
    if !fragment.starts_with('/') {
        return find_anchor(root, &fragment);
    }
    let mut cur = root;
    for token in fragment[1..].split('/') {
        // (a token without `~` is its own key: no copy)
        let token: Cow<'_, str> = if token.contains('~') {
            Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(token)
        };
        cur = match cur {
            Value::Object(m) => m.get(token.as_ref())?,
            Value::Array(a) => a.get(token.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// Finds `"$anchor": name` (or `"$dynamicAnchor": name`, which is also a
/// plain anchor) anywhere in the document (iteratively).
fn find_anchor<'a>(root: &'a Value, name: &str) -> Option<&'a Value> {
    let mut stack = vec![root];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if m.get("$anchor").and_then(Value::as_str) == Some(name)
                    || m.get("$dynamicAnchor").and_then(Value::as_str) == Some(name)
                {
                    return Some(v);
                }
                for (k, child) in m {
                    if !DATA_KEYWORDS.contains(&k.as_str()) {
                        stack.push(child);
                    }
                }
            }
            Value::Array(a) => stack.extend(a.iter()),
            _ => {}
        }
    }
    None
}

fn percent_decode(s: &str) -> Cow<'_, str> {
    if !s.contains('%') {
        return Cow::Borrowed(s);
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push(h * 16 + l);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Is this a local reference we must be able to follow?
pub fn is_local(reference: &str) -> bool {
    reference.starts_with('#')
}

/// The reference a keyword of a schema node makes, in the form [`resolve`]
/// takes: `$ref` as written; `$dynamicRef` as written too (in a document
/// that is one schema resource, the dynamic scope holds only this document,
/// so it resolves to the anchor a plain reference would); `$recursiveRef`
/// as `#` (the document root, by the same argument).
pub fn reference_key(keyword: &str, value: &Value) -> Option<String> {
    match (keyword, value.as_str()) {
        ("$ref" | "$dynamicRef", Some(r)) => Some(r.to_string()),
        ("$recursiveRef", Some(_)) => Some("#".to_string()),
        _ => None,
    }
}

/// Keywords that reference another schema.
pub const REFERENCE_KEYWORDS: [&str; 3] = ["$ref", "$dynamicRef", "$recursiveRef"];

/// Does the node hold a reference keyword (of any kind)?
pub fn holds_reference(v: &Value) -> bool {
    v.as_object()
        .is_some_and(|m| REFERENCE_KEYWORDS.iter().any(|k| m.contains_key(*k)))
}

/// Does the node or anything inside it hold a reference? Such a node can
/// come back to itself through the reference, so the comparator identifies
/// it by its text alone. (Nesting deeper than `limit` counts as holding one:
/// the conservative answer.)
pub fn reaches_reference(v: &Value, limit: usize) -> bool {
    let mut stack = vec![(v, 0usize)];
    while let Some((v, depth)) = stack.pop() {
        match v {
            Value::Object(m) => {
                if REFERENCE_KEYWORDS.iter().any(|k| m.contains_key(*k)) {
                    return true;
                }
                if depth >= limit {
                    return true;
                }
                stack.extend(m.values().map(|x| (x, depth + 1)));
            }
            Value::Array(a) => {
                if depth >= limit {
                    return true;
                }
                stack.extend(a.iter().map(|x| (x, depth + 1)));
            }
            _ => {}
        }
    }
    false
}

/// Is `root` deeper than `limit` levels once every local reference is
/// replaced by what it points to (a reference followed counts two levels),
/// or does following references come back to a schema being expanded (a
/// recursive schema)? Without references this is its plain nesting. Each
/// target is expanded once (its height remembered), and the walk stops as
/// soon as it passes `limit`, so it is linear and its recursion bounded.
pub fn expands_deeper_than(root: &Value, limit: usize) -> bool {
    let mut w = Expansion {
        root,
        limit,
        open: vec![],
        heights: HashMap::new(),
    };
    w.height(root, 0).is_none_or(|h| h > limit)
}

/// The walk of [`expands_deeper_than`].
struct Expansion<'a> {
    root: &'a Value,
    limit: usize,
    /// Reference targets being expanded (a path back to one is a cycle).
    open: Vec<*const Value>,
    /// Heights of reference targets already expanded.
    heights: HashMap<*const Value, usize>,
}

impl<'a> Expansion<'a> {
    /// The height of `v` at `depth`; `None` once past the limit or on a cycle.
    fn height(&mut self, v: &'a Value, depth: usize) -> Option<usize> {
        if depth > self.limit {
            return None;
        }
        let mut h = 0;
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if k.starts_with('$') && REFERENCE_KEYWORDS.contains(&k.as_str()) {
                        let target = reference_key(k, x).and_then(|r| resolve(self.root, &r));
                        if let Some(target) = target {
                            h = h.max(2 + self.target_height(target, depth + 2)?);
                        }
                    }
                    h = h.max(1 + self.child_height(x, depth + 1)?);
                }
            }
            Value::Array(a) => {
                for x in a {
                    h = h.max(1 + self.child_height(x, depth + 1)?);
                }
            }
            _ => {}
        }
        Some(h)
    }

    /// [`Self::height`], a scalar answered without a call.
    fn child_height(&mut self, v: &'a Value, depth: usize) -> Option<usize> {
        match v {
            Value::Object(_) | Value::Array(_) => self.height(v, depth),
            _ if depth > self.limit => None,
            _ => Some(0),
        }
    }

    fn target_height(&mut self, t: &'a Value, depth: usize) -> Option<usize> {
        let key: *const Value = t;
        if self.open.contains(&key) {
            return None;
        }
        if let Some(&h) = self.heights.get(&key) {
            return (depth + h <= self.limit).then_some(h);
        }
        self.open.push(key);
        let h = self.height(t, depth)?;
        self.open.pop();
        self.heights.insert(key, h);
        Some(h)
    }
}

/// The `$ref` of a schema node, if it has one.
pub fn ref_of(v: &Value) -> Option<&str> {
    v.as_object()?.get("$ref")?.as_str()
}

/// One step of a JSON pointer, borrowed from the document.
#[derive(Clone, Copy)]
enum Token<'a> {
    Key(&'a str),
    Index(usize),
}

fn pointer(path: &[Token<'_>]) -> String {
    let mut out = String::new();
    for t in path {
        match t {
            Token::Key(k) => {
                out.push('/');
                out.push_str(&k.replace('~', "~0").replace('/', "~1"));
            }
            Token::Index(i) => out.push_str(&format!("/{i}")),
        }
    }
    out
}

/// Checks every local `$ref` in `schema`: it must resolve, and following
/// reference-only nodes must reach a real schema rather than loop. The walk
/// is iterative and builds a pointer only when it reports an error.
pub fn validate(schema: &Value) -> Result<(), RefError> {
    // (the flag: an object whose keys are names, such as `properties`: a
    // property called `$ref` is no reference)
    let mut stack: Vec<(&Value, usize, Option<Token<'_>>, bool)> = vec![(schema, 0, None, false)];
    let mut path: Vec<Token<'_>> = vec![];
    while let Some((v, depth, token, names)) = stack.pop() {
        path.truncate(depth.saturating_sub(1));
        if let Some(t) = token {
            path.push(t);
        }
        match v {
            Value::Object(m) if names => {
                for (k, child) in m {
                    if child.is_object() || child.is_array() {
                        stack.push((child, depth + 1, Some(Token::Key(k)), false));
                    }
                }
            }
            Value::Object(m) => {
                for kw in REFERENCE_KEYWORDS {
                    let Some(r) = m.get(kw) else { continue };
                    let Some(r) = reference_key(kw, r) else {
                        return Err(RefError {
                            pointer: format!("{}/{kw}", pointer(&path)),
                            message: format!("`{kw}` must be a string"),
                            fix: "write the reference as a string such as \"#/$defs/Name\"".into(),
                        });
                    };
                    if is_local(&r) {
                        check_chain(schema, &r, || pointer(&path))?;
                    }
                }
                for (k, child) in m {
                    if !DATA_KEYWORDS.contains(&k.as_str())
                        && (child.is_object() || child.is_array())
                    {
                        let named = super::NAMED_SCHEMA_KEYWORDS.contains(&k.as_str());
                        stack.push((child, depth + 1, Some(Token::Key(k)), named));
                    }
                }
            }
            Value::Array(a) => {
                for (i, child) in a.iter().enumerate() {
                    if child.is_object() || child.is_array() {
                        stack.push((child, depth + 1, Some(Token::Index(i)), false));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// `ptr` builds the pointer of the reference, for an error only.
fn check_chain(root: &Value, first: &str, ptr: impl Fn() -> String) -> Result<(), RefError> {
    let mut seen: Vec<&str> = vec![];
    let mut reference = first;
    loop {
        let Some(target) = resolve(root, reference) else {
            return Err(RefError {
                pointer: format!("{}/$ref", ptr()),
                message: format!("`$ref` \"{reference}\" points to nothing in this schema"),
                fix: "add the missing definition under `$defs` or correct the reference".into(),
            });
        };
        if seen.contains(&reference) {
            return Err(RefError {
                pointer: format!("{}/$ref", ptr()),
                message: format!(
                    "`$ref` \"{first}\" is part of a reference cycle with no schema in between"
                ),
                fix: "make one of the definitions in the cycle a real schema".into(),
            });
        }
        seen.push(reference);
        match target.as_object() {
            Some(m) if m.len() == 1 && m.contains_key("$ref") => match m["$ref"].as_str() {
                Some(next) if is_local(next) => reference = next,
                _ => return Ok(()),
            },
            _ => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resolves_defs_definitions_and_escapes() {
        let s = json!({"$defs": {"a/b": {"type": "string"}}, "definitions": {"c": {"type": "integer"}}});
        assert_eq!(
            resolve(&s, "#/$defs/a~1b"),
            Some(&json!({"type": "string"}))
        );
        assert_eq!(
            resolve(&s, "#/definitions/c"),
            Some(&json!({"type": "integer"}))
        );
        assert_eq!(
            resolve(&s, "#/%24defs/a~1b"),
            Some(&json!({"type": "string"}))
        );
        assert_eq!(resolve(&s, "#"), Some(&s));
        assert_eq!(resolve(&s, "#/nope"), None);
    }

    #[test]
    fn dangling_and_cyclic_refs_are_errors_recursion_is_not() {
        let dangling = json!({"properties": {"a": {"$ref": "#/$defs/missing"}}});
        let e = validate(&dangling).unwrap_err();
        assert_eq!(e.pointer, "/properties/a/$ref");
        let cyclic = json!({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}});
        assert!(validate(&cyclic).unwrap_err().message.contains("cycle"));
        let recursive = json!({"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}, "$ref": "#/$defs/node"});
        assert!(validate(&recursive).is_ok());
        // a property named `$ref` (a tool that takes a JSON reference) is no reference
        let named = json!({"properties": {"$ref": {"type": "string"}}});
        assert!(validate(&named).is_ok());
        let named = json!({"not": {"properties": {"$ref": {"$ref": "#/$defs/missing"}}}});
        assert!(validate(&named).is_err());
    }

    #[test]
    fn expansion_depth_follows_references_and_sees_cycles() {
        let flat = json!({"type": "object", "properties": {"a": {"type": "string"}}});
        assert!(!expands_deeper_than(&flat, 3));
        assert!(expands_deeper_than(&flat, 2));
        // a shared, acyclic definition: its height counts where it is used
        let shared = json!({"properties": {"a": {"$ref": "#/$defs/x"}, "b": {"$ref": "#/$defs/x"}},
            "$defs": {"x": {"properties": {"y": {"type": "string"}}}}});
        assert!(!expands_deeper_than(&shared, 7));
        assert!(expands_deeper_than(&shared, 6));
        let recursive = json!({"$defs": {"node": {"properties": {"next": {"$ref": "#/$defs/node"}}}}, "$ref": "#/$defs/node"});
        assert!(expands_deeper_than(&recursive, 1000));
        let to_root = json!({"properties": {"self": {"$ref": "#"}}});
        assert!(expands_deeper_than(&to_root, 1000));
        let anchored = json!({"$defs": {"n": {"$dynamicAnchor": "n", "items": {"$dynamicRef": "#n"}}}, "$ref": "#/$defs/n"});
        assert!(expands_deeper_than(&anchored, 1000));
        let remote = json!({"properties": {"a": {"$ref": "https://example.com/s.json"}}});
        assert!(!expands_deeper_than(&remote, 3));
    }
}
