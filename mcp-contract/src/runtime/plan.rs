//! The compatibility plan: what the runtime layer must do for each tool,
//! derived in one place ([`derive`]) from the migration record and the
//! published surface. The build step writes it to `OUT_DIR` next to the
//! locked tool entries (the server embeds it with
//! [`compat_plan!`](crate::compat_plan)), and `cargo mcp-contract check`
//! derives the same plan from `contracts/` to run the contract fixtures
//! through it, so the schema, the handler path and the check read one record.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::names::NameRule;

#[cfg(feature = "gate")]
use crate::migrations::{MigrationRecord, RenameTarget, Selector, Transition};
#[cfg(feature = "gate")]
use crate::model::Surface;

/// The plan for a whole server.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompatPlan {
    /// The contract revision served: `sha256:<hex>` of the lockfile text.
    pub revision: String,
    /// Every published tool, by name.
    pub tools: BTreeMap<String, ToolPlan>,
    /// Tools no longer served, by name: a call gets `STALE_TOOL_SCHEMA`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub retired: BTreeMap<String, RetiredTool>,
}

/// What the runtime layer does for one published tool.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolPlan {
    /// The tool's revision: its lockfile `digest`, sent in `_meta`
    /// ([`wire`](super::wire)).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub revision: String,
    /// Older revisions of the tool the server still answers calls built
    /// for, through the record's transitions (newest first).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub previous: Vec<String>,
    /// The contract's declared major version (part of what the revision covers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u64>,
    /// The locked `inputSchema` the arguments are validated against before
    /// the handler runs ([`validate`](super::validate)).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub input_schema: Value,
    /// The argument names the published schema declares, at its root and
    /// in every alternative, `allOf` part, reference and conditional branch
    /// (aliases excluded): what the handler reads.
    pub properties: Vec<String>,
    /// Whether the schema gives undeclared arguments a schema of their own
    /// (`additionalProperties` other than `false`, `patternProperties`):
    /// such names are data, never refused.
    #[serde(default, skip_serializing_if = "is_false")]
    pub open: bool,
    /// Which argument names the published schema lets through (see
    /// [`names`](super::names)); empty: every name, as an open object does.
    #[serde(default, skip_serializing_if = "NameRule::is_open")]
    pub names: NameRule,
    /// The record's `[tools.NAME] refuse_unknown_fields = true`: a name
    /// outside [`properties`](Self::properties) is refused even where the
    /// published schema lets it through (unless the tool is
    /// [`open`](Self::open)). A narrowing of the published contract the
    /// team chose; never derived from the schema.
    #[serde(default, skip_serializing_if = "is_false")]
    pub refuse_unknown_fields: bool,
    /// Deprecated argument names still accepted (dual read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<Alias>,
    /// Arguments the server fills in when a caller omits them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<ServerDefault>,
    /// Removed argument names that must never be accepted again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved: Vec<Reserved>,
    /// Set when the tool itself is deprecated (an old major version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<ToolDeprecation>,
}

/// A renamed argument: `from` is read as `to` until the transition ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Alias {
    pub from: String,
    pub to: String,
    /// Whether `to` is required (the schema then requires one of the two).
    #[serde(default, skip_serializing_if = "is_false")]
    pub required: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removal: Option<String>,
}

/// A field that became required, with the historical value the server applies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerDefault {
    pub field: String,
    pub value: Value,
}

/// A removed argument name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reserved {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
    /// Why it went, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// An old major version that keeps serving during its transition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDeprecation {
    pub replacement: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removal: Option<String>,
}

/// A tool that is no longer served.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RetiredTool {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Where a transition applies, for messages: the record file and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub help: String,
}

impl std::fmt::Display for PlanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}\n  help: {}",
            self.file, self.line, self.column, self.message, self.help
        )
    }
}

/// `sha256:<hex>` of the lockfile text: the revision stale-call errors name.
pub fn revision_of(lockfile_text: &str) -> String {
    format!("sha256:{}", crate::canonical::sha256_hex(lockfile_text))
}

#[cfg(feature = "gate")] // deriving a plan from the record: the build step and the check
/// The input field an entry is about: its subject, else the property its
/// pointer names (`/inputSchema/properties/<name>[/...]`).
pub fn entry_field(selector: &Selector) -> Option<String> {
    let (pointer, subject) = selector.place();
    let (pointer, subject) = (pointer.to_string(), subject.map(str::to_string));
    let from_pointer = pointer
        .strip_prefix("/inputSchema/properties/")
        .and_then(|rest| rest.split('/').next())
        .map(|s| s.replace("~1", "/").replace("~0", "~"));
    from_pointer.or(subject)
}

#[cfg(feature = "gate")]
/// The help for a record naming a tool `surface` does not publish: the
/// published tool it most likely means, then `fix`.
fn unpublished_help(tool: &str, surface: &Surface, fix: &str) -> String {
    let names: Vec<&str> = surface.tools.keys().map(String::as_str).collect();
    match crate::suggest::did_you_mean(tool, &names) {
        Some(s) => format!("did you mean `{s}`? ({fix})"),
        None => fix.to_string(),
    }
}

