//! Folding lockfile revisions, oldest first, into a [`History`]. Kept free
//! of git so it can be fed any sequence of texts.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::{input_properties, Event, EventKind, History, Published};
use crate::diff_surfaces;
use crate::git::Revision;
use crate::lockfile;
use crate::model::{Surface, Tool};
use crate::segments;

/// Accumulates revisions into a history.
pub struct HistoryBuilder {
    file: String,
    /// The tools published at the last revision: (text key, parsed tool).
    current: BTreeMap<String, (String, Tool)>,
    /// The non-tool entries published at the last revision, by timeline key.
    current_entries: BTreeMap<String, Surface>,
    history: History,
}

impl HistoryBuilder {
    pub fn new(file: &str) -> Self {
        HistoryBuilder {
            file: file.to_string(),
            current: BTreeMap::new(),
            current_entries: BTreeMap::new(),
            history: History::default(),
        }
    }

    /// Continues a history whose last applied revision (not skipped) had
    /// lockfile `last` (`None`: the file did not exist there): the state a
    /// builder had after pushing every revision up to it, rebuilt from that
    /// text and the history's published names (a tool present at the last
    /// revision is, as parsed, its last published version). Timelines are
    /// not carried over. `None` when `last` does not read as it did then.
    pub fn resume(file: &str, history: History, last: Option<&str>) -> Option<Self> {
        let mut b = HistoryBuilder::new(file);
        b.history = history;
        let Some(text) = last else {
            return Some(b);
        };
        match segments::split(text) {
            Some(segs) => {
                for (name, seg) in segs {
                    let tool = b.history.published.get(&name)?.last.clone();
                    b.current.insert(name, (seg.to_string(), tool));
                }
            }
            None => {
                let surface = lockfile::parse(text.as_bytes(), file).ok()?;
                b.current_entries = super::entry_surfaces(&surface);
                for t in surface.tools.into_values() {
                    b.current.insert(t.name.clone(), (t.digest(), t));
                }
            }
        }
        Some(b)
    }

    /// Adds the next revision; `text` is `None` when the commit deleted the
    /// file. Returns false when the revision could not be read as a
    /// lockfile (it is recorded in `skipped` and changes nothing else).
    pub fn push(&mut self, rev: &Revision, text: Option<&str>) -> bool {
        self.history.revisions += 1;
        let file = format!("{}@{}", self.file, rev.short);
        // Non-tool entries only exist in lockfiles that `segments` does not
        // split (their sections precede `tools`), so they come from the full parse.
        let mut next_entries: BTreeMap<String, Surface> = BTreeMap::new();
        let next: BTreeMap<String, (Cow<'_, str>, Option<Tool>)> = match text {
            None => BTreeMap::new(),
            Some(text) => match segments::split(text) {
                Some(segs) => segs
                    .into_iter()
                    .map(|(n, s)| (n, (Cow::Borrowed(s), None)))
                    .collect(),
                None => match lockfile::parse(text.as_bytes(), &file) {
                    Ok(surface) => {
                        next_entries = super::entry_surfaces(&surface);
                        surface
                            .tools
                            .into_values()
                            .map(|t| (t.name.clone(), (Cow::Owned(t.digest()), Some(t))))
                            .collect()
                    }
                    Err(e) => {
                        self.history
                            .skipped
                            .push((rev.short.clone(), e.to_string()));
                        return false;
                    }
                },
            },
        };
        // Parse every tool whose text changed before touching the state, so
        // a broken revision is skipped as a whole. Unchanged tools are not
        // touched at all.
        let mut changed_tools: Vec<(String, String, Tool)> = vec![];
        for (name, (key, tool)) in &next {
            if let Some((old_key, _)) = self.current.get(name) {
                if old_key.as_str() == key.as_ref() {
                    continue;
                }
            }
            let tool = match tool {
                Some(t) => t.clone(),
                None => match segments::parse_tool(name, key, &file) {
                    Ok(t) => t,
                    Err(e) => {
                        self.history
                            .skipped
                            .push((rev.short.clone(), e.to_string()));
                        return false;
                    }
                },
            };
            changed_tools.push((name.clone(), key.to_string(), tool));
        }
        let event = |kind: EventKind| Event {
            commit: rev.commit.clone(),
            short: rev.short.clone(),
            time: rev.time,
            subject: rev.subject.clone(),
            kind,
        };
        let removed: Vec<String> = self
            .current
            .keys()
            .filter(|n| !next.contains_key(*n))
            .cloned()
            .collect();
        for name in removed {
            self.current.remove(&name);
            self.history
                .timelines
                .entry(name)
                .or_default()
                .push(event(EventKind::Removed));
        }
        for (name, key, tool) in changed_tools {
            let kind = match self.current.get(&name) {
                None => Some(EventKind::Introduced),
                Some((_, old)) if *old != tool => Some(changed(old, &tool)),
                Some(_) => None,
            };
            if let Some(kind) = kind {
                self.history
                    .timelines
                    .entry(name.clone())
                    .or_default()
                    .push(event(kind));
                let published = self
                    .history
                    .published
                    .entry(name.clone())
                    .or_insert_with(|| Published {
                        last: tool.clone(),
                        last_commit: rev.short.clone(),
                        properties: BTreeMap::new(),
                    });
                published.last = tool.clone();
                published.last_commit = rev.short.clone();
                for (ptr, schema) in input_properties(&tool) {
                    published
                        .properties
                        .insert(ptr, (schema.clone(), rev.short.clone()));
                }
            }
            self.current.insert(name, (key, tool));
        }
        self.push_entries(rev, next_entries);
        true
    }

