//! Reading `contracts/migrations.toml` into the typed record, validating it
//! in one pass: every problem (unknown keys with a did-you-mean, wrong types,
//! invalid dates, empty `reason`/`owner`, unknown rule ids, incomplete
//! transitions, duplicate entries) is collected with its line and column,
//! cargo-deny style, instead of stopping at the first.

use crate::suggest::did_you_mean;
use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use toml_edit::{Item, TableLike};

use super::date::Date;
use super::model::{
    Entry, Level, MigrationRecord, Pos, Problem, ProblemKind, RemovalCondition, RenameTarget,
    Selector, ToolPolicy, Transition,
};
use crate::diff::Detail;
use crate::error::InputError;
use crate::rules;

/// Keys of the record's top level.
pub const ROOT_KEYS: &[&str] = &["version", "tools", "acknowledge"];
/// Keys of a `[tools.NAME]` table.
pub const TOOL_KEYS: &[&str] = &[
    "owner",
    "versions",
    "deprecated",
    "replacement",
    "removal",
    "until",
    "refuse_unknown_fields",
];
/// Keys of an `[[acknowledge]]` entry.
pub const ENTRY_KEYS: &[&str] = &[
    "tool",
    "prompt",
    "resource",
    "rule",
    "pointer",
    "subject",
    "values",
    "from",
    "to",
    "fingerprint",
    "reason",
    "owner",
    "transition",
    "evidence",
];
/// Keys of a typed `removal = { ... }` condition.
pub const REMOVAL_KEYS: &[&str] = &["quiet_for", "clients", "min_coverage", "note"];
/// Transition kinds.
pub const KINDS: &[&str] = &["rename", "default", "major-version", "removal", "other"];

/// The record format version this crate reads.
pub const RECORD_VERSION: i64 = 1;

/// What to do about a key written with an empty string: the value it
/// needs, and only for a key the record can do without, that removing it
/// is a way out too.
fn empty_help(key: &str) -> String {
    match key {
        "reason" => "say why this break is acceptable: `reason = \"...\"` (every entry needs one)".into(),
        "owner" => "name who answers for this break: `owner = \"@team\"` (or remove the key and set `owner` in `[tools.NAME]`)".into(),
        "note" | "replacement" | "subject" | "removal" => {
            format!("fill in `{key}`, or remove the key (it is optional)")
        }
        _ => format!("fill in `{key}` as `cargo mcp-contract check` printed it (it is required)"),
    }
}

/// Reads the record at `path`; a missing file is an empty record.
pub fn read(path: &Path) -> Result<(MigrationRecord, Vec<Problem>), InputError> {
    let file = path.display().to_string();
    match crate::limits::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(parse(&text, &file)),
            Err(_) => Err(InputError::new(&file, "file is not valid UTF-8")
                .fix("save the migration record as UTF-8")),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((
            MigrationRecord {
                file,
                ..MigrationRecord::default()
            },
            vec![],
        )),
        Err(e) => Err(
            InputError::new(&file, format!("cannot read migration record: {e}"))
                .fix("check that the file is readable"),
        ),
    }
}

/// Parses and validates the record text. Always returns a record (with
/// only the valid entries) and every problem found.
pub fn parse(text: &str, file: &str) -> (MigrationRecord, Vec<Problem>) {
    let mut p = Parser {
        file,
        lines: LineIndex::new(text),
        problems: vec![],
        untyped: vec![],
        condition: None,
    };
    let mut record = MigrationRecord {
        file: file.to_string(),
        ..MigrationRecord::default()
    };
    let Some(doc) = p.document(text) else {
        return (record, p.problems);
    };
    let root = doc.as_table();
    p.unknown_keys(root, ROOT_KEYS, "the top level of the record");
    p.version(root);
    p.body(root, &mut record);
    record.untyped_removals = p.untyped;
    (record, p.problems)
}

/// Parses a record that holds one record per name: `[GROUP.NAME]` tables,
/// each with the `tools` and `acknowledge` of a record, beside `version`
/// (a consumer's record: one per server it uses). Positions are the
/// file's. Returns each group's record with its problems, and the problems
/// of the file as a whole (its syntax, its top level): every one at once.
pub fn parse_grouped(text: &str, file: &str, group: &str) -> (Grouped, Vec<Problem>) {
    let mut p = Parser {
        file,
        lines: LineIndex::new(text),
        problems: vec![],
        untyped: vec![],
        condition: None,
    };
    let mut groups = Grouped::new();
    let Some(doc) = p.document(text) else {
        return (groups, p.problems);
    };
    let root = doc.as_table();
    p.unknown_keys(root, &["version", group], "the top level of the record");
    p.version(root);
    let Some(item) = root.get(group) else {
        return (groups, p.problems);
    };
    let Some(table) = item.as_table_like() else {
        p.type_error(
            item,
            group,
            &format!("a table of tables (`[{group}.NAME]`)"),
        );
        return (groups, p.problems);
    };
    let whole = std::mem::take(&mut p.problems);
    for (name, item) in table.iter() {
        let pos = p.key_pos(table, name);
        let mut record = MigrationRecord {
            file: file.to_string(),
            ..MigrationRecord::default()
        };
        match item.as_table_like() {
            Some(t) => {
                p.unknown_keys(t, &["tools", "acknowledge"], &format!("`[{group}.{name}]`"));
                p.body(t, &mut record);
            }
            None => p.problems.push(
                Problem::invalid(file, pos, format!("`{group}.{name}` must be a table")).help(
                    format!("write it as `[{group}.{name}]`, its entries as `[[{group}.{name}.acknowledge]]`"),
                ),
            ),
        }
        record.untyped_removals = std::mem::take(&mut p.untyped);
        groups.insert(name.to_string(), (record, std::mem::take(&mut p.problems)));
    }
    (groups, whole)
}

