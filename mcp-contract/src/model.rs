//! The surface as the engine sees it: one [`Tool`] per published name,
//! with every field a client can read kept verbatim, including fields this
//! crate does not model (`execution`, `icons`, `x-*` keys) in [`Tool::extra`];
//! beside the tools, the [`Prompt`]s, [`Resource`]s and [`ResourceTemplate`]s
//! a client also depends on, and the [`ServerInfo`] (protocol revision,
//! capabilities, instructions). Every entry renders to one canonical JSON
//! object with its own digest ([`digest_of_value`]).

mod prompt;
mod release;
mod resource;
mod server;

pub use prompt::{Prompt, PromptArgument};
pub use release::Release;
pub use resource::{template_variables, Resource, ResourceTemplate, VOLATILE_KEYS};
pub use server::ServerInfo;

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::canonical;

/// One tool as published by `tools/list` (plus the contract's major version).
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    pub name: String,
    /// The contract's major version, when the server declares one.
    pub version: Option<u64>,
    pub title: Option<String>,
    pub description: Option<String>,
    /// The `annotations` object as published (hints not given stay absent).
    pub annotations: Option<Map<String, Value>>,
    /// The `inputSchema`; `Value::Null` when the server published none.
    pub input_schema: Value,
    pub output_schema: Option<Value>,
    /// Every other top-level key, verbatim.
    pub extra: BTreeMap<String, Value>,
}

/// Keys of a tool object that [`Tool`] models by name.
pub const MODELED_KEYS: &[&str] = &[
    "name",
    "version",
    "title",
    "description",
    "annotations",
    "inputSchema",
    "outputSchema",
];

impl Tool {
    /// A tool with just a name and an open object input schema.
    pub fn new(name: impl Into<String>) -> Self {
        Tool {
            name: name.into(),
            version: None,
            title: None,
            description: None,
            annotations: None,
            input_schema: serde_json::json!({"type": "object"}),
            output_schema: None,
            extra: BTreeMap::new(),
        }
    }

    /// The tool as a canonical JSON object, without its name (lockfile entries
    /// are keyed by name) and without a digest.
    pub fn to_entry(&self) -> Value {
        let mut m = Map::new();
        for (k, v) in &self.extra {
            m.insert(k.clone(), v.clone());
        }
        if let Some(v) = self.version {
            m.insert("version".into(), Value::from(v));
        }
        if let Some(t) = &self.title {
            m.insert("title".into(), Value::String(t.clone()));
        }
        if let Some(d) = &self.description {
            m.insert("description".into(), Value::String(d.clone()));
        }
        if let Some(a) = &self.annotations {
            m.insert("annotations".into(), Value::Object(a.clone()));
        }
        m.insert("inputSchema".into(), self.input_schema.clone());
        if let Some(o) = &self.output_schema {
            m.insert("outputSchema".into(), o.clone());
        }
        canonical::canonicalize(&Value::Object(m))
    }

    /// The tool as `tools/list` publishes it (with `name`).
    pub fn to_published(&self) -> Value {
        let mut v = self.to_entry();
        if let Value::Object(m) = &mut v {
            m.remove("version");
            m.insert("name".into(), Value::String(self.name.clone()));
        }
        v
    }

    /// `sha256:<hex>` of the canonical entry: changes exactly when the contract does.
    pub fn digest(&self) -> String {
        digest_of_value(&self.to_entry())
    }
}

/// The canonical form of an entry map (shared by every entry kind).
pub(crate) fn entry_value(m: Map<String, Value>) -> Value {
    canonical::canonicalize(&Value::Object(m))
}

/// `sha256:<hex>` of a canonical entry value (an object for every entry
/// this crate renders).
pub fn digest_of_value(entry: &Value) -> String {
    match entry {
        Value::Object(m) => digest_of_entry(m),
        other => digest_of_entry(&Map::from_iter([("".to_string(), other.clone())])),
    }
}

/// `sha256:<hex>` of an entry's compact JSON, without its `digest` key.
/// The entry must already be canonical for this to equal [`Tool::digest`].
pub fn digest_of_entry(entry: &Map<String, Value>) -> String {
    use serde::ser::{SerializeMap, Serializer};
    use sha2::{Digest, Sha256};

    struct HashWriter(Sha256);
    impl std::io::Write for HashWriter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.update(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut writer = HashWriter(Sha256::new());
    let mut ser = serde_json::Serializer::new(&mut writer);
    let written = (|| {
        let mut map = ser.serialize_map(None)?;
        for (k, v) in entry.iter().filter(|(k, _)| k.as_str() != "digest") {
            map.serialize_entry(k, v)?;
        }
        map.end()
    })();
    written.expect("hashing never fails to write");
    let hash = writer.0.finalize();
    let mut hex = String::with_capacity(71);
    hex.push_str("sha256:");
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for b in hash {
        hex.push(char::from(HEX[usize::from(b >> 4)]));
        hex.push(char::from(HEX[usize::from(b & 0xf)]));
    }
    hex
}

/// A whole surface: tools keyed (and so ordered) by name, prompts by name,
/// resources by `uri`, resource templates by `uriTemplate`, and the server
/// section when it was captured (a lockfile written by the build step, or
/// one older than the server section, has none). A surface with tools only
/// renders to exactly the lockfile bytes it always did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surface {
    pub tools: BTreeMap<String, Tool>,
    pub prompts: BTreeMap<String, Prompt>,
    pub resources: BTreeMap<String, Resource>,
    pub resource_templates: BTreeMap<String, ResourceTemplate>,
    pub server: Option<ServerInfo>,
}

impl Surface {
    pub fn new() -> Self {
        Surface::default()
    }

    /// Adds a tool; returns the previous tool of that name, if any.
    pub fn insert(&mut self, tool: Tool) -> Option<Tool> {
        self.tools.insert(tool.name.clone(), tool)
    }

    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name)
    }

    /// The number of tools (prompts and resources are counted separately).
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// No tools (there may still be prompts, resources or a server section).
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Only tools: no prompts, resources, templates or server section.
    pub fn is_tools_only(&self) -> bool {
        self.prompts.is_empty()
            && self.resources.is_empty()
            && self.resource_templates.is_empty()
            && self.server.is_none()
    }

    /// Adds a prompt; returns the previous prompt of that name, if any.
    pub fn insert_prompt(&mut self, prompt: Prompt) -> Option<Prompt> {
        self.prompts.insert(prompt.name.clone(), prompt)
    }

    /// Adds a resource; returns the previous resource of that uri, if any.
    pub fn insert_resource(&mut self, resource: Resource) -> Option<Resource> {
        self.resources.insert(resource.uri.clone(), resource)
    }

    /// Adds a template; returns the previous template of that uriTemplate, if any.
    pub fn insert_template(&mut self, template: ResourceTemplate) -> Option<ResourceTemplate> {
        self.resource_templates
            .insert(template.uri_template.clone(), template)
    }
}
