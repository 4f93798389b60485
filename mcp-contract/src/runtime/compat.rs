//! [`Compat`]: the runtime layer a server puts in front of its handlers. It
//! holds the plan the build step generated (so it cannot disagree with the
//! published schema) and the [`DeprecationHook`]s to tell, and turns each
//! incoming call into either the normalized arguments the handler reads or
//! a [`StaleCall`] to answer with, before any handler code runs. Every
//! compatibility path taken goes to each hook and is a `tracing` event
//! ([`events`](super::events)), with the [`Caller`] that took it.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::caller::Caller;
use super::events;
use super::normalize::quoted;
use super::plan::CompatPlan;
use super::stale::{ErrorCode, StaleCall, NOTHING_EXECUTED};
use super::telemetry::{DeprecationHook, Usage};
use super::validate::{Invalid, Validator, Verdict};
use crate::error::InputError;

/// The runtime compatibility layer of one server.
#[derive(Clone)]
pub struct Compat {
    plan: Arc<CompatPlan>,
    hooks: Vec<Arc<dyn DeprecationHook>>,
    /// Each tool's locked input schema, compiled once.
    validators: Arc<BTreeMap<String, Validator>>,
}

impl std::fmt::Debug for Compat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compat")
            .field("plan", &self.plan)
            .field("hooks", &self.hooks.len())
            .finish()
    }
}

/// What to do with one call.
#[derive(Debug, Clone, PartialEq)]
pub enum Prepared {
    /// Call the handler with these (normalized) arguments.
    Call(Map<String, Value>),
    /// Answer with this error; the handler must not run.
    Reject(StaleCall),
}

impl Compat {
    pub fn new(plan: CompatPlan) -> Self {
        let validators = plan
            .tools
            .iter()
            .filter(|(_, t)| !t.input_schema.is_null())
            .map(|(name, t)| (name.clone(), Validator::compile(&t.input_schema)))
            .collect();
        Compat {
            plan: Arc::new(plan),
            hooks: vec![],
            validators: Arc::new(validators),
        }
    }

    /// Stops validating `tool`'s arguments against its locked schema (the
    /// server publishes another schema for it: refusing what that schema
    /// admits would refuse calls the handler takes).
    pub fn without_validation(mut self, tool: &str) -> Self {
        if self.validators.contains_key(tool) {
            Arc::make_mut(&mut self.validators).remove(tool);
        }
        self
    }

    /// This layer as the successor of `older` within one process (a reload,
    /// a switch of revision): every tool whose revision changed keeps
    /// answering calls built for its old revisions (the record's
    /// transitions decide how), and `older`'s hooks keep being told.
    pub fn succeeding(mut self, older: &Compat) -> Compat {
        let mut plan = (*self.plan).clone();
        for (name, t) in plan.tools.iter_mut() {
            let Some(old) = older.plan.tools.get(name) else {
                continue;
            };
            for r in std::iter::once(&old.revision).chain(&old.previous) {
                if !r.is_empty() && *r != t.revision && !t.previous.contains(r) {
                    t.previous.push(r.clone());
                }
            }
        }
        self.plan = Arc::new(plan);
        for h in &older.hooks {
            if !self.hooks.iter().any(|k| Arc::ptr_eq(k, h)) {
                self.hooks.push(h.clone());
            }
        }
        self
    }

    /// Answers calls built for `revision`, an older revision of `tool` this
    /// server published (a definition it still lists, a lockfile it
    /// served before), through the record's transitions.
    pub fn with_previous_revision(mut self, tool: &str, revision: &str) -> Compat {
        if let Some(t) = self.plan.tools.get(tool) {
            if t.revision != revision && !t.previous.iter().any(|p| p == revision) {
                let plan = Arc::make_mut(&mut self.plan);
                if let Some(t) = plan.tools.get_mut(tool) {
                    t.previous.push(revision.to_string());
                }
            }
        }
        self
    }

    /// Whether `tool`'s arguments are validated before its handler runs.
    pub fn validates(&self, tool: &str) -> bool {
        self.validators.contains_key(tool)
    }

    /// The revision `tool` is served at (its lockfile digest), when locked.
    pub fn tool_revision(&self, tool: &str) -> Option<&str> {
        self.plan
            .tools
            .get(tool)
            .map(|t| t.revision.as_str())
            .filter(|r| !r.is_empty())
    }

