//! The one error type for bad user input: it always names the file, the
//! location inside it and the fix, so every front end can print it as is and
//! exit with status 2.

use std::fmt;

/// Bad input: a file that cannot be read as what it claims to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file (as the user named it), or a description such as `<stdin>`.
    pub file: String,
    /// Where in the file: `line 3, column 7` or a JSON pointer such as `/tools/2/name`.
    pub location: Option<String>,
    /// What is wrong, in one line.
    pub message: String,
    /// What to do about it, in one line.
    pub fix: Option<String>,
}

impl InputError {
    pub fn new(file: impl Into<String>, message: impl Into<String>) -> Self {
        InputError {
            file: file.into(),
            location: None,
            message: message.into(),
            fix: None,
        }
    }

    pub fn at(mut self, location: impl Into<String>) -> Self {
        self.location = Some(location.into());
        self
    }

    pub fn fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = Some(fix.into());
        self
    }

    /// Builds an error from a serde_json parse error, keeping its line and column.
    pub fn from_json(file: impl Into<String>, err: &serde_json::Error) -> Self {
        let message = strip_position(&err.to_string());
        // (valid JSON, but a number past what a 64-bit float holds: the file
        // needs a smaller number, not valid JSON)
        let mut e = if message == "number out of range" {
            InputError::new(
                file,
                "number out of range: past what a 64-bit float holds, the largest number mcp-contract reads",
            )
            .fix("write the number within +/-1.7976931348623157e308 (as a bound, one that large constrains nothing)")
        } else {
            InputError::new(file, format!("invalid JSON: {message}"))
                .fix("make the file valid JSON (for a lockfile, regenerate it)")
        };
        if err.line() > 0 {
            e = e.at(format!("line {}, column {}", err.line(), err.column()));
        }
        e
    }
}

/// serde_json appends " at line X column Y"; we print the position ourselves.
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(loc) = &self.location {
            write!(f, ": {loc}")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(fix) = &self.fix {
            write!(f, "\n  help: {fix}")?;
        }
        Ok(())
    }
}

impl std::error::Error for InputError {}
