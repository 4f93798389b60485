//! Deprecation telemetry: every time the runtime layer keeps an old caller
//! working (a deprecated argument name, a server-applied default, a call to
//! an old major version) or turns one away, it tells a [`DeprecationHook`],
//! with the [`Caller`] that took the path. That is how a team learns when
//! "no calls using `query` for 30 days" is true, and which client still
//! calls when it is not. A [`Usage`] and a [`Caller`] carry *names* only
//! (tool, argument, client): argument values never reach a hook.
//!
//! The hooks this crate ships:
//! - [`HitCounter`]: one in-memory counter per tool and usage (no client);
//! - [`UsageRecorder`](super::recorder::UsageRecorder): counts per tool,
//!   path, client and day, written to a usage-evidence file and served as
//!   Prometheus text;
//! - `OtelHook` (feature `otel`): an OpenTelemetry counter.
//!
//! Independently of any hook, every path taken is a `tracing` event
//! ([`events`](super::events)).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Mutex;

use super::caller::Caller;
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
    /// The same text is the `Display` of a `Usage`.
    pub fn key(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Usage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Usage::DeprecatedField { from, .. } => write!(f, "field:{from}"),
            Usage::DefaultApplied { field } => write!(f, "default:{field}"),
            Usage::DeprecatedTool { replacement } => write!(f, "tool:{replacement}"),
            Usage::Rejected { code } => write!(f, "rejected:{}", code.as_str()),
        }
    }
}

/// Receives every compatibility path taken, with who took it.
/// Implementations must be cheap and must not fail: they run on the
/// request path.
pub trait DeprecationHook: Send + Sync {
    fn record(&self, tool: &str, usage: &Usage, caller: &Caller<'_>);
}

/// Counts hits per `(tool, usage key)`, for every caller together.
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
    fn record(&self, tool: &str, usage: &Usage, _caller: &Caller<'_>) {
        *self
            .lock()
            .entry((tool.to_string(), usage.key()))
            .or_insert(0) += 1;
    }
}
