//! Resource and resource-template comparison, from the client's side:
//! resources are read by uri and parsed by mimeType; templates are filled
//! by variable name. Resources are matched by uri, templates by their
//! `uriTemplate`, and a removed and an added template with the same `name`
//! are the same template edited (so a renamed variable is reported as
//! such, not as a removal and an addition).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::Change;
use crate::lockfile::escape_pointer;
use crate::model::{Resource, ResourceTemplate};
use crate::rules::{self, RuleId};

fn change(rule: RuleId, id: &str, pointer: String, what: String) -> Change {
    let r = rule.rule();
    let message = if r.severity >= rules::Severity::Behavioral {
        format!("{what}; {}", rules::fix_for(r, id))
    } else {
        what
    };
    Change::new(rule, id, pointer, message)
}

/// The fields resources and templates share, borrowed.
struct Fields<'a> {
    name: &'a Option<String>,
    title: &'a Option<String>,
    description: &'a Option<String>,
    mime_type: &'a Option<String>,
    annotations: &'a Option<Map<String, Value>>,
    extra: &'a BTreeMap<String, Value>,
}

impl<'a> From<&'a Resource> for Fields<'a> {
    fn from(r: &'a Resource) -> Self {
        Fields {
            name: &r.name,
            title: &r.title,
            description: &r.description,
            mime_type: &r.mime_type,
            annotations: &r.annotations,
            extra: &r.extra,
        }
    }
}

impl<'a> From<&'a ResourceTemplate> for Fields<'a> {
    fn from(t: &'a ResourceTemplate) -> Self {
        Fields {
            name: &t.name,
            title: &t.title,
            description: &t.description,
            mime_type: &t.mime_type,
            annotations: &t.annotations,
            extra: &t.extra,
        }
    }
}

fn show(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("(none)")
}

fn diff_fields(kind: &str, id: &str, old: Fields<'_>, new: Fields<'_>) -> Vec<Change> {
    let mut out = vec![];
    if old.mime_type != new.mime_type {
        out.push(change(
            RuleId::ResourceMimeTypeChanged,
            id,
            "/mimeType".into(),
            format!(
                "mimeType of {kind} `{id}` {} -> {}: clients parse it as the old type",
                show(old.mime_type),
                show(new.mime_type)
            ),
        ));
    }
    for (key, o, n) in [
        ("name", old.name, new.name),
        ("title", old.title, new.title),
    ] {
        if o != n {
            out.push(change(
                RuleId::ResourceTitleChanged,
                id,
                format!("/{key}"),
                format!("{key} of {kind} `{id}` {} -> {}", show(o), show(n)),
            ));
        }
    }
    if old.description != new.description {
        out.push(change(
            RuleId::ResourceDescriptionChanged,
            id,
            "/description".into(),
            format!("the description of {kind} `{id}` changed"),
        ));
    }
    if old.annotations != new.annotations {
        out.push(change(
            RuleId::ResourceAnnotationsChanged,
            id,
            "/annotations".into(),
            format!("the annotations (audience, priority) of {kind} `{id}` changed"),
        ));
    }
    let keys: BTreeSet<&String> = old.extra.keys().chain(new.extra.keys()).collect();
    for k in keys {
        if old.extra.get(k) != new.extra.get(k) {
            out.push(change(
                RuleId::ResourceMetadataChanged,
                id,
                format!("/{}", escape_pointer(k)),
                format!("`{k}` of {kind} `{id}` changed"),
            ));
        }
    }
    out
}

/// Every change between the resources of two surfaces.
pub(crate) fn diff_resources(
    old: &BTreeMap<String, Resource>,
    new: &BTreeMap<String, Resource>,
) -> Vec<Change> {
    let mut out = vec![];
    for (uri, o) in old {
        match new.get(uri) {
            Some(n) => out.extend(diff_fields("resource", uri, o.into(), n.into())),
            None => out.push(
                change(
                    RuleId::ResourceRemoved,
                    uri,
                    String::new(),
                    format!("resource `{uri}` was removed: reads and subscriptions of it now fail"),
                )
                .with_subject(uri.clone()),
            ),
        }
    }
    for uri in new.keys().filter(|u| !old.contains_key(*u)) {
        out.push(
            change(
                RuleId::ResourceAdded,
                uri,
                String::new(),
                format!("resource `{uri}` was added"),
            )
            .with_subject(uri.clone()),
        );
    }
    out
}

