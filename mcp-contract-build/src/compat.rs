//! The compatibility layer's build half: reads `contracts/migrations.toml`
//! (beside the lockfile) and
//! 1. rewrites each derived input schema so it publishes what the server
//!    really accepts during a transition ([`apply`]):
//!    - a field rename `from` → `to`: `from` stays as a property with `to`'s
//!      schema, `"deprecated": true` and a description naming `to` and the
//!      removal condition (`to`'s own description is untouched); where `to`
//!      was required, `required` gives way to an `anyOf` of the two
//!      `required` sets;
//!    - a field that became required with a server-applied default: no
//!      longer required on the wire, with `"default"` set to the value the
//!      server applies;
//!    - an old major version (`major-version` transition): its description
//!      says which tool replaces it and until when it is served;
//! 2. derives the runtime plan from the same record and the rewritten
//!    surface ([`plan`]), which the build writes to `OUT_DIR` for the server
//!    to embed (`mcp_contract::compat_plan!()`).
//!
//! The rewritten schemas are what gets locked and published, so the
//! lockfile, `tools/list` and the handler path all come from one record.

use std::path::Path;

use mcp_contract::migrations::{self, Level, MigrationRecord, RenameTarget, Transition};
use mcp_contract::runtime::plan::{self, CompatPlan};
use mcp_contract::runtime::PLAN_PATH;
use mcp_contract::Surface;
use serde_json::{json, Map, Value};

use crate::discover::FoundTool;
use crate::error::Error;

/// Reads the record; a missing file is an empty record, a malformed one an
/// error listing every problem with its line.
pub fn read_record(path: &Path) -> Result<MigrationRecord, Error> {
    let (record, problems) = migrations::read(path).map_err(|e| Error::Record {
        problems: vec![e.to_string()],
    })?;
    let errors: Vec<String> = problems
        .iter()
        .filter(|p| p.level == Level::Error)
        .map(|p| {
            let mut line = format!("{}:{}: {}", p.file, p.pos, p.message);
            if let Some(help) = &p.help {
                line.push_str(&format!("\n  help: {help}"));
            }
            line
        })
        .collect();
    if errors.is_empty() {
        Ok(record)
    } else {
        Err(Error::Record { problems: errors })
    }
}

/// What the build script watches for the record: the file when it exists;
/// else the directory it would be created in (cargo reruns a build script
/// on every build while a watched file is missing, so watching a record that
/// does not exist would make every no-op build do the work again). A watched
/// directory gets the mtime of cargo's `invoked.timestamp`, like the
/// lockfile (see `outputs::settle_mtime`): writing the lockfile into it
/// must not count as a change on the next build.
pub fn record_watch_path(record: &Path, out_dir: Option<&Path>) -> std::path::PathBuf {
    match record.parent() {
        Some(dir) if !record.exists() && dir.is_dir() => {
            let stamp = out_dir
                .and_then(Path::parent)
                .map(|d| d.join("invoked.timestamp"));
            if let Some(started) = stamp.and_then(|s| std::fs::metadata(s).ok()?.modified().ok()) {
                if let Ok(handle) = std::fs::File::open(dir) {
                    let _ = handle.set_modified(started);
                }
            }
            dir.to_path_buf()
        }
        _ => record.to_path_buf(),
    }
}

