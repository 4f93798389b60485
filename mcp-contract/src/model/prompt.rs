//! A prompt as `prompts/list` publishes it. Clients call `prompts/get` by
//! name with a map of arguments, so the contract is the name, which
//! arguments exist and which are required; titles and descriptions are what
//! a user reads when picking it.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::entry_value;

/// One prompt, keyed in the lockfile by [`Prompt::name`].
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// Sorted by name (clients pass arguments as a map: order carries nothing).
    pub arguments: Vec<PromptArgument>,
    /// Every other key (`icons`, `_meta`, `x-*`), verbatim.
    pub extra: BTreeMap<String, Value>,
}

/// One argument of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptArgument {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    /// `required: true` as published; absent means optional.
    pub required: bool,
    /// Every other key, verbatim.
    pub extra: BTreeMap<String, Value>,
}

impl PromptArgument {
    pub fn new(name: impl Into<String>) -> Self {
        PromptArgument {
            name: name.into(),
            title: None,
            description: None,
            required: false,
            extra: BTreeMap::new(),
        }
    }

    /// The argument as published (with `name`; `required` only when true).
    pub fn to_value(&self) -> Value {
        let mut m: Map<String, Value> = self.extra.clone().into_iter().collect();
        m.insert("name".into(), Value::String(self.name.clone()));
        put_str(&mut m, "title", &self.title);
        put_str(&mut m, "description", &self.description);
        if self.required {
            m.insert("required".into(), Value::Bool(true));
        }
        Value::Object(m)
    }
}

impl Prompt {
    pub fn new(name: impl Into<String>) -> Self {
        Prompt {
            name: name.into(),
            title: None,
            description: None,
            arguments: Vec::new(),
            extra: BTreeMap::new(),
        }
    }

    pub fn argument(&self, name: &str) -> Option<&PromptArgument> {
        self.arguments.iter().find(|a| a.name == name)
    }

    /// The canonical lockfile entry, without the name (the key) or digest.
    pub fn to_entry(&self) -> Value {
        let mut m: Map<String, Value> = self.extra.clone().into_iter().collect();
        put_str(&mut m, "title", &self.title);
        put_str(&mut m, "description", &self.description);
        if !self.arguments.is_empty() {
            let mut args: Vec<&PromptArgument> = self.arguments.iter().collect();
            args.sort_by(|a, b| a.name.cmp(&b.name));
            m.insert(
                "arguments".into(),
                Value::Array(args.into_iter().map(PromptArgument::to_value).collect()),
            );
        }
        entry_value(m)
    }

    /// `sha256:<hex>` of the canonical entry.
    pub fn digest(&self) -> String {
        super::digest_of_value(&self.to_entry())
    }
}

pub(super) fn put_str(m: &mut Map<String, Value>, key: &str, v: &Option<String>) {
    if let Some(s) = v {
        m.insert(key.into(), Value::String(s.clone()));
    }
}
