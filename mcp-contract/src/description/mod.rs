//! Description drift as its own risk. A description is an instruction to
//! the model: a release whose descriptions start telling the model to read
//! `~/.ssh`, to hide what it does from the user or to use another server's
//! tool differently ("tool poisoning", "shadowing") breaks no call and
//! passes every schema rule. So after the diff, every description-like text
//! of the new surface (tool and field descriptions and titles, prompt,
//! argument, resource and template descriptions, the server's
//! `instructions`) that differs from the old surface's text at the same
//! place, or is new, is scanned ([`scan`]), and every flag the new text has
//! that the old one did not becomes a finding (`tool.description-flagged`,
//! `prompt.description-flagged`, `resource.description-flagged`,
//! `server.instructions-flagged`) with the flag, the exact text and its
//! position. A description change on a tool whose annotations widened its
//! authority in the same diff is `tool.description-authority-widened`.
//!
//! These findings, and the plain `*.description-changed` and
//! `server.instructions-changed` ones, form the description category
//! ([`crate::rules::DescriptionLevel`]), with its own `--fail-on` threshold.

pub mod scan;

use serde_json::Value;

use crate::diff::{Change, Detail};
use crate::lockfile::escape_pointer;
use crate::model::Surface;
use crate::rules::RuleId;

pub use scan::{Flag, Hit};

/// How deep the walk goes into a schema looking for descriptions.
const MAX_DEPTH: usize = 64;
/// How many texts of one entry are scanned at most.
const MAX_TEXTS: usize = 4096;

/// A description-like text of an entry: its pointer and the text.
type Texts = Vec<(String, String)>;

fn walk(v: &Value, ptr: &str, depth: usize, out: &mut Texts) {
    if depth > MAX_DEPTH || out.len() >= MAX_TEXTS {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                // values, not schemas: a default or an example is data
                if matches!(
                    k.as_str(),
                    "default" | "examples" | "const" | "enum" | "digest"
                ) {
                    continue;
                }
                let p = format!("{ptr}/{}", escape_pointer(k));
                match x {
                    Value::String(s)
                        if matches!(k.as_str(), "description" | "title" | "instructions") =>
                    {
                        out.push((p, s.clone()))
                    }
                    _ => walk(x, &p, depth + 1, out),
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                walk(x, &format!("{ptr}/{i}"), depth + 1, out);
            }
        }
        _ => {}
    }
}

fn texts_of(entry: &Value) -> Texts {
    let mut out = vec![];
    walk(entry, "", 0, &mut out);
    out
}

/// A prompt's texts under the pointers its diff uses (arguments by name).
fn prompt_texts(p: &crate::model::Prompt) -> Texts {
    let mut out = vec![];
    for (k, v) in [("title", &p.title), ("description", &p.description)] {
        if let Some(s) = v {
            out.push((format!("/{k}"), s.clone()));
        }
    }
    for a in &p.arguments {
        let at = format!("/arguments/{}", escape_pointer(&a.name));
        for (k, v) in [("title", &a.title), ("description", &a.description)] {
            if let Some(s) = v {
                out.push((format!("{at}/{k}"), s.clone()));
            }
        }
    }
    out
}

/// The new texts that differ from the old text at their place (or are
/// new), each with the old text, when there was one.
fn changed<'t>(old: &'t Texts, new: &'t Texts) -> Vec<(&'t str, &'t str, Option<&'t str>)> {
    new.iter()
        .filter_map(|(ptr, text)| {
            let before = old.iter().find(|(p, _)| p == ptr).map(|(_, t)| t.as_str());
            (before != Some(text.as_str())).then_some((ptr.as_str(), text.as_str(), before))
        })
        .collect()
}

/// The flags a new text has that the old text at its place did not.
fn drift(old: &Texts, new: &Texts, own: &[&str]) -> Vec<(String, String, Hit)> {
    let mut out = vec![];
    for (ptr, text, before) in changed(old, new) {
        let had = before.map(|b| scan::scan(b, own)).unwrap_or_default();
        for h in scan::scan(text, own) {
            if !had.iter().any(|o| o.flag == h.flag && o.text == h.text) {
                out.push((ptr.to_string(), text.to_string(), h));
            }
        }
    }
    out
}

/// Every place of `new` whose text the scan reads: (entry id, pointer, text).
pub fn changed_texts(old: &Surface, new: &Surface) -> Vec<(String, String, String)> {
    let mut out = vec![];
    for (_, id, before, after) in pairs(old, new) {
        for (ptr, text, _) in changed(&before, &after) {
            out.push((id.clone(), ptr.to_string(), text.to_string()));
        }
    }
    out
}

