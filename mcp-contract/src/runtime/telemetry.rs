//! Deprecation telemetry: every time the runtime layer keeps an old caller
//! working (a deprecated argument name, a server-applied default, a call to
//! an old major version) or turns one away, it tells a [`DeprecationHook`].
//! That is how a team learns when "no calls using `query` for 30 days" is
//! true. A [`Usage`] carries tool and argument *names* only: argument values
//! never reach the hook.
//!
//! [`HitCounter`] is the built-in hook: one counter per tool and usage.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::stale::ErrorCode;

/// One compatibility path taken by one call.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Usage {
    /// The call used deprecated argument name `from` (read as `to`).
    DeprecatedField { from: String, to: String },
    /// The call omitted `field`; the server applied its default.
    DefaultApplied { field: String },
    /// The call went to a deprecated tool (an old major version).
    DeprecatedTool { replacement: String },
    /// The call was rejected before its handler ran.
    Rejected { code: ErrorCode },
}

impl Usage {
    /// A stable key for counters and logs: `field:query`, `default:currency`,
    /// `tool:send_report_v2`, `rejected:RESERVED_FIELD`.
    pub fn key(&self) -> String {
        match self {
            Usage::DeprecatedField { from, .. } => format!("field:{from}"),
            Usage::DefaultApplied { field } => format!("default:{field}"),
            Usage::DeprecatedTool { replacement } => format!("tool:{replacement}"),
            Usage::Rejected { code } => format!("rejected:{}", code.as_str()),
        }
    }
}

/// Receives every compatibility path taken. Implementations must be cheap
/// and must not fail: they run on the request path.
pub trait DeprecationHook: Send + Sync {
    fn record(&self, tool: &str, usage: &Usage);
}

/// Counts hits per `(tool, usage key)`.
#[derive(Debug, Default)]
pub struct HitCounter {
    counts: Mutex<BTreeMap<(String, String), u64>>,
}

impl HitCounter {
    pub fn new() -> Self {
        Self::default()
    }

    /// How often `tool` took the path with this key (see [`Usage::key`]).
    pub fn get(&self, tool: &str, key: &str) -> u64 {
        self.lock()
            .get(&(tool.to_string(), key.to_string()))
            .copied()
            .unwrap_or(0)
    }

    /// Every counter, sorted by tool then key.
    pub fn snapshot(&self) -> Vec<(String, String, u64)> {
        self.lock()
            .iter()
            .map(|((t, k), n)| (t.clone(), k.clone(), *n))
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<(String, String), u64>> {
        // A panic elsewhere while holding the lock leaves the counts intact.
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl DeprecationHook for HitCounter {
    fn record(&self, tool: &str, usage: &Usage) {
        *self
            .lock()
            .entry((tool.to_string(), usage.key()))
            .or_insert(0) += 1;
    }
}
