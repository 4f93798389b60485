//! The outcome of a whole `check` run as one value: every lockfile it
//! judged, how it judged it, the gate's outcome (the usage gate's verdicts
//! on removed deprecated paths included), the contract fixtures' results,
//! the usage evidence the run was given and whatever kept a lockfile from
//! being checked. The exit status
//! ([`CheckRun::status`]) and every report format read this value and
//! nothing else, so a failure cannot set the exit status without showing in
//! the report, nor a report say "passed" about a run that failed.

use super::repo::CheckContext;
use super::{CheckOutcome, Status};
use crate::error::InputError;

/// Everything one `check` run found.
#[derive(Debug, Clone, Default)]
pub struct CheckRun {
    /// One per lockfile selected, in the order checked.
    pub lockfiles: Vec<LockfileRun>,
    /// Errors that kept the check from selecting any lockfile.
    pub errors: Vec<RunError>,
    /// The usage evidence the run was given (`--usage`), the waiver
    /// (`--no-usage-evidence`), and evidence rows no lockfile explains;
    /// `None` when the run had neither and removed no deprecated path.
    pub usage: Option<super::usage::UsageRun>,
}

/// How the candidate lockfile was judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Candidate {
    /// A package whose build step writes the lockfile: the sources and the
    /// record were derived again and the lockfile matches them.
    BuildStep { package: String },
    /// A package's lockfile that no build step writes, judged as written.
    Package { package: String },
    /// A lockfile named with `--lockfile` or found outside any package that
    /// owns it, judged as written.
    Lockfile,
    /// The surface a running server published (`--server`).
    LiveServer,
    /// A server of a client configuration, judged from the consumer's side
    /// against the consumer's lockfile (`check --config FILE`).
    ConsumerServer(crate::consumer::ServerCandidate),
}

impl Candidate {
    /// The JSON name of the kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Candidate::BuildStep { .. } => "build-step",
            Candidate::Package { .. } => "package",
            Candidate::Lockfile => "lockfile",
            Candidate::LiveServer => "live-server",
            Candidate::ConsumerServer(_) => "consumer-server",
        }
    }

    pub fn package(&self) -> Option<&str> {
        match self {
            Candidate::BuildStep { package } | Candidate::Package { package } => Some(package),
            Candidate::Lockfile | Candidate::LiveServer | Candidate::ConsumerServer(_) => None,
        }
    }

    /// One line for people: how the lockfile was judged.
    pub fn describe(&self) -> String {
        match self {
            Candidate::BuildStep { package } => format!(
                "package `{package}`: the lockfile matches its sources (derived again by mcp-contract-build)"
            ),
            Candidate::Package { package } => format!(
                "package `{package}`: judged as written (its build script does not use mcp-contract-build)"
            ),
            Candidate::Lockfile => {
                "judged as written (a lockfile, not a package's: nothing derives it again from sources)"
                    .to_string()
            }
            Candidate::LiveServer => "the surface the running server publishes".to_string(),
            Candidate::ConsumerServer(s) => s.describe(),
        }
    }
}

/// One lockfile of the run.
#[derive(Debug, Clone)]
pub struct LockfileRun {
    /// The lockfile as the user would name it (relative to the repository
    /// root once the repository is known).
    pub lockfile: String,
    pub candidate: Candidate,
    /// The gate's outcome and where its inputs came from; `None` when the
    /// lockfile could not be checked (see `errors`).
    pub checked: Option<(CheckOutcome, CheckContext)>,
    /// The contract fixtures beside the lockfile, when there are any.
    pub fixtures: Option<FixtureResults>,
    /// What the package's binary serves, against the lockfile (`--served`).
    pub served: Option<super::probe::ServedRun>,
    /// What kept the lockfile (or its fixtures) from being checked.
    pub errors: Vec<RunError>,
    /// The version rule: the bump the change requires and whether each
    /// declared version carries it (`None` when it was not judged).
    pub version: Option<crate::version::VersionCheck>,
}

impl LockfileRun {
    /// A lockfile not (yet) checked.
    pub fn new(lockfile: impl Into<String>, candidate: Candidate) -> LockfileRun {
        LockfileRun {
            lockfile: lockfile.into(),
            candidate,
            checked: None,
            fixtures: None,
            served: None,
            errors: vec![],
            version: None,
        }
    }

    pub fn status(&self) -> Status {
        let gate = self
            .checked
            .as_ref()
            .map_or(Status::Passed, |(o, _)| o.status());
        if gate == Status::Invalid {
            Status::Invalid
        } else if !self.errors.is_empty() || self.checked.is_none() {
            Status::Error
        } else if gate == Status::Failed
            || self.fixtures.as_ref().is_some_and(|f| !f.passed())
            || self.version.as_ref().is_some_and(|v| v.fails())
            || self.served.as_ref().is_some_and(|s| !s.passed())
        {
            Status::Failed
        } else {
            Status::Passed
        }
    }