    /// The plan the build step embedded (see [`compat_plan!`](crate::compat_plan)).
    pub fn from_json(text: &str) -> Result<Self, InputError> {
        CompatPlan::from_json(text).map(Compat::new).map_err(|e| {
            InputError::from_json("<compatibility plan>", &e)
                .fix("rebuild the server: the plan is written by mcp-contract-build")
        })
    }

    /// Reports every compatibility path taken to `hook` too (each hook
    /// added is told, in the order added).
    pub fn with_hook(mut self, hook: Arc<dyn DeprecationHook>) -> Self {
        self.hooks.push(hook);
        self
    }

    pub fn plan(&self) -> &CompatPlan {
        &self.plan
    }

    /// The contract revision served.
    pub fn revision(&self) -> &str {
        &self.plan.revision
    }

    /// Decides what to do with a call to `tool` with `arguments` from a
    /// caller that is not known ([`Caller::UNKNOWN`]); see
    /// [`prepare_for`](Self::prepare_for).
    pub fn prepare(&self, tool: &str, arguments: Option<Map<String, Value>>) -> Prepared {
        self.prepare_for(tool, arguments, &Caller::UNKNOWN)
    }

    /// Decides what to do with a call to `tool` with `arguments` from
    /// `caller`. A tool the plan does not know (and that is not retired)
    /// passes through unchanged: the server's router answers for it.
    pub fn prepare_for(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        caller: &Caller<'_>,
    ) -> Prepared {
        self.prepare_call(tool, arguments, None, caller)
    }

    /// Decides what to do with a call to `tool` built for revision
    /// `stated` (the request's `_meta`, see [`wire`](super::wire)), or for
    /// no revision it names:
    /// - a revision the server never published for the tool (neither the
    ///   current one nor one of its [`previous`](super::ToolPlan::previous))
    ///   is `STALE_TOOL_SCHEMA`, naming the current revision;
    /// - the arguments are normalized as the record says (for every call:
    ///   an old client may not state its revision);
    /// - then validated against the locked input schema: a failure is
    ///   `INVALID_ARGUMENTS` for a call built for the current revision (or
    ///   for none), and `STALE_TOOL_SCHEMA` for one built for an older
    ///   revision (the current one cannot serve it: refresh and rebuild).
    pub fn prepare_call(
        &self,
        tool: &str,
        arguments: Option<Map<String, Value>>,
        stated: Option<&str>,
        caller: &Caller<'_>,
    ) -> Prepared {
        let outcome = if let Some(retired) = self.plan.retired.get(tool) {
            let mut message = format!("Tool `{tool}` is no longer served");
            if let Some(note) = &retired.note {
                message.push_str(&format!(" ({note})"));
            }
            if let Some(r) = &retired.replacement {
                message.push_str(&format!("; use `{r}` instead"));
            }
            message.push_str(&format!(
                ". Your tool list is out of date: refresh it (tools/list) and rebuild the call. {NOTHING_EXECUTED}"
            ));
            Err(Box::new(StaleCall {
                code: ErrorCode::StaleToolSchema,
                tool: tool.to_string(),
                fields: vec![],
                replacement: retired.replacement.clone(),
                message,
                revision: self.plan.revision.clone(),
                tool_revision: None,
                stated_revision: stated.map(str::to_string),
                errors: vec![],
            }))
        } else if let Some(plan) = self.plan.tools.get(tool) {
            self.served(tool, plan, arguments, stated, caller)
        } else {
            return Prepared::Call(arguments.unwrap_or_default());
        };
        match outcome {
            Ok(args) => Prepared::Call(args),
            Err(stale) => {
                self.record(tool, &Usage::Rejected { code: stale.code }, caller);
                Prepared::Reject(*stale)
            }
        }
    }