/// Every change between the resource templates of two surfaces.
pub(crate) fn diff_templates(
    old: &BTreeMap<String, ResourceTemplate>,
    new: &BTreeMap<String, ResourceTemplate>,
) -> Vec<Change> {
    let mut out = vec![];
    let added: Vec<&ResourceTemplate> = new
        .iter()
        .filter(|(k, _)| !old.contains_key(*k))
        .map(|(_, t)| t)
        .collect();
    let mut paired: BTreeSet<&str> = BTreeSet::new();
    for (key, o) in old {
        if let Some(n) = new.get(key) {
            out.extend(diff_fields("resource template", key, o.into(), n.into()));
            continue;
        }
        // Same `name`, edited template: one unambiguous partner only.
        let partners: Vec<&&ResourceTemplate> = added
            .iter()
            .filter(|t| o.name.is_some() && t.name == o.name)
            .collect();
        if let [n] = partners.as_slice() {
            paired.insert(n.uri_template.as_str());
            out.extend(diff_edited(o, n));
            continue;
        }
        out.push(
            change(
                RuleId::TemplateRemoved,
                key,
                String::new(),
                format!(
                    "resource template `{key}` was removed: URIs built from it no longer resolve"
                ),
            )
            .with_subject(key.clone()),
        );
    }
    for t in added
        .iter()
        .filter(|t| !paired.contains(t.uri_template.as_str()))
    {
        let key = &t.uri_template;
        out.push(
            change(
                RuleId::TemplateAdded,
                key,
                String::new(),
                format!("resource template `{key}` was added"),
            )
            .with_subject(key.clone()),
        );
    }
    out
}

/// Variables of a template with whether each appears only in query
/// expansions (`{?x}`, `{&x}`), which expand to nothing when unfilled.
fn variables(template: &str) -> BTreeMap<String, bool> {
    let mut out: BTreeMap<String, bool> = BTreeMap::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let expr = &after[..close];
        let query = expr.starts_with(['?', '&']);
        for name in crate::model::template_variables(&format!("{{{expr}}}")) {
            let e = out.entry(name).or_insert(true);
            *e = *e && query;
        }
        rest = &after[close + 1..];
    }
    out
}

/// A template whose `uriTemplate` changed under the same `name`.
fn diff_edited(old: &ResourceTemplate, new: &ResourceTemplate) -> Vec<Change> {
    let id = old.uri_template.as_str();
    let (vo, vn) = (variables(&old.uri_template), variables(&new.uri_template));
    let mut out = vec![];
    let added: Vec<(&String, &bool)> = vn.iter().filter(|(k, _)| !vo.contains_key(*k)).collect();
    let removed: Vec<&String> = vo.keys().filter(|k| !vn.contains_key(*k)).collect();
    let renamed = removed.len() == 1 && added.len() == 1;
    for v in removed {
        let what = match added.as_slice() {
            [(to, _)] => format!("variable `{v}` of template `{id}` was renamed to `{to}` (now `{}`): clients fill it by the old name", new.uri_template),
            _ => format!("variable `{v}` of template `{id}` was removed (now `{}`): URIs clients build no longer resolve", new.uri_template),
        };
        out.push(
            change(
                RuleId::TemplateVariableRemoved,
                id,
                "/uriTemplate".into(),
                what,
            )
            .with_subject(v.clone()),
        );
    }
    for (v, query) in added.iter().filter(|_| !renamed) {
        let c = if **query {
            change(
                RuleId::TemplateQueryVariableAdded,
                id,
                "/uriTemplate".into(),
                format!(
                    "query variable `{v}` was added to template `{id}` (now `{}`)",
                    new.uri_template
                ),
            )
        } else {
            change(
                RuleId::TemplateVariableAdded,
                id,
                "/uriTemplate".into(),
                format!("path variable `{v}` was added to template `{id}` (now `{}`): old clients leave it empty", new.uri_template),
            )
        };
        out.push(c.with_subject((*v).clone()));
    }
    // A variable moving between path and query, or the literal text (with
    // every path expression as a placeholder and query expressions left
    // out, since they expand to nothing when unfilled) changing.
    let literal = |t: &str| {
        let mut s = String::new();
        let mut expr: Option<String> = None;
        for c in t.chars() {
            match (&mut expr, c) {
                (None, '{') => expr = Some(String::new()),
                (Some(e), '}') => {
                    if !e.starts_with(['?', '&']) {
                        s.push('*');
                    }
                    expr = None;
                }
                (Some(e), c) => e.push(c),
                (None, c) => s.push(c),
            }
        }
        s
    };
    let moved = vo.iter().any(|(k, q)| vn.get(k).is_some_and(|nq| nq != q));
    let already_breaking = out.iter().any(|c| c.severity == rules::Severity::Breaking);
    if !already_breaking && (moved || literal(&old.uri_template) != literal(&new.uri_template)) {
        out.push(change(
            RuleId::TemplateUriChanged,
            id,
            "/uriTemplate".into(),
            format!(
                "template `{id}` is now `{}`: URIs built from the old one no longer match",
                new.uri_template
            ),
        ));
    }
    out.extend(diff_fields("resource template", id, old.into(), new.into()));
    out
}

#[cfg(test)]
mod tests {
    use super::variables;

    #[test]
    fn query_only_variables() {
        let v = variables("x://{a}/{+b}{?c,d}{&e}{?a}");
        assert!(!v["a"] && !v["b"]);
        assert!(v["c"] && v["d"] && v["e"]);
    }
}
