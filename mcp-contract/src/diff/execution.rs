//! A tool's `execution` (MCP 2025-11-25: `taskSupport` forbidden, optional
//! or required; gone from the tool in 2026-07-28, where tasks are an
//! extension). Judged by what a client calling the tool sees: a tool that
//! now requires running as a task rejects plain calls (breaking); writing
//! out or dropping `execution` with the same effective `taskSupport` (and
//! nothing else in it) changes nothing; any other change alters how calls
//! are made and awaited.

use serde_json::Value;

use super::Change;
use crate::model::Tool;
use crate::rules::{self, RuleId};

/// The effective `taskSupport` (absent means `forbidden`).
fn task_support(tool: &Tool) -> &str {
    tool.extra
        .get("execution")
        .and_then(|e| e.get("taskSupport"))
        .and_then(Value::as_str)
        .unwrap_or("forbidden")
}

/// The change for a differing `execution` key.
pub(crate) fn diff_execution(old: &Tool, new: &Tool) -> Change {
    let name = new.name.as_str();
    let (o, n) = (task_support(old), task_support(new));
    let (rule, what) = if n == "required" && o != "required" {
        (
            RuleId::ToolTaskRequired,
            format!(
                "execution.taskSupport {o} -> required: plain tools/call requests are now rejected"
            ),
        )
    } else if o == n
        && old
            .extra
            .get("execution")
            .and_then(|e| e.as_object())
            .map(|m| m.len() <= 1)
            .unwrap_or(true)
        && new
            .extra
            .get("execution")
            .and_then(|e| e.as_object())
            .map(|m| m.len() <= 1)
            .unwrap_or(true)
    {
        (
            RuleId::ToolExecutionSameEffect,
            format!("`execution` changed but the tool still runs the same way (taskSupport {n})"),
        )
    } else if !new.extra.contains_key("execution") {
        (
            RuleId::ToolExecutionChanged,
            format!("`execution` (taskSupport {o}) was dropped, as MCP 2026-07-28 moved tasks to an extension: clients that ran the tool as a task must now use the tasks extension"),
        )
    } else {
        (
            RuleId::ToolExecutionChanged,
            format!("the tool's execution settings changed (taskSupport {o} -> {n})"),
        )
    };
    let r = rule.rule();
    let message = if r.severity >= rules::Severity::Behavioral {
        format!("{what}; {}", rules::fix_for(r, name))
    } else {
        what
    };
    Change::new(rule, name, "/execution".into(), message)
}