/// Applies every transition of `record` to the published schemas in
/// `surface` (see the module docs). `tools` are the annotated structs found
/// in source: a `#[mcp_contract(alias = "...")]` they declare must be backed
/// by a rename in the record.
pub fn apply(
    surface: &mut Surface,
    record: &MigrationRecord,
    tools: &[&FoundTool],
) -> Result<(), Error> {
    let mut problems = vec![];
    let at = |pos: migrations::Pos| format!("{}:{}", record.file, pos);
    for found in tools {
        for alias in &found.def.aliases {
            let name = alias.alias.value();
            let backed = record.entries_for(&found.def.name).any(|e| {
                matches!(&e.transition, Transition::Rename { target: RenameTarget::Field, from, .. } if *from == name)
            });
            if !backed {
                problems.push(format!(
                    "{}:{}: alias `{name}` of `{}` has no rename in {}\n  help: add an [[acknowledge]] entry with transition = {{ kind = \"rename\", from = \"{name}\", to = \"<field>\" }} (the record generates the alias), or drop the attribute",
                    found.file.display(), found.line, found.def.name, record.file
                ));
            }
        }
    }
    for entry in &record.entries {
        let tool_name = entry.selector.tool().to_string();
        match &entry.transition {
            Transition::Rename {
                target: RenameTarget::Field,
                from,
                to,
                until,
                removal,
            } => {
                let Some(tool) = surface.tools.get_mut(&tool_name) else {
                    continue; // plan::derive reports it
                };
                if let Err(e) = add_alias(
                    &mut tool.input_schema,
                    from,
                    to,
                    until.map(|d| d.to_string()),
                    removal.as_deref(),
                ) {
                    problems.push(format!("{}: tool `{tool_name}`: {e}", at(entry.pos)));
                }
            }
            Transition::Default { field, value } => {
                let Some(tool) = surface.tools.get_mut(&tool_name) else {
                    continue;
                };
                // The default is published and applied: it must fit the field.
                let root = tool.input_schema.clone();
                if let Some(field_schema) = root.get("properties").and_then(|p| p.get(field)) {
                    if let Err(why) = crate::default_fit::fits(value, field_schema, &root) {
                        problems.push(format!(
                            "{}: tool `{tool_name}`: the default {value} for `{field}` does not fit the field's schema: {why}\n  help: set `value` to what the server applies when a call omits `{field}` (a value of the field's type), or use transition = {{ kind = \"other\", note = \"...\" }} when callers must send it",
                            at(entry.pos)
                        ));
                        continue;
                    }
                }
                if let Err(e) = add_default(&mut tool.input_schema, field, value) {
                    problems.push(format!("{}: tool `{tool_name}`: {e}", at(entry.pos)));
                }
            }
            Transition::MajorVersion {
                from,
                to,
                deprecated,
                until,
                removal,
            } => {
                if let Some(tool) = surface.tools.get_mut(from) {
                    let mut note = match deprecated {
                        Some(d) => format!("Deprecated since {d}: use `{to}` instead."),
                        None => format!("Deprecated: use `{to}` instead."),
                    };
                    match (until, removal) {
                        (Some(u), Some(r)) => {
                            note.push_str(&format!(" Served until {u} or until {r}."))
                        }
                        (Some(u), None) => note.push_str(&format!(" Served until {u}.")),
                        (None, Some(r)) => note.push_str(&format!(" Served until {r}.")),
                        (None, None) => {}
                    }
                    tool.description = Some(match tool.description.take() {
                        Some(d) if !d.is_empty() => format!("{d}\n\n{note}"),
                        _ => note,
                    });
                }
            }
            _ => {}
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Record { problems })
    }
}

/// The runtime plan for the rewritten `surface`, tagged with the revision
/// of `lockfile_text`, the lockfile `surface` renders to (rendered once by
/// the caller: rendering 200 tools is a third of the build step).
pub fn plan(
    surface: &Surface,
    record: &MigrationRecord,
    lockfile_text: &str,
) -> Result<CompatPlan, Error> {
    let revision = plan::revision_of(lockfile_text);
    plan::derive(record, surface, &revision).map_err(|errs| Error::Record {
        problems: errs.iter().map(|e| e.to_string()).collect(),
    })
}

/// Writes the plan to `<out_dir>/mcp-contract-compat/plan.json` (only when it changed).
pub fn write_plan(plan: &CompatPlan, out_dir: &Path) -> Result<(), Error> {
    crate::outputs::write_files(out_dir, &[(PLAN_PATH.into(), plan.to_json())])
}

fn properties(schema: &mut Value) -> Option<&mut Map<String, Value>> {
    schema.get_mut("properties")?.as_object_mut()
}

/// Publishes `from` as a deprecated alias of `to`.
pub fn add_alias(
    schema: &mut Value,
    from: &str,
    to: &str,
    until: Option<String>,
    removal: Option<&str>,
) -> Result<(), String> {
    let props = properties(schema).ok_or("its input schema has no properties")?;
    if props.contains_key(from) {
        return Err(format!(
            "the rename `{from}` -> `{to}`: `{from}` is still a field; rename the struct field to `{to}`"
        ));
    }
    let Some(target) = props.get(to).cloned() else {
        return Err(format!(
            "the rename `{from}` -> `{to}`: there is no field `{to}`; name the struct field `{to}` or fix `to`"
        ));
    };
    let mut alias = match target {
        Value::Object(m) => m,
        Value::Bool(true) => Map::new(),
        other => {
            return Err(format!(
                "field `{to}` has schema {other}, which cannot be aliased"
            ))
        }
    };
    let mut text = format!("Deprecated: renamed to `{to}`; send `{to}` instead.");
    match (until, removal) {
        (Some(u), Some(r)) => text.push_str(&format!(
            " Still accepted until {u} or until {r}, whichever comes first."
        )),
        (Some(u), None) => text.push_str(&format!(" Still accepted until {u}.")),
        (None, Some(r)) => text.push_str(&format!(" Still accepted until {r}.")),
        (None, None) => {}
    }
    alias.insert("description".into(), Value::String(text));
    alias.insert("deprecated".into(), Value::Bool(true));
    props.insert(from.to_string(), Value::Object(alias));

    let required = schema.get_mut("required").and_then(Value::as_array_mut);
    let was_required = match required {
        Some(r) => {
            let before = r.len();
            r.retain(|n| n != to);
            before != r.len()
        }
        None => false,
    };
    if was_required {
        if schema
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
        {
            if let Some(m) = schema.as_object_mut() {
                m.remove("required");
            }
        }
        let either = json!([{ "required": [to] }, { "required": [from] }]);
        let m = schema
            .as_object_mut()
            .ok_or("its input schema is not an object")?;
        if m.contains_key("anyOf") {
            let all = m.entry("allOf").or_insert_with(|| json!([]));
            let arr = all.as_array_mut().ok_or("its `allOf` is not an array")?;
            arr.push(json!({ "anyOf": either }));
        } else {
            m.insert("anyOf".into(), either);
        }
    }
    Ok(())
}

