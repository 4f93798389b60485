//! The command that starts a server: a program and its arguments, exactly as
//! its users would type them after `--`. Shown (`Display`, `Debug`) with
//! every word that was expanded from the environment as it was written
//! (`--api-key=${API_KEY}`), and without the values of `env`.

use std::fmt;
use std::path::PathBuf;

use crate::secret::Secrets;

/// How to start the server under test.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerCommand {
    pub program: String,
    pub args: Vec<String>,
    /// The working directory (default: the current one).
    pub cwd: Option<PathBuf>,
    /// Variables set for the server (values may be secrets: never shown).
    pub env: Vec<(String, String)>,
    /// What was expanded from the environment into the fields above.
    pub secrets: Secrets,
}

impl fmt::Debug for ServerCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerCommand")
            .field("command", &self.to_string())
            .field(
                "cwd",
                &self
                    .cwd
                    .as_ref()
                    .map(|c| self.secrets.shown(&c.display().to_string())),
            )
            .field(
                "env",
                &self.env.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl ServerCommand {
    pub fn new(program: impl Into<String>) -> Self {
        ServerCommand {
            program: program.into(),
            args: vec![],
            cwd: None,
            env: vec![],
            secrets: Secrets::default(),
        }
    }

    /// Splits `argv` into program and arguments; `None` when it is empty.
    pub fn from_argv<S: AsRef<str>>(argv: &[S]) -> Option<Self> {
        let (program, args) = argv.split_first()?;
        Some(ServerCommand {
            program: program.as_ref().to_string(),
            args: args.iter().map(|a| a.as_ref().to_string()).collect(),
            cwd: None,
            env: vec![],
            secrets: Secrets::default(),
        })
    }

    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.args.push(arg.into());
        self
    }

    pub fn current_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.cwd = Some(dir.into());
        self
    }

    /// The program as shown in messages.
    pub fn shown_program(&self) -> String {
        self.secrets.shown(&self.program)
    }
}

impl fmt::Display for ServerCommand {
    /// Shell-like, for messages: arguments with spaces or quotes are quoted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, word) in std::iter::once(&self.program).chain(&self.args).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            let word = &self.secrets.shown(word);
            if word.is_empty() || word.contains(|c: char| c.is_whitespace() || "'\"$\\".contains(c))
            {
                write!(f, "'{}'", word.replace('\'', r"'\''"))?;
            } else {
                f.write_str(word)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_like_a_shell_command() {
        let c =
            ServerCommand::from_argv(&["node", "server.js", "--root", "my dir", "it's"]).unwrap();
        assert_eq!(c.to_string(), r"node server.js --root 'my dir' 'it'\''s'");
        assert!(ServerCommand::from_argv::<&str>(&[]).is_none());
    }
}
