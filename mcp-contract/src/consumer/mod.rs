//! The other side of the wire: the people who depend on servers they did
//! not write (an agent, an IDE setup, a team's `.mcp.json`). `cargo
//! mcp-contract lock --config FILE` captures every server the client
//! configuration names into one consumer lockfile ([`lock`]); `check
//! --config FILE` captures them again and judges each server's change with
//! the same gate `check` runs for a server's own lockfile ([`crate::check`]):
//! the locked surface is the baseline, the live one the candidate, so a
//! removed tool, a narrowed input the consumer may send and a widened output
//! it parses are breaking, with their witnesses, and an entry of the
//! consumer's record (`[[servers.NAME.acknowledge]]`, [`record`])
//! acknowledges a change as `contracts/migrations.toml` does for a producer.
//!
//! A server whose every digest matches its lock is *pinned*: reported as
//! unchanged, nothing compared. One that could not be captured is an error
//! of that server (the others are still checked); one the lock or the record
//! names but the configuration no longer starts is a warning (an error under
//! `--strict`), never a silent skip.

pub mod lock;
pub mod record;

use crate::check::repo::CheckContext;
use crate::check::CheckInput;
use crate::git::Baseline;
use crate::migrations::{Date, Level, MigrationRecord, Pos, Problem, ProblemKind};
use crate::model::Surface;
use crate::rules::Severity;

pub use lock::{ConsumerLock, LockedServer, Release};

/// The consumer lockfile's default name (in the current directory).
pub const DEFAULT_LOCKFILE: &str = "mcp-contract.servers.lock";

/// The consumer's record beside a consumer lockfile: the same stem, `.toml`.
pub fn record_path_for(lockfile: &std::path::Path) -> std::path::PathBuf {
    lockfile.with_extension("toml")
}

/// The table a consumer's record groups its entries under.
pub const RECORD_GROUP: &str = "servers";

/// How a configured server was judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerState {
    /// Captured and compared with its lock.
    Compared,
    /// Captured; every digest matches the lock: unchanged, not compared.
    Pinned,
    /// Captured; not in the lockfile yet (a new surface: everything additive).
    New,
    /// In the lockfile or the record, but the configuration does not name it.
    NotConfigured,
    /// The configuration names it with `"disabled": true`: not started.
    Disabled,
    /// Named by the configuration, but it could not be captured (see the errors).
    NotCaptured,
}

impl ServerState {
    pub fn as_str(self) -> &'static str {
        match self {
            ServerState::Compared => "compared",
            ServerState::Pinned => "pinned",
            ServerState::New => "new",
            ServerState::NotConfigured => "not-configured",
            ServerState::Disabled => "disabled",
            ServerState::NotCaptured => "not-captured",
        }
    }
}

/// A consumer server as a check's candidate ([`crate::check::run::Candidate::ConsumerServer`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerCandidate {
    /// The server's name in the configuration.
    pub server: String,
    /// The configuration file, as shown.
    pub config: String,
    pub state: ServerState,
    /// `serverInfo.version` when locked, and now.
    pub locked_version: Option<String>,
    pub live_version: Option<String>,
}

/// `version 1.2.0`, or that there is none.
pub fn version_words(v: &Option<String>) -> String {
    match v {
        Some(v) => format!("version {v}"),
        None => "no serverInfo.version".to_string(),
    }
}

impl ServerCandidate {
    /// One line for people: what was judged, and how.
    pub fn describe(&self) -> String {
        let who = format!("server `{}` of {}", self.server, self.config);
        match self.state {
            ServerState::Compared => format!(
                "{who}: the surface it publishes now ({}) against its lock ({})",
                version_words(&self.live_version),
                version_words(&self.locked_version)
            ),
            ServerState::Pinned => {
                let moved = match (&self.locked_version, &self.live_version) {
                    (Some(a), Some(b)) if a != b => format!(" (version {a} -> {b}, same surface)"),
                    _ => format!(" ({})", version_words(&self.live_version)),
                };
                format!("{who}: pinned: every digest matches its lock{moved}, unchanged")
            }
            ServerState::New => format!(
                "{who}: not in the lockfile yet ({}): a new surface, every entry additive",
                version_words(&self.live_version)
            ),
            ServerState::NotConfigured => {
                format!("{who}: no longer named by the configuration: not checked")
            }
            ServerState::Disabled => format!("{who}: disabled in the configuration: not checked"),
            ServerState::NotCaptured => format!("{who}: could not be captured: not checked"),
        }
    }
}

/// The version a consumer's server declares: `serverInfo.version` when it
/// was locked (its entry in the consumer lockfile, starting at the 0-based
/// `line_offset`) and now, for the version rule ([`crate::version`]).
pub fn declared_version(
    c: &ServerCandidate,
    lockfile: &str,
    line_offset: usize,
) -> crate::version::Declared {
    use crate::version::{Declaration, Declared, Source};
    let mut d = Declared::new(Source::ServerInfo, format!("server `{}`", c.server));
    let at = |version: &String, file: String| Declaration {
        version: version.clone(),
        file,
        line: Some(line_offset + 1),
    };
    d.baseline = c
        .locked_version
        .as_ref()
        .map(|v| at(v, format!("{lockfile} (locked)")));
    d.candidate = c.live_version.as_ref().map(|v| at(v, lockfile.to_string()));
    d
}