/// Each group's record and its problems, by name ([`parse_grouped`]).
pub type Grouped = BTreeMap<String, (MigrationRecord, Vec<Problem>)>;

struct Parser<'a> {
    file: &'a str,
    lines: LineIndex,
    problems: Vec<Problem>,
    /// Warnings for free-text `removal` conditions.
    untyped: Vec<Problem>,
    /// The typed condition the last [`Parser::removal`] read.
    condition: Option<RemovalCondition>,
}

impl Parser<'_> {
    /// The TOML document, or `None` with the problem recorded.
    fn document(&mut self, text: &str) -> Option<toml_edit::Document<String>> {
        let e = match toml_edit::Document::parse(text.to_string()) {
            Ok(d) => return Some(d),
            Err(e) => e,
        };
        // A merge left git's markers in: say so, not what the TOML
        // parser makes of them (a marker line inside a multi-line
        // string parses, so only a record that does not is a conflict).
        if let Some(line) = crate::load::conflict_marker_line(text) {
            self.problems.push(
                Problem::invalid(self.file, Pos { line, column: 1 }, "unresolved merge-conflict marker")
                    .help("resolve the conflict: keep the entries of both sides and delete the `<<<<<<<`, `=======` and `>>>>>>>` lines, then re-run `cargo mcp-contract check`"),
            );
            return None;
        }
        let pos = self.pos(e.span().map(|s| s.start));
        let msg = e.message().trim().to_string();
        self.problems.push(
            Problem::invalid(self.file, pos, format!("invalid TOML: {msg}"))
                .help("fix the syntax; `cargo mcp-contract check` prints entries you can paste"),
        );
        None
    }

    fn version(&mut self, root: &dyn TableLike) {
        if let Some((v, pos)) = self.int(root, "version") {
            if v != RECORD_VERSION {
                self.problems.push(
                    Problem::invalid(self.file, pos, format!("unsupported record version {v}: this mcp-contract reads version {RECORD_VERSION}"))
                        .help("use `version = 1`, or the mcp-contract release that wrote this record"),
                );
            }
        }
    }

    /// A record's `[tools.NAME]` policies and `[[acknowledge]]` entries.
    fn body(&mut self, root: &dyn TableLike, record: &mut MigrationRecord) {
        let file = self.file;
        if let Some(item) = root.get("tools") {
            match item.as_table_like() {
                Some(tools) => {
                    for (name, item) in tools.iter() {
                        let pos = self.key_pos(tools, name);
                        match item.as_table_like() {
                            Some(t) => {
                                let policy = self.tool_policy(name, t, pos);
                                record.tools.insert(name.to_string(), policy);
                            }
                            None => self.problems.push(
                                Problem::invalid(file, pos, format!("`tools.{name}` must be a table"))
                                    .help(format!("write it as `[tools.{name}]` followed by keys such as owner = \"...\"")),
                            ),
                        }
                    }
                }
                None => self.type_error(item, "tools", "a table of tables (`[tools.NAME]`)"),
            }
        }
        if let Some(item) = root.get("acknowledge") {
            let mut seen: BTreeMap<String, Pos> = BTreeMap::new();
            for (table, pos) in self.tables_of(item, "acknowledge") {
                if let Some(entry) = self.entry(table, pos, &record.tools) {
                    let key = format!("{:?}", entry.selector);
                    if let Some(first) = seen.get(&key) {
                        self.problems.push(
                            Problem::invalid(
                                file,
                                entry.pos,
                                format!(
                                    "this entry acknowledges the same change as the entry at line {}",
                                    first.line
                                ),
                            )
                            .help("keep one of the two entries"),
                        );
                        continue;
                    }
                    seen.insert(key, entry.pos);
                    record.entries.push(entry);
                }
            }
        }
    }

    fn pos(&self, offset: Option<usize>) -> Pos {
        self.lines.pos(offset.unwrap_or(0))
    }

    fn key_pos(&self, t: &dyn TableLike, key: &str) -> Pos {
        let span = t.get_key_value(key).and_then(|(k, _)| k.span());
        self.pos(span.map(|s| s.start))
    }

    fn item_pos(&self, item: &Item) -> Pos {
        self.pos(item.span().map(|s| s.start))
    }

    fn unknown_keys(&mut self, t: &dyn TableLike, allowed: &[&str], context: &str) {
        for (key, _) in t.iter() {
            if allowed.contains(&key) {
                continue;
            }
            let pos = self.key_pos(t, key);
            let help = match did_you_mean(key, allowed) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("allowed keys: {}", allowed.join(", ")),
            };
            self.problems.push(
                Problem::invalid(self.file, pos, format!("unknown key `{key}` in {context}"))
                    .help(help),
            );
        }
    }

    fn type_error(&mut self, item: &Item, key: &str, expected: &str) {
        let pos = self.item_pos(item);
        self.problems.push(
            Problem::invalid(
                self.file,
                pos,
                format!("`{key}` must be {expected}, found {}", item.type_name()),
            )
            .help(format!("write `{key}` as {expected}")),
        );
    }

    /// A string value; empty strings are an error (they say nothing).
    fn string(&mut self, t: &dyn TableLike, key: &str) -> Option<(String, Pos)> {
        let item = t.get(key)?;
        let pos = self.item_pos(item);
        match item.as_str() {
            Some(s) if s.trim().is_empty() => {
                self.problems.push(
                    Problem::invalid(self.file, pos, format!("`{key}` is empty"))
                        .help(empty_help(key)),
                );
                None
            }
            Some(s) => Some((s.to_string(), pos)),
            None => {
                self.type_error(item, key, "a string");
                None
            }
        }
    }

    /// A string that may be empty (JSON pointers: `""` is the tool itself).
    fn raw_string(&mut self, t: &dyn TableLike, key: &str) -> Option<(String, Pos)> {
        let item = t.get(key)?;
        match item.as_str() {
            Some(s) => Some((s.to_string(), self.item_pos(item))),
            None => {
                self.type_error(item, key, "a string");
                None
            }
        }
    }

    fn boolean(&mut self, t: &dyn TableLike, key: &str) -> Option<bool> {
        let item = t.get(key)?;
        match item.as_bool() {
            Some(b) => Some(b),
            None => {
                self.type_error(item, key, "a boolean (`true` or `false`)");
                None
            }
        }
    }

    fn int(&mut self, t: &dyn TableLike, key: &str) -> Option<(i64, Pos)> {
        let item = t.get(key)?;
        match item.as_integer() {
            Some(v) => Some((v, self.item_pos(item))),
            None => {
                self.type_error(item, key, "an integer");
                None
            }
        }
    }

    /// A date: a TOML local date (`2025-06-30`) or a string `"2025-06-30"`.
    fn date(&mut self, t: &dyn TableLike, key: &str) -> Option<Date> {
        let item = t.get(key)?;
        let pos = self.item_pos(item);
        let parsed = if let Some(dt) = item.as_datetime() {
            match (dt.date, dt.time, dt.offset) {
                (Some(d), None, None) => Date::new(d.year, d.month, d.day),
                _ => None,
            }
        } else if let Some(s) = item.as_str() {
            Date::parse(s)
        } else {
            None
        };
        if parsed.is_none() {
            let shown = item
                .span()
                .and_then(|r| self.lines.text.get(r))
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|| item.type_name().to_string());
            self.problems.push(
                Problem::invalid(
                    self.file,
                    pos,
                    format!("`{key}` is not a valid date: {shown}"),
                )
                .help(format!(
                    "write a calendar date such as `{key} = 2026-06-30` (YYYY-MM-DD, no time)"
                )),
            );
        }
        parsed
    }

    /// `removal`: free text (read, with a warning showing the typed form)
    /// or a typed condition (left in `self.condition`). Returns the text
    /// descriptions show: the text, the condition's `note`, or the
    /// condition in words.
    fn removal(&mut self, t: &dyn TableLike) -> Option<String> {
        self.condition = None;
        let item = t.get("removal")?;
        let pos = self.item_pos(item);
        if item.as_str().is_some() {
            let (text, _) = self.string(t, "removal")?;
            let typed = typed_form(&text);
            self.untyped.push(Problem {
                level: Level::Warning,
                kind: ProblemKind::Stale,
                file: self.file.to_string(),
                pos,
                message: "`removal` is free text, which usage evidence cannot check".into(),
                help: Some(format!("write it typed: {typed}")),
            });
            return Some(text);
        }
        let Some(c) = item.as_table_like() else {
            self.type_error(
                item,
                "removal",
                "a table `{ quiet_for = \"30d\", ... }` (or text)",
            );
            return None;
        };
        let before = self.problems.len();
        self.unknown_keys(c, REMOVAL_KEYS, "a `removal` condition");
        let quiet_for = match c.get("quiet_for") {
            Some(_) => self.duration(c, "quiet_for"),
            None => {
                self.problems.push(
                    Problem::invalid(self.file, pos, "a `removal` condition needs `quiet_for`")
                        .help(
                        "add e.g. `quiet_for = \"30d\"`: how long no call may take the old path",
                    ),
                );
                None
            }
        };
        let min_coverage = self.duration(c, "min_coverage");
        let mut clients = vec![];
        if let Some(item) = c.get("clients") {
            match item.as_array() {
                Some(arr) => {
                    for v in arr.iter() {
                        match v.as_str() {
                            Some(s) if !s.trim().is_empty() => clients.push(s.to_string()),
                            _ => {
                                let p = self.pos(v.span().map(|s| s.start));
                                self.problems.push(
                                    Problem::invalid(
                                        self.file,
                                        p,
                                        "`clients` lists client names as non-empty strings",
                                    )
                                    .help("write e.g. `clients = [\"claude-desktop\"]`"),
                                );
                            }
                        }
                    }
                }
                None => self.type_error(item, "clients", "an array of client names"),
            }
        }
        let note = self.string(c, "note").map(|s| s.0);
        if let (Some(q), Some(m)) = (quiet_for, min_coverage) {
            if m > q {
                self.problems.push(
                    Problem::invalid(self.file, pos, format!("`min_coverage` ({m} days) is longer than `quiet_for` ({q} days)"))
                        .help("coverage is counted inside the quiet window: make min_coverage at most quiet_for"),
                );
            }
        }
        if self.problems.len() != before {
            return None;
        }
        let condition = RemovalCondition {
            quiet_for: quiet_for?,
            clients,
            min_coverage,
            note,
            pos,
        };
        let text = condition
            .note
            .clone()
            .unwrap_or_else(|| condition.describe());
        self.condition = Some(condition);
        Some(text)
    }

    /// A duration in whole days: `"30d"` or `"4w"`, 1 day to 10 years.
    fn duration(&mut self, t: &dyn TableLike, key: &str) -> Option<u32> {
        let item = t.get(key)?;
        let pos = self.item_pos(item);
        let days = item.as_str().and_then(|s| {
            let (n, unit) = match (s.strip_suffix('d'), s.strip_suffix('w')) {
                (Some(n), _) => (n, "d"),
                (_, Some(n)) => (n, "w"),
                _ => return None,
            };
            let n: u32 = n
                .parse()
                .ok()
                .filter(|_| n.bytes().all(|b| b.is_ascii_digit()))?;
            match unit {
                "d" => Some(n),
                "w" => n.checked_mul(7),
                _ => None,
            }
        });
        match days {
            Some(d) if (1..=3_660).contains(&d) => Some(d),
            _ => {
                self.problems.push(
                    Problem::invalid(
                        self.file,
                        pos,
                        format!("`{key}` is not a duration in days or weeks"),
                    )
                    .help(format!(
                        "write e.g. `{key} = \"30d\"` or `\"4w\"` (1 day to 10 years)"
                    )),
                );
                None
            }
        }
    }

    /// Every table in an array of tables (or an inline array of inline tables).
    fn tables_of<'d>(&mut self, item: &'d Item, key: &str) -> Vec<(&'d dyn TableLike, Pos)> {
        let mut out: Vec<(&dyn TableLike, Pos)> = vec![];
        if let Some(aot) = item.as_array_of_tables() {
            for t in aot.iter() {
                out.push((t as &dyn TableLike, self.pos(t.span().map(|s| s.start))));
            }
        } else if let Some(arr) = item.as_array() {
            for v in arr.iter() {
                match v.as_inline_table() {
                    Some(t) => out.push((t as &dyn TableLike, self.pos(v.span().map(|s| s.start)))),
                    None => {
                        let pos = self.pos(v.span().map(|s| s.start));
                        self.problems.push(
                            Problem::invalid(
                                self.file,
                                pos,
                                format!("every `{key}` entry must be a table"),
                            )
                            .help(format!(
                                "write each entry as `[[{key}]]` followed by its keys"
                            )),
                        );
                    }
                }
            }
        } else {
            self.type_error(item, key, &format!("an array of tables (`[[{key}]]`)"));
        }
        out
    }

    fn tool_policy(&mut self, name: &str, t: &dyn TableLike, pos: Pos) -> ToolPolicy {
        self.unknown_keys(t, TOOL_KEYS, &format!("`[tools.{name}]`"));
        let mut versions = vec![];
        if let Some(item) = t.get("versions") {
            match item.as_array() {
                Some(arr) => {
                    for v in arr.iter() {
                        match v.as_integer() {
                            Some(n) if n >= 1 => versions.push(n as u64),
                            _ => {
                                let p = self.pos(v.span().map(|s| s.start));
                                self.problems.push(
                                    Problem::invalid(
                                        self.file,
                                        p,
                                        "`versions` lists major versions as positive integers",
                                    )
                                    .help("write e.g. `versions = [1, 2]`"),
                                );
                            }
                        }
                    }
                }
                None => self.type_error(item, "versions", "an array of integers"),
            }
        }
        ToolPolicy {
            name: name.to_string(),
            owner: self.string(t, "owner").map(|s| s.0),
            versions,
            deprecated: self.date(t, "deprecated"),
            replacement: self.string(t, "replacement").map(|s| s.0),
            removal: self.removal(t),
            removal_condition: self.condition.take(),
            until: self.date(t, "until"),
            refuse_unknown_fields: self.boolean(t, "refuse_unknown_fields").unwrap_or(false),
            pos,
        }
    }

    fn entry(
        &mut self,
        t: &dyn TableLike,
        pos: Pos,
        tools: &BTreeMap<String, ToolPolicy>,
    ) -> Option<Entry> {
        let before = self.problems.len();
        self.unknown_keys(t, ENTRY_KEYS, "an `[[acknowledge]]` entry");
        let selector = self.selector(t, pos);
        let reason = self.string(t, "reason").map(|s| s.0);
        if reason.is_none() && t.get("reason").is_none() {
            self.problems.push(
                Problem::invalid(self.file, pos, "entry has no `reason`")
                    .help("say why this break is acceptable: `reason = \"...\"`"),
            );
        }
        let tool_owner = selector
            .as_ref()
            .and_then(|s| tools.get(s.tool()))
            .and_then(|p| p.owner.clone());
        let owner = match t.get("owner") {
            Some(_) => self.string(t, "owner").map(|s| s.0),
            None => {
                if tool_owner.is_none() {
                    self.problems.push(
                        Problem::invalid(self.file, pos, "entry has no `owner`")
                            .help("name who answers for this break: `owner = \"@team\"` (or set `owner` in `[tools.NAME]`)"),
                    );
                }
                tool_owner
            }
        };
        let rule = selector.as_ref().map(|s| s.rule().to_string());
        self.condition = None;
        let transition = match t.get("transition") {
            Some(item) => match item.as_table_like() {
                Some(tt) => {
                    let tpos = self.item_pos(item);
                    self.transition(tt, tpos, rule.as_deref().unwrap_or(""))
                }
                None => {
                    self.type_error(
                        item,
                        "transition",
                        "a table such as `{ kind = \"rename\", from = \"a\", to = \"b\" }`",
                    );
                    None
                }
            },
            None => {
                self.problems.push(
                    Problem::invalid(self.file, pos, "entry has no `transition`")
                        .help(format!("say which transition the change belongs to: `transition = {{ kind = \"...\" }}` with kind one of {}", KINDS.join(", "))),
                );
                None
            }
        };
        if let (Some(r), Some(tr)) = (rule.as_deref(), transition.as_ref()) {
            let target = crate::diff::Target::of_rule(r);
            if target != crate::diff::Target::Tool
                && !matches!(tr, Transition::Removal { .. } | Transition::Other { .. })
            {
                self.problems.push(
                    Problem::invalid(self.file, pos, format!("a `{}` transition does not apply to a {}", tr.kind(), target.as_str()))
                        .help("use `kind = \"removal\"` (the name becomes reserved) or `kind = \"other\"`"),
                );
            }
        }
        let removal_condition = self.condition.take();
        if let (Some(c), Some(sel), Some(tr)) = (&removal_condition, &selector, &transition) {
            // Decided when the change lands, on the rows of what it removes:
            // a condition nothing can decide would look enforced and not be.
            if tr.removes_now() && sel.removes().is_none() {
                self.problems.push(
                    Problem::invalid(
                        self.file,
                        c.pos,
                        format!(
                            "this removal condition cannot be decided: usage evidence counts calls that send a top-level argument (`field:NAME`) or call a tool, and the `{}` change at `{}` removes neither",
                            sel.rule(),
                            sel.place().0
                        ),
                    )
                    .help("remove the `removal` condition (the acknowledgement is the decision, `note` can say why), or write it on the entry that removes the argument (`input.property-removed`) or the tool (`tool.removed`)"),
                );
            }
        }
        let evidence = t.get("evidence").and_then(|item| {
            let lines = &self.lines;
            match super::evidence::read(item, self.file, &|span| {
                lines.pos(span.map_or(0, |s| s.start))
            }) {
                Ok(e) => Some(e),
                Err(problems) => {
                    self.problems.extend(problems);
                    None
                }
            }
        });
        if self.problems.len() != before {
            return None;
        }
        Some(Entry {
            removal_condition,
            evidence,
            selector: selector?,
            reason: reason?,
            owner: owner?,
            transition: transition?,
            pos,
        })
    }

    fn selector(&mut self, t: &dyn TableLike, pos: Pos) -> Option<Selector> {
        if let Some((f, fpos)) = self.string(t, "fingerprint") {
            if [
                "tool", "prompt", "resource", "rule", "pointer", "subject", "values", "from", "to",
            ]
            .iter()
            .any(|k| t.contains_key(k))
            {
                self.problems.push(
                    Problem::invalid(
                        self.file,
                        fpos,
                        "give either `fingerprint` or `tool`/`rule`/`pointer`/`subject`/`values`/`from`/`to`, not both",
                    )
                    .help("keep the one printed by `cargo mcp-contract check`"),
                );
                return None;
            }
            let rule = f.split(' ').next().unwrap_or("");
            if !self.known_rule(rule, fpos) || f.split(' ').count() < 3 {
                if f.split(' ').count() < 3 {
                    self.problems.push(
                        Problem::invalid(self.file, fpos, format!("`{f}` is not a change fingerprint"))
                            .help("a fingerprint is `RULE TOOL POINTER[ SUBJECT][ values=[...]][ from=\"...\" to=\"...\"]` as printed by `cargo mcp-contract check --format json`"),
                    );
                }
                return None;
            }
            return Some(Selector::Fingerprint(f));
        }
        let rule = self.string(t, "rule");
        let before_target = self.problems.len();
        let (target_key, tool) = self.target(t, pos, rule.as_ref().map(|r| r.0.as_str()));
        let target_reported = self.problems.len() != before_target;
        let pointer = self.raw_string(t, "pointer");
        let subject = self.string(t, "subject").map(|s| s.0);
        let detail = self.detail(t);
        let mut missing = vec![];
        for (k, v) in [
            (target_key, tool.is_some() || target_reported),
            ("rule", rule.is_some()),
            ("pointer", pointer.is_some()),
        ] {
            if !v && !t.contains_key(k) {
                missing.push(k);
            }
        }
        if !missing.is_empty() {
            self.problems.push(
                Problem::invalid(self.file, pos, format!("entry does not say which change it acknowledges (missing {})", missing.join(", ")))
                    .help("give `tool`, `rule` and `pointer` (and `subject` when the change has one) as printed by `cargo mcp-contract check`, or `fingerprint`"),
            );
        }
        let (rule, rpos) = rule?;
        if !self.known_rule(&rule, rpos) {
            return None;
        }
        let (pointer, ppos) = pointer?;
        if !pointer.is_empty() && !pointer.starts_with('/') {
            self.problems.push(
                Problem::invalid(self.file, ppos, format!("`pointer` must be a JSON pointer starting with `/` (or empty for the tool itself), found {pointer:?}"))
                    .help("copy the pointer the check printed, e.g. \"/inputSchema/properties/query\""),
            );
            return None;
        }
        Some(Selector::Change {
            tool: tool?.0,
            rule,
            pointer,
            subject,
            detail: detail?,
        })
    }

    /// The entry's target: `tool`, `prompt` (prompt rules) or `resource`
    /// (resource and template rules) naming the entry the change is about;
    /// server rules take none (their changes carry the id `(server)`).
    /// Returns the key the rule expects and the id given under it.
    fn target(
        &mut self,
        t: &dyn TableLike,
        pos: Pos,
        rule: Option<&str>,
    ) -> (&'static str, Option<(String, Pos)>) {
        use crate::diff::Target;
        let present: Vec<&'static str> = ["tool", "prompt", "resource"]
            .into_iter()
            .filter(|k| t.contains_key(k))
            .collect();
        let target = rule.map(Target::of_rule).unwrap_or(Target::Tool);
        let expected = target.as_str();
        if present.len() > 1 {
            self.problems.push(
                Problem::invalid(
                    self.file,
                    pos,
                    format!("entry names more than one target ({})", present.join(", ")),
                )
                .help(format!(
                    "keep only `{expected}`: an entry acknowledges changes of one {expected}"
                )),
            );
            return (expected, None);
        }
        if target == Target::Server {
            if let Some(k) = present.first() {
                self.problems.push(
                    Problem::invalid(self.file, pos, format!("`{k}` given for a server rule"))
                        .help("server rules concern the server section: remove the target key"),
                );
                return (expected, None);
            }
            return (
                expected,
                Some((crate::diff::server::SERVER_ID.to_string(), pos)),
            );
        }
        match present.first() {
            Some(k) if *k != expected => {
                self.problems.push(
                    Problem::invalid(
                        self.file,
                        pos,
                        format!(
                            "rule `{}` concerns a {expected}, but the entry names a {k}",
                            rule.unwrap_or("")
                        ),
                    )
                    .help(format!(
                        "write `{expected} = \"...\"` instead of `{k} = \"...\"`"
                    )),
                );
                (expected, None)
            }
            _ => (expected, self.string(t, expected)),
        }
    }

    /// `values`, `from` and `to`: what the acknowledged change changed.
    /// `Some(None)` when the entry gives none of them (a record written
    /// before they existed), `None` when one is malformed.
    fn detail(&mut self, t: &dyn TableLike) -> Option<Option<Detail>> {
        if !["values", "from", "to"].iter().any(|k| t.contains_key(k)) {
            return Some(None);
        }
        let mut ok = true;
        let values = match t.get("values") {
            None => vec![],
            Some(item) => match item.as_array() {
                Some(a) => a
                    .iter()
                    .map(|v| toml_to_json(&Item::Value(v.clone())))
                    .collect(),
                None => {
                    self.type_error(item, "values", "an array");
                    ok = false;
                    vec![]
                }
            },
        };
        let mut side = |key: &str| -> Option<String> {
            let item = t.get(key)?;
            match item.as_str() {
                Some(s) => Some(s.to_string()),
                None => {
                    self.type_error(item, key, "a string");
                    ok = false;
                    None
                }
            }
        };
        let (from, to) = (side("from"), side("to"));
        ok.then_some(Some(Detail { values, from, to }))
    }

    fn known_rule(&mut self, rule: &str, pos: Pos) -> bool {
        if rules::rule(rule).is_some() {
            return true;
        }
        let ids: Vec<&str> = rules::RULES.iter().map(|r| r.id).collect();
        let help = match did_you_mean(rule, &ids) {
            Some(s) => format!("did you mean `{s}`?"),
            None => "`cargo mcp-contract rules` lists every rule id".to_string(),
        };
        self.problems
            .push(Problem::invalid(self.file, pos, format!("unknown rule `{rule}`")).help(help));
        false
    }

    fn transition(&mut self, t: &dyn TableLike, pos: Pos, rule: &str) -> Option<Transition> {
        let Some((kind, kpos)) = self.string(t, "kind") else {
            if !t.contains_key("kind") {
                self.problems.push(
                    Problem::invalid(self.file, pos, "`transition` has no `kind`")
                        .help(format!("set kind to one of {}", KINDS.join(", "))),
                );
            }
            return None;
        };
        let allowed: &[&str] = match kind.as_str() {
            "rename" => &["kind", "from", "to", "until", "removal"],
            "default" => &["kind", "field", "value", "removal"],
            "major-version" => &["kind", "from", "to", "deprecated", "until", "removal"],
            "removal" => &["kind", "until", "removal", "replacement"],
            "other" => &["kind", "note"],
            _ => {
                let help = match did_you_mean(&kind, KINDS) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("kind is one of {}", KINDS.join(", ")),
                };
                self.problems.push(
                    Problem::invalid(self.file, kpos, format!("unknown transition kind `{kind}`"))
                        .help(help),
                );
                return None;
            }
        };
        self.unknown_keys(t, allowed, &format!("a `{kind}` transition"));
        let before = self.problems.len();
        let need = |p: &mut Self, key: &str| -> Option<String> {
            if !t.contains_key(key) {
                p.problems.push(
                    Problem::invalid(p.file, pos, format!("a `{kind}` transition needs `{key}`"))
                        .help(format!("add `{key} = \"...\"` to the transition")),
                );
                return None;
            }
            p.string(t, key).map(|s| s.0)
        };
        let transition = match kind.as_str() {
            "rename" => {
                let from = need(self, "from");
                let to = need(self, "to");
                let until = self.date(t, "until");
                let removal = self.removal(t);
                let target = if rule.starts_with("tool.") {
                    RenameTarget::Tool
                } else {
                    RenameTarget::Field
                };
                Transition::Rename {
                    target,
                    from: from?,
                    to: to?,
                    until,
                    removal,
                }
            }
            "default" => {
                let field = need(self, "field");
                let value = match t.get("value") {
                    Some(item) => Some(toml_to_json(item)),
                    None => {
                        self.problems.push(
                            Problem::invalid(self.file, pos, "a `default` transition needs `value` (the default the server applies)")
                                .help("add e.g. `value = \"pdf\"`"),
                        );
                        None
                    }
                };
                // (the condition is kept in `self.condition`; a default
                // has no free-text removal of its own to show)
                let _ = self.removal(t);
                Transition::Default {
                    field: field?,
                    value: value?,
                }
            }
            "major-version" => {
                let from = need(self, "from");
                let to = need(self, "to");
                Transition::MajorVersion {
                    deprecated: self.date(t, "deprecated"),
                    until: self.date(t, "until"),
                    removal: self.removal(t),
                    from: from?,
                    to: to?,
                }
            }
            "removal" => Transition::Removal {
                until: self.date(t, "until"),
                removal: self.removal(t),
                replacement: self.string(t, "replacement").map(|s| s.0),
            },
            _ => Transition::Other {
                note: self.string(t, "note").map(|s| s.0),
            },
        };
        (self.problems.len() == before).then_some(transition)
    }
}

