//! The files a check starts from that people edit or merge by hand (the
//! migration record, the lockfile), judged before anything is derived from
//! them. Everything after (the build step's freshness, the gate, the
//! fixtures) reads them again, so a typo or a merge conflict let through
//! here would come back as its own consequences: a "stale" lockfile,
//! correct entries matching no change, pointers moved by an alias the bad
//! entry no longer takes out, the same error once per reader. First cause
//! first: when these files are bad, their errors are the whole report.

use std::path::Path;

use super::run::RunError;
use crate::git::Repo;
use crate::migrations::{self, Level, Problem};

/// Every error in the record beside `lockfile` (all of them, in one pass)
/// and an unresolved merge conflict in the lockfile itself. `lockfile` is
/// where to read (a staged copy, say); `shown` is the lockfile as the
/// report names it, and the record is named beside it. A file that is not
/// there is no error here (the steps after say what a missing lockfile means).
///
/// `confine`: the files are read only when they resolve inside the git
/// work tree around `lockfile` (a pull request must not make the check read,
/// and quote, a file elsewhere through a link); a link leading out is the
/// error. Without it (a staged copy of the index) they are read as they are.
pub fn first_causes(
    lockfile: &Path,
    shown: &str,
    package: Option<&str>,
    confine: bool,
) -> Vec<RunError> {
    let record_shown = migrations::path_for(Path::new(shown)).display().to_string();
    let record = migrations::path_for(lockfile);
    if confine {
        let at = lockfile.parent().filter(|p| !p.as_os_str().is_empty());
        // (outside a work tree, the steps after say so)
        let Ok(repo) = Repo::discover(at.unwrap_or(Path::new("."))) else {
            return vec![];
        };
        for (path, what, named) in [
            (lockfile, "lockfile", shown),
            (record.as_path(), "migration record", record_shown.as_str()),
        ] {
            if let Err(mut e) = crate::confine::inside(path, &repo.root, what) {
                e.file = named.to_string();
                return vec![RunError::input(package, &e)];
            }
        }
    }
    let mut errors: Vec<RunError> = match read_text(&record) {
        Ok(Some(text)) => {
            // In the file's order (the parser reads `[tools.*]` first).
            let mut problems = migrations::parse(&text, &record_shown).1;
            problems.retain(|p| p.level == Level::Error);
            problems.sort_by_key(|p| p.pos);
            problems.iter().map(|p| problem(package, p)).collect()
        }
        Ok(None) => vec![],
        Err(why) => vec![RunError::text(
            package,
            &record_shown,
            format!("{record_shown}: {why}"),
        )],
    };
    // (an unreadable lockfile is for the steps after to report, as they do
    // for a missing one)
    if let Ok(Some(text)) = read_text(lockfile) {
        if let Err(e) = crate::load::reject_conflict(&text, shown) {
            errors.push(RunError::input(package, &e));
        }
    }
    errors
}

/// A record problem as a run error: its file, line and column, and the
/// diagnostic as `check` prints record problems.
fn problem(package: Option<&str>, p: &Problem) -> RunError {
    let mut text = format!("{}:{}: {}", p.file, p.pos, p.message);
    if let Some(help) = &p.help {
        text.push_str(&format!("\n  help: {help}"));
    }
    RunError {
        package: package.map(str::to_string),
        file: p.file.clone(),
        line: Some(p.pos.line),
        column: Some(p.pos.column),
        text,
    }
}

/// The file's text; `None` when it does not exist.
fn read_text(path: &Path) -> Result<Option<String>, String> {
    match crate::limits::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| "file is not valid UTF-8\n  help: save it as UTF-8".to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!(
            "cannot read it: {e}\n  help: check that the file is readable"
        )),
    }
}
