//! `evidence = { sha256 = "...", from = 2026-10-01, to = 2026-11-30 }` on an
//! `[[acknowledge]]` entry: the usage evidence that allowed a deprecated
//! path to be removed, kept in the record so the history shows why the
//! removal was allowed. `sha256` is the digest of the merged evidence in
//! canonical JSON ([`crate::check::usage`] computes it), `from`/`to` its
//! range. `cargo mcp-contract check --usage FILE... --record-evidence`
//! writes it; the gate compares it with the evidence it was given.
//! `file = "usage/<digest>.json"` (optional, relative to the record's
//! directory) names that evidence committed beside the record, so a plain
//! `check` (the hook, CI) decides on it without `--usage`.
//!
//! Validated like the rest of the record: every problem at once, at its
//! line and column, unknown keys listed.

use toml_edit::Item;

use super::model::{Pos, Problem};
use crate::date::Date;

/// The keys of an `evidence` record.
pub const EVIDENCE_KEYS: &[&str] = &["sha256", "from", "to", "file"];

/// The usage evidence a removal was cleared on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvidenceRecord {
    /// Lowercase hex SHA-256 of the merged evidence's canonical JSON.
    pub sha256: String,
    /// The first and last day the evidence covers.
    pub from: Date,
    pub to: Date,
    /// The evidence committed beside the record: a relative path under the
    /// record's directory, `/`-separated, ending in `.json`.
    pub file: Option<String>,
    /// Where the `evidence` key is.
    pub pos: Pos,
}

impl EvidenceRecord {
    /// The record as the line to write into an entry:
    /// `evidence = { sha256 = "...", from = 2026-10-01, to = 2026-11-30 }`.
    pub fn toml_line(&self) -> String {
        let file = match &self.file {
            Some(f) => format!(", file = \"{f}\""),
            None => String::new(),
        };
        format!(
            "evidence = {{ sha256 = \"{}\", from = {}, to = {}{file} }}",
            self.sha256, self.from, self.to
        )
    }

    /// Does it record the same evidence (position and committed file aside)?
    pub fn same(&self, other: &EvidenceRecord) -> bool {
        (self.sha256.as_str(), self.from, self.to) == (other.sha256.as_str(), other.from, other.to)
    }
}

/// Reads the `evidence` value of an entry; `pos` turns a span into a
/// position. Returns the record or every problem found.
pub fn read(
    item: &Item,
    file: &str,
    pos: &dyn Fn(Option<std::ops::Range<usize>>) -> Pos,
) -> Result<EvidenceRecord, Vec<Problem>> {
    let at = pos(item.span());
    let example = "evidence = { sha256 = \"<64 hex digits>\", from = 2026-10-01, to = 2026-11-30 }";
    let Some(t) = item.as_table_like() else {
        return Err(vec![Problem::invalid(
            file,
            at,
            format!("`evidence` must be a table, found {}", item.type_name()),
        )
        .help(format!(
            "write {example}, or let `cargo mcp-contract check --usage FILE... --record-evidence` write it"
        ))]);
    };
    let mut problems = vec![];
    for (key, _) in t.iter() {
        if EVIDENCE_KEYS.contains(&key) {
            continue;
        }
        let kpos = pos(t.get_key_value(key).and_then(|(k, _)| k.span()));
        let help = match crate::suggest::did_you_mean(key, EVIDENCE_KEYS) {
            Some(s) => format!(
                "did you mean `{s}`? allowed keys: {}",
                EVIDENCE_KEYS.join(", ")
            ),
            None => format!("allowed keys: {}", EVIDENCE_KEYS.join(", ")),
        };
        problems.push(
            Problem::invalid(file, kpos, format!("unknown key `{key}` in `evidence`")).help(help),
        );
    }
    let missing = |problems: &mut Vec<Problem>, key: &str| {
        problems.push(
            Problem::invalid(file, at, format!("`evidence` needs `{key}`"))
                .help(format!("write {example}")),
        );
    };
    let sha256 = match t.get("sha256") {
        None => {
            missing(&mut problems, "sha256");
            None
        }
        Some(v) => match v.as_str() {
            Some(s)
                if s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) =>
            {
                Some(s.to_string())
            }
            _ => {
                problems.push(
                    Problem::invalid(
                        file,
                        pos(v.span()),
                        "`sha256` must be 64 lowercase hex digits (the digest `check --usage` prints)",
                    )
                    .help("copy the line the check prints, or run it with --record-evidence"),
                );
                None
            }
        },
    };
    let mut date = |key: &str| -> Option<Date> {
        let Some(v) = t.get(key) else {
            missing(&mut problems, key);
            return None;
        };
        let parsed = match (v.as_datetime(), v.as_str()) {
            (Some(dt), _) => match (dt.date, dt.time, dt.offset) {
                (Some(d), None, None) => Date::new(d.year, d.month, d.day),
                _ => None,
            },
            (None, Some(s)) => Date::parse(s),
            _ => None,
        };
        if parsed.is_none() {
            problems.push(
                Problem::invalid(file, pos(v.span()), format!("`{key}` is not a valid date")).help(
                    format!(
                        "write a calendar date such as `{key} = 2026-11-30` (YYYY-MM-DD, no time)"
                    ),
                ),
            );
        }
        parsed
    };
    let (from, to) = (date("from"), date("to"));
    let committed = match t.get("file") {
        None => None,
        Some(v) => match v.as_str().filter(|f| committed_path_ok(f)) {
            Some(f) => Some(f.to_string()),
            None => {
                problems.push(
                    Problem::invalid(
                        file,
                        pos(v.span()),
                        "`file` must be a relative path inside the record's directory, ending in .json (`usage/<digest>.json`)",
                    )
                    .help("let `cargo mcp-contract check --usage FILE... --record-evidence` write the file and this key"),
                );
                None
            }
        },
    };
    if let (Some(f), Some(t)) = (from, to) {
        if f > t {
            problems.push(
                Problem::invalid(
                    file,
                    at,
                    format!("`evidence` runs backwards: from {f} is after to {t}"),
                )
                .help("swap `from` and `to`"),
            );
        }
    }
    match (sha256, from, to) {
        (Some(sha256), Some(from), Some(to)) if problems.is_empty() => Ok(EvidenceRecord {
            sha256,
            from,
            to,
            file: committed,
            pos: at,
        }),
        _ => Err(problems),
    }
}

