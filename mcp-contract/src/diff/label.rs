//! Human names for places in a schema, so messages say `filter.kind` rather
//! than `/inputSchema/properties/filter/properties/kind`.

use super::schema::Direction;

/// `"filter.kind"`-style name of the value at `ptr` (quoted), or "the input"/"the output".
pub fn describe(ptr: &str, dir: Direction) -> String {
    let path = path(ptr);
    if path.is_empty() {
        match dir {
            Direction::Input => "the input".into(),
            Direction::Output => "the output".into(),
        }
    } else {
        format!("`{path}`")
    }
}

/// The dotted path of a pointer, e.g. `filter.labels[]`.
pub fn path(ptr: &str) -> String {
    let tokens: Vec<String> = ptr
        .split('/')
        .skip(2) // "" and "inputSchema"/"outputSchema"
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect();
    let mut out = String::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i].as_str();
        let next = tokens.get(i + 1).map(String::as_str);
        match (t, next) {
            ("properties", Some(name)) | ("patternProperties", Some(name)) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
                i += 2;
            }
            ("prefixItems", Some(n)) => {
                out.push_str(&format!("[{n}]"));
                i += 2;
            }
            // Fields are named as a user writes them: which alternative of
            // a combinator holds one is in the pointer, not in the name.
            ("anyOf", Some(_)) | ("oneOf", Some(_)) | ("allOf", Some(_)) => i += 2,
            // A definition's fields are named from the definition.
            ("$defs", Some(_)) | ("definitions", Some(_)) => i += 2,
            ("items", _) => {
                out.push_str("[]");
                i += 1;
            }
            ("additionalProperties", _) => {
                out.push_str(".*");
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_nested_fields() {
        assert_eq!(
            path("/inputSchema/properties/filter/properties/kind"),
            "filter.kind"
        );
        assert_eq!(path("/inputSchema/properties/ids/items"), "ids[]");
        assert_eq!(path("/inputSchema/anyOf/1/properties/days"), "days");
        assert_eq!(
            path("/inputSchema/properties/shipping/allOf/0/properties/address/properties/city"),
            "shipping.address.city"
        );
        assert_eq!(describe("/outputSchema", Direction::Output), "the output");
    }
}