/// Do two surfaces carry the same digests, entry for entry (tools,
/// prompts, resources, templates, the server section)?
pub fn pinned(locked: &Surface, live: &Surface) -> bool {
    fn digests(s: &Surface) -> Vec<(u8, &str, String)> {
        let mut out: Vec<(u8, &str, String)> = vec![];
        out.extend(s.tools.iter().map(|(k, t)| (0, k.as_str(), t.digest())));
        out.extend(s.prompts.iter().map(|(k, p)| (1, k.as_str(), p.digest())));
        out.extend(s.resources.iter().map(|(k, r)| (2, k.as_str(), r.digest())));
        out.extend(
            s.resource_templates
                .iter()
                .map(|(k, t)| (3, k.as_str(), t.digest())),
        );
        out.extend(s.server.iter().map(|i| (4, "", i.digest())));
        out
    }
    digests(locked) == digests(live)
}

/// What the gate needs to judge one configured server.
#[derive(Debug, Clone)]
pub struct ServerJudgement<'a> {
    pub candidate: &'a ServerCandidate,
    /// The consumer lockfile and record, as shown.
    pub lockfile: &'a str,
    pub record_file: &'a str,
    /// The consumer lockfile's text (for lines), when it exists.
    pub lock_text: Option<&'a str>,
    pub locked: Option<&'a LockedServer>,
    /// The surface captured now (`None` when not captured).
    pub live: Option<Surface>,
    /// The server's part of the consumer's record, when it has one.
    pub record: Option<(MigrationRecord, Vec<Problem>)>,
    pub fail_on: Severity,
    pub fail_on_description: Option<crate::rules::DescriptionLevel>,
    pub strict: bool,
    pub today: Date,
}

impl ServerJudgement<'_> {
    /// The gate's input and where it came from; `None` when the server was
    /// not captured (its errors say why).
    pub fn prepare(self) -> Option<(CheckInput, CheckContext)> {
        let c = self.candidate;
        let (record, mut record_problems) = self
            .record
            .unwrap_or_else(|| (crate::check::repo::empty_record(self.record_file), vec![]));
        let section = self.lock_text.and_then(|t| lock::section(t, &c.server));
        let at = Pos {
            line: section.as_ref().map_or(1, |s| s.offset + 1),
            column: 1,
        };
        let level = if self.strict {
            Level::Error
        } else {
            Level::Warning
        };
        let warn = |message: String, help: String| Problem {
            level,
            kind: ProblemKind::Stale,
            file: self.lockfile.to_string(),
            pos: at,
            message,
            help: Some(help),
        };
        let (baseline, candidate) = match (c.state, self.live) {
            (ServerState::Compared, Some(live)) => (self.locked.map(|l| l.surface.clone()), live),
            (ServerState::New, Some(live)) => {
                record_problems.push(warn(
                    format!(
                        "server `{}` is not in {} yet: nothing pins it",
                        c.server, self.lockfile
                    ),
                    format!(
                        "lock it: `cargo mcp-contract lock --config {} {}`",
                        c.config, c.server
                    ),
                ));
                (None, live)
            }
            // pinned, or not started: nothing to compare (the record's
            // entries for it then match nothing, and say so)
            (ServerState::Pinned, Some(_)) => (Some(Surface::new()), Surface::new()),
            // disabled and never locked: shown as such, nothing to warn about
            (ServerState::Disabled, _) if self.locked.is_none() => {
                (Some(Surface::new()), Surface::new())
            }
            (ServerState::NotConfigured | ServerState::Disabled, _) => {
                let what = if c.state == ServerState::Disabled {
                    "is disabled in"
                } else {
                    "is not named by"
                };
                record_problems.push(warn(
                    format!("server `{}` {what} {}, so it is not checked", c.server, c.config),
                    format!("enable it again, or drop it from {} with `cargo mcp-contract lock --config {}`", self.lockfile, c.config),
                ));
                (Some(Surface::new()), Surface::new())
            }
            _ => return None,
        };
        let input = CheckInput {
            baseline,
            candidate,
            record,
            aliases: vec![],
            record_problems,
            baseline_record: None,
            history: None,
            fail_on: self.fail_on,
            fail_on_description: self.fail_on_description,
            strict: self.strict,
            today: self.today,
            served_defaults: vec![],
        };
        let context = CheckContext {
            lockfile: self.lockfile.to_string(),
            record: self.record_file.to_string(),
            baseline: Baseline {
                commit: String::new(),
                short: c.server.clone(),
                description: format!("locked at {}", version_words(&c.locked_version)),
                at_head: false,
            },
            baseline_lockfile: Some(self.lockfile.to_string()),
            candidate_text: section.as_ref().map(|s| s.text.clone()),
            history_revisions: None,
            history_skipped: vec![],
            line_offset: section.map_or(0, |s| s.offset),
        };
        Some((input, context))
    }
}

/// The suggested entry for a consumer's record: the producer's
/// `[[acknowledge]]` entry under the server's table.
pub fn suggest_for(server: &str, entry: &str) -> String {
    let key = if !server.is_empty()
        && server
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        server.to_string()
    } else {
        crate::migrations::toml_string(server)
    };
    entry.replacen(
        "[[acknowledge]]",
        &format!("[[{RECORD_GROUP}.{key}.acknowledge]]"),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Tool;

    #[test]
    fn pinned_means_every_digest_matches() {
        let mut a = Surface::new();
        a.insert(Tool::new("search"));
        let mut b = a.clone();
        assert!(pinned(&a, &b));
        b.tools.get_mut("search").unwrap().description = Some("Search.".into());
        assert!(!pinned(&a, &b));
        let mut c = a.clone();
        c.insert(Tool::new("fetch"));
        assert!(!pinned(&a, &c));
    }

    #[test]
    fn suggested_entries_sit_under_the_servers_table() {
        let e = "[[acknowledge]]\ntool = \"x\"\n";
        assert_eq!(
            suggest_for("github", e),
            "[[servers.github.acknowledge]]\ntool = \"x\"\n"
        );
        assert_eq!(
            suggest_for("my server", e),
            "[[servers.\"my server\".acknowledge]]\ntool = \"x\"\n"
        );
    }
}
