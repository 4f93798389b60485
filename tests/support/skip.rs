//! One policy for tests that need something outside the repository (npm,
//! `../shared`, a built example binary, git): locally such a test may skip,
//! with a message on the terminal; under CI it may not.
//!
//! Included by path (`#[path = "../../tests/support/skip.rs"] mod skip;`)
//! from each test that can skip, so every crate applies the same rule.
//! `CI` set to anything but empty, `0` or `false` (the convention the build
//! step uses too), or `MCP_CONTRACT_REQUIRE_LIVE=1`, turns a skip into a
//! failure naming what was missing.

#![allow(dead_code)]

use std::io::Write;

/// Is a skip a failure here? `CI` (not empty/`0`/`false`) or
/// `MCP_CONTRACT_REQUIRE_LIVE=1`.
pub fn required() -> bool {
    let truthy = |name: &str| {
        std::env::var(name)
            .map(|v| {
                let v = v.trim();
                !v.is_empty() && v != "0" && !v.eq_ignore_ascii_case("false")
            })
            .unwrap_or(false)
    };
    truthy("CI") || truthy("MCP_CONTRACT_REQUIRE_LIVE")
}

/// Skips `test` because of `why`: prints `SKIPPED test: why` past the
/// harness's output capture, or panics when [`required`] says skips fail.
pub fn skip(test: &str, why: &str) {
    if required() {
        panic!(
            "{test} cannot run: {why}. Skips are failures when CI or \
             MCP_CONTRACT_REQUIRE_LIVE=1 is set: install what is missing \
             (or unset both to skip locally)"
        );
    }
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {why}");
}