    /// A call to a published tool: revision, normalization, validation.
    fn served(
        &self,
        tool: &str,
        plan: &super::ToolPlan,
        arguments: Option<Map<String, Value>>,
        stated: Option<&str>,
        caller: &Caller<'_>,
    ) -> Result<Map<String, Value>, Box<StaleCall>> {
        let current = (!plan.revision.is_empty()).then(|| plan.revision.clone());
        let stale = |message: String, errors: Vec<Invalid>| {
            Box::new(StaleCall {
                code: ErrorCode::StaleToolSchema,
                tool: tool.to_string(),
                fields: field_names(&errors),
                replacement: None,
                message: format!("{message} {NOTHING_EXECUTED}"),
                revision: self.plan.revision.clone(),
                tool_revision: current.clone(),
                stated_revision: stated.map(str::to_string),
                errors,
            })
        };
        let older = match (stated, &current) {
            (Some(s), Some(c)) if s != c => {
                if !plan.previous.iter().any(|p| p == s) {
                    return Err(stale(
                        format!("The call to `{tool}` was built for revision {s}, which this server never published for the tool; its current revision is {c}. Refresh the tool list (tools/list) and rebuild the call."),
                        vec![],
                    ));
                }
                true
            }
            _ => false,
        };
        let normalized = plan
            .normalize(tool, arguments, &self.plan.revision)
            .map_err(|mut s| {
                s.tool_revision = current.clone();
                s.stated_revision = stated.map(str::to_string);
                s
            })?;
        for u in &normalized.usages {
            self.record(tool, u, caller);
        }
        let args = normalized.arguments;
        let Some(validator) = self.validators.get(tool) else {
            return Ok(args);
        };
        let args = Value::Object(args);
        let errors = match validator.validate(&args) {
            Verdict::Invalid(errors) => errors,
            Verdict::Valid | Verdict::Undecided => {
                let Value::Object(args) = args else {
                    unreachable!("validated an object")
                };
                return Ok(args);
            }
        };
        let list = describe_errors(&errors);
        if older {
            let s = stated.unwrap_or_default();
            return Err(stale(
                format!("`{tool}` changed since revision {s}, which the call was built for, and the current revision cannot serve it: {list}. Refresh the tool list (tools/list) and rebuild the call."),
                errors,
            ));
        }
        Err(Box::new(StaleCall {
            code: ErrorCode::InvalidArguments,
            tool: tool.to_string(),
            fields: field_names(&errors),
            replacement: None,
            message: format!(
                "The arguments of `{tool}` do not match its input schema: {list}. Fix them and call again. {NOTHING_EXECUTED}"
            ),
            revision: self.plan.revision.clone(),
            tool_revision: current,
            stated_revision: stated.map(str::to_string),
            errors,
        }))
    }

    fn record(&self, tool: &str, usage: &Usage, caller: &Caller<'_>) {
        events::emit(tool, usage, caller);
        for h in &self.hooks {
            h.record(tool, usage, caller);
        }
    }

    /// A one-line summary of what the layer does for `tool`, for logs.
    pub fn describe(&self, tool: &str) -> Option<String> {
        let t = self.plan.tools.get(tool)?;
        let mut parts = vec![];
        for a in &t.aliases {
            parts.push(format!("`{}` read as `{}`", a.from, a.to));
        }
        for d in &t.defaults {
            parts.push(format!("`{}` defaults to {}", d.field, d.value));
        }
        if !t.reserved.is_empty() {
            let names: Vec<String> = t.reserved.iter().map(|r| r.name.clone()).collect();
            parts.push(format!("reserved {}", quoted(&names)));
        }
        if let Some(d) = &t.deprecated {
            parts.push(format!("deprecated for `{}`", d.replacement));
        }
        Some(parts.join("; "))
    }
}

/// `` `/limit` must be at most 50; `/q` must be a value: the field is required `` for messages.
fn describe_errors(errors: &[Invalid]) -> String {
    errors
        .iter()
        .map(|e| {
            let at = if e.pointer.is_empty() {
                "the arguments".to_string()
            } else {
                format!("`{}`", e.pointer)
            };
            format!("{at} must be {}", e.expected)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The top-level argument names the failing places are in (sorted).
fn field_names(errors: &[Invalid]) -> Vec<String> {
    let mut names: Vec<String> = errors
        .iter()
        .filter_map(|e| {
            let first = e.pointer.strip_prefix('/')?.split('/').next()?;
            Some(first.replace("~1", "/").replace("~0", "~"))
        })
        .collect();
    names.sort();
    names.dedup();
    names
}
