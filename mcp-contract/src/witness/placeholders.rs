//! Which values of a witness fixture are placeholders.
//!
//! The witness search shrinks every instance to the smallest one that still
//! proves the change (shortest strings, fewest items and properties), so
//! everything the change is not about is filled with `""`, `[]` or `{}`:
//! valid for the schema, but values a real handler usually rejects (an empty
//! query, an order without lines, an address without a street). A fixture
//! written from a witness lists those places under
//! [`crate::fixtures::REVIEW_KEY`], so a person replaces them with values the
//! test instance accepts before marking the fixture safe; `replay` does not
//! send a fixture that still carries the list. The value the change is about
//! (the removed field, the narrowed one) is left out of the list: it is the
//! point of the fixture and stays as the witness chose it.

use serde_json::{json, Map, Value};

use crate::lockfile::escape_pointer;

/// JSON pointers (into `arguments`) of the placeholder values, leaving out
/// the place `subject` (a pointer into `arguments`) and everything under it.
pub fn placeholders(arguments: &Map<String, Value>, subject: Option<&str>) -> Vec<String> {
    let mut out = vec![];
    for (k, v) in arguments {
        walk(v, format!("/{}", escape_pointer(k)), subject, &mut out);
    }
    out
}

fn walk(v: &Value, at: String, subject: Option<&str>, out: &mut Vec<String>) {
    if subject.is_some_and(|s| at == s || at.starts_with(&format!("{s}/"))) {
        return;
    }
    match v {
        Value::String(s) if s.is_empty() => out.push(at),
        Value::Array(a) if a.is_empty() => out.push(at),
        Value::Object(m) if m.is_empty() => out.push(at),
        Value::Array(a) => {
            for (i, item) in a.iter().enumerate() {
                walk(item, format!("{at}/{i}"), subject, out);
            }
        }
        Value::Object(m) => {
            for (k, item) in m {
                walk(item, format!("{at}/{}", escape_pointer(k)), subject, out);
            }
        }
        _ => {}
    }
}

/// The place in `arguments` a change at `pointer` (into the tool entry, e.g.
/// `/inputSchema/properties/a/properties/b/minLength`, or
/// `/inputSchema/required` with `subject` `c`) is about: the property names
/// along its `properties` steps, then the subject of a `required` change.
pub fn argument_path(pointer: &str, subject: Option<&str>) -> Option<String> {
    let rest = pointer.strip_prefix("/inputSchema")?;
    let tokens: Vec<&str> = rest.split('/').skip(1).collect();
    let mut path = String::new();
    let mut i = 0;
    while i + 1 < tokens.len() && tokens[i] == "properties" {
        path.push('/');
        path.push_str(tokens[i + 1]);
        i += 2;
    }
    if tokens.get(i) == Some(&"required") {
        if let Some(s) = subject {
            path.push('/');
            path.push_str(&escape_pointer(s));
        }
    }
    (!path.is_empty()).then_some(path)
}

/// The review note for a fixture whose `arguments` hold placeholders at `at`.
pub fn review_note(at: &[String]) -> Value {
    json!({
        "placeholders": at,
        "why": "the witness search fills what the change is not about with the smallest valid value (empty strings, lists and objects), which real handlers usually reject",
        "fix": "replace the values at these places in `arguments` (and in `x-normalized`, if present) with ones the test instance accepts, delete `x-review`, then set \"safe\": true if the call has no effect outside the test instance",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_values_are_placeholders_except_where_the_change_is() {
        let args = json!({
            "currency": "USD",
            "lines": [],
            "note": "",
            "tags": ["", "x"],
            "shipping": {"address": {"city": "", "street": "Main 1"}, "extra": {}}
        });
        let args = args.as_object().unwrap();
        assert_eq!(
            placeholders(args, Some("/note")),
            [
                "/lines",
                "/shipping/address/city",
                "/shipping/extra",
                "/tags/0"
            ]
        );
        assert_eq!(
            placeholders(args, Some("/shipping")),
            ["/lines", "/note", "/tags/0"]
        );
    }

    #[test]
    fn the_argument_a_change_is_about() {
        assert_eq!(
            argument_path("/inputSchema/properties/note", Some("note")).as_deref(),
            Some("/note")
        );
        assert_eq!(
            argument_path("/inputSchema/properties/a/properties/b/minLength", None).as_deref(),
            Some("/a/b")
        );
        assert_eq!(
            argument_path("/inputSchema/required", Some("currency")).as_deref(),
            Some("/currency")
        );
        assert_eq!(
            argument_path("/inputSchema/properties/s/required", Some("a/b")).as_deref(),
            Some("/s/a~1b")
        );
        assert_eq!(argument_path("/inputSchema/type", None), None);
        assert_eq!(argument_path("/outputSchema/properties/x", None), None);
    }
}
