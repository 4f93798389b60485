//! A test-only switch that deliberately weakens the gate: in a build with
//! the cargo feature `test-switches`, `MCP_CONTRACT_TEST_WEAKEN_RULE=ID`
//! drops every change of the registered rule `ID` from the engine's report,
//! as if that rule had stopped firing. It exists so a test can run the real
//! `cargo mcp-contract selftest` binary against a gate with one rule
//! broken and show the table reports the miss (issue 15).
//!
//! The feature is enabled only through `cargo-mcp-contract`'s
//! dev-dependencies, so only the binary cargo builds for that package's
//! tests has it; `cargo build`, `cargo install` and `cargo run` do not, and
//! without it [`weakened_rule`] is `None` and [`apply`] does nothing. The
//! CLI warns on stderr whenever the switch is on.

use super::Change;

/// The environment variable naming the rule to weaken.
pub const VAR: &str = "MCP_CONTRACT_TEST_WEAKEN_RULE";

/// The rule this process weakens: `Some` only in a `test-switches` build
/// with [`VAR`] naming a registered rule (read once).
pub fn weakened_rule() -> Option<&'static str> {
    #[cfg(feature = "test-switches")]
    {
        static RULE: std::sync::OnceLock<Option<&'static str>> = std::sync::OnceLock::new();
        *RULE.get_or_init(|| {
            let id = std::env::var(VAR).ok()?;
            crate::rules::rule(&id).map(|rule| rule.id)
        })
    }
    #[cfg(not(feature = "test-switches"))]
    None
}

/// Drops the weakened rule's changes (nothing without the switch).
pub(crate) fn apply(changes: &mut Vec<Change>) {
    if let Some(id) = weakened_rule() {
        changes.retain(|c| c.rule != id);
    }
}