    /// The migration record's path (relative to the repository root), when checked.
    pub fn record(&self) -> Option<&str> {
        self.checked.as_ref().map(|(_, c)| c.record.as_str())
    }
}

impl CheckRun {
    /// The worst status of the run: `Error` and `Invalid` (exit 2) over
    /// `Failed` (exit 1) over `Passed` (exit 0).
    pub fn status(&self) -> Status {
        let statuses: Vec<Status> = self.lockfiles.iter().map(LockfileRun::status).collect();
        if !self.errors.is_empty() || statuses.contains(&Status::Error) {
            Status::Error
        } else if statuses.contains(&Status::Invalid) {
            Status::Invalid
        } else if statuses.contains(&Status::Failed) {
            Status::Failed
        } else {
            Status::Passed
        }
    }

    /// The exit status the run ends with.
    pub fn exit_code(&self) -> u8 {
        self.status().exit_code()
    }

    /// Every error of the run, with the lockfile it belongs to.
    pub fn all_errors(&self) -> impl Iterator<Item = (Option<&LockfileRun>, &RunError)> {
        self.errors.iter().map(|e| (None, e)).chain(
            self.lockfiles
                .iter()
                .flat_map(|l| l.errors.iter().map(move |e| (Some(l), e))),
        )
    }
}

/// The contract fixtures of one lockfile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FixtureResults {
    /// The fixtures directory, as shown.
    pub dir: String,
    pub checked: usize,
    pub failures: Vec<FixtureFinding>,
}

impl FixtureResults {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// One fixture whose expected outcome the published contract no longer gives.
#[derive(Debug, Clone, PartialEq)]
pub struct FixtureFinding {
    pub tool: String,
    /// The fixture file (relative to the repository root when known).
    pub file: String,
    pub problem: String,
}

impl std::fmt::Display for FixtureFinding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: fixture for `{}`: {}",
            self.file, self.tool, self.problem
        )
    }
}

/// Something that kept a lockfile from being checked (exit 2): where it is
/// and the whole diagnostic, help included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    /// The package, when the lockfile is a cargo package's.
    pub package: Option<String>,
    /// The file the error is about.
    pub file: String,
    /// The line in `file`, when known.
    pub line: Option<usize>,
    pub column: Option<usize>,
    /// The diagnostic as printed after `error: ` (may span lines: `help:`).
    pub text: String,
}

impl RunError {
    /// From an input error: its file and, when it gives one, its line and column.
    pub fn input(package: Option<&str>, e: &InputError) -> RunError {
        let (line, column) = e
            .location
            .as_deref()
            .map(line_column)
            .unwrap_or((None, None));
        RunError {
            package: package.map(str::to_string),
            file: e.file.clone(),
            line,
            column,
            text: e.to_string(),
        }
    }

    /// A diagnostic about `file` whose text is already written.
    pub fn text(package: Option<&str>, file: impl Into<String>, text: impl Into<String>) -> Self {
        RunError {
            package: package.map(str::to_string),
            file: file.into(),
            line: None,
            column: None,
            text: text.into(),
        }
    }

    /// The first line of the diagnostic.
    pub fn headline(&self) -> &str {
        self.text.lines().next().unwrap_or("")
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(p) = &self.package {
            write!(f, "package `{p}`: ")?;
        }
        f.write_str(&self.text)
    }
}

/// `line 3, column 7` (or `line 3`) as numbers; anything else (a JSON pointer) as none.
fn line_column(location: &str) -> (Option<usize>, Option<usize>) {
    let Some(rest) = location.strip_prefix("line ") else {
        return (None, None);
    };
    let (line, column) = match rest.split_once(", column ") {
        Some((l, c)) => (l, Some(c)),
        None => (rest, None),
    };
    (
        line.trim().parse().ok(),
        column.and_then(|c| c.trim().parse().ok()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_line_and_column_of_an_input_error() {
        assert_eq!(line_column("line 3, column 7"), (Some(3), Some(7)));
        assert_eq!(line_column("line 12"), (Some(12), None));
        assert_eq!(line_column("/tools/0/name"), (None, None));
    }

    #[test]
    fn a_lockfile_that_could_not_be_checked_is_an_error_not_a_pass() {
        let run = CheckRun {
            lockfiles: vec![LockfileRun::new(
                "contracts/mcp-contract.lock",
                Candidate::Lockfile,
            )],
            errors: vec![],
            usage: None,
        };
        assert_eq!(run.status(), Status::Error);
        assert_eq!(run.exit_code(), 2);
    }
}
