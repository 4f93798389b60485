//! Tool-level comparison: presence, name rules, title/description/version,
//! annotations (with the specification's defaults applied to omitted
//! hints), extra keys, and the input and output schemas.

use serde_json::{Map, Value};

use super::schema::{compare_schemas, Direction};
use super::Change;
use crate::lockfile::escape_pointer;
use crate::model::Tool;
use crate::rules::{self, RuleId};

fn with_fix(rule: RuleId, tool: &str, what: String) -> String {
    let r = rule.rule();
    format!("{what}; {}", rules::fix_for(r, tool))
}

/// `tool.removed`, with a rename hint when one is likely.
pub(crate) fn removed(old: &Tool, renamed_to: Option<&str>) -> Change {
    let what = match renamed_to {
        Some(to) => format!(
            "tool `{}` was removed, probably renamed to `{to}` (near-identical schema): every cached call to `{}` now fails",
            old.name, old.name
        ),
        None => format!("tool `{}` was removed: every cached call to it now fails", old.name),
    };
    let mut c = Change::new(
        RuleId::ToolRemoved,
        &old.name,
        String::new(),
        with_fix(RuleId::ToolRemoved, &old.name, what),
    )
    .with_subject(old.name.clone());
    c.hint = renamed_to.map(|t| format!("probable rename to `{t}`"));
    c
}

/// `tool.added` (and a name check).
pub(crate) fn added(new: &Tool, renamed_from: Option<&str>) -> Vec<Change> {
    let what = match renamed_from {
        Some(from) => format!(
            "tool `{}` was added (probably the new name of `{from}`)",
            new.name
        ),
        None => format!("tool `{}` was added", new.name),
    };
    let mut c = Change::new(RuleId::ToolAdded, &new.name, String::new(), what)
        .with_subject(new.name.clone());
    c.hint = renamed_from.map(|f| format!("probable rename of `{f}`"));
    let mut out = vec![c];
    out.extend(name_check(new));
    out
}

/// The MCP naming rule: 1 to 128 characters of `A-Za-z0-9_-.`.
pub fn name_is_valid(name: &str) -> bool {
    (1..=128).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn name_check(tool: &Tool) -> Option<Change> {
    if name_is_valid(&tool.name) {
        return None;
    }
    let what = format!("tool name {:?} breaks the MCP naming rules", tool.name);
    Some(Change::new(
        RuleId::ToolNameInvalid,
        &tool.name,
        "/name".into(),
        with_fix(RuleId::ToolNameInvalid, &tool.name, what),
    ))
}

/// Every change between two versions of the same tool.
pub(crate) fn diff_tool(old: &Tool, new: &Tool) -> Vec<Change> {
    let name = new.name.as_str();
    let mut out = vec![];
    if old.title != new.title {
        let what = format!(
            "title {:?} -> {:?}",
            old.title.as_deref().unwrap_or(""),
            new.title.as_deref().unwrap_or("")
        );
        out.push(
            Change::new(
                RuleId::ToolTitleChanged,
                name,
                "/title".into(),
                with_fix(RuleId::ToolTitleChanged, name, what),
            )
            .with_from_to(
                old.title.as_deref().unwrap_or(""),
                new.title.as_deref().unwrap_or(""),
            ),
        );
    }
    if old.description != new.description {
        let what = "the tool's description changed: models may now route different requests to it"
            .to_string();
        out.push(Change::new(
            RuleId::ToolDescriptionChanged,
            name,
            "/description".into(),
            with_fix(RuleId::ToolDescriptionChanged, name, what),
        ));
    }
    if old.version != new.version {
        let show = |v: Option<u64>| v.map(|x| x.to_string()).unwrap_or_else(|| "none".into());
        let what = format!(
            "major version {} -> {} under the same name",
            show(old.version),
            show(new.version)
        );
        out.push(
            Change::new(
                RuleId::ToolVersionChanged,
                name,
                "/version".into(),
                with_fix(RuleId::ToolVersionChanged, name, what),
            )
            .with_from_to(show(old.version), show(new.version)),
        );
    }
    out.extend(annotations(old, new));
    out.extend(extras(old, new));
    out.extend(
        compare_schemas(
            &old.input_schema,
            &new.input_schema,
            Direction::Input,
            name,
            "/inputSchema",
        )
        .into_iter()
        .filter(|c| !super::headers::is_header_extension_change(c)),
    );
    // (equal input schemas mark the same headers)
    if old.input_schema != new.input_schema {
        out.extend(super::headers::diff_headers(
            &old.input_schema,
            &new.input_schema,
            name,
        ));
    }
    match (&old.output_schema, &new.output_schema) {
        (Some(o), Some(n)) => out.extend(compare_schemas(
            o,
            n,
            Direction::Output,
            name,
            "/outputSchema",
        )),
        (None, Some(_)) => out.push(Change::new(
            RuleId::ToolOutputSchemaAdded,
            name,
            "/outputSchema".into(),
            "the tool now declares an outputSchema (structured results)".into(),
        )),
        (Some(_), None) => {
            let what = "the tool no longer declares an outputSchema: clients that read structuredContent lose its shape".to_string();
            out.push(Change::new(
                RuleId::ToolOutputSchemaRemoved,
                name,
                "/outputSchema".into(),
                with_fix(RuleId::ToolOutputSchemaRemoved, name, what),
            ));
        }
        (None, None) => {}
    }
    out
}

/// The four hints with the specification's defaults applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hints {
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    pub open_world: bool,
}

