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
//! 3. any other undeclared argument → `UNKNOWN_FIELD` (unless the schema is
//!    open);
//! 4. server-applied defaults for omitted fields.

use serde_json::{Map, Value};

use super::plan::ToolPlan;
use super::stale::{ErrorCode, StaleCall, NOTHING_EXECUTED};
use super::telemetry::Usage;

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
        let reject = |code: ErrorCode, fields: Vec<String>, replacement, message: String| {
            Box::new(StaleCall {
                code,
                tool: tool.to_string(),
                fields,
                replacement,
                message: format!("{message} {NOTHING_EXECUTED}"),
                revision: revision.to_string(),
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

        if !self.open {
            let unknown: Vec<String> = args
                .keys()
                .filter(|k| !self.properties.contains(k))
                .cloned()
                .collect();
            if !unknown.is_empty() {
                let known = if self.properties.is_empty() {
                    "it takes no arguments".to_string()
                } else {
                    format!("its arguments are {}", quoted(&self.properties))
                };
                return Err(reject(
                    ErrorCode::UnknownField,
                    unknown.clone(),
                    None,
                    format!(
                        "`{tool}` has no argument {} ({known}); the call was probably built from an out-of-date tool list: refresh it (tools/list) and rebuild the call.",
                        quoted(&unknown)
                    ),
                ));
            }
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

/// `` `a`, `b` `` for messages.
pub(crate) fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
