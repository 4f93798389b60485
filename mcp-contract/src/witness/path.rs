//! From a change's JSON pointer to where in an instance the change bites.
//!
//! The engine's pointers walk schema keywords (`/inputSchema/properties/a/
//! items/minimum`); the search needs the instance path those keywords lead
//! to (`a`, then any item), the schema branches chosen on the way, and the
//! keyword that changed.

/// One step from a schema node to a child schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `properties/<name>`: the instance's member `name`.
    Prop(String),
    /// `patternProperties/<p>`: a member whose name matches `p`.
    PatternKey(String),
    /// `additionalProperties`: an undeclared member.
    Additional,
    /// `items`, `prefixItems/<i>`, `contains`: an element (at `i`, or the first).
    Item(Option<usize>, &'static str),
    /// `anyOf/<i>`, `oneOf/<i>`, `allOf/<i>`: the same instance, seen through one branch.
    Branch(&'static str, usize),
    /// `not`: the same instance (inside a negation).
    Not,
}

/// Where a change is: the schema root, the steps to the node, and the keyword.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// `inputSchema` or `outputSchema`, or `None` for tool-level pointers.
    pub schema: Option<&'static str>,
    pub steps: Vec<Step>,
    /// The keyword that changed at the node (`type`, `required`, ...), if the pointer names one.
    pub keyword: Option<String>,
    /// A token after the keyword (a `dependentRequired` key, a `patternProperties` pattern).
    pub key: Option<String>,
}

const MAX_STEPS: usize = 128;

fn unescape_pointer(t: &str) -> String {
    t.replace("~1", "/").replace("~0", "~")
}

/// Parses a change pointer into a [`Site`].
pub fn parse(pointer: &str) -> Site {
    let toks: Vec<String> = pointer
        .split('/')
        .skip(1)
        .take(MAX_STEPS * 2)
        .map(unescape_pointer)
        .collect();
    let schema = match toks.first().map(String::as_str) {
        Some("inputSchema") => Some("inputSchema"),
        Some("outputSchema") => Some("outputSchema"),
        _ => None,
    };
    let mut site = Site {
        schema,
        steps: vec![],
        keyword: None,
        key: None,
    };
    if schema.is_none() {
        site.keyword = toks.first().cloned();
        site.key = toks.get(1).cloned();
        return site;
    }
    let mut i = 1;
    let index = |t: Option<&String>| t.and_then(|t| t.parse::<usize>().ok());
    while i < toks.len() {
        let t = toks[i].as_str();
        let last = i + 1 == toks.len();
        match t {
            "properties" if !last => {
                site.steps.push(Step::Prop(toks[i + 1].clone()));
                i += 2;
            }
            "patternProperties" if i + 2 < toks.len() => {
                site.steps.push(Step::PatternKey(toks[i + 1].clone()));
                i += 2;
            }
            "additionalProperties" | "contains" | "not" if !last => {
                site.steps.push(match t {
                    "additionalProperties" => Step::Additional,
                    "contains" => Step::Item(None, "contains"),
                    _ => Step::Not,
                });
                i += 1;
            }
            "items" | "additionalItems" | "prefixItems" => match index(toks.get(i + 1)) {
                Some(n) => {
                    site.steps.push(Step::Item(Some(n), "prefixItems"));
                    i += 2;
                }
                None => {
                    site.steps.push(Step::Item(None, "items"));
                    i += 1;
                }
            },
            "anyOf" | "oneOf" | "allOf"
                if index(toks.get(i + 1)).is_some() && i + 2 < toks.len() =>
            {
                let kw = match t {
                    "anyOf" => "anyOf",
                    "oneOf" => "oneOf",
                    _ => "allOf",
                };
                site.steps
                    .push(Step::Branch(kw, index(toks.get(i + 1)).unwrap_or(0)));
                i += 2;
            }
            _ => {
                site.keyword = Some(toks[i].clone());
                site.key = toks.get(i + 1).cloned();
                break;
            }
        }
    }
    site
}

/// The instance path (member names and element indexes) the steps lead to.
pub fn instance_path(steps: &[Step]) -> Vec<String> {
    let mut out = vec![];
    for s in steps {
        match s {
            Step::Prop(n) => out.push(n.clone()),
            Step::PatternKey(_) | Step::Additional => out.push("*".into()),
            Step::Item(i, _) => out.push(i.unwrap_or(0).to_string()),
            Step::Branch(..) | Step::Not => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_become_steps_and_keywords() {
        let s = parse("/inputSchema/properties/a~1b/items/minimum");
        assert_eq!(
            s.steps,
            vec![Step::Prop("a/b".into()), Step::Item(None, "items")]
        );
        assert_eq!(s.keyword.as_deref(), Some("minimum"));
        let s = parse("/inputSchema/properties/x");
        assert_eq!(s.steps, vec![Step::Prop("x".into())]);
        assert_eq!(s.keyword, None);
        let s = parse("/inputSchema/anyOf/1/dependentRequired/k");
        assert_eq!(s.steps, vec![Step::Branch("anyOf", 1)]);
        assert_eq!(s.keyword.as_deref(), Some("dependentRequired"));
        assert_eq!(s.key.as_deref(), Some("k"));
        let s = parse("/inputSchema/patternProperties/%5Ex");
        assert_eq!(s.keyword.as_deref(), Some("patternProperties"));
        let s = parse("/annotations/readOnlyHint");
        assert_eq!(s.schema, None);
    }
}
