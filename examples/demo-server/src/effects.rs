//! The demo's external effects, made observable: when `DEMO_SERVER_EFFECT_LOG`
//! names a file, every handler that changes the world (an order placed or
//! cancelled, a report sent) appends one JSON line to it. The drift tests
//! read it to prove that a call the compatibility layer rejected had no
//! effect at all.

use std::io::Write;
use std::path::PathBuf;

use serde_json::Value;

/// The environment variable naming the effect log.
pub const EFFECT_LOG_ENV: &str = "DEMO_SERVER_EFFECT_LOG";

/// An append-only log of external effects (disabled when no path is set).
#[derive(Debug, Clone, Default)]
pub struct EffectLog {
    path: Option<PathBuf>,
}

impl EffectLog {
    /// The log named by `DEMO_SERVER_EFFECT_LOG`, if any.
    pub fn from_env() -> Self {
        EffectLog {
            path: std::env::var_os(EFFECT_LOG_ENV)
                .filter(|p| !p.is_empty())
                .map(PathBuf::from),
        }
    }

    /// Appends `{"tool": tool, ...effect}` as one line.
    pub fn record(&self, tool: &str, effect: Value) {
        let Some(path) = &self.path else { return };
        let mut line = serde_json::Map::new();
        line.insert("tool".into(), Value::String(tool.into()));
        if let Value::Object(m) = effect {
            line.extend(m);
        }
        let text = format!("{}\n", Value::Object(line));
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(text.as_bytes()));
        if let Err(e) = written {
            eprintln!("demo-server: cannot append to {}: {e}", path.display());
        }
    }
}
