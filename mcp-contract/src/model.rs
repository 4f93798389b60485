//! The tool surface as the engine sees it: one [`Tool`] per published name,
//! with every field a client can read kept verbatim, including fields this
//! crate does not model (`execution`, `icons`, `x-*` keys) in [`Tool::extra`].

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
        match self.to_entry() {
            Value::Object(m) => digest_of_entry(&m),
            other => digest_of_entry(&Map::from_iter([("".to_string(), other)])),
        }
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
    for b in hash {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}

/// A whole tool surface, keyed (and so ordered) by tool name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Surface {
    pub tools: BTreeMap<String, Tool>,
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

    pub fn len(&self) -> usize {
        self.tools.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}