#[cfg(feature = "gate")]
/// The plan a record read with its problems derives for `surface`, or the
/// first problem as an input error (a record error first, then the first
/// plan error): what `check`'s fixtures and the backward check run on.
pub fn derive_checked(
    record: &MigrationRecord,
    problems: &[crate::migrations::Problem],
    surface: &Surface,
    revision: &str,
) -> Result<CompatPlan, crate::error::InputError> {
    use crate::error::InputError;
    if let Some(p) = problems
        .iter()
        .find(|p| p.level == crate::migrations::Level::Error)
    {
        return Err(InputError::new(&p.file, p.message.clone())
            .at(format!("line {}, column {}", p.pos.line, p.pos.column))
            .fix(
                p.help
                    .clone()
                    .unwrap_or_else(|| "fix the migration record".into()),
            ));
    }
    derive(record, surface, revision).map_err(|errs| {
        let e = &errs[0];
        InputError::new(&e.file, e.message.clone())
            .at(format!("line {}, column {}", e.line, e.column))
            .fix(e.help.clone())
    })
}

#[cfg(feature = "gate")] // deriving a plan from the record: the build step and the check
/// The plan for `surface` (the published surface: renames already applied
/// to the schemas) under `record`. Problems name the record line: a rename
/// whose new name is not a field, a default for a field that does not
/// exist, a major version whose new tool is not published.
pub fn derive(
    record: &MigrationRecord,
    surface: &Surface,
    revision: &str,
) -> Result<CompatPlan, Vec<PlanError>> {
    let mut errors = vec![];
    let mut plan = CompatPlan {
        revision: revision.to_string(),
        ..CompatPlan::default()
    };
    let err = |pos: crate::migrations::Pos, message: String, help: String| PlanError {
        file: record.file.clone(),
        line: pos.line,
        column: pos.column,
        message,
        help,
    };
    for (name, tool) in &surface.tools {
        // (the names as the comparator reads the schema: resolved, every
        // alternative's own, names only `required` lists declared)
        let names = super::names::derive(&tool.input_schema);
        plan.tools.insert(
            name.clone(),
            ToolPlan {
                revision: tool.digest(),
                version: tool.version,
                input_schema: tool.input_schema.clone(),
                properties: names.declared,
                open: names.typed_extras,
                names: names.rule,
                ..ToolPlan::default()
            },
        );
    }
    for entry in &record.entries {
        let tool = entry.selector.tool().to_string();
        let is_tool_rule = entry.selector.rule().starts_with("tool.");
        match &entry.transition {
            Transition::Rename {
                target: RenameTarget::Field,
                from,
                to,
                until,
                removal,
            } => {
                let Some(t) = plan.tools.get_mut(&tool) else {
                    errors.push(err(entry.pos, format!("the rename `{from}` -> `{to}` is for tool `{tool}`, which is not published"), unpublished_help(&tool, surface, "fix the entry's tool, or remove the entry")));
                    continue;
                };
                if !t.properties.contains(to) {
                    errors.push(err(
                        entry.pos,
                        format!("the rename `{from}` -> `{to}`: tool `{tool}` has no field `{to}`"),
                        format!("name the field `{to}` in the argument struct, or fix `to`"),
                    ));
                    continue;
                }
                t.properties.retain(|p| p != from);
                let required = surface
                    .get(&tool)
                    .map(|tl| alias_required(&tl.input_schema, from, to))
                    .unwrap_or(false);
                t.aliases.push(Alias {
                    from: from.clone(),
                    to: to.clone(),
                    required,
                    until: until.map(|d| d.to_string()),
                    removal: removal.clone(),
                });
            }
            Transition::Default { field, value } => {
                let Some(t) = plan.tools.get_mut(&tool) else {
                    errors.push(err(
                        entry.pos,
                        format!("the default for `{field}` is for tool `{tool}`, which is not published"),
                        unpublished_help(&tool, surface, "fix the entry's tool, or remove the entry"),
                    ));
                    continue;
                };
                if !t.properties.contains(field) {
                    errors.push(err(
                        entry.pos,
                        format!("the default for `{field}`: tool `{tool}` has no field `{field}`"),
                        "fix `field` to the field's name on the wire".into(),
                    ));
                    continue;
                }
                t.defaults.push(ServerDefault {
                    field: field.clone(),
                    value: value.clone(),
                });
            }
            Transition::Removal {
                removal,
                replacement,
                ..
            } if is_tool_rule => {
                if surface.get(&tool).is_some() {
                    errors.push(err(
                        entry.pos,
                        format!("tool `{tool}` is recorded as removed but is still published"),
                        "remove the tool's `#[mcp_contract::tool]` struct, or the entry".into(),
                    ));
                    continue;
                }
                plan.retired.insert(
                    tool.clone(),
                    RetiredTool {
                        replacement: replacement.clone().or_else(|| {
                            record.tools.get(&tool).and_then(|p| p.replacement.clone())
                        }),
                        note: removal.clone(),
                    },
                );
            }
            Transition::Removal {
                removal,
                replacement,
                ..
            } => {
                let Some(field) = entry_field(&entry.selector) else {
                    continue;
                };
                let Some(t) = plan.tools.get_mut(&tool) else {
                    continue;
                };
                if t.properties.contains(&field) {
                    errors.push(err(
                        entry.pos,
                        format!("field `{field}` of `{tool}` is recorded as removed but is still published"),
                        format!("remove `{field}` from the argument struct, or the entry"),
                    ));
                    continue;
                }
                t.reserved.push(Reserved {
                    name: field,
                    replacement: replacement.clone(),
                    note: removal.clone(),
                });
            }
            Transition::MajorVersion {
                from,
                to,
                deprecated,
                until,
                removal,
            } => {
                if surface.get(to).is_none() {
                    errors.push(err(
                        entry.pos,
                        format!("major version `{to}` (replacing `{from}`) is not published"),
                        format!("annotate its argument struct with `#[mcp_contract::tool(name = \"{to}\")]`"),
                    ));
                    continue;
                }
                match plan.tools.get_mut(from) {
                    Some(t) => {
                        t.deprecated = Some(ToolDeprecation {
                            replacement: to.clone(),
                            since: deprecated.map(|d| d.to_string()),
                            until: until.map(|d| d.to_string()),
                            removal: removal.clone(),
                        })
                    }
                    None => {
                        plan.retired.insert(
                            from.clone(),
                            RetiredTool {
                                replacement: Some(to.clone()),
                                note: removal.clone(),
                            },
                        );
                    }
                }
            }
            // A renamed tool no longer published under its old name: a call
            // to the old name is stale and is told the new one.
            Transition::Rename {
                target: RenameTarget::Tool,
                from,
                to,
                removal,
                ..
            } if surface.get(from).is_none() => {
                plan.retired.insert(
                    from.clone(),
                    RetiredTool {
                        replacement: Some(to.clone()),
                        note: removal.clone(),
                    },
                );
            }
            _ => {}
        }
    }
    // `[tools.NAME]` policies: a replacement names where callers go.
    for (name, policy) in &record.tools {
        let Some(replacement) = &policy.replacement else {
            continue;
        };
        match plan.tools.get_mut(name) {
            Some(t) if t.deprecated.is_none() && policy.deprecated.is_some() => {
                t.deprecated = Some(ToolDeprecation {
                    replacement: replacement.clone(),
                    since: policy.deprecated.map(|d| d.to_string()),
                    until: policy.until.map(|d| d.to_string()),
                    removal: policy.removal.clone(),
                })
            }
            Some(_) => {}
            None => {
                plan.retired
                    .entry(name.clone())
                    .or_insert_with(|| RetiredTool {
                        replacement: Some(replacement.clone()),
                        note: policy.removal.clone(),
                    });
            }
        }
    }
    // `refuse_unknown_fields = true`: the team narrows an open tool.
    for (name, policy) in &record.tools {
        if !policy.refuse_unknown_fields {
            continue;
        }
        match plan.tools.get_mut(name) {
            Some(t) => t.refuse_unknown_fields = true,
            None => errors.push(err(
                policy.pos,
                format!(
                    "`[tools.{name}]` refuses unknown fields of `{name}`, which is not published"
                ),
                unpublished_help(
                    name,
                    surface,
                    "fix the table's tool name, or remove `refuse_unknown_fields`",
                ),
            )),
        }
    }
    for t in plan.tools.values_mut() {
        t.properties.sort();
        t.properties.dedup();
    }
    if errors.is_empty() {
        Ok(plan)
    } else {
        Err(errors)
    }
}

/// Whether a published schema requires one of `from` / `to` (the `anyOf`
/// of the two `required` sets the build step writes for a required field).
#[cfg(feature = "gate")] // deriving a plan from the record: the build step and the check
fn alias_required(schema: &Value, from: &str, to: &str) -> bool {
    let pair = |v: &Value| {
        v.get("anyOf").and_then(Value::as_array).is_some_and(|a| {
            let req = |i: usize, name: &str| {
                a.get(i)
                    .and_then(|b| b.get("required"))
                    .and_then(Value::as_array)
                    .is_some_and(|r| r.len() == 1 && r[0] == name)
            };
            a.len() == 2 && req(0, to) && req(1, from)
        })
    };
    let required_plain = schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|n| n == to));
    required_plain
        || pair(schema)
        || schema
            .get("allOf")
            .and_then(Value::as_array)
            .is_some_and(|all| all.iter().any(pair))
}

impl CompatPlan {
    /// Parses a plan the build step wrote.
    pub fn from_json(text: &str) -> Result<CompatPlan, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The plan as canonical JSON (what the build step writes).
    pub fn to_json(&self) -> String {
        let value = serde_json::to_value(self).unwrap_or(Value::Null);
        crate::canonical::to_canonical_string(&value)
    }
}
