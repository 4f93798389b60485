//! Argument normalization: one call's arguments, as a client sent them
//! against whatever schema revision it cached, turned into the arguments
//! the current handler reads, or a [`StaleCall`] explaining why not. Pure
//! logic on `serde_json` values; never panics on any input.
//!
//! In order:
//! 1. a removed (reserved) argument name → `RESERVED_FIELD`, naming the
//!    replacement;
//! 2. dual read of renamed arguments: the deprecated name alone is moved to
//!    the new one; both with the same value are accepted; both with
//!    different values → `CONFLICTING_ALIASES` (never a silent pick);
//! 3. argument names the published schema does not let through →
//!    `UNKNOWN_FIELD`: an open object admits any name (as the schema, and
//!    plain rmcp, do), a closed one (`additionalProperties: false`, in the
//!    root or the alternative the names fit) only those it declares; a tool
//!    the server chose to narrow ([`ToolPlan::refuse_unknown_fields`]) also refuses
//!    every name its schema does not declare;
//! 4. server-applied defaults for omitted fields.

use serde_json::{Map, Value};

use super::plan::ToolPlan;
use super::stale::{ErrorCode, StaleCall, NOTHING_EXECUTED};
use super::telemetry::Usage;
use super::validate::Invalid;

/// Normalized arguments and the compatibility paths taken.
#[derive(Debug, Clone, PartialEq)]
pub struct Normalized {
    pub arguments: Map<String, Value>,
    pub usages: Vec<Usage>,
}

impl ToolPlan {
    /// Normalizes the arguments of a call to `tool` (the plan's tool).
    pub fn normalize(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        revision: &str,
    ) -> Result<Normalized, Box<StaleCall>> {
        let mut args = arguments.unwrap_or_default();
        let mut usages = vec![];
        let reject =
            |code: ErrorCode, fields: Vec<String>, replacement: Option<String>, message: String| {
                let errors = fields
                    .iter()
                    .take(super::validate::MAX_ERRORS)
                    .map(|f| refused_name(code, f, replacement.as_ref()))
                    .collect();
                Box::new(StaleCall {
                    code,
                    tool: tool.to_string(),
                    fields,
                    replacement,
                    message: format!("{message} {NOTHING_EXECUTED}"),
                    revision: revision.to_string(),
                    tool_revision: (!self.revision.is_empty()).then(|| self.revision.clone()),
                    stated_revision: None,
                    errors,
                })
            };

        let reserved: Vec<_> = self
            .reserved
            .iter()
            .filter(|r| args.contains_key(&r.name))
            .collect();
        if let Some(first) = reserved.first() {
            let names: Vec<String> = reserved.iter().map(|r| r.name.clone()).collect();
            let mut message = format!(
                "`{tool}` no longer accepts {}: removed from its contract",
                quoted(&names)
            );
            if let Some(note) = &first.note {
                message.push_str(&format!(" ({note})"));
            }
            match &first.replacement {
                Some(r) => message.push_str(&format!(". Use `{r}` instead")),
                None => message.push_str(". Drop it"),
            }
            message.push_str(
                "; your tool list is out of date: refresh it (tools/list) and rebuild the call.",
            );
            return Err(reject(
                ErrorCode::ReservedField,
                names,
                first.replacement.clone(),
                message,
            ));
        }

        for alias in &self.aliases {
            let Some(old) = args.remove(&alias.from) else {
                continue;
            };
            match args.get(&alias.to) {
                Some(new) if *new != old => {
                    return Err(reject(
                        ErrorCode::ConflictingAliases,
                        vec![alias.from.clone(), alias.to.clone()],
                        Some(alias.to.clone()),
                        format!(
                            "`{}` is the deprecated name of `{}`, and the call gives both with different values, so the server cannot tell which one is meant. Send only `{}`.",
                            alias.from, alias.to, alias.to
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    args.insert(alias.to.clone(), old);
                }
            }
            usages.push(Usage::DeprecatedField {
                from: alias.from.clone(),
                to: alias.to.clone(),
            });
        }

        let unknown = self.unknown(&args);
        if !unknown.is_empty() {
            let undeclared: Vec<String> = unknown
                .iter()
                .filter(|n| !self.properties.contains(n))
                .cloned()
                .collect();
            let message = if undeclared.is_empty() {
                // each is declared, in an alternative the others rule out
                format!(
                    "`{tool}` does not take {} together with the other arguments of this call: they belong to different alternatives of its arguments. Send the arguments of one alternative.",
                    quoted(&unknown)
                )
            } else {
                let known = if self.properties.is_empty() {
                    "it takes no arguments".to_string()
                } else {
                    format!("its arguments are {}", quoted(&self.properties))
                };
                format!(
                    "`{tool}` has no argument {} ({known}); the call was probably built from an out-of-date tool list: refresh it (tools/list) and rebuild the call.",
                    quoted(&undeclared)
                )
            };
            return Err(reject(ErrorCode::UnknownField, unknown, None, message));
        }

        for d in &self.defaults {
            if !args.contains_key(&d.field) {
                args.insert(d.field.clone(), d.value.clone());
                usages.push(Usage::DefaultApplied {
                    field: d.field.clone(),
                });
            }
        }
        if let Some(dep) = &self.deprecated {
            usages.push(Usage::DeprecatedTool {
                replacement: dep.replacement.clone(),
            });
        }
        Ok(Normalized {
            arguments: args,
            usages,
        })
    }
}

impl ToolPlan {
    /// The argument names refused as unknown (sorted): those the published
    /// schema does not let through together ([`ToolPlan::names`]), and,
    /// where the server asked for it ([`ToolPlan::refuse_unknown_fields`]), every
    /// name the schema does not declare.
    fn unknown(&self, args: &Map<String, Value>) -> Vec<String> {
        let names: Vec<&str> = args.keys().map(String::as_str).collect();
        let mut unknown: Vec<String> = self
            .names
            .refused(&names)
            .into_iter()
            .map(str::to_string)
            .collect();
        if self.refuse_unknown_fields && !self.open {
            unknown.extend(
                names
                    .iter()
                    .filter(|n| !self.properties.iter().any(|p| p == *n))
                    .map(|n| n.to_string()),
            );
        }
        unknown.sort();
        unknown.dedup();
        unknown
    }
}

/// The failing place a refused argument name is: its pointer, the
/// contract's keyword that refused it and what is expected there.
fn refused_name(code: ErrorCode, name: &str, replacement: Option<&String>) -> Invalid {
    let (keyword, expected) = match code {
        ErrorCode::ReservedField => (
            "reserved",
            match replacement {
                Some(r) => format!("no `{name}` (removed from the contract; use `{r}`)"),
                None => format!("no `{name}` (removed from the contract)"),
            },
        ),
        ErrorCode::ConflictingAliases => (
            "alias",
            match replacement {
                Some(r) if r != name => format!("not given beside `{r}` (its current name)"),
                _ => format!("`{name}` alone, without its deprecated name"),
            },
        ),
        _ => (
            "additionalProperties",
            format!("no argument `{name}` with the others of this call"),
        ),
    };
    Invalid {
        pointer: format!("/{}", crate::lockfile::escape_pointer(name)),
        keyword,
        expected,
    }
}

/// `` `a`, `b` `` for messages.
pub(crate) fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