    /// Timelines and last published versions of prompts, resources,
    /// templates and the server section.
    fn push_entries(&mut self, rev: &Revision, next: BTreeMap<String, Surface>) {
        let event = |kind: EventKind| Event {
            commit: rev.commit.clone(),
            short: rev.short.clone(),
            time: rev.time,
            subject: rev.subject.clone(),
            kind,
        };
        let removed: Vec<String> = self
            .current_entries
            .keys()
            .filter(|k| !next.contains_key(*k))
            .cloned()
            .collect();
        for key in removed {
            self.current_entries.remove(&key);
            self.history
                .timelines
                .entry(key)
                .or_default()
                .push(event(EventKind::Removed));
        }
        for (key, entry) in next {
            let kind = match self.current_entries.get(&key) {
                None => Some(EventKind::Introduced),
                Some(old) if *old != entry => Some(changed_surfaces(old, &entry)),
                Some(_) => None,
            };
            if let Some(kind) = kind {
                self.history
                    .timelines
                    .entry(key.clone())
                    .or_default()
                    .push(event(kind));
                self.history
                    .published_entries
                    .insert(key.clone(), (entry.clone(), rev.short.clone()));
            }
            self.current_entries.insert(key, entry);
        }
    }

    pub fn finish(self) -> History {
        self.history
    }
}

fn changed(old: &Tool, new: &Tool) -> EventKind {
    let (mut a, mut b) = (Surface::new(), Surface::new());
    a.insert(old.clone());
    b.insert(new.clone());
    changed_surfaces(&a, &b)
}

fn changed_surfaces(a: &Surface, b: &Surface) -> EventKind {
    let report = diff_surfaces(a, b);
    let mut rules: Vec<&'static str> = report.changes.iter().map(|c| c.rule).collect();
    rules.sort_unstable();
    rules.dedup();
    EventKind::Changed {
        summary: report.summary(),
        rules,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Severity;

    fn rev(n: usize) -> Revision {
        Revision {
            commit: format!("{n:040}"),
            short: format!("c{n}"),
            time: n as i64,
            subject: format!("commit {n}"),
            blob: Some("x".into()),
        }
    }

    fn text(tools: &[(&str, serde_json::Value)]) -> String {
        let mut s = Surface::new();
        for (name, schema) in tools {
            let mut t = Tool::new(*name);
            t.input_schema = schema.clone();
            s.insert(t);
        }
        lockfile::render(&s)
    }

    #[test]
    fn records_introduction_change_removal_and_published_names() {
        let v1 = serde_json::json!({"type": "object", "properties": {"query": {"type": "string"}}});
        let v2 = serde_json::json!({"type": "object", "properties": {"search_text": {"type": "string"}}});
        let mut b = HistoryBuilder::new("lock");
        b.push(&rev(1), Some(&text(&[("search", v1.clone())])));
        b.push(
            &rev(2),
            Some(&text(&[("search", v1.clone()), ("fetch", v1.clone())])),
        );
        b.push(
            &rev(3),
            Some(&text(&[("search", v2.clone()), ("fetch", v1.clone())])),
        );
        b.push(&rev(4), Some("{ not json"));
        b.push(&rev(5), Some(&text(&[("search", v2.clone())])));
        let h = b.finish();
        assert_eq!(h.revisions, 5);
        assert_eq!(h.skipped.len(), 1);
        assert_eq!(h.skipped[0].0, "c4");
        let search: Vec<(&str, &EventKind)> = h.timelines["search"]
            .iter()
            .map(|e| (e.short.as_str(), &e.kind))
            .collect();
        assert_eq!(search[0], ("c1", &EventKind::Introduced));
        match search[1] {
            ("c3", EventKind::Changed { summary, rules }) => {
                assert_eq!(summary[&Severity::Breaking], 1);
                assert!(rules.contains(&"input.property-removed"));
            }
            other => panic!("{other:?}"),
        }
        let fetch: Vec<&EventKind> = h.timelines["fetch"].iter().map(|e| &e.kind).collect();
        assert_eq!(fetch, [&EventKind::Introduced, &EventKind::Removed]);
        assert_eq!(h.published["fetch"].last_commit, "c2");
        let props = &h.published["search"].properties;
        assert_eq!(props["/inputSchema/properties/query"].1, "c1");
        assert_eq!(props["/inputSchema/properties/search_text"].1, "c3");
    }

    #[test]
    fn a_deleted_lockfile_removes_every_tool() {
        let v = serde_json::json!({"type": "object"});
        let mut b = HistoryBuilder::new("lock");
        b.push(&rev(1), Some(&text(&[("a", v.clone())])));
        b.push(&rev(2), None);
        b.push(&rev(3), Some(&text(&[("a", v)])));
        let kinds: Vec<EventKind> = b.finish().timelines["a"]
            .iter()
            .map(|e| e.kind.clone())
            .collect();
        assert_eq!(
            kinds,
            [
                EventKind::Introduced,
                EventKind::Removed,
                EventKind::Introduced
            ]
        );
    }
}
