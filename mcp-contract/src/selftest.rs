//! The gate proves itself: the careless changes a person could make to a
//! contract, per tool, as edits to a copy of the contract files, and the
//! table of which check caught each (`cargo mcp-contract selftest`).
//!
//! A gate that passes everything looks exactly like a gate that works. So
//! `selftest` mutates the contract the way a careless change would — a new
//! required argument, an output field removed, a type narrowed, an
//! annotation's authority widened, an alias deleted from the record, an
//! expected tool error turned into a protocol error in a fixture — runs the
//! real gate on each mutation in a temporary copy, and fails unless every
//! one is caught. This module only decides the mutations and renders the
//! table; running the gate belongs to the binary.

use serde_json::{json, Value};

use crate::fixtures::{Fixture, Outcome};
use crate::migrations::{MigrationRecord, RenameTarget, Selector, Transition};
use crate::model::{Surface, Tool};

/// The kinds of careless change, in table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    AddRequiredArgument,
    RemoveOutputField,
    NarrowType,
    WidenAnnotation,
    DeleteAlias,
    ToolErrorToProtocolError,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::AddRequiredArgument,
        Kind::RemoveOutputField,
        Kind::NarrowType,
        Kind::WidenAnnotation,
        Kind::DeleteAlias,
        Kind::ToolErrorToProtocolError,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::AddRequiredArgument => "add required argument",
            Kind::RemoveOutputField => "remove output field",
            Kind::NarrowType => "narrow a type",
            Kind::WidenAnnotation => "widen annotation authority",
            Kind::DeleteAlias => "delete alias from record",
            Kind::ToolErrorToProtocolError => "tool error -> protocol error",
        }
    }
}

/// One mutation: the files of the contract that change (relative to the
/// directory holding the lockfile), with their new contents.
#[derive(Debug, Clone, PartialEq)]
pub struct Mutation {
    pub kind: Kind,
    pub tool: String,
    /// What exactly changed, for the table.
    pub detail: String,
    pub lockfile: Option<String>,
    pub record: Option<String>,
    /// `(path relative to the lockfile's directory, new contents)`.
    pub fixture: Option<(String, String)>,
}

/// A mutation, or why a kind does not apply to a tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Planned {
    Mutation(Mutation),
    NotApplicable {
        kind: Kind,
        tool: String,
        why: String,
    },
}

/// The name of the argument [`Kind::AddRequiredArgument`] adds.
pub const ADDED_ARGUMENT: &str = "selftest_required";

/// Every mutation for every tool. `fixtures_dir` is the fixtures directory
/// relative to the lockfile's directory (normally `fixtures`).
pub fn plan(
    surface: &Surface,
    record: &MigrationRecord,
    record_text: &str,
    fixtures: &[Fixture],
    fixtures_dir: &str,
) -> Vec<Planned> {
    let mut out = vec![];
    for tool in surface.tools.values() {
        for kind in Kind::ALL {
            let na = |why: &str| Planned::NotApplicable {
                kind,
                tool: tool.name.clone(),
                why: why.to_string(),
            };
            let with_tool = |detail: String, t: Tool| {
                let mut s = surface.clone();
                s.insert(t);
                Planned::Mutation(Mutation {
                    kind,
                    tool: tool.name.clone(),
                    detail,
                    lockfile: Some(crate::lockfile::render(&s)),
                    record: None,
                    fixture: None,
                })
            };
            let planned = match kind {
                Kind::AddRequiredArgument => match add_required(tool) {
                    Some(t) => with_tool(format!("required `{ADDED_ARGUMENT}`"), t),
                    None => na("the input schema is not an object schema"),
                },
                Kind::RemoveOutputField => match remove_output_field(tool, fixtures) {
                    Some((field, t)) => with_tool(format!("`{field}`"), t),
                    None => na("no output properties"),
                },
                Kind::NarrowType => match narrow_type(tool) {
                    Some((detail, t)) => with_tool(detail, t),
                    None => na("no typed input property"),
                },
                Kind::WidenAnnotation => match widen_annotation(tool) {
                    Some((detail, t)) => with_tool(detail, t),
                    None => na("already at full authority (spec defaults)"),
                },
                Kind::DeleteAlias => match delete_alias(tool, record, record_text) {
                    Some((detail, text)) => Planned::Mutation(Mutation {
                        kind,
                        tool: tool.name.clone(),
                        detail,
                        lockfile: None,
                        record: Some(text),
                        fixture: None,
                    }),
                    None => na("no rename in the record"),
                },
                Kind::ToolErrorToProtocolError => {
                    match tool_error_fixture(tool, fixtures, fixtures_dir) {
                        Some((detail, rel, text)) => Planned::Mutation(Mutation {
                            kind,
                            tool: tool.name.clone(),
                            detail,
                            lockfile: None,
                            record: None,
                            fixture: Some((rel, text)),
                        }),
                        None => na("no fixture expects a tool error"),
                    }
                }
            };
            out.push(planned);
        }
    }
    out
}