/// Publishes `field` as optional with the default the server applies.
pub fn add_default(schema: &mut Value, field: &str, value: &Value) -> Result<(), String> {
    let props = properties(schema).ok_or("its input schema has no properties")?;
    let Some(prop) = props.get_mut(field) else {
        return Err(format!(
            "the default for `{field}`: there is no field `{field}`; fix `field`"
        ));
    };
    match prop {
        Value::Object(m) => {
            m.insert("default".into(), value.clone());
        }
        Value::Bool(true) => *prop = json!({ "default": value }),
        other => {
            return Err(format!(
                "field `{field}` has schema {other}, which cannot take a default"
            ))
        }
    }
    if let Some(r) = schema.get_mut("required").and_then(Value::as_array_mut) {
        r.retain(|n| n != field);
        if r.is_empty() {
            if let Some(m) = schema.as_object_mut() {
                m.remove("required");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_rename_publishes_both_names_with_any_of() {
        let mut s = json!({
            "type": "object",
            "properties": { "search_text": { "type": "string", "description": "Words." }, "limit": { "type": "integer" } },
            "required": ["search_text"]
        });
        add_alias(
            &mut s,
            "query",
            "search_text",
            Some("2026-06-30".into()),
            Some("no calls using query for 30 days"),
        )
        .unwrap();
        assert_eq!(s["properties"]["search_text"]["description"], "Words.");
        assert_eq!(s["properties"]["query"]["deprecated"], true);
        assert_eq!(s["properties"]["query"]["type"], "string");
        let d = s["properties"]["query"]["description"].as_str().unwrap();
        assert!(
            d.contains("`search_text`") && d.contains("2026-06-30") && d.contains("30 days"),
            "{d}"
        );
        assert!(s.get("required").is_none());
        assert_eq!(
            s["anyOf"],
            json!([{ "required": ["search_text"] }, { "required": ["query"] }])
        );
    }

    #[test]
    fn optional_rename_adds_no_any_of_and_a_second_goes_to_all_of() {
        let mut s = json!({
            "type": "object",
            "properties": { "a": {"type": "string"}, "b": {"type": "string"}, "c": {} },
            "required": ["a", "b"]
        });
        add_alias(&mut s, "old_c", "c", None, None).unwrap();
        assert!(s.get("anyOf").is_none());
        assert_eq!(s["required"], json!(["a", "b"]));
        add_alias(&mut s, "old_a", "a", None, None).unwrap();
        add_alias(&mut s, "old_b", "b", None, None).unwrap();
        assert_eq!(
            s["anyOf"],
            json!([{ "required": ["a"] }, { "required": ["old_a"] }])
        );
        assert_eq!(
            s["allOf"],
            json!([{ "anyOf": [{ "required": ["b"] }, { "required": ["old_b"] }] }])
        );
    }

    #[test]
    fn rename_needs_the_new_field_and_not_the_old() {
        let mut s = json!({ "type": "object", "properties": { "a": {} } });
        assert!(add_alias(&mut s, "x", "missing", None, None)
            .unwrap_err()
            .contains("no field `missing`"));
        assert!(add_alias(&mut s, "a", "a", None, None)
            .unwrap_err()
            .contains("still a field"));
    }

    #[test]
    fn default_makes_the_field_optional_with_the_value() {
        let mut s = json!({
            "type": "object",
            "properties": { "currency": { "$ref": "#/$defs/Currency" } },
            "required": ["currency"]
        });
        add_default(&mut s, "currency", &json!("EUR")).unwrap();
        assert_eq!(s["properties"]["currency"]["default"], "EUR");
        assert!(s.get("required").is_none());
        assert!(add_default(&mut s, "nope", &json!(1)).is_err());
    }
}
