//! What links the build step to the running rmcp server:
//! - [`write_manifest`]: `OUT_DIR/mcp-contract-rmcp.json`, which
//!   `mcp_contract::rmcp!()` embeds: every tool as published (transitions
//!   applied) and as rmcp derives it (before them, what the debug-build
//!   comparison checks rmcp's runtime schemas against), with the cargo
//!   features that gate it;
//! - [`unapplied_transitions_warning`]: a record whose transitions need the
//!   runtime layer, in a crate that never installs it, must not build
//!   silently (old names would be published and then rejected);
//! - [`check_tool_fields`]: a `Builder::tool_field` for no tool is an error.

use std::path::{Path, PathBuf};

use mcp_contract::migrations::{MigrationRecord, RenameTarget, Transition};
use mcp_contract::{canonical, Surface};
use serde_json::{Map, Value};

use super::discover::FoundRmcpTool;
use super::surface::ToolFields;
use crate::error::Error;

/// The manifest's path under `OUT_DIR`.
pub const MANIFEST_PATH: &str = "mcp-contract-rmcp.json";

/// What a server writes to install the runtime layer; the warning names the first.
pub const INSTALL_LINE: &str = "mcp_contract::rmcp::Contracted::new(server, mcp_contract::rmcp!())";

/// Source spellings that install the compatibility layer.
const INSTALL_MARKERS: &[&str] = &["rmcp!(", "compat_plan!(", "Contracted", "with_contract"];

/// Writes the manifest (only when its content changed). `rendered` is the
/// lockfile as a value (its entries canonical already): published entries
/// are taken from it; a derived entry is written only for a tool the
/// record's transitions changed (for the others it is the published one).
pub fn write_manifest(
    out_dir: &Path,
    derived: &Surface,
    published: &Surface,
    rendered: &Value,
    rmcp_tools: &[FoundRmcpTool],
) -> Result<(), Error> {
    let named = |section: &str| -> Map<String, Value> {
        rendered
            .get(section)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, entry)| (name.clone(), crate::outputs::published_value(name, entry)))
            .collect()
    };
    let mut changed = Map::new();
    for (name, tool) in &derived.tools {
        if published.tools.get(name) != Some(tool) {
            changed.insert(name.clone(), canonical::canonicalize(&tool.to_published()));
        }
    }
    let mut features = Map::new();
    for t in rmcp_tools.iter().filter(|t| !t.features.is_empty()) {
        features.insert(
            t.name.clone(),
            Value::Array(t.features.iter().cloned().map(Value::String).collect()),
        );
    }
    let mut root = Map::new();
    root.insert("derived".into(), Value::Object(changed));
    root.insert("published".into(), Value::Object(named("tools")));
    root.insert("features".into(), Value::Object(features));
    // Prompts have no transitions: as derived is as published.
    root.insert("prompts".into(), Value::Object(named("prompts")));
    // Every part is canonical and serde_json's map keeps keys sorted.
    let text = Value::Object(root).to_string();
    let path = out_dir.join(MANIFEST_PATH);
    crate::outputs::write_output(&path, &text).map_err(|source| Error::Io {
        path: path.clone(),
        action: "write",
        source,
    })?;
    Ok(())
}

/// The `cargo:warning` text when `record` has a transition the runtime
/// layer applies and no file of `sources` installs it; `None` otherwise.
pub fn unapplied_transitions_warning(
    record: &MigrationRecord,
    sources: &[PathBuf],
) -> Option<String> {
    let entry = record.entries.iter().find(|e| {
        !matches!(
            e.transition,
            Transition::Other { .. } | Transition::Removal { .. }
        )
    })?;
    let installed = sources.iter().any(|p| {
        std::fs::read_to_string(p)
            .map(|text| INSTALL_MARKERS.iter().any(|m| text.contains(m)))
            .unwrap_or(false)
    });
    if installed {
        return None;
    }
    let what = match &entry.transition {
        Transition::Rename {
            target: RenameTarget::Field,
            from,
            to,
            ..
        } => format!("field rename `{from}` → `{to}`: the old name `{from}` is published, and calls using it fail"),
        Transition::Rename { from, to, .. } => {
            format!("tool rename `{from}` → `{to}`: calls to `{from}` fail")
        }
        Transition::Default { field, .. } => {
            format!("server default for `{field}`: calls omitting it fail")
        }
        Transition::MajorVersion { from, to, .. } => {
            format!("major version `{from}` → `{to}`: old callers get no deprecation answer")
        }
        _ => entry.transition.kind().to_string(),
    };
    Some(format!(
        "mcp-contract: {}:{}: tool `{}`: transition {what}, but this server never applies the record; wrap the server: `{INSTALL_LINE}`",
        record.file,
        entry.pos,
        entry.selector.tool(),
    ))
}

/// Every `prompt_field` must name a prompt that exists.
pub fn check_prompt_fields(
    fields: &super::prompts::PromptFields,
    surface: &Surface,
) -> Result<(), Error> {
    for prompt in fields.keys() {
        if !surface.prompts.contains_key(prompt) {
            let known: Vec<&str> = surface.prompts.keys().map(String::as_str).collect();
            return Err(Error::Setup {
                message: format!("build.rs: prompt_field(\"{prompt}\", ...): no prompt `{prompt}` in the sources"),
                help: format!("name one of the prompts found: {}", known.join(", ")),
            });
        }
    }
    Ok(())
}

/// Every `tool_field` must name a tool that exists.
pub fn check_tool_fields(fields: &ToolFields, surface: &Surface) -> Result<(), Error> {
    for tool in fields.keys() {
        if surface.get(tool).is_none() {
            let known: Vec<&str> = surface.tools.keys().map(String::as_str).collect();
            return Err(Error::Setup {
                message: format!(
                    "build.rs: tool_field(\"{tool}\", ...): no tool `{tool}` in the sources"
                ),
                help: format!("name one of the tools found: {}", known.join(", ")),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str) -> MigrationRecord {
        let (record, problems) = mcp_contract::migrations::parse(text, "contracts/migrations.toml");
        assert!(problems.is_empty(), "{problems:?}");
        record
    }

    const RENAME: &str = r#"version = 1
[[acknowledge]]
tool = "get_forecast"
rule = "input.property-removed"
pointer = "/inputSchema/properties/city"
subject = "city"
reason = "r"
owner = "@o"
transition = { kind = "rename", from = "city", to = "location" }
"#;

    #[test]
    fn a_transition_never_applied_is_a_warning_naming_it_and_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main.rs");
        std::fs::write(&main, "fn main() { Weather::new().serve(stdio()); }").unwrap();
        let w =
            unapplied_transitions_warning(&record(RENAME), std::slice::from_ref(&main)).unwrap();
        assert!(
            w.starts_with("mcp-contract: contracts/migrations.toml:"),
            "{w}"
        );
        assert!(
            w.contains("tool `get_forecast`: transition field rename `city` → `location`"),
            "{w}"
        );
        assert!(w.ends_with(&format!("`{INSTALL_LINE}`")), "{w}");
        // Installed: no warning.
        std::fs::write(
            &main,
            "fn main() { Contracted::new(Weather::new(), mcp_contract::rmcp!()); }",
        )
        .unwrap();
        assert_eq!(
            unapplied_transitions_warning(&record(RENAME), std::slice::from_ref(&main)),
            None
        );
        // No transition the runtime applies: no warning.
        std::fs::write(&main, "fn main() {}").unwrap();
        assert_eq!(
            unapplied_transitions_warning(&record("version = 1\n"), &[main]),
            None
        );
    }
}
