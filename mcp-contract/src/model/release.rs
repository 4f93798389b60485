//! `serverInfo`: the release a server says it is (its name and version) in
//! `initialize` (`server/discover`). Not contract — it changes every
//! release without the surface changing, so it is never compared, never
//! digested — but the version rule ([`crate::version`]) reads the version
//! a capture declared, so a captured lockfile and a consumer's lockfile
//! record it beside the surface.

use serde_json::{Map, Value};

use crate::error::InputError;

/// `serverInfo` as a server gave it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Release {
    pub name: Option<String>,
    pub version: Option<String>,
}

impl Release {
    /// `{"name": ..., "version": ...}`, without the absent keys.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        for (k, v) in [("name", &self.name), ("version", &self.version)] {
            if let Some(v) = v {
                m.insert(k.into(), Value::String(v.clone()));
            }
        }
        Value::Object(m)
    }

    /// Reads a recorded `serverInfo` at pointer `at` of `file` (other keys
    /// are ignored: a server may give `title`, `icons`, ...).
    pub fn from_value(v: &Value, file: &str, at: &str, fix: &str) -> Result<Release, InputError> {
        let Value::Object(info) = v else {
            return Err(InputError::new(file, "`serverInfo` must be an object")
                .at(at)
                .fix(fix));
        };
        let text = |k: &str| -> Result<Option<String>, InputError> {
            match info.get(k) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(
                    InputError::new(file, format!("`serverInfo.{k}` must be a string"))
                        .at(format!("{at}/{k}"))
                        .fix(fix),
                ),
            }
        };
        Ok(Release {
            name: text("name")?,
            version: text("version")?,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.name.is_none() && self.version.is_none()
    }
}
