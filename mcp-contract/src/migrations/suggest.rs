//! The entry that would acknowledge an unacknowledged change, as TOML text a
//! person pastes into `contracts/migrations.toml` and completes: `reason`
//! and `owner` are left empty on purpose (the record rejects them empty, so
//! nobody can wave a break through without saying why and who owns it).

use serde_json::Value;

use crate::diff::{Change, Detail};
use crate::model::Surface;
use crate::rules::RuleId;

/// The `[[acknowledge]]` entry for `change`. `all` is the whole diff (to
/// recognise renames), `candidate` the new surface (to propose a
/// server-applied default from the schema's `default`).
pub fn suggest_entry(change: &Change, all: &[Change], candidate: Option<&Surface>) -> String {
    if change.rule_id() == RuleId::InputRequiredAdded && renamed_to(change, all) {
        // The rename's entry covers it: once the build applies the rename,
        // the old name is an alternative and the new one is not required.
        let field = change.subject.as_deref().unwrap_or("");
        return format!(
            "# no entry of its own: the rename entry for `{field}` covers it (once the\n# build applies the rename, a call may send the old name instead; for a\n# lockfile no build step writes, acknowledge it with kind = \"other\")\n"
        );
    }
    let mut out = String::from("[[acknowledge]]\n");
    let detail = detail_lines(&change.detail);
    if detail.iter().any(String::is_empty) {
        // a value TOML cannot hold (null): the fingerprint names it exactly
        out.push_str(&format!(
            "fingerprint = {}\n",
            toml_string(&change.fingerprint())
        ));
    } else {
        match change.target() {
            crate::diff::Target::Server => {}
            target => out.push_str(&format!(
                "{} = {}\n",
                target.as_str(),
                toml_string(&change.tool)
            )),
        }
        out.push_str(&format!("rule = {}\n", toml_string(change.rule)));
        out.push_str(&format!("pointer = {}\n", toml_string(&change.pointer)));
        if let Some(s) = &change.subject {
            out.push_str(&format!("subject = {}\n", toml_string(s)));
        }
        for line in detail {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str("reason = \"\"\nowner = \"\"\n");
    out.push_str(&format!(
        "transition = {}\n",
        transition(change, all, candidate)
    ));
    out
}

/// The `values = [...]`, `from = ".."`, `to = ".."` lines that pin what a
/// change changed (an empty string for values TOML cannot hold).
pub fn detail_lines(detail: &Detail) -> Vec<String> {
    let mut out = vec![];
    if !detail.values.is_empty() {
        let items: Option<Vec<String>> = detail.values.iter().map(json_to_toml).collect();
        out.push(items.map_or_else(String::new, |i| format!("values = [{}]", i.join(", "))));
    }
    for (k, v) in [("from", &detail.from), ("to", &detail.to)] {
        if let Some(v) = v {
            out.push(format!("{k} = {}", toml_string(v)));
        }
    }
    out
}

fn transition(change: &Change, all: &[Change], candidate: Option<&Surface>) -> String {
    match change.rule_id() {
        RuleId::ToolRemoved => match change.hint.as_deref().and_then(backticked) {
            Some(to) => format!(
                "{{ kind = \"rename\", from = {}, to = {} }}",
                toml_string(&change.tool),
                toml_string(to)
            ),
            None => "{ kind = \"removal\" }".into(),
        },
        RuleId::PromptRemoved | RuleId::ResourceRemoved | RuleId::TemplateRemoved => {
            "{ kind = \"removal\" }".into()
        }
        RuleId::ToolVersionChanged => format!(
            "{{ kind = \"major-version\", from = {}, to = {} }}",
            toml_string(&change.tool),
            toml_string(&format!("{}_v2", change.tool))
        ),
        RuleId::InputPropertyRemoved => match renamed_field(change, all) {
            Some(to) => format!(
                "{{ kind = \"rename\", from = {}, to = {} }}",
                toml_string(change.subject.as_deref().unwrap_or("")),
                toml_string(&to)
            ),
            None => "{ kind = \"removal\" }".into(),
        },
        RuleId::InputRequiredAdded => {
            let field = change.subject.clone().unwrap_or_default();
            let default = candidate.and_then(|s| s.get(&change.tool)).and_then(|t| {
                let parent = change.pointer.strip_suffix("/required")?;
                let schema = t.to_entry();
                schema
                    .pointer(&format!(
                        "{parent}/properties/{}/default",
                        crate::lockfile::escape_pointer(&field)
                    ))
                    .cloned()
            });
            match default.as_ref().and_then(json_to_toml) {
                Some(v) => format!(
                    "{{ kind = \"default\", field = {}, value = {v} }}",
                    toml_string(&field)
                ),
                // Never a placeholder value: pasted, it would be published.
                None => format!(
                    "{{ kind = \"other\", note = \"callers must now send {}\" }}\n# or, when the server fills it in: transition = {{ kind = \"default\", field = {}, value = <the default it applies> }}",
                    field.replace('"', "'"),
                    toml_string(&field)
                ),
            }
        }
        _ => "{ kind = \"other\" }".into(),
    }
}

/// `change` (a required field added) names the new side of a rename: a
/// sibling property was removed and this one is the only one added beside it.
fn renamed_to(change: &Change, all: &[Change]) -> bool {
    let Some(parent) = change.pointer.strip_suffix("/required") else {
        return false;
    };
    all.iter().any(|c| {
        c.rule_id() == RuleId::InputPropertyRemoved
            && c.tool == change.tool
            && c.pointer.rsplit_once("/properties/").map(|p| p.0) == Some(parent)
            && renamed_field(c, all).as_deref() == change.subject.as_deref()
    })
}

/// The added sibling field when exactly one appeared beside the removed one.
fn renamed_field(change: &Change, all: &[Change]) -> Option<String> {
    let parent = change.pointer.rsplit_once('/')?.0;
    let added: Vec<&Change> = all
        .iter()
        .filter(|c| {
            c.rule_id() == RuleId::InputPropertyAdded
                && c.tool == change.tool
                && c.pointer.rsplit_once('/').map(|p| p.0) == Some(parent)
        })
        .collect();
    match added.as_slice() {
        [one] => one.subject.clone(),
        _ => None,
    }
}

fn backticked(s: &str) -> Option<&str> {
    let start = s.find('`')? + 1;
    let len = s[start..].find('`')?;
    Some(&s[start..start + len])
}

/// A TOML basic string.
pub fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON value as an inline TOML value (`None` for null, which TOML lacks).
pub fn json_to_toml(v: &Value) -> Option<String> {
    Some(match v {
        Value::Null => return None,
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => toml_string(s),
        Value::Array(a) => {
            let items: Option<Vec<String>> = a.iter().map(json_to_toml).collect();
            format!("[{}]", items?.join(", "))
        }
        Value::Object(m) => {
            let items: Option<Vec<String>> = m
                .iter()
                .map(|(k, v)| Some(format!("{} = {}", toml_string(k), json_to_toml(v)?)))
                .collect();
            format!("{{ {} }}", items?.join(", "))
        }
    })
}
