//! Evidence that travels with the record. `--record-evidence` commits the
//! evidence a removal was cleared on beside the record
//! (`contracts/usage/<digest>.json`) and names it in the entry,
//! `evidence = { sha256, from, to, file }`, so the next `check` without
//! `--usage` (the pre-commit hook, CI, a teammate) decides on the same
//! counts instead of refusing for want of machine-local files.
//!
//! [`read`] reads every file the record's entries name, from where the
//! record is read (the working tree, or the staged copy under `--staged`),
//! and holds each to its entry: a file that is missing, unreadable, not
//! usage evidence, or whose counts do not have the entry's digest and range
//! is an error at the entry's line, never evidence. The digest is taken of
//! the counts in canonical JSON, as for `--usage`, so a line-ending
//! conversion by git does not change it; a changed count does.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::InputError;
use crate::migrations::MigrationRecord;
use crate::usage::Evidence;

/// One committed evidence file, read and verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    /// The file as reports name it (`contracts/usage/2c2afd054aedc422.json`).
    pub file: String,
    pub evidence: Evidence,
}

/// The committed evidence of `record`'s entries, by entry index, read under
/// `dir` (the directory the record is read from) and named under
/// `shown_dir` (the record's directory as reports name it; `""` at the
/// root); `root` confines them (no link out of the repository). Also every
/// entry whose file is not its evidence, as an error at its line.
pub fn read(
    record: &MigrationRecord,
    dir: &Path,
    shown_dir: &str,
    root: Option<&Path>,
) -> (BTreeMap<usize, Committed>, Vec<InputError>) {
    let mut found = BTreeMap::new();
    let mut errors = vec![];
    for (i, entry) in record.entries.iter().enumerate() {
        let Some(rec) = &entry.evidence else {
            continue;
        };
        let Some(name) = &rec.file else {
            continue;
        };
        let shown = match shown_dir {
            "" => name.clone(),
            d => format!("{d}/{name}"),
        };
        let at = |message: String, fix: &str| {
            InputError::new(&record.file, message)
                .at(format!("line {}, column {}", rec.pos.line, rec.pos.column))
                .fix(fix)
        };
        let path = dir.join(name);
        if let Some(root) = root {
            if let Err(e) = crate::confine::inside(&path, root, "committed usage evidence") {
                errors.push(e);
                continue;
            }
        }
        let evidence = match crate::usage::read(&path) {
            Ok(e) => e,
            Err(_) if !path.exists() => {
                errors.push(at(
                    format!("the entry's evidence file {shown} does not exist"),
                    "commit the file `--record-evidence` wrote beside the record (`git add` it), or run `cargo mcp-contract check --usage FILE... --record-evidence` again",
                ));
                continue;
            }
            Err(e) => {
                errors.push(at(
                    format!("the entry's evidence file {shown} is not usage evidence: {e}"),
                    "restore the file `--record-evidence` wrote (`git checkout -- FILE`), or run `cargo mcp-contract check --usage FILE... --record-evidence` again",
                ));
                continue;
            }
        };
        let got = super::record::expected(&evidence);
        if !got.same(rec) {
            errors.push(at(
                format!(
                    "the entry's evidence file {shown} does not hold the evidence the entry records: the entry says sha256 {} ({}..{}), the file's counts have sha256 {} ({}..{})",
                    rec.sha256, rec.from, rec.to, got.sha256, got.from, got.to
                ),
                "restore the file the removal was cleared on (`git checkout -- FILE`), or decide again on the evidence: `cargo mcp-contract check --usage FILE... --record-evidence`",
            ));
            continue;
        }
        found.insert(
            i,
            Committed {
                file: shown,
                evidence,
            },
        );
    }
    (found, errors)
}