/// The typed condition to write for a free-text `removal`:
/// `removal = { quiet_for = "30d", note = "<the text>" }` (the days the text
/// names, else a placeholder).
pub fn typed_form(text: &str) -> String {
    format!(
        "removal = {{ quiet_for = \"{}d\", note = {} }}",
        days_in_words(text).map_or("<days>".to_string(), |d| d.to_string()),
        super::suggest::toml_string(text)
    )
}

/// The number of days a free-text condition names (`for 30 days`).
fn days_in_words(text: &str) -> Option<u32> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.windows(2).find_map(|w| {
        let unit = w[1].trim_end_matches(|c: char| !c.is_alphanumeric());
        match unit {
            "day" | "days" => w[0].parse().ok(),
            "week" | "weeks" => w[0].parse::<u32>().ok()?.checked_mul(7),
            _ => None,
        }
    })
}

/// A TOML value as JSON (dates become strings).
pub fn toml_to_json(item: &Item) -> Value {
    match item {
        Item::Value(v) => value_to_json(v),
        Item::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), toml_to_json(v)))
                .collect(),
        ),
        Item::ArrayOfTables(a) => Value::Array(
            a.iter()
                .map(|t| {
                    Value::Object(
                        t.iter()
                            .map(|(k, v)| (k.to_string(), toml_to_json(v)))
                            .collect(),
                    )
                })
                .collect(),
        ),
        Item::None => Value::Null,
    }
}