fn add_required(tool: &Tool) -> Option<Tool> {
    let mut t = tool.clone();
    let schema = match &mut t.input_schema {
        Value::Null => {
            t.input_schema = json!({"type": "object"});
            t.input_schema.as_object_mut()?
        }
        Value::Object(m) => m,
        _ => return None,
    };
    let props = schema
        .entry("properties")
        .or_insert_with(|| json!({}))
        .as_object_mut()?;
    props.insert(ADDED_ARGUMENT.into(), json!({"type": "string"}));
    let required = schema
        .entry("required")
        .or_insert_with(|| json!([]))
        .as_array_mut()?;
    required.push(json!(ADDED_ARGUMENT));
    Some(t)
}

/// Removes the output property a fixture reads (`expect.fields`), else the
/// first one.
fn remove_output_field(tool: &Tool, fixtures: &[Fixture]) -> Option<(String, Tool)> {
    let mut t = tool.clone();
    let props = t
        .output_schema
        .as_mut()?
        .get_mut("properties")?
        .as_object_mut()?;
    let read: Vec<&String> = fixtures
        .iter()
        .filter(|f| f.tool == tool.name)
        .flat_map(|f| f.expect.fields.keys())
        .collect();
    let field = read
        .iter()
        .map(|f| f.trim_start_matches('/').split('/').next().unwrap_or(""))
        .find(|f| props.contains_key(*f))
        .map(str::to_string)
        .or_else(|| props.keys().next().cloned())?;
    props.remove(&field);
    if let Some(Value::Array(req)) = t.output_schema.as_mut().and_then(|s| s.get_mut("required")) {
        req.retain(|r| r.as_str() != Some(&field));
    }
    Some((field, t))
}

/// The type a careless edit gives a field: `number` -> `integer` (the
/// fractions rejected), otherwise a type none of the old values has (an id
/// that was an integer becomes a string, and so on).
fn narrow_type(tool: &Tool) -> Option<(String, Tool)> {
    let mut t = tool.clone();
    let props = t.input_schema.get_mut("properties")?.as_object_mut()?;
    let (name, prop) = props
        .iter_mut()
        .find(|(_, p)| p.get("type").is_some_and(Value::is_string))?;
    let old = prop["type"].as_str()?.to_string();
    let new = match old.as_str() {
        "number" => "integer",
        "string" => "integer",
        "array" => "object",
        _ => "string",
    };
    prop["type"] = json!(new);
    Some((format!("`{name}`: {old} -> {new}"), t))
}

/// The first hint whose authority can widen, given the spec's defaults
/// (readOnly false, destructive true, openWorld true).
fn widen_annotation(tool: &Tool) -> Option<(String, Tool)> {
    let mut t = tool.clone();
    let hints = t.annotations.get_or_insert_with(Default::default);
    let get = |k: &str| hints.get(k).and_then(Value::as_bool);
    let (key, value) = if get("readOnlyHint") == Some(true) {
        ("readOnlyHint", false)
    } else if get("destructiveHint") == Some(false) {
        ("destructiveHint", true)
    } else if get("openWorldHint") == Some(false) {
        ("openWorldHint", true)
    } else {
        return None;
    };
    hints.insert(key.into(), Value::Bool(value));
    Some((format!("{key} -> {value}"), t))
}

/// The record without the first rename entry that belongs to `tool` (its
/// `[[acknowledge]]` block, up to the next table header).
fn delete_alias(tool: &Tool, record: &MigrationRecord, text: &str) -> Option<(String, String)> {
    let entry = record.entries.iter().find(|e| {
        let Transition::Rename {
            target, from, to, ..
        } = &e.transition
        else {
            return false;
        };
        let entry_tool = match &e.selector {
            Selector::Change { tool, .. } => tool.as_str(),
            // `rule tool pointer subject`
            Selector::Fingerprint(f) => f.split(' ').nth(1).unwrap_or(""),
        };
        entry_tool == tool.name
            || (*target == RenameTarget::Tool && (from == &tool.name || to == &tool.name))
    })?;
    let Transition::Rename { from, to, .. } = &entry.transition else {
        return None;
    };
    let lines: Vec<&str> = text.lines().collect();
    let at = entry
        .pos
        .line
        .saturating_sub(1)
        .min(lines.len().saturating_sub(1));
    let start = (0..=at)
        .rev()
        .find(|&i| lines[i].trim() == "[[acknowledge]]")?;
    let end = (start + 1..lines.len())
        .find(|&i| lines[i].trim_start().starts_with('['))
        .unwrap_or(lines.len());
    let mut kept: Vec<&str> = lines[..start].to_vec();
    kept.extend_from_slice(&lines[end..]);
    Some((
        format!("rename `{from}` -> `{to}` (line {})", start + 1),
        kept.join("\n") + "\n",
    ))
}

