//! The evidence a cleared removal was decided on, kept in the record: its
//! digest (SHA-256 of the merged evidence as canonical JSON, so the same
//! counts give the same digest however the files were split or formatted)
//! and range, compared with the entry's `evidence = { ... }` and, with
//! `--record-evidence`, written into it. The write edits the TOML in place
//! with `toml_edit` (comments, order and formatting kept), only when
//! something changes, atomically. The evidence itself is committed beside
//! the record ([`write_committed`], `usage/<digest>.json` in the record's
//! directory, canonical JSON) and named by the entry's `file`, so a check
//! without `--usage` decides on it ([`super::committed`]).

use std::path::Path;

use crate::migrations::{EvidenceRecord, Pos};
use crate::usage::Evidence;

/// The record of `evidence` (its position is not known yet; no file).
pub fn expected(evidence: &Evidence) -> EvidenceRecord {
    let sha256 = crate::canonical::sha256_hex(&canonical_text(evidence));
    EvidenceRecord {
        sha256,
        from: evidence.from,
        to: evidence.to,
        file: None,
        pos: Pos::default(),
    }
}

/// The evidence as the canonical JSON its digest is taken of.
pub fn canonical_text(evidence: &Evidence) -> String {
    crate::canonical::to_canonical_string(&evidence.to_json())
}

/// Where evidence with digest `sha256` is committed, relative to the
/// record's directory.
pub fn committed_name(sha256: &str) -> String {
    format!("usage/{}.json", &sha256[..sha256.len().min(16)])
}

/// Writes `evidence` as `name` under `record_dir` (only when it is not
/// there already with these counts); returns whether it wrote.
pub fn write_committed(record_dir: &Path, name: &str, evidence: &Evidence) -> Result<bool, String> {
    let path = record_dir.join(name);
    let text = canonical_text(evidence);
    if std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
        return Ok(false);
    }
    let shown = path.display();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("{shown}: cannot create its directory: {e}"))?;
    }
    crate::atomic::write(&path, text.as_bytes())
        .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    Ok(true)
}

/// Writes `record` as the `evidence` of the `[[acknowledge]]` entries that
/// start on `lines` of the record at `path`. Returns whether the file
/// changed. Nothing is written when an entry cannot be found or the text
/// is not TOML.
pub fn write(path: &Path, lines: &[usize], record: &EvidenceRecord) -> Result<bool, String> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: cannot read: {e}"))?;
    let indices = entry_indices(&text, lines).map_err(|e| format!("{shown}: {e}"))?;
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| format!("{shown}: {}", e.message()))?;
    let value = toml_value(record);
    let entries = &mut doc["acknowledge"];
    for i in indices {
        if let Some(aot) = entries.as_array_of_tables_mut() {
            if let Some(t) = aot.get_mut(i) {
                t.insert("evidence", toml_edit::Item::Value(value.clone()));
            }
        } else if let Some(arr) = entries.as_array_mut() {
            if let Some(t) = arr
                .get_mut(i)
                .and_then(toml_edit::Value::as_inline_table_mut)
            {
                t.insert("evidence", value.clone());
            }
        }
    }
    let new = doc.to_string();
    if new == text {
        return Ok(false);
    }
    crate::atomic::write(path, new.as_bytes())
        .map_err(|e| format!("{shown}: cannot write: {e}"))?;
    Ok(true)
}

/// The positions in the `acknowledge` array of the entries starting on `lines`.
fn entry_indices(text: &str, lines: &[usize]) -> Result<Vec<usize>, String> {
    let doc = toml_edit::Document::parse(text).map_err(|e| e.message().to_string())?;
    let line_of = |start: usize| text[..start.min(text.len())].matches('\n').count() + 1;
    let starts: Vec<usize> = match doc.as_table().get("acknowledge") {
        Some(item) => match (item.as_array_of_tables(), item.as_array()) {
            (Some(aot), _) => aot
                .iter()
                .map(|t| line_of(t.span().map_or(0, |s| s.start)))
                .collect(),
            (None, Some(arr)) => arr
                .iter()
                .map(|v| line_of(v.span().map_or(0, |s| s.start)))
                .collect(),
            _ => vec![],
        },
        None => vec![],
    };
    lines
        .iter()
        .map(|l| {
            starts
                .iter()
                .position(|s| s == l)
                .ok_or_else(|| format!("no `[[acknowledge]]` entry starts on line {l} any more"))
        })
        .collect()
}

/// `{ sha256 = "...", from = 2026-10-01, to = 2026-11-30 }`.
fn toml_value(r: &EvidenceRecord) -> toml_edit::Value {
    let date = |d: crate::date::Date| {
        toml_edit::Value::from(toml_edit::Datetime {
            date: Some(toml_edit::Date {
                year: d.year,
                month: d.month,
                day: d.day,
            }),
            time: None,
            offset: None,
        })
    };
    let mut t = toml_edit::InlineTable::new();
    t.insert("sha256", toml_edit::Value::from(r.sha256.as_str()));
    t.insert("from", date(r.from));
    t.insert("to", date(r.to));
    if let Some(f) = &r.file {
        t.insert("file", toml_edit::Value::from(f.as_str()));
    }
    t.fmt();
    toml_edit::Value::InlineTable(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::Date;

    fn d(s: &str) -> Date {
        Date::parse(s).unwrap()
    }

    #[test]
    fn the_digest_is_the_counts_not_the_layout() {
        let a = crate::usage::parse(
            r#"{"format": "mcp-contract-usage", "version": 1,
                "range": {"from": "2026-11-01", "to": "2026-11-02"},
                "hits": [{"tool": "t", "path": "field:q", "client": "c", "day": "2026-11-01", "count": 2}]}"#,
            "a",
        )
        .unwrap();
        let b = crate::usage::parse(&a.to_json().to_string(), "b").unwrap();
        assert_eq!(expected(&a), expected(&b));
        let mut c = a.clone();
        c.add(
            crate::usage::Key {
                tool: "t".into(),
                path: "field:q".into(),
                client: "c".into(),
            },
            d("2026-11-02"),
            1,
        );
        assert_ne!(expected(&a).sha256, expected(&c).sha256);
        assert_eq!(expected(&a).sha256.len(), 64);
    }

    #[test]
    fn writes_into_the_entry_keeping_everything_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("migrations.toml");
        let text = "# the record\nversion = 1\n\n[[acknowledge]]\ntool = \"a\" # first\nrule = \"tool.removed\"\n\n[[acknowledge]]\ntool = \"b\"\nrule = \"tool.removed\"\n";
        std::fs::write(&path, text).unwrap();
        let r = EvidenceRecord {
            sha256: "ab".repeat(32),
            from: d("2026-10-01"),
            to: d("2026-11-30"),
            file: None,
            pos: Pos::default(),
        };
        assert!(write(&path, &[8], &r).unwrap());
        let written = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            written,
            text.to_string() + &format!("{}\n", r.toml_line()),
            "appended to the second entry only"
        );
        // the same again changes nothing
        assert!(!write(&path, &[8], &r).unwrap());
        // a different digest replaces the value in place
        let r2 = EvidenceRecord {
            sha256: "cd".repeat(32),
            ..r.clone()
        };
        assert!(write(&path, &[8], &r2).unwrap());
        let again = std::fs::read_to_string(&path).unwrap();
        assert_eq!(again, written.replace(&r.sha256, &r2.sha256));
        // an entry that is not there: nothing written
        let err = write(&path, &[3], &r).unwrap_err();
        assert!(
            err.contains("no `[[acknowledge]]` entry starts on line 3"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), again);
    }
}
