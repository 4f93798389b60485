//! The demo's deprecation telemetry: counts every compatibility path taken
//! (per tool and deprecated field, default or version), and when
//! `DEMO_SERVER_DEPRECATION_LOG` names a file, appends one line per hit:
//! `{"tool": "...", "usage": "field:query", "client": "name/version"}`.
//! Names only; argument values never reach the hook. (Usage evidence per
//! client and day: [`crate::usage`].)

use std::io::Write;
use std::path::PathBuf;

use mcp_contract::runtime::{Caller, DeprecationHook, HitCounter, Usage};

/// The environment variable naming the deprecation log.
pub const DEPRECATION_LOG_ENV: &str = "DEMO_SERVER_DEPRECATION_LOG";

/// Counters plus an optional line log.
#[derive(Debug, Default)]
pub struct DemoTelemetry {
    pub counter: HitCounter,
    log: Option<PathBuf>,
}

impl DemoTelemetry {
    pub fn from_env() -> Self {
        DemoTelemetry {
            counter: HitCounter::new(),
            log: std::env::var_os(DEPRECATION_LOG_ENV)
                .filter(|p| !p.is_empty())
                .map(PathBuf::from),
        }
    }
}

impl DeprecationHook for DemoTelemetry {
    fn record(&self, tool: &str, usage: &Usage, caller: &Caller<'_>) {
        self.counter.record(tool, usage, caller);
        if let Some(path) = &self.log {
            let line = serde_json::json!({
                "tool": tool,
                "usage": usage.key(),
                "client": caller.client_key().to_string(),
            });
            let _ = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .and_then(|mut f| writeln!(f, "{line}"));
        }
    }
}
