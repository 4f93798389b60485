//! Why a snapshot failed. Every variant names the file (and line, when there
//! is one) and says what to do; `Display` prints `file:line: message` and a
//! `help:` line, which is what the build script shows when the build fails.

use std::fmt;
use std::path::PathBuf;

use crate::derive::DeriveError;
use crate::source::Pos;

/// A failed snapshot.
#[derive(Debug)]
pub enum Error {
    /// A type whose schema cannot be derived from source.
    Derive(DeriveError),
    /// A `#[mcp_contract::tool]` attribute that breaks the grammar's rules
    /// (the same rules the macro checks).
    Attribute {
        file: PathBuf,
        /// `(line, column, message)` for every problem found, in order.
        problems: Vec<(usize, usize, String)>,
    },
    /// Two argument types claim the same tool name.
    DuplicateTool {
        name: String,
        first: (PathBuf, usize),
        second: (PathBuf, usize),
    },
    /// Locked mode: the lockfile is missing or does not match the sources.
    Stale {
        lockfile: PathBuf,
        reason: &'static str,
        missing: bool,
        /// One line per tool: `added: x`, `removed: y`, `changed: z`.
        changes: Vec<String>,
        fix: String,
    },
    /// The build step was run outside a build script without the paths it needs.
    Setup { message: String, help: String },
    /// The migration record (`contracts/migrations.toml`) is malformed or
    /// does not fit the sources; each problem is `file:line:col: message`
    /// with its `help:` line.
    Record { problems: Vec<String> },
    /// An rmcp `#[tool]` whose published value the build step cannot read
    /// from source (see [`crate::rmcp`]); `help` names the escape hatch.
    Rmcp {
        file: PathBuf,
        line: usize,
        message: String,
        help: String,
    },
    /// The package's `build.rs` configures the build step in a way the
    /// check, which reads it without running it, cannot follow
    /// ([`crate::build_script`]); line 0 when no place is meant.
    BuildScript {
        file: PathBuf,
        line: usize,
        column: usize,
        message: String,
        help: String,
    },
    /// Reading or writing a file failed.
    Io {
        path: PathBuf,
        action: &'static str,
        source: std::io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Derive(e) => write!(f, "{e}"),
            Error::Attribute { file, problems } => {
                for (i, (line, column, message)) in problems.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{}:{line}:{column}: {message}", file.display())?;
                }
                write!(
                    f,
                    "\n  help: fix the `#[mcp_contract::tool]` attribute (`cargo check` shows the same errors in place)"
                )
            }
            Error::DuplicateTool {
                name,
                first,
                second,
            } => write!(
                f,
                "{}:{}: tool name `{name}` is already used at {}:{}\n  help: give each tool its own `name = \"...\"` (a new major version gets a new name, e.g. `{name}_v2`)",
                second.0.display(),
                second.1,
                first.0.display(),
                first.1
            ),
            Error::Stale {
                lockfile,
                reason,
                missing,
                changes,
                fix,
            } => {
                if *missing {
                    write!(
                        f,
                        "{}: missing, and this build does not write it ({reason})",
                        lockfile.display()
                    )?;
                } else {
                    write!(
                        f,
                        "{}: out of date with the sources, and this build does not write it ({reason})",
                        lockfile.display()
                    )?;
                }
                for c in changes {
                    write!(f, "\n  {c}")?;
                }
                write!(f, "\n  help: {fix}")
            }
            Error::Setup { message, help } => write!(f, "{message}\n  help: {help}"),
            Error::Record { problems } => write!(f, "{}", problems.join("\n")),
            Error::Rmcp {
                file,
                line,
                message,
                help,
            } => write!(f, "{}:{line}: {message}\n  help: {help}", file.display()),
            Error::BuildScript {
                file,
                line,
                column,
                message,
                help,
            } => {
                write!(f, "{}", file.display())?;
                if *line > 0 {
                    write!(f, ":{line}:{column}")?;
                }
                write!(f, ": {message}\n  help: {help}")
            }
            Error::Io {
                path,
                action,
                source,
            } => write!(
                f,
                "{}: cannot {action}: {source}\n  help: check the path and its permissions",
                path.display()
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<DeriveError> for Error {
    fn from(e: DeriveError) -> Self {
        Error::Derive(e)
    }
}

impl Error {
    /// An attribute error in `file`: each problem with its position (see
    /// [`crate::attr_pos::locate`]).
    pub(crate) fn attribute(file: &std::path::Path, problems: Vec<(Pos, String)>) -> Self {
        Error::Attribute {
            file: file.to_path_buf(),
            problems: problems
                .into_iter()
                .map(|(p, m)| (p.line, p.column + 1, m))
                .collect(),
        }
    }
}
