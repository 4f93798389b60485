//! Resources and resource templates as `resources/list` and
//! `resources/templates/list` publish them. A client reads a resource by its
//! `uri` and builds URIs from a template's RFC 6570 variables, and parses
//! what it reads by `mimeType`: those are the contract. The volatile
//! `size` and `lastModified` (top level or in `annotations`) are not kept:
//! they change without the contract changing.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::entry_value;
use super::prompt::put_str;

/// Keys dropped from a published resource or template: they describe the
/// current content, not the contract.
pub const VOLATILE_KEYS: &[&str] = &["size", "lastModified"];

/// One resource, keyed in the lockfile by [`Resource::uri`].
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    pub uri: String,
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
    /// `annotations` without `lastModified` (`audience`, `priority`, ...).
    pub annotations: Option<Map<String, Value>>,
    /// Every other key (`icons`, `_meta`, `x-*`), verbatim.
    pub extra: BTreeMap<String, Value>,
}

/// One resource template, keyed in the lockfile by [`ResourceTemplate::uri_template`].
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceTemplate {
    pub uri_template: String,
    pub name: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub mime_type: Option<String>,
    pub annotations: Option<Map<String, Value>>,
    pub extra: BTreeMap<String, Value>,
}

impl Resource {
    pub fn new(uri: impl Into<String>) -> Self {
        Resource {
            uri: uri.into(),
            name: None,
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            extra: BTreeMap::new(),
        }
    }

    /// The canonical lockfile entry, without the uri (the key) or digest.
    pub fn to_entry(&self) -> Value {
        common_entry(
            &self.extra,
            &self.name,
            &self.title,
            &self.description,
            &self.mime_type,
            &self.annotations,
        )
    }

    pub fn digest(&self) -> String {
        super::digest_of_value(&self.to_entry())
    }
}

impl ResourceTemplate {
    pub fn new(uri_template: impl Into<String>) -> Self {
        ResourceTemplate {
            uri_template: uri_template.into(),
            name: None,
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            extra: BTreeMap::new(),
        }
    }

    /// The RFC 6570 variable names of the template, in order of first use.
    pub fn variables(&self) -> Vec<String> {
        template_variables(&self.uri_template)
    }

    /// The canonical lockfile entry, without the template (the key) or digest.
    pub fn to_entry(&self) -> Value {
        common_entry(
            &self.extra,
            &self.name,
            &self.title,
            &self.description,
            &self.mime_type,
            &self.annotations,
        )
    }

    pub fn digest(&self) -> String {
        super::digest_of_value(&self.to_entry())
    }
}

fn common_entry(
    extra: &BTreeMap<String, Value>,
    name: &Option<String>,
    title: &Option<String>,
    description: &Option<String>,
    mime_type: &Option<String>,
    annotations: &Option<Map<String, Value>>,
) -> Value {
    let mut m: Map<String, Value> = extra.clone().into_iter().collect();
    put_str(&mut m, "name", name);
    put_str(&mut m, "title", title);
    put_str(&mut m, "description", description);
    put_str(&mut m, "mimeType", mime_type);
    if let Some(a) = annotations {
        m.insert("annotations".into(), Value::Object(a.clone()));
    }
    entry_value(m)
}

/// The variable names in an RFC 6570 URI template (`{id}`, `{+path}`,
/// `{?q,page}`, `{/segments*}`, `{name:3}`), in order of first use.
/// Unclosed or empty expressions contribute nothing.
pub fn template_variables(template: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let expr = &after[..close];
        let expr = expr
            .strip_prefix(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|'])
            .unwrap_or(expr);
        for spec in expr.split(',') {
            let name = spec.split(':').next().unwrap_or("").trim_end_matches('*');
            if !name.is_empty() && !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
        }
        rest = &after[close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::template_variables;

    #[test]
    fn rfc6570_variables() {
        assert_eq!(
            template_variables("test://static/{id}/{+path}{?q,page}{/seg*}{name:3}{id}"),
            ["id", "path", "q", "page", "seg", "name"]
        );
        assert!(template_variables("file:///{unclosed").is_empty());
        assert!(template_variables("plain://x").is_empty());
    }
}