fn value_to_json(v: &toml_edit::Value) -> Value {
    use toml_edit::Value as V;
    match v {
        V::String(s) => Value::String(s.value().clone()),
        V::Integer(i) => Value::from(*i.value()),
        V::Float(f) => serde_json::Number::from_f64(*f.value())
            .map(Value::Number)
            .unwrap_or(Value::Null),
        V::Boolean(b) => Value::Bool(*b.value()),
        V::Datetime(d) => Value::String(d.value().to_string()),
        V::Array(a) => Value::Array(a.iter().map(value_to_json).collect()),
        V::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_string(), value_to_json(v)))
                .collect(),
        ),
    }
}

/// Byte offset -> 1-based line and column (in characters).
struct LineIndex {
    starts: Vec<usize>,
    text: String,
}

impl LineIndex {
    fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex {
            starts,
            text: text.to_string(),
        }
    }

    fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(0)
            + 1;
        Pos { line, column }
    }
}

#[cfg(test)]
mod removal_tests {
    use super::*;

    fn record(removal: &str) -> (MigrationRecord, Vec<Problem>) {
        let text = format!(
            "version = 1\n[tools.search]\nowner = \"@t\"\nremoval = {removal}\n\n[[acknowledge]]\ntool = \"search\"\nrule = \"input.property-removed\"\npointer = \"/inputSchema/properties/query\"\nsubject = \"query\"\nreason = \"r\"\ntransition = {{ kind = \"rename\", from = \"query\", to = \"search_text\", removal = {removal} }}\n"
        );
        parse(&text, "m.toml")
    }

