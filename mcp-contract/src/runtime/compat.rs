//! [`Compat`]: the runtime layer a server puts in front of its handlers. It
//! holds the plan the build step generated (so it cannot disagree with the
//! published schema) and the [`DeprecationHook`]s to tell, and turns each
//! incoming call into either the normalized arguments the handler reads or
//! a [`StaleCall`] to answer with, before any handler code runs. Every
//! compatibility path taken goes to each hook and is a `tracing` event
//! ([`events`](super::events)), with the [`Caller`] that took it.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::caller::Caller;
use super::events;
use super::normalize::quoted;
use super::plan::CompatPlan;
use super::stale::{ErrorCode, StaleCall, NOTHING_EXECUTED};
use super::telemetry::{DeprecationHook, Usage};
use crate::error::InputError;

/// The runtime compatibility layer of one server.
#[derive(Clone)]
pub struct Compat {
    plan: Arc<CompatPlan>,
    hooks: Vec<Arc<dyn DeprecationHook>>,
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
        Compat {
            plan: Arc::new(plan),
            hooks: vec![],
        }
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
            }))
        } else if let Some(plan) = self.plan.tools.get(tool) {
            plan.normalize(tool, arguments, &self.plan.revision)
                .map(|n| {
                    for u in &n.usages {
                        self.record(tool, u, caller);
                    }
                    n.arguments
                })
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
