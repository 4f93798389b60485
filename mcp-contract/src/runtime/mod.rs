//! The runtime compatibility layer: keeps old callers working during a
//! deliberate break the migration record acknowledges, and tells the ones it
//! cannot keep working exactly why, before any handler code runs.
//!
//! # Data flow
//!
//! ```text
//! contracts/migrations.toml ──parse──▶ MigrationRecord
//!            │                              │
//!   mcp-contract-build (build.rs)           │
//!   ├─ applies each transition to the       │
//!   │  derived input schemas (alias kept    │
//!   │  as `deprecated`, anyOf of required,  │
//!   │  server defaults) ─▶ lockfile + the   │
//!   │  OUT_DIR entries the server publishes │
//!   └─ plan::derive(record, published) ─────┴─▶ CompatPlan ─▶ OUT_DIR/mcp-contract-compat/plan.json
//!                                                     │
//!   server: Compat::from_json(compat_plan!()) ◀───────┘  (normalize before the handler)
//!   cargo mcp-contract check: plan::derive(record, lockfile) runs contracts/fixtures through it
//! ```
//!
//! Everything here is pure logic on `serde_json` values, usable without
//! rmcp; [`rmcp`](mod@self::rmcp) (feature `rmcp`) adapts it to an rmcp
//! `ServerHandler`. Error shape: see [`stale`]. Telemetry: see [`telemetry`]
//! (the hooks), [`events`] (the `tracing` events), [`recorder`] (usage
//! evidence written by the server itself) and `otel` (feature `otel`);
//! `docs/telemetry.md` puts them together.

pub mod caller;
pub mod clock;
pub mod compat;
pub mod events;
#[cfg(feature = "validate")]
pub mod fixture_check;
pub mod names;
pub mod normalize;
#[cfg(feature = "otel")]
pub mod otel;
pub mod plan;
pub mod probe;
pub mod recorder;
#[cfg(feature = "rmcp")]
pub mod rmcp;
#[cfg(feature = "gate")]
pub mod served;
pub mod stale;
pub mod telemetry;
pub mod validate;
pub mod wire;

pub use caller::Caller;
pub use clock::{Clock, ManualClock, SystemClock};
pub use compat::{Compat, Prepared};
pub use normalize::Normalized;
#[cfg(feature = "otel")]
pub use otel::OtelHook;
pub use plan::{CompatPlan, ToolPlan};
pub use recorder::{FlushThread, UsageRecorder};
pub use stale::{ErrorCode, RequiredAction, StaleCall};
pub use telemetry::{DeprecationHook, HitCounter, Usage};

/// Where the build step writes the plan, under `OUT_DIR`.
pub const PLAN_PATH: &str = "mcp-contract-compat/plan.json";

/// The compatibility plan `mcp-contract-build` generated for this package,
/// as `&'static str` (use it from the package whose `build.rs` calls the
/// build step): `Compat::from_json(mcp_contract::compat_plan!())`.
#[macro_export]
macro_rules! compat_plan {
    () => {
        ::core::include_str!(::core::concat!(
            ::core::env!(
                "OUT_DIR",
                "mcp_contract::compat_plan!() embeds what the build step wrote, and this package has no build script: add `mcp-contract-build` to [build-dependencies] and a `build.rs` with `fn main() { mcp_contract_build::snapshot() }`"
            ),
            "/mcp-contract-compat/plan.json"
        ))
    };
}
