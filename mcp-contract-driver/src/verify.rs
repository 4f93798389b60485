//! Published == locked: the live surface must equal the committed lockfile
//! exactly. Any difference fails, even a cosmetic one, because the lockfile
//! is the record reviewers approved; the classifier's report says how much
//! each difference matters.

use std::collections::BTreeSet;

use mcp_contract::{diff_surfaces, DiffReport, Severity, Surface};

/// The outcome of comparing a live surface with a lockfile.
#[derive(Debug, Clone, PartialEq)]
pub struct Verification {
    /// Every change from the lockfile (old) to the live surface (new).
    pub report: DiffReport,
    /// Tools whose canonical entries differ (added and removed tools
    /// included), then other entries by timeline key (`prompt NAME`,
    /// `resource URI`, `template T`, `server`).
    pub differing: Vec<String>,
    /// Set when the lockfile records tools only (written by the build step,
    /// or before prompts and resources were locked): then only tools were
    /// compared, and this says so.
    pub tools_only: Option<String>,
}

impl Verification {
    pub fn identical(&self) -> bool {
        self.differing.is_empty()
    }

    /// Everything that differs is classified, and cosmetic.
    pub fn cosmetic_only(&self) -> bool {
        !self.identical()
            && self.unclassified().is_empty()
            && self
                .report
                .changes
                .iter()
                .all(|c| c.severity == Severity::Cosmetic)
    }

    /// Differing tools for which no rule reported a change, with the
    /// top-level keys whose values differ.
    pub fn unclassified(&self) -> Vec<String> {
        use mcp_contract::diff::Target;
        let reported = |key: &str| {
            let (tool, entry) = match key.split_once(' ') {
                Some((_, id)) => (None, Some(id)),
                None if key == "server" => (None, Some(mcp_contract::diff::server::SERVER_ID)),
                None => (Some(key), None),
            };
            self.report.changes.iter().any(|c| match c.target() {
                Target::Tool => Some(c.tool.as_str()) == tool,
                _ => Some(c.tool.as_str()) == entry,
            })
        };
        self.differing
            .iter()
            .filter(|t| !reported(t))
            .cloned()
            .collect()
    }
}

/// Compares the committed lockfile's surface with the live one. Contract
/// versions, which are not published, are taken from the lockfile
/// ([`crate::capture::with_locked_versions`]).
pub fn verify(locked: &Surface, live: &Surface) -> Verification {
    let mut live = crate::capture::with_locked_versions(live.clone(), locked);
    let tools_only = (locked.is_tools_only() && !live.is_tools_only()).then(|| {
        live = Surface {
            tools: std::mem::take(&mut live.tools),
            ..Surface::default()
        };
        "the lockfile records tools only: prompts, resources and the server section were not compared (lock them with `snapshot` from the live server)".to_string()
    });
    let live = &live;
    let names: BTreeSet<&String> = locked.tools.keys().chain(live.tools.keys()).collect();
    let mut differing: Vec<String> = names
        .into_iter()
        .filter(|n| locked.get(n).map(|t| t.to_entry()) != live.get(n).map(|t| t.to_entry()))
        .cloned()
        .collect();
    let (lo, li) = (
        mcp_contract::history::entry_surfaces(locked),
        mcp_contract::history::entry_surfaces(live),
    );
    let keys: BTreeSet<&String> = lo.keys().chain(li.keys()).collect();
    differing.extend(
        keys.into_iter()
            .filter(|k| lo.get(*k) != li.get(*k))
            .cloned(),
    );
    Verification {
        report: diff_surfaces(locked, live),
        differing,
        tools_only,
    }
}

/// The top-level keys of `tool` (or, for the key `server` when no tool has
/// that name, of the server section) whose values differ between the two
/// surfaces.
pub fn differing_keys(locked: &Surface, live: &Surface, tool: &str) -> Vec<String> {
    let section = tool == "server" && locked.get(tool).is_none() && live.get(tool).is_none();
    let entry = |s: &Surface| {
        let entry = if section {
            s.server.as_ref().map(|i| i.to_entry())
        } else {
            s.get(tool).map(|t| t.to_entry())
        };
        entry
            .and_then(|v| v.as_object().cloned())
            .unwrap_or_default()
    };
    let (old, new) = (entry(locked), entry(live));
    let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    keys.into_iter()
        .filter(|k| old.get(*k) != new.get(*k))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_contract::Tool;
    use serde_json::{json, Value};

    fn surface(tools: Vec<Tool>) -> Surface {
        let mut s = Surface::new();
        for t in tools {
            s.insert(t);
        }
        s
    }

    #[test]
    fn identical_surfaces_verify() {
        let s = surface(vec![Tool::new("a")]);
        let v = verify(&s, &s.clone());
        assert!(v.identical());
        assert!(!v.cosmetic_only());
    }

    #[test]
    fn an_unmodelled_key_still_fails_and_is_named() {
        let locked = surface(vec![Tool::new("a")]);
        let mut t = Tool::new("a");
        t.extra.insert("x-cost".into(), json!(3));
        let live = surface(vec![t]);
        let v = verify(&locked, &live);
        assert!(!v.identical());
        assert_eq!(differing_keys(&locked, &live, "a"), vec!["x-cost"]);
    }

    #[test]
    fn an_empty_experimental_container_dropped_is_no_breaking_change_but_still_differs() {
        let section = |caps: Value| {
            let mut s = surface(vec![Tool::new("a")]);
            s.server = Some(mcp_contract::model::ServerInfo {
                protocol_version: Some("2025-06-18".into()),
                capabilities: caps.as_object().cloned().unwrap(),
                ..Default::default()
            });
            s
        };
        let locked = section(json!({"experimental": {}, "tools": {"listChanged": false}}));
        let live = section(json!({"tools": {"listChanged": false}}));
        let v = verify(&locked, &live);
        assert!(
            !v.identical(),
            "the lockfile must still record exactly what is published"
        );
        assert!(!v.report.is_breaking(), "{:?}", v.report.changes);
        assert_eq!(v.unclassified(), vec!["server"]);
        assert_eq!(
            differing_keys(&locked, &live, "server"),
            vec!["capabilities"]
        );
    }

    #[test]
    fn removal_is_reported_by_the_classifier() {
        let locked = surface(vec![Tool::new("a"), Tool::new("b")]);
        let live = surface(vec![Tool::new("a")]);
        let v = verify(&locked, &live);
        assert_eq!(v.differing, vec!["b"]);
        assert!(v.report.is_breaking());
        assert!(v.unclassified().is_empty());
        assert!(!v.cosmetic_only());
    }
}
