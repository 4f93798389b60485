//! The server-wide part of the surface, from the `initialize` (or
//! `server/discover`) result: the protocol revision spoken, the
//! capabilities a client may rely on (`tools.listChanged`,
//! `resources.subscribe`, `prompts`, `completions`, `logging`, ...) and the
//! `instructions` an agent reads. `serverInfo` (name and release version)
//! is not kept: it changes every release without the contract changing.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::entry_value;

/// The `server` section of the lockfile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerInfo {
    /// The protocol revision negotiated, e.g. `2025-11-25` or `2026-07-28`.
    pub protocol_version: Option<String>,
    /// The `capabilities` object as published.
    pub capabilities: Map<String, Value>,
    pub instructions: Option<String>,
    /// Every other key, verbatim.
    pub extra: BTreeMap<String, Value>,
}

impl ServerInfo {
    /// The canonical lockfile entry, without digest.
    pub fn to_entry(&self) -> Value {
        let mut m: Map<String, Value> = self.extra.clone().into_iter().collect();
        if let Some(v) = &self.protocol_version {
            m.insert("protocolVersion".into(), Value::String(v.clone()));
        }
        m.insert(
            "capabilities".into(),
            Value::Object(self.capabilities.clone()),
        );
        if let Some(i) = &self.instructions {
            m.insert("instructions".into(), Value::String(i.clone()));
        }
        entry_value(m)
    }

    pub fn digest(&self) -> String {
        super::digest_of_value(&self.to_entry())
    }

    /// Is capability `path` (e.g. `["resources", "subscribe"]` or
    /// `["logging"]`) declared? A sub-flag counts only when `true`.
    pub fn has_capability(&self, path: &[&str]) -> bool {
        let Some((first, rest)) = path.split_first() else {
            return false;
        };
        let mut v = match self.capabilities.get(*first) {
            Some(v) if !v.is_null() => v,
            _ => return false,
        };
        for key in rest {
            match v.get(*key) {
                Some(next) => v = next,
                None => return false,
            }
        }
        rest.is_empty() || v == &Value::Bool(true)
    }
}
