//! Server-section comparison: the capabilities a client relies on
//! (a capability or one of its flags disappearing is breaking), the
//! instructions put into the model's context, and the protocol revision.
//!
//! Capabilities are judged by what they declare. A feature capability
//! (`logging`, `completions`, `prompts`, `tools`, and any key this module
//! does not know) is declared by its presence, even as `{}`, as the MCP
//! specification reads it. A container of capabilities (`experimental`,
//! `extensions`: a map from capability names to their settings) declares
//! only the names it holds, so an empty one declares nothing and appearing
//! or disappearing as `{}` is no change.
//! Changes carry the id `(server)`, which no tool, prompt or resource can
//! have, and a pointer into the `server` section.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::Change;
use crate::lockfile::escape_pointer;
use crate::model::ServerInfo;
use crate::rules::{self, RuleId};

/// The id server-section changes carry in [`Change::tool`].
pub const SERVER_ID: &str = "(server)";

fn change(rule: RuleId, pointer: String, what: String) -> Change {
    let r = rule.rule();
    let message = if r.severity >= rules::Severity::Behavioral {
        format!("{what}; {}", rules::fix_for(r, SERVER_ID))
    } else {
        what
    };
    Change::new(rule, SERVER_ID, pointer, message)
}

fn truthy(v: &Value) -> bool {
    !matches!(v, Value::Null | Value::Bool(false))
}

/// The capabilities whose value is a map from capability names to their
/// settings: they declare the names they hold, not themselves.
const CONTAINERS: &[&str] = &["experimental", "extensions"];

/// Declared capabilities as `key` and `key/flag` pointers: a top-level key
/// counts when present (not null/false) unless it is a container
/// ([`CONTAINERS`]), a nested key when truthy. Nested values that are not
/// flags (numbers, strings, objects under a flag) are settings, compared as
/// a whole by [`settings`].
fn declared(caps: &Map<String, Value>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (k, v) in caps.iter().filter(|(_, v)| truthy(v)) {
        let top = escape_pointer(k);
        if let Value::Object(sub) = v {
            for (s, _) in sub.iter().filter(|(_, sv)| truthy(sv)) {
                out.insert(format!("{top}/{}", escape_pointer(s)));
            }
        }
        if !CONTAINERS.contains(&k.as_str()) {
            out.insert(top);
        }
    }
    out
}

fn settings(caps: &Map<String, Value>) -> BTreeMap<String, &Value> {
    let mut out = BTreeMap::new();
    for (k, v) in caps {
        if let Value::Object(sub) = v {
            for (s, sv) in sub {
                if !matches!(sv, Value::Bool(_) | Value::Null) {
                    out.insert(format!("{}/{}", escape_pointer(k), escape_pointer(s)), sv);
                }
            }
        }
    }
    out
}

/// Every change between the server sections of two surfaces.
pub(crate) fn diff_server(old: Option<&ServerInfo>, new: Option<&ServerInfo>) -> Vec<Change> {
    let empty = ServerInfo::default();
    let (o, n) = match (old, new) {
        (None, None) => return vec![],
        (Some(_), None) => {
            return vec![change(
                RuleId::ServerMetadataChanged,
                "/server".into(),
                "the new surface has no server section (built from sources, or captured without initialize): capabilities, instructions and protocol revision are not compared".into(),
            )]
        }
        (None, Some(n)) => (&empty, n),
        (Some(o), Some(n)) => (o, n),
    };
    let mut out = vec![];
    if old.is_some() && o.protocol_version != n.protocol_version {
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
        out.push(change(
            RuleId::ServerProtocolChanged,
            "/server/protocolVersion".into(),
            format!(
                "protocol revision {} -> {}",
                show(&o.protocol_version),
                show(&n.protocol_version)
            ),
        ));
    }
    let (co, cn) = (declared(&o.capabilities), declared(&n.capabilities));
    for p in co.difference(&cn) {
        out.push(
            change(
                RuleId::ServerCapabilityRemoved,
                format!("/server/capabilities/{p}"),
                format!(
                    "capability `{}` is no longer declared: clients that rely on it lose it",
                    p.replace('/', ".")
                ),
            )
            .with_subject(p.clone()),
        );
    }
    for p in cn.difference(&co) {
        out.push(
            change(
                RuleId::ServerCapabilityAdded,
                format!("/server/capabilities/{p}"),
                format!("capability `{}` is now declared", p.replace('/', ".")),
            )
            .with_subject(p.clone()),
        );
    }
    let (so, sn) = (settings(&o.capabilities), settings(&n.capabilities));
    let keys: BTreeSet<&String> = so.keys().chain(sn.keys()).collect();
    for k in keys {
        if so.get(k) != sn.get(k) {
            out.push(change(
                RuleId::ServerCapabilityChanged,
                format!("/server/capabilities/{k}"),
                format!("capability setting `{}` changed", k.replace('/', ".")),
            ));
        }
    }
    if o.instructions != n.instructions {
        out.push(change(
            RuleId::ServerInstructionsChanged,
            "/server/instructions".into(),
            "the server's instructions changed".into(),
        ));
    }
    let keys: BTreeSet<&String> = o.extra.keys().chain(n.extra.keys()).collect();
    for k in keys {
        if o.extra.get(k) != n.extra.get(k) {
            out.push(change(
                RuleId::ServerMetadataChanged,
                format!("/server/{}", escape_pointer(k)),
                format!("`{k}` of the server section changed"),
            ));
        }
    }
    out
}
