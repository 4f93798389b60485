//! The version a cargo package declares, read from its manifest's text as
//! cargo reads it: `package.version`; with `version.workspace = true`, the
//! workspace root's `workspace.package.version`; none at all means 0.0.0
//! (cargo's default since 1.75). Read from text, so the baseline's manifest
//! comes straight from git, without `cargo metadata` at an old revision.

use super::Declaration;
use crate::error::InputError;

/// Where a version value sits in a manifest.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

fn parse(text: &str, file: &str) -> Result<toml_edit::Document<String>, InputError> {
    toml_edit::Document::parse(text.to_string()).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        let err = InputError::new(file, format!("cannot read the manifest: {}", e.message()))
            .fix("fix the TOML syntax (cargo would refuse this manifest too)");
        match line {
            Some(l) => err.at(format!("line {l}")),
            None => err,
        }
    })
}

/// `package.version` of `manifest` (named `file`); `workspace` gives the
/// workspace root's manifest (its text and name) when the version is
/// inherited. `Ok(None)`: the manifest has no `[package]` (a virtual
/// workspace manifest).
pub fn package_version(
    manifest: &str,
    file: &str,
    workspace: impl FnOnce() -> Option<(String, String)>,
) -> Result<Option<Declaration>, InputError> {
    let doc = parse(manifest, file)?;
    let Some(package) = doc.get("package").and_then(|p| p.as_table_like()) else {
        return Ok(None);
    };
    let Some(item) = package.get("version") else {
        return Ok(Some(Declaration {
            version: "0.0.0".to_string(),
            file: file.to_string(),
            line: None,
        }));
    };
    if let Some(s) = item.as_str() {
        return Ok(Some(Declaration {
            version: s.to_string(),
            file: file.to_string(),
            line: item.span().map(|s| line_of(manifest, s.start)),
        }));
    }
    let inherited = item
        .as_table_like()
        .and_then(|t| t.get("workspace"))
        .and_then(|w| w.as_bool())
        == Some(true);
    let at = item
        .span()
        .map(|s| format!("line {}", line_of(manifest, s.start)));
    let not_a_version = |why: &str| {
        let e = InputError::new(file, format!("`package.version` {why}"))
            .fix("write `version = \"1.2.3\"` or `version.workspace = true`");
        match &at {
            Some(l) => e.at(l.clone()),
            None => e,
        }
    };
    if !inherited {
        return Err(not_a_version(
            "is neither a string nor `{ workspace = true }`",
        ));
    }
    let Some((root, root_file)) = workspace() else {
        return Err(not_a_version(
            "is inherited from the workspace (`version.workspace = true`), but no workspace manifest above it was found",
        ));
    };
    let root_doc = parse(&root, &root_file)?;
    let value = root_doc
        .get("workspace")
        .and_then(|w| w.get("package"))
        .and_then(|p| p.get("version"));
    match value.and_then(|v| v.as_str().map(|s| (s, v.span()))) {
        Some((s, span)) => Ok(Some(Declaration {
            version: s.to_string(),
            file: root_file.clone(),
            line: span.map(|sp| line_of(&root, sp.start)),
        })),
        None => Err(InputError::new(
            &root_file,
            "`workspace.package.version` is missing, but a member inherits it (`version.workspace = true`)",
        )
        .fix("set `version = \"1.2.3\"` under [workspace.package]")),
    }
}

/// Is `text` a workspace root manifest (it has a `[workspace]` table)?
pub fn is_workspace_root(text: &str) -> bool {
    toml_edit::Document::parse(text.to_string())
        .map(|d| d.get("workspace").is_some())
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_package_version_and_its_line() {
        let m = "[package]\nname = \"x\"\nversion = \"1.4.2\"\n";
        let d = package_version(m, "Cargo.toml", || None).unwrap().unwrap();
        assert_eq!((d.version.as_str(), d.line), ("1.4.2", Some(3)));
    }

    #[test]
    fn an_inherited_version_is_the_workspaces() {
        let m = "[package]\nname = \"x\"\nversion.workspace = true\n";
        let root = "[workspace]\nmembers = [\"x\"]\n\n[workspace.package]\nversion = \"0.3.1\"\n";
        let d = package_version(m, "x/Cargo.toml", || {
            Some((root.to_string(), "Cargo.toml".to_string()))
        })
        .unwrap()
        .unwrap();
        assert_eq!(
            (d.version.as_str(), d.file.as_str(), d.line),
            ("0.3.1", "Cargo.toml", Some(5))
        );
        let e = package_version(m, "x/Cargo.toml", || None).unwrap_err();
        assert!(e.message.contains("no workspace manifest"), "{e}");
        let e = package_version(m, "x/Cargo.toml", || {
            Some(("[workspace]\n".to_string(), "Cargo.toml".to_string()))
        })
        .unwrap_err();
        assert!(e.message.contains("workspace.package.version"), "{e}");
    }

    #[test]
    fn no_version_is_cargos_default_and_a_virtual_manifest_has_none() {
        let d = package_version("[package]\nname = \"x\"\n", "Cargo.toml", || None)
            .unwrap()
            .unwrap();
        assert_eq!(d.version, "0.0.0");
        assert_eq!(
            package_version("[workspace]\n", "Cargo.toml", || None).unwrap(),
            None
        );
        let e = package_version("[package\n", "Cargo.toml", || None).unwrap_err();
        assert_eq!(e.location.as_deref(), Some("line 1"), "{e}");
    }
}
