//! Prompt comparison, from the client's side: `prompts/get` is called by
//! name with an argument map, so removed prompts, removed arguments and
//! newly required ones break; titles and descriptions change what people
//! and models choose. Arguments are matched by name.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Change;
use crate::lockfile::escape_pointer;
use crate::model::{Prompt, PromptArgument};
use crate::rules::{self, RuleId};

fn msg(rule: RuleId, id: &str, what: String) -> String {
    let r = rule.rule();
    if r.severity >= rules::Severity::Behavioral {
        format!("{what}; {}", rules::fix_for(r, id))
    } else {
        what
    }
}

fn change(rule: RuleId, id: &str, pointer: String, what: String) -> Change {
    Change::new(rule, id, pointer, msg(rule, id, what))
}

/// Every change between the prompt sets of two surfaces.
pub(crate) fn diff_prompts(
    old: &BTreeMap<String, Prompt>,
    new: &BTreeMap<String, Prompt>,
) -> Vec<Change> {
    let mut out = vec![];
    for (name, o) in old {
        match new.get(name) {
            Some(n) => out.extend(diff_prompt(o, n)),
            None => out.push(
                change(
                    RuleId::PromptRemoved,
                    name,
                    String::new(),
                    format!("prompt `{name}` was removed: every saved call to it now fails"),
                )
                .with_subject(name.clone()),
            ),
        }
    }
    for name in new.keys().filter(|n| !old.contains_key(*n)) {
        out.push(
            change(
                RuleId::PromptAdded,
                name,
                String::new(),
                format!("prompt `{name}` was added"),
            )
            .with_subject(name.clone()),
        );
    }
    out
}

fn diff_prompt(old: &Prompt, new: &Prompt) -> Vec<Change> {
    let id = old.name.as_str();
    let mut out = vec![];
    if old.title != new.title {
        out.push(change(
            RuleId::PromptTitleChanged,
            id,
            "/title".into(),
            format!(
                "title {:?} -> {:?}",
                old.title.as_deref().unwrap_or(""),
                new.title.as_deref().unwrap_or("")
            ),
        ));
    }
    if old.description != new.description {
        out.push(change(
            RuleId::PromptDescriptionChanged,
            id,
            "/description".into(),
            "the prompt's description changed".into(),
        ));
    }
    out.extend(extras(id, "", &old.extra, &new.extra));
    for a in &old.arguments {
        let ptr = format!("/arguments/{}", escape_pointer(&a.name));
        match new.argument(&a.name) {
            None => out.push(
                change(
                    RuleId::PromptArgumentRemoved,
                    id,
                    ptr,
                    format!("argument `{}` of prompt `{id}` was removed: clients that pass it are rejected or lose what they sent", a.name),
                )
                .with_subject(a.name.clone()),
            ),
            Some(n) => out.extend(diff_argument(id, &ptr, a, n)),
        }
    }
    for a in new
        .arguments
        .iter()
        .filter(|a| old.argument(&a.name).is_none())
    {
        let ptr = format!("/arguments/{}", escape_pointer(&a.name));
        let c = if a.required {
            change(
                RuleId::PromptRequiredArgumentAdded,
                id,
                ptr,
                format!("required argument `{}` was added to prompt `{id}`: every existing call lacks it", a.name),
            )
        } else {
            change(
                RuleId::PromptArgumentAdded,
                id,
                ptr,
                format!("optional argument `{}` was added to prompt `{id}`", a.name),
            )
        };
        out.push(c.with_subject(a.name.clone()));
    }
    out
}

fn diff_argument(id: &str, ptr: &str, old: &PromptArgument, new: &PromptArgument) -> Vec<Change> {
    let mut out = vec![];
    if !old.required && new.required {
        out.push(
            change(
                RuleId::PromptArgumentRequired,
                id,
                format!("{ptr}/required"),
                format!(
                    "argument `{}` of prompt `{id}` is now required: calls that omitted it fail",
                    old.name
                ),
            )
            .with_subject(old.name.clone()),
        );
    }
    if old.required && !new.required {
        out.push(
            change(
                RuleId::PromptArgumentOptional,
                id,
                format!("{ptr}/required"),
                format!("argument `{}` of prompt `{id}` is now optional", old.name),
            )
            .with_subject(old.name.clone()),
        );
    }
    if old.title != new.title {
        out.push(change(
            RuleId::PromptTitleChanged,
            id,
            format!("{ptr}/title"),
            format!("title of argument `{}` changed", old.name),
        ));
    }
    if old.description != new.description {
        out.push(change(
            RuleId::PromptDescriptionChanged,
            id,
            format!("{ptr}/description"),
            format!("description of argument `{}` changed", old.name),
        ));
    }
    out.extend(extras(id, ptr, &old.extra, &new.extra));
    out
}

fn extras(
    id: &str,
    at: &str,
    old: &std::collections::BTreeMap<String, Value>,
    new: &std::collections::BTreeMap<String, Value>,
) -> Vec<Change> {
    let keys: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    keys.into_iter()
        .filter(|k| old.get(*k) != new.get(*k))
        .map(|k| {
            change(
                RuleId::PromptMetadataChanged,
                id,
                format!("{at}/{}", escape_pointer(k)),
                format!("`{k}` of prompt `{id}` changed"),
            )
        })
        .collect()
}