/// A committed evidence path: relative, `/`-separated, plain components
/// (no `..`, `.`, empty or hidden ones), a `.json` file.
fn committed_path_ok(f: &str) -> bool {
    f.len() <= 200
        && f.ends_with(".json")
        && f.split('/').all(|c| {
            !c.is_empty()
                && !c.starts_with('.')
                && c.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        })
}

#[cfg(test)]
mod tests {
    use crate::migrations::parse;

    fn record(evidence: &str) -> (crate::migrations::MigrationRecord, Vec<String>) {
        let text = format!(
            "[[acknowledge]]\ntool = \"search\"\nrule = \"input.property-removed\"\npointer = \"/inputSchema/properties/query\"\nsubject = \"query\"\nreason = \"r\"\nowner = \"@o\"\ntransition = {{ kind = \"removal\" }}\nevidence = {evidence}\n"
        );
        let (r, problems) = parse(&text, "m.toml");
        (r, problems.iter().map(|p| p.to_string()).collect())
    }

    #[test]
    fn a_good_record_is_read_with_its_place() {
        let sha = "0123456789abcdef".repeat(4);
        let (r, problems) = record(&format!(
            "{{ sha256 = \"{sha}\", from = 2026-10-01, to = \"2026-11-30\" }}"
        ));
        assert!(problems.is_empty(), "{problems:?}");
        let e = r.entries[0].evidence.clone().unwrap();
        assert_eq!(
            (e.sha256.as_str(), e.from.to_string(), e.to.to_string()),
            (sha.as_str(), "2026-10-01".into(), "2026-11-30".into())
        );
        assert_eq!((e.pos.line, e.pos.column), (9, 12));
        assert_eq!(
            e.toml_line(),
            format!("evidence = {{ sha256 = \"{sha}\", from = 2026-10-01, to = 2026-11-30 }}")
        );
    }

    #[test]
    fn every_problem_is_reported_at_its_place() {
        let (r, problems) =
            record("{ sha256 = \"ABC\", from = \"2026-11-31\", to = 2026-11-01, form = 1 }");
        assert!(r.entries.is_empty());
        let all = problems.join("\n");
        for want in [
            "m.toml:9:23: `sha256` must be 64 lowercase hex digits",
            "m.toml:9:37: `from` is not a valid date",
            "unknown key `form` in `evidence`",
            "did you mean `from`? allowed keys: sha256, from, to, file",
        ] {
            assert!(all.contains(want), "{want:?} not in:\n{all}");
        }
        let (_, problems) = record("{ sha256 = \"00\" }");
        let all = problems.join("\n");
        assert!(all.contains("`evidence` needs `from`"), "{all}");
        assert!(all.contains("`evidence` needs `to`"), "{all}");
        let (_, problems) = record("\"yesterday\"");
        assert!(
            problems[0].contains("`evidence` must be a table"),
            "{problems:?}"
        );
        let sha = "0".repeat(64);
        let (_, problems) = record(&format!(
            "{{ sha256 = \"{sha}\", from = 2026-11-30, to = 2026-11-01 }}"
        ));
        assert!(problems[0].contains("runs backwards"), "{problems:?}");
        for bad in [
            "../x.json",
            "/abs.json",
            "usage/x.txt",
            "usage//x.json",
            "usage/.x.json",
            "a\\\\b.json",
        ] {
            let (r, problems) = record(&format!(
                "{{ sha256 = \"{sha}\", from = 2026-11-01, to = 2026-11-30, file = \"{bad}\" }}"
            ));
            assert!(r.entries.is_empty(), "{bad}");
            assert!(
                problems[0]
                    .contains("`file` must be a relative path inside the record's directory"),
                "{bad}: {problems:?}"
            );
        }
        let (r, problems) = record(&format!(
            "{{ sha256 = \"{sha}\", from = 2026-11-01, to = 2026-11-30, file = \"usage/0000.json\" }}"
        ));
        assert!(problems.is_empty(), "{problems:?}");
        let e = r.entries[0].evidence.clone().unwrap();
        assert_eq!(e.file.as_deref(), Some("usage/0000.json"));
        assert!(e.toml_line().ends_with(", file = \"usage/0000.json\" }"));
    }
}