impl Hints {
    /// Effective hints: readOnly defaults to false, destructive to true (and
    /// means nothing for a read-only tool), idempotent to false (a read-only
    /// tool is idempotent), openWorld to true.
    pub fn of(annotations: Option<&Map<String, Value>>) -> Hints {
        let get = |k: &str| annotations.and_then(|a| a.get(k)).and_then(Value::as_bool);
        let read_only = get("readOnlyHint").unwrap_or(false);
        Hints {
            read_only,
            destructive: !read_only && get("destructiveHint").unwrap_or(true),
            idempotent: read_only || get("idempotentHint").unwrap_or(false),
            open_world: get("openWorldHint").unwrap_or(true),
        }
    }

    /// The hints by their annotation names, in the specification's order
    /// (for the witness search, feature `validate`).
    #[cfg(feature = "validate")]
    pub fn named(self) -> [(&'static str, bool); 4] {
        [
            ("readOnlyHint", self.read_only),
            ("destructiveHint", self.destructive),
            ("idempotentHint", self.idempotent),
            ("openWorldHint", self.open_world),
        ]
    }
}

/// When `readOnlyHint` turns off, the specification's defaults move the
/// hints the new annotations leave unstated (a tool that is not read-only
/// is destructive and not idempotent unless it says otherwise): one flag
/// becomes several findings. Each of those says where it came from, and the
/// read-only change names the explicit annotations that keep the old
/// promises: the way out a person would otherwise have to work out.
fn explain_defaults(out: &mut [Change], old: &Tool, new: &Tool) {
    let stated = |k: &str| {
        new.annotations
            .as_ref()
            .and_then(|a| a.get(k))
            .and_then(Value::as_bool)
            .is_some()
    };
    let followed: Vec<(RuleId, &str)> = [
        (
            RuleId::AnnotationsDestructiveAdded,
            "destructiveHint",
            "`destructiveHint: false`",
        ),
        (
            RuleId::AnnotationsIdempotentRemoved,
            "idempotentHint",
            "`idempotentHint: true`",
        ),
    ]
    .into_iter()
    .filter(|(rule, key, _)| !stated(key) && out.iter().any(|c| c.rule == rule.as_str()))
    .map(|(rule, _, keep)| (rule, keep))
    .collect();
    if followed.is_empty()
        || !Hints::of(old.annotations.as_ref()).read_only
        || Hints::of(new.annotations.as_ref()).read_only
    {
        return;
    }
    let keeps: Vec<&str> = followed.iter().map(|(_, keep)| *keep).collect();
    for c in out.iter_mut() {
        let hint = if c.rule == RuleId::AnnotationsReadOnlyRemoved.as_str() {
            format!(
                "the specification's defaults for a tool that is not read-only also report it as {} (the findings beside this one); if it still does not destroy data and is still safe to retry, state {} in its annotations, and only this change remains",
                followed
                    .iter()
                    .map(|(rule, _)| match rule {
                        RuleId::AnnotationsDestructiveAdded => "destructive",
                        _ => "not idempotent",
                    })
                    .collect::<Vec<_>>()
                    .join(" and "),
                keeps.join(" and ")
            )
        } else if let Some((_, keep)) = followed.iter().find(|(rule, _)| rule.as_str() == c.rule) {
            format!(
                "this follows from readOnlyHint turning false: the annotations do not state it, so the specification's default applies; state {keep} if the old promise still holds"
            )
        } else {
            continue;
        };
        c.hint = Some(match c.hint.take() {
            Some(h) => format!("{h}; {hint}"),
            None => hint,
        });
    }
}

const HINT_KEYS: &[&str] = &[
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
    "title",
];

fn annotations(old: &Tool, new: &Tool) -> Vec<Change> {
    let name = new.name.as_str();
    let (ho, hn) = (
        Hints::of(old.annotations.as_ref()),
        Hints::of(new.annotations.as_ref()),
    );
    let mut out = vec![];
    let mut push = |rule: RuleId, key: &str, what: String| {
        let r = rule.rule();
        let message = if r.severity >= rules::Severity::Behavioral {
            with_fix(rule, name, what)
        } else {
            what
        };
        out.push(Change::new(
            rule,
            name,
            format!("/annotations/{key}"),
            message,
        ));
    };
    if ho.read_only && !hn.read_only {
        push(RuleId::AnnotationsReadOnlyRemoved, "readOnlyHint", "the tool is no longer read-only: clients that auto-approve read-only tools now let it modify its environment unasked".into());
    }
    if !ho.read_only && hn.read_only {
        push(
            RuleId::AnnotationsReadOnlyAdded,
            "readOnlyHint",
            "the tool is now read-only".into(),
        );
    }
    if !ho.destructive && hn.destructive {
        push(RuleId::AnnotationsDestructiveAdded, "destructiveHint", "the tool may now perform destructive updates (effective destructiveHint false -> true): calls made without confirmation can now destroy data".into());
    }
    if ho.destructive && !hn.destructive {
        push(
            RuleId::AnnotationsDestructiveRemoved,
            "destructiveHint",
            "the tool no longer performs destructive updates".into(),
        );
    }
    if ho.idempotent && !hn.idempotent {
        push(RuleId::AnnotationsIdempotentRemoved, "idempotentHint", "the tool is no longer idempotent: clients that retry on timeout can now repeat its effect".into());
    }
    if !ho.idempotent && hn.idempotent {
        push(
            RuleId::AnnotationsIdempotentAdded,
            "idempotentHint",
            "the tool is now idempotent".into(),
        );
    }
    if !ho.open_world && hn.open_world {
        push(
            RuleId::AnnotationsOpenWorldAdded,
            "openWorldHint",
            "the tool may now reach external systems (effective openWorldHint false -> true)"
                .into(),
        );
    }
    if ho.open_world && !hn.open_world {
        push(
            RuleId::AnnotationsOpenWorldRemoved,
            "openWorldHint",
            "the tool is now closed-world".into(),
        );
    }
    let get = |t: &Tool, k: &str| t.annotations.as_ref().and_then(|a| a.get(k)).cloned();
    if get(old, "title") != get(new, "title") {
        push(
            RuleId::AnnotationsTitleChanged,
            "title",
            "the annotations' display title changed".into(),
        );
    }
    let keys: std::collections::BTreeSet<String> = old
        .annotations
        .iter()
        .chain(new.annotations.iter())
        .flat_map(|a| a.keys().cloned())
        .filter(|k| !HINT_KEYS.contains(&k.as_str()))
        .collect();
    for k in keys {
        if get(old, &k) != get(new, &k) {
            push(
                RuleId::AnnotationsExtensionChanged,
                &escape_pointer(&k),
                format!("annotation `{k}` changed"),
            );
        }
    }
    explain_defaults(&mut out, old, new);
    out
}

fn extras(old: &Tool, new: &Tool) -> Vec<Change> {
    let name = new.name.as_str();
    let keys: std::collections::BTreeSet<&String> =
        old.extra.keys().chain(new.extra.keys()).collect();
    let mut out = vec![];
    for k in keys {
        if old.extra.get(k) == new.extra.get(k) {
            continue;
        }
        let ptr = format!("/{}", escape_pointer(k));
        let c = if k == "execution" {
            super::execution::diff_execution(old, new)
        } else if k.starts_with("x-") {
            Change::new(
                RuleId::MetaExtensionChanged,
                name,
                ptr,
                format!("extension `{k}` changed"),
            )
        } else {
            Change::new(RuleId::MetaChanged, name, ptr, format!("`{k}` changed"))
        };
        out.push(c);
    }
    out
}
