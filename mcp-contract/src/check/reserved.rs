//! Reserved names: a tool or input field that was published and later
//! removed may not come back meaning something else, unless the record
//! acknowledges `tool.reserved-name-reused` / `input.reserved-name-reused`.
//! "Something else" is any breaking or behavioral difference from the last
//! published tool, or any difference in a field's schema; restoring the old
//! contract exactly is always allowed. Prompts, resources and templates
//! are reserved the same way (`prompt.reserved-name-reused`,
//! `resource.reserved-name-reused`): a saved prompt call or a cached uri
//! would otherwise reach something else.

use crate::diff::{diff_surfaces, Change};
use crate::history::{input_properties, History};
use crate::model::{Surface, Tool};
use crate::rules::{self, RuleId, Severity};

/// Does the candidate introduce a tool, input field, prompt, resource or
/// template the baseline lacks?
pub fn introduced_names(baseline: Option<&Surface>, candidate: &Surface) -> bool {
    let entry_introduced = |b: Option<&Surface>| {
        candidate
            .prompts
            .keys()
            .any(|k| !b.is_some_and(|b| b.prompts.contains_key(k)))
            || candidate
                .resources
                .keys()
                .any(|k| !b.is_some_and(|b| b.resources.contains_key(k)))
            || candidate
                .resource_templates
                .keys()
                .any(|k| !b.is_some_and(|b| b.resource_templates.contains_key(k)))
    };
    entry_introduced(baseline)
        || candidate
            .tools
            .values()
            .any(|tool| match baseline.and_then(|b| b.get(&tool.name)) {
                None => true,
                Some(old) => {
                    let old_props = input_properties(old);
                    input_properties(tool)
                        .keys()
                        .any(|p| !old_props.contains_key(p))
                }
            })
}

/// The names whose publishing history [`changes`] reads: tools new to the
/// baseline or with input fields new to it, and prompts, resources and
/// templates new to it.
pub fn wanted(baseline: Option<&Surface>, candidate: &Surface) -> crate::history::cache::Wanted {
    use crate::history::entry_surfaces;
    let mut wanted = crate::history::cache::Wanted::default();
    for tool in candidate.tools.values() {
        let new = match baseline.and_then(|b| b.get(&tool.name)) {
            None => true,
            Some(old) => {
                let old_props = input_properties(old);
                input_properties(tool)
                    .keys()
                    .any(|p| !old_props.contains_key(p))
            }
        };
        if new {
            wanted.tools.insert(tool.name.clone());
        }
    }
    let in_baseline = baseline.map(entry_surfaces).unwrap_or_default();
    for key in entry_surfaces(candidate).into_keys() {
        if key != "server" && !in_baseline.contains_key(&key) {
            wanted.entries.insert(key);
        }
    }
    wanted
}

/// The reserved-name changes of `candidate` against `baseline`.
pub fn changes(history: &History, baseline: Option<&Surface>, candidate: &Surface) -> Vec<Change> {
    let mut out = vec![];
    for tool in candidate.tools.values() {
        let Some(published) = history.published.get(&tool.name) else {
            continue;
        };
        match baseline.and_then(|b| b.get(&tool.name)) {
            None => {
                if differs(&published.last, tool) {
                    let r = RuleId::ToolReservedNameReused.rule();
                    let message = format!(
                        "tool `{}` was published before (last in {}) and removed; it is back with a different contract, so callers that still hold the old definition send calls it misreads; {}",
                        tool.name,
                        published.last_commit,
                        rules::fix_for(r, &tool.name)
                    );
                    out.push(
                        Change::new(r.kind, &tool.name, String::new(), message)
                            .with_subject(tool.name.clone()),
                    );
                }
            }
            Some(old) => {
                let old_props = input_properties(old);
                for (ptr, schema) in input_properties(tool) {
                    if old_props.contains_key(&ptr) {
                        continue;
                    }
                    let Some((last, commit)) = published.properties.get(&ptr) else {
                        continue;
                    };
                    if crate::canonical::canonicalize(last)
                        == crate::canonical::canonicalize(schema)
                    {
                        continue;
                    }
                    let name = field_name(&ptr);
                    let r = RuleId::InputReservedNameReused.rule();
                    let message = format!(
                        "input field \"{name}\" was published before (last in {commit}) and removed; it is back with a different schema, so callers that still send the old field are misread; {}",
                        rules::fix_for(r, &tool.name)
                    );
                    out.push(
                        Change::new(r.kind, &tool.name, ptr.clone(), message).with_subject(name),
                    );
                }
            }
        }
    }
    out.extend(entry_changes(history, baseline, candidate));
    out
}

/// Reserved prompts, resources and templates: one that was published and
/// removed is back (absent from the baseline) with a different contract.
fn entry_changes(
    history: &History,
    baseline: Option<&Surface>,
    candidate: &Surface,
) -> Vec<Change> {
    use crate::history::{entry_key, entry_surfaces};
    let in_baseline = baseline.map(entry_surfaces).unwrap_or_default();
    let mut out = vec![];
    for (key, entry) in entry_surfaces(candidate) {
        if key == "server" || in_baseline.contains_key(&key) {
            continue;
        }
        let Some((last, commit)) = history.published_entries.get(&key) else {
            continue;
        };
        let different = diff_surfaces(last, &entry)
            .changes
            .iter()
            .any(|c| c.severity >= Severity::Behavioral);
        if !different {
            continue;
        }
        let (rule, noun, id) = match key.split_once(' ') {
            Some(("prompt", id)) => (RuleId::PromptReservedNameReused, "prompt", id),
            Some(("resource", id)) => (RuleId::ResourceReservedNameReused, "resource", id),
            Some((_, id)) => (RuleId::ResourceReservedNameReused, "resource template", id),
            None => continue,
        };
        debug_assert_eq!(key, entry_key(key.split(' ').next().unwrap_or(""), id));
        let r = rule.rule();
        let message = format!(
            "{noun} `{id}` was published before (last in {commit}) and removed; it is back with a different contract, so clients that still hold the old one misuse it; {}",
            rules::fix_for(r, id)
        );
        out.push(Change::new(r.kind, id, String::new(), message).with_subject(id.to_string()));
    }
    out
}

fn differs(old: &Tool, new: &Tool) -> bool {
    let (mut a, mut b) = (Surface::new(), Surface::new());
    a.insert(old.clone());
    b.insert(new.clone());
    diff_surfaces(&a, &b)
        .changes
        .iter()
        .any(|c| c.severity >= Severity::Behavioral)
}

/// The last pointer token, unescaped.
fn field_name(ptr: &str) -> String {
    ptr.rsplit('/')
        .next()
        .unwrap_or(ptr)
        .replace("~1", "/")
        .replace("~0", "~")
}

/// The diff of `old` -> `new` plus the reserved-name changes, given the
/// surfaces published before `old` (oldest first; `old` is appended as the
/// last published revision). For fixtures and tests that have no git
/// repository at hand.
pub fn changes_with_history(published: &[Surface], old: &Surface, new: &Surface) -> Vec<Change> {
    let mut builder = crate::history::HistoryBuilder::new("history");
    for (i, s) in published.iter().chain(std::iter::once(old)).enumerate() {
        let rev = crate::git::Revision {
            commit: format!("{i:040}"),
            short: format!("r{i}"),
            time: i as i64,
            subject: String::new(),
            blob: Some(String::new()),
        };
        builder.push(&rev, Some(&crate::lockfile::render(s)));
    }
    let history = builder.finish();
    let mut out = diff_surfaces(old, new).changes;
    out.extend(changes(&history, Some(old), new));
    out
}