/// The first fixture of `tool` that expects a tool error, expecting a
/// JSON-RPC (protocol) error instead.
fn tool_error_fixture(
    tool: &Tool,
    fixtures: &[Fixture],
    fixtures_dir: &str,
) -> Option<(String, String, String)> {
    let f = fixtures
        .iter()
        .find(|f| f.tool == tool.name && f.expect.outcome == Outcome::ToolError)?;
    let text = std::fs::read_to_string(&f.file).ok()?;
    let mut v: Value = serde_json::from_str(&text).ok()?;
    let expect = v.get_mut("expect")?.as_object_mut()?;
    expect.insert("outcome".into(), json!("jsonrpc_error"));
    // A tool error's code is a string and its result has fields; a
    // JSON-RPC error has an integer code and no result.
    expect.remove("error_code");
    expect.remove("fields");
    let name = f.file.file_name()?.to_string_lossy().into_owned();
    let rel = format!("{fixtures_dir}/{}/{name}", tool.name);
    Some((
        rel.clone(),
        rel,
        serde_json::to_string_pretty(&v).ok()? + "\n",
    ))
}

/// What the gate did with one mutation.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Caught, by these rule ids or `fixture <file>` / `replay <file>`.
    Caught(Vec<String>),
    /// The gate passed it.
    Missed,
    /// The gate could not run on it (exit 2): not a catch.
    Error(String),
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub kind: Kind,
    pub tool: String,
    pub detail: String,
    /// `None`: not applicable, with why in `detail`.
    pub verdict: Option<Verdict>,
}

/// The table, and the verdict line. Missed mutations say **missed**.
pub fn render(rows: &[Row], unmutated_passes: bool) -> String {
    let mut table = vec![[
        "mutation".to_string(),
        "tool".to_string(),
        "change".to_string(),
        "caught by".to_string(),
    ]];
    for r in rows {
        let caught = match &r.verdict {
            None => "n/a".to_string(),
            Some(Verdict::Caught(by)) if by.len() > 3 => {
                format!("{} (+{} more)", by[..3].join(", "), by.len() - 3)
            }
            Some(Verdict::Caught(by)) => by.join(", "),
            Some(Verdict::Missed) => "**missed**".to_string(),
            Some(Verdict::Error(e)) => format!("**missed** (gate error: {e})"),
        };
        table.push([
            r.kind.as_str().to_string(),
            r.tool.clone(),
            r.detail.clone(),
            caught,
        ]);
    }
    let widths: Vec<usize> = (0..4)
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &table {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c == 3 {
                line.push_str(cell);
            } else {
                line.push_str(&format!("{cell:<w$}  ", w = widths[c]));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let applied = rows.iter().filter(|r| r.verdict.is_some()).count();
    let caught = rows
        .iter()
        .filter(|r| matches!(r.verdict, Some(Verdict::Caught(_))))
        .count();
    out.push_str(&format!(
        "\nselftest: {caught} of {applied} mutations caught, {} missed, {} not applicable; unmodified contract {}\n",
        applied - caught,
        rows.len() - applied,
        if unmutated_passes { "passes" } else { "does NOT pass" }
    ));
    out
}

/// Exit 0 only when every applied mutation was caught and the unmodified
/// contract passes.
pub fn all_caught(rows: &[Row], unmutated_passes: bool) -> bool {
    unmutated_passes
        && rows
            .iter()
            .all(|r| !matches!(r.verdict, Some(Verdict::Missed | Verdict::Error(_))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::surface_from_value;

    /// The type each careless edit gives a field, as the table shows it:
    /// a type the field's old values do not have, never `null`.
    #[test]
    fn a_narrowed_type_is_one_a_careless_edit_would_write() {
        for (old, shown) in [
            ("integer", "`limit`: integer -> string"),
            ("number", "`limit`: number -> integer"),
            ("string", "`limit`: string -> integer"),
            ("boolean", "`limit`: boolean -> string"),
            ("array", "`limit`: array -> object"),
        ] {
            let surface = surface_from_value(
                &json!([{"name": "search", "inputSchema": {"type": "object",
                    "properties": {"limit": {"type": old}}}}]),
                "t",
            )
            .unwrap();
            let tool = surface.get("search").unwrap();
            let (detail, narrowed) = narrow_type(tool).unwrap();
            assert_eq!(detail, shown);
            let mut after = surface.clone();
            after.insert(narrowed);
            let rules: Vec<&str> = crate::diff::diff_surfaces(&surface, &after)
                .changes
                .iter()
                .map(|c| c.rule)
                .collect();
            assert!(rules.contains(&"input.type-narrowed"), "{old}: {rules:?}");
        }
    }
}