/// Each entry's kind, id and texts before and after, for every entry of `new`.
fn pairs(old: &Surface, new: &Surface) -> Vec<(&'static str, String, Texts, Texts)> {
    let mut out = vec![];
    for (name, tool) in &new.tools {
        let before = old
            .get(name)
            .map(|t| texts_of(&t.to_entry()))
            .unwrap_or_default();
        out.push(("tool", name.clone(), before, texts_of(&tool.to_entry())));
    }
    for (name, p) in &new.prompts {
        let before = old.prompts.get(name).map(prompt_texts).unwrap_or_default();
        out.push(("prompt", name.clone(), before, prompt_texts(p)));
    }
    for (id, r) in &new.resources {
        let before = old
            .resources
            .get(id)
            .map(|o| top_texts(&o.to_entry()))
            .unwrap_or_default();
        out.push(("resource", id.clone(), before, top_texts(&r.to_entry())));
    }
    for (id, t) in &new.resource_templates {
        let before = old
            .resource_templates
            .get(id)
            .map(|o| top_texts(&o.to_entry()))
            .unwrap_or_default();
        out.push(("template", id.clone(), before, top_texts(&t.to_entry())));
    }
    out.push((
        "server",
        crate::diff::server::SERVER_ID.to_string(),
        instructions(old),
        instructions(new),
    ));
    out
}

fn instructions(s: &Surface) -> Texts {
    s.server
        .as_ref()
        .and_then(|i| i.instructions.clone())
        .map(|t| vec![("/server/instructions".to_string(), t)])
        .unwrap_or_default()
}

fn flagged(rule: RuleId, id: &str, what: &str, ptr: String, text: &str, h: Hit) -> Change {
    let (line, col) = scan::position(text, h.start);
    let message = format!(
        "{what} now has {} at {line}:{col}: {:?}; descriptions are read by the model as instructions: check the text is what the server means to say",
        h.flag.what(),
        h.text
    );
    let mut c = Change::new(rule, id, ptr, message);
    c.detail = Detail {
        values: vec![Value::from(h.flag.as_str()), Value::from(h.text)],
        from: None,
        to: None,
    };
    c
}

fn place(ptr: &str) -> String {
    match ptr {
        "/description" => "the description".into(),
        "/title" => "the title".into(),
        "/instructions" | "/server/instructions" => "the instructions".into(),
        p => format!("the text at {p}"),
    }
}

/// The description findings between two surfaces; `changes` is the diff's.
pub fn flags(old: &Surface, new: &Surface, changes: &[Change]) -> Vec<Change> {
    let own: Vec<&str> = new.tools.keys().map(String::as_str).collect();
    let mut out = vec![];
    for (kind, id, before, after) in pairs(old, new) {
        let rule = match kind {
            "tool" => RuleId::ToolDescriptionFlagged,
            "prompt" => RuleId::PromptDescriptionFlagged,
            "resource" | "template" => RuleId::ResourceDescriptionFlagged,
            _ => RuleId::ServerInstructionsFlagged,
        };
        for (ptr, text, h) in drift(&before, &after, &own) {
            let what = match rule {
                RuleId::ServerInstructionsFlagged => "the server".to_string(),
                _ => format!("{kind} `{id}`: {}", place(&ptr)),
            };
            out.push(flagged(rule, &id, &what, ptr, &text, h));
        }
        if rule == RuleId::ToolDescriptionFlagged && old.get(&id).is_some() {
            out.extend(authority(&id, changes));
        }
    }
    out
}

/// `title` and `description` of a resource or template entry.
fn top_texts(entry: &Value) -> Texts {
    ["title", "description"]
        .iter()
        .filter_map(|k| {
            entry
                .get(*k)
                .and_then(Value::as_str)
                .map(|s| (format!("/{k}"), s.to_string()))
        })
        .collect()
}

/// The rules that widen a tool's authority (what it may do unasked).
const WIDENING: &[RuleId] = &[
    RuleId::AnnotationsReadOnlyRemoved,
    RuleId::AnnotationsDestructiveAdded,
    RuleId::AnnotationsOpenWorldAdded,
];

/// One finding when `tool`'s description changed and its annotations widened.
fn authority(tool: &str, changes: &[Change]) -> Option<Change> {
    let here = || changes.iter().filter(|c| c.tool == tool);
    let described = here().find(|c| {
        matches!(
            RuleId::parse(c.rule),
            Some(
                RuleId::ToolDescriptionChanged
                    | RuleId::InputDescriptionChanged
                    | RuleId::OutputDescriptionChanged
            )
        )
    })?;
    let widened: Vec<&str> = here()
        .filter(|c| RuleId::parse(c.rule).is_some_and(|r| WIDENING.contains(&r)))
        .map(|c| c.rule)
        .collect();
    if widened.is_empty() {
        return None;
    }
    let message = format!(
        "tool `{tool}`: the description changed ({}) in the same release that widened what the tool may do ({}): a new description can talk a model into using the new authority; read both together",
        described.pointer,
        widened.join(", ")
    );
    let mut c = Change::new(
        RuleId::ToolDescriptionAuthorityWidened,
        tool,
        described.pointer.clone(),
        message,
    );
    c.detail.values = widened.into_iter().map(Value::from).collect();
    Some(c)
}
