//! Whether this build may write the lockfile. A developer's `cargo build`
//! updates it; CI, `MCP_CONTRACT_LOCKED=1` and `cargo package` verification
//! only compare; a package built from a registry or git checkout (a
//! dependency) never touches its lockfile at all.

use std::path::Path;

/// What the build step does with the lockfile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Write the lockfile when its content changed (a developer's build).
    Update,
    /// Never write; fail the build when the lockfile is missing or differs.
    Verify,
    /// Neither read nor write the lockfile; only embed the derived schemas
    /// (the package is a dependency built from a registry or git checkout).
    EmbedOnly,
}

/// The environment variable that forces (`1`) or lifts (`0`) locked mode.
pub const LOCKED_ENV: &str = "MCP_CONTRACT_LOCKED";

/// The mode and, for the non-default ones, why (for messages).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub mode: Mode,
    pub reason: &'static str,
}

/// Decides the mode from environment variables (`var`) and where the package
/// sits on disk. `package`/`version` are `CARGO_PKG_NAME`/`CARGO_PKG_VERSION`.
pub fn decide(
    var: impl Fn(&str) -> Option<String>,
    manifest_dir: &Path,
    package: &str,
    version: &str,
) -> Decision {
    if is_packaging(manifest_dir, package, version) {
        return Decision {
            mode: Mode::Verify,
            reason: "this is a `cargo package`/`cargo publish` verification build",
        };
    }
    if is_dependency_checkout(manifest_dir) {
        return Decision {
            mode: Mode::EmbedOnly,
            reason: "the package is a dependency (registry or git checkout)",
        };
    }
    match var(LOCKED_ENV).as_deref().map(truthiness) {
        Some(Some(true)) => {
            return Decision {
                mode: Mode::Verify,
                reason: "MCP_CONTRACT_LOCKED is set",
            }
        }
        Some(Some(false)) => {
            return Decision {
                mode: Mode::Update,
                reason: "MCP_CONTRACT_LOCKED=0",
            }
        }
        _ => {}
    }
    if is_ci(var("CI").as_deref()) {
        return Decision {
            mode: Mode::Verify,
            reason: "CI is set",
        };
    }
    Decision {
        mode: Mode::Update,
        reason: "a local build",
    }
}

/// `CI` set and not `false`/`0`/empty.
pub fn is_ci(value: Option<&str>) -> bool {
    match value {
        None => false,
        Some(v) => {
            let v = v.trim();
            !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false"))
        }
    }
}

/// `Some(true)` for 1/true/yes, `Some(false)` for 0/false/no, `None` otherwise (unset or empty).
fn truthiness(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// `cargo package` unpacks the crate into `<target>/package/<name>-<version>/`
/// and builds it there.
pub fn is_packaging(manifest_dir: &Path, package: &str, version: &str) -> bool {
    let expected = format!("{package}-{version}");
    manifest_dir
        .file_name()
        .is_some_and(|n| n == expected.as_str())
        && manifest_dir
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "package")
}

/// Sources cargo unpacked from a registry (`.../registry/src/<index>/<crate>`)
/// or checked out from git (`.../git/checkouts/<repo>/<rev>`).
pub fn is_dependency_checkout(manifest_dir: &Path) -> bool {
    let parts: Vec<&str> = manifest_dir
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .collect();
    parts
        .windows(2)
        .any(|w| w == ["registry", "src"] || w == ["git", "checkouts"])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn with(vars: &[(&str, &str)], dir: &str) -> Decision {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        decide(|k| map.get(k).cloned(), Path::new(dir), "demo", "0.1.0")
    }

    #[test]
    fn ci_values() {
        assert_eq!(with(&[], "/w/demo").mode, Mode::Update);
        assert_eq!(with(&[("CI", "true")], "/w/demo").mode, Mode::Verify);
        assert_eq!(with(&[("CI", "1")], "/w/demo").mode, Mode::Verify);
        for off in ["", "0", "false", "FALSE"] {
            assert_eq!(
                with(&[("CI", off)], "/w/demo").mode,
                Mode::Update,
                "{off:?}"
            );
        }
    }

    #[test]
    fn locked_env_forces_and_lifts() {
        assert_eq!(with(&[(LOCKED_ENV, "1")], "/w/demo").mode, Mode::Verify);
        let lifted = with(&[(LOCKED_ENV, "0"), ("CI", "true")], "/w/demo");
        assert_eq!(lifted.mode, Mode::Update);
        assert_eq!(with(&[(LOCKED_ENV, "")], "/w/demo").mode, Mode::Update);
    }

    #[test]
    fn packaging_only_verifies_even_when_unlocked() {
        let d = with(&[(LOCKED_ENV, "0")], "/w/target/package/demo-0.1.0");
        assert_eq!(d.mode, Mode::Verify);
        assert_eq!(with(&[], "/w/package/other-0.1.0").mode, Mode::Update);
    }

    #[test]
    fn dependencies_never_touch_their_lockfile() {
        let d = with(
            &[],
            "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/demo-0.1.0",
        );
        assert_eq!(d.mode, Mode::EmbedOnly);
        let g = with(
            &[("CI", "true")],
            "/home/u/.cargo/git/checkouts/demo-1a2b/3c4d",
        );
        assert_eq!(g.mode, Mode::EmbedOnly);
    }
}
