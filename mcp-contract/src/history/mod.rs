//! The lockfile's published history: every tool's timeline (introduced,
//! changed with a severity summary, removed, each with its commit) and every
//! name that was ever published, with the last contract it had. The check
//! uses the latter for reserved names (protobuf's `reserved`, for MCP): a
//! tool or input field that was published and later removed may not come
//! back meaning something else, because callers that still hold the old
//! definition would send calls the new one misreads.
//!
//! Prompts, resources, templates and the server section have timelines
//! too, under keys such as `prompt greet` ([`entry_key`]), and their last
//! published versions are kept for the same reserved-name check.
//!
//! Building walks the first-parent history of the lockfile once, reading
//! every revision through one `git cat-file --batch` and parsing only the
//! tools whose text changed ([`crate::segments`]).

mod builder;
pub mod cache;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::error::InputError;
use crate::git::{lockfile_revisions, BlobReader, Repo};
use crate::lockfile::escape_pointer;
use crate::model::Tool;
use crate::rules::Severity;

pub use builder::HistoryBuilder;

/// What happened to a tool in one commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    Introduced,
    /// The contract changed; counts per severity and the rules that fired.
    Changed {
        summary: BTreeMap<Severity, usize>,
        rules: Vec<&'static str>,
    },
    Removed,
}

/// One entry of a tool's timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub commit: String,
    pub short: String,
    /// Committer time, seconds since the epoch.
    pub time: i64,
    pub subject: String,
    pub kind: EventKind,
}

/// A name that was published at some point, with the last contract it had.
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// The tool as it was last published (at its removal, for a removed tool).
    pub last: Tool,
    /// Short id of the last commit that published that version.
    pub last_commit: String,
    /// Every input property pointer the tool ever published
    /// (`/inputSchema/properties/query`, nested ones too), with its last
    /// schema and the short commit id that last published it.
    pub properties: BTreeMap<String, (Value, String)>,
}

/// The walked history.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// Number of revisions of the lockfile walked.
    pub revisions: usize,
    pub timelines: BTreeMap<String, Vec<Event>>,
    pub published: BTreeMap<String, Published>,
    /// Revisions that could not be read as a lockfile: (short id, why).
    pub skipped: Vec<(String, String)>,
    /// Prompts, resources, templates and the server section that were ever
    /// published, keyed like their timelines (see [`entry_key`]): the last
    /// published version as a one-entry surface, and its short commit id.
    /// Their timelines are in [`History::timelines`] under the same keys.
    pub published_entries: BTreeMap<String, (crate::model::Surface, String)>,
}

/// The timeline key of a non-tool entry: `prompt NAME`, `resource URI`,
/// `template URI-TEMPLATE` or `server`. The space keeps them apart from
/// tool names, which cannot contain one.
pub fn entry_key(kind: &str, id: &str) -> String {
    if kind == "server" {
        kind.to_string()
    } else {
        format!("{kind} {id}")
    }
}

/// Every non-tool entry of `surface` as a one-entry surface, by [`entry_key`].
pub fn entry_surfaces(surface: &crate::model::Surface) -> BTreeMap<String, crate::model::Surface> {
    use crate::model::Surface;
    let mut out = BTreeMap::new();
    for (name, p) in &surface.prompts {
        let mut s = Surface::new();
        s.insert_prompt(p.clone());
        out.insert(entry_key("prompt", name), s);
    }
    for (uri, r) in &surface.resources {
        let mut s = Surface::new();
        s.insert_resource(r.clone());
        out.insert(entry_key("resource", uri), s);
    }
    for (t, rt) in &surface.resource_templates {
        let mut s = Surface::new();
        s.insert_template(rt.clone());
        out.insert(entry_key("template", t), s);
    }
    if let Some(server) = &surface.server {
        let s = Surface {
            server: Some(server.clone()),
            ..Surface::default()
        };
        out.insert(entry_key("server", ""), s);
    }
    out
}

/// Walks the first-parent history of `rel_path` up to `upto`.
pub fn from_repo(repo: &Repo, upto: &str, rel_path: &str) -> Result<History, InputError> {
    let revisions = lockfile_revisions(repo, upto, rel_path)?;
    let mut reader = BlobReader::start(repo)?;
    let mut builder = HistoryBuilder::new(rel_path);
    for rev in &revisions {
        let text = match &rev.blob {
            Some(blob) => reader
                .read(blob)?
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
            None => None,
        };
        builder.push(rev, text.as_deref());
    }
    reader.finish()?;
    Ok(builder.finish())
}

/// Every property an input schema declares, by JSON pointer into the tool
/// (`/inputSchema/properties/a/properties/b`), through nested objects and
/// array items.
pub fn input_properties(tool: &Tool) -> BTreeMap<String, &Value> {
    let mut out = BTreeMap::new();
    collect(&tool.input_schema, "/inputSchema", &mut out, 0);
    out
}

fn collect<'a>(schema: &'a Value, ptr: &str, out: &mut BTreeMap<String, &'a Value>, depth: usize) {
    if depth > 16 {
        return;
    }
    let Some(m) = schema.as_object() else {
        return;
    };
    if let Some(Value::Object(props)) = m.get("properties") {
        for (k, v) in props {
            let at = format!("{ptr}/properties/{}", escape_pointer(k));
            collect(v, &at, out, depth + 1);
            out.insert(at, v);
        }
    }
    if let Some(items) = m.get("items") {
        collect(items, &format!("{ptr}/items"), out, depth + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collects_nested_properties_by_pointer() {
        let mut t = Tool::new("t");
        t.input_schema = serde_json::json!({"type": "object", "properties": {
            "a/b": {"type": "string"},
            "list": {"type": "array", "items": {"properties": {"x": {}}}},
            "obj": {"properties": {"y": {"type": "integer"}}}}});
        let keys: Vec<String> = input_properties(&t).into_keys().collect();
        assert_eq!(
            keys,
            [
                "/inputSchema/properties/a~1b",
                "/inputSchema/properties/list",
                "/inputSchema/properties/list/items/properties/x",
                "/inputSchema/properties/obj",
                "/inputSchema/properties/obj/properties/y",
            ]
        );
    }
}