    #[test]
    fn a_typed_condition_is_read_on_tools_and_transitions() {
        let (r, problems) =
            record(r#"{ quiet_for = "30d", clients = ["claude-desktop"], min_coverage = "1w" }"#);
        assert!(problems.is_empty(), "{problems:?}");
        assert!(r.untyped_removals.is_empty());
        let c = r.tools["search"].removal_condition.clone().unwrap();
        assert_eq!(
            (c.quiet_for, c.min_coverage, c.coverage_needed()),
            (30, Some(7), 7)
        );
        assert_eq!(c.clients, ["claude-desktop"]);
        let e = r.entries[0].removal_condition.clone().unwrap();
        assert_eq!(
            (e.quiet_for, e.min_coverage, e.clients),
            (30, Some(7), c.clients)
        );
        let Transition::Rename { removal, .. } = &r.entries[0].transition else {
            panic!("a rename")
        };
        assert_eq!(
            removal.as_deref(),
            Some(
                "no calls from claude-desktop for 30 days (with usage data for at least 7 of them)"
            )
        );
        let (r, _) = record(r#"{ quiet_for = "30d", note = "no calls using query" }"#);
        assert_eq!(
            r.tools["search"].removal.as_deref(),
            Some("no calls using query")
        );
        assert_eq!(
            r.tools["search"]
                .removal_condition
                .as_ref()
                .unwrap()
                .coverage_needed(),
            30
        );
    }

    #[test]
    fn free_text_still_parses_with_a_warning_showing_the_typed_form() {
        let (r, problems) = record(r#""no calls using query for 30 days""#);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(r.entries.len(), 1);
        assert!(r.tools["search"].removal_condition.is_none());
        assert_eq!(r.untyped_removals.len(), 2);
        let w = &r.untyped_removals[0];
        assert_eq!((w.level, w.pos.line), (Level::Warning, 4));
        assert_eq!(
            w.help.as_deref(),
            Some("write it typed: removal = { quiet_for = \"30d\", note = \"no calls using query for 30 days\" }")
        );
    }

    #[test]
    fn every_bad_condition_is_reported_at_once() {
        let (r, problems) =
            record(r#"{ quiet_for = "30 days", clients = [""], min_coverage = "7d", qiet = 1 }"#);
        assert!(r.entries.is_empty());
        let messages: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
        let all = messages.join("\n");
        assert!(
            all.contains("m.toml:4:") && all.contains("m.toml:12:"),
            "{all}"
        );
        assert!(all.contains("`quiet_for` is not a duration"), "{all}");
        assert!(all.contains("`clients` lists client names"), "{all}");
        assert!(
            all.contains("unknown key `qiet`")
                && all.contains("allowed keys: quiet_for, clients, min_coverage, note"),
            "{all}"
        );
        let (_, problems) = record(r#"{ min_coverage = "40d", quiet_for = "30d" }"#);
        assert!(
            problems[0].message.contains("longer than `quiet_for`"),
            "{problems:?}"
        );
        for bad in ["30é", "é", "d", "-3d", "0d", "3661d"] {
            let (_, problems) = record(&format!("{{ quiet_for = \"{bad}\" }}"));
            assert!(
                problems[0].message.contains("not a duration"),
                "{bad}: {problems:?}"
            );
        }
        let (_, problems) = record(r#"{ clients = ["a"] }"#);
        assert!(
            problems[0].message.contains("needs `quiet_for`"),
            "{problems:?}"
        );
    }

    /// A removal entry's condition is decided on the rows of what its
    /// change removes; one whose change removes nothing usage evidence
    /// counts is an error at the condition.
    #[test]
    fn a_condition_nothing_can_decide_is_an_error_at_its_place() {
        let entry = |rule: &str, pointer: &str, subject: &str, kind: &str| {
            format!("[[acknowledge]]\ntool = \"search\"\nrule = \"{rule}\"\npointer = \"{pointer}\"\nsubject = \"{subject}\"\nreason = \"r\"\nowner = \"@o\"\ntransition = {{ kind = \"{kind}\", removal = {{ quiet_for = \"30d\" }} }}\n")
        };
        let parse = |text: &str| super::parse(text, "m.toml");
        for (rule, pointer, subject) in [
            (
                "input.property-removed",
                "/inputSchema/properties/query",
                "query",
            ),
            (
                "input.property-removed",
                "/inputSchema/properties/a~1b",
                "a/b",
            ),
            ("tool.removed", "", "search"),
        ] {
            let (r, problems) = parse(&entry(rule, pointer, subject, "removal"));
            assert!(problems.is_empty(), "{rule} {pointer}: {problems:?}");
            assert!(r.entries[0].selector.removes().is_some());
        }
        for (rule, pointer, subject) in [
            (
                "input.property-removed",
                "/inputSchema/properties/filter/properties/query",
                "query",
            ),
            (
                "output.property-removed",
                "/outputSchema/properties/total",
                "total",
            ),
            (
                "input.enum-narrowed",
                "/inputSchema/properties/mode/enum",
                "mode",
            ),
        ] {
            let (r, problems) = parse(&entry(rule, pointer, subject, "removal"));
            assert!(r.entries.is_empty(), "{rule}");
            assert_eq!(problems.len(), 1, "{problems:?}");
            let p = &problems[0];
            assert_eq!((p.level, p.kind), (Level::Error, ProblemKind::Invalid));
            assert_eq!((p.pos.line, p.pos.column), (8, 44), "{p}");
            assert!(p.message.contains("cannot be decided"), "{p}");
            assert!(p.message.contains(rule), "{p}");
        }
    }
}
