//! The one error type of schema derivation: it names the Rust type that could
//! not be turned into a schema, where it is written, why, and what to do.

use std::fmt;
use std::path::PathBuf;

/// The attribute a user adds to a field whose schema cannot be derived from
/// its source: the JSON Schema is then taken verbatim. It compiles on a field
/// of a tool's argument struct (`#[mcp_contract::tool]` removes it) and on a
/// field of any type marked [`TYPE_SCHEMA_ATTRIBUTE`] (with or without its
/// argument; `#[mcp_contract::schema]` removes it too).
pub const SCHEMA_OVERRIDE_ATTRIBUTE: &str = "#[mcp_contract(schema = r#\"{ ... }\"#)]";

/// The attribute a user adds to a struct or enum whose schema cannot be
/// derived from its source (`mcp_contract::schema`, an attribute macro that
/// leaves the type as written): its JSON Schema is then taken verbatim.
pub const TYPE_SCHEMA_ATTRIBUTE: &str = "#[mcp_contract::schema(r#\"{ ... }\"#)]";

/// "`<field attribute>` on the field", with what makes it compile outside a
/// tool's argument struct.
pub(crate) fn field_override_help() -> String {
    format!(
        "`{SCHEMA_OVERRIDE_ATTRIBUTE}` on the field (when the field is not in a tool's argument \
         struct, also put `#[mcp_contract::schema]` on the type that declares it)"
    )
}

/// "`<type attribute>` on the type's definition".
pub(crate) fn type_override_help() -> String {
    format!("`{TYPE_SCHEMA_ATTRIBUTE}` on the type's definition")
}

/// A type the generator cannot turn into a schema.
///
/// `Display` prints `file:line: cannot derive a schema for `T`: message`
/// followed by `  help: ...` on a second line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeriveError {
    /// The Rust type (or item) as written in the source.
    pub type_name: String,
    /// The file, relative to the package root, where the type is written.
    pub file: PathBuf,
    /// 1-based line of the type in `file` (0 when unknown).
    pub line: usize,
    /// What went wrong.
    pub message: String,
    /// How to fix it, including the escape hatch.
    pub help: String,
}

impl fmt::Display for DeriveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: cannot derive a schema for `{}`: {}\n  help: {}",
            self.file.display(),
            self.line,
            self.type_name,
            self.message,
            self.help
        )
    }
}

impl std::error::Error for DeriveError {}

/// The help text shared by every "this type is not understood" error.
pub(crate) fn escape_hatch_help() -> String {
    format!(
        "give the JSON Schema verbatim with {}, or with {}; or, on a type that derives \
         `schemars::JsonSchema`, name a type the generator understands with \
         `#[schemars(with = \"OtherType\")]` (e.g. `String`)",
        field_override_help(),
        type_override_help()
    )
}

/// An error before the location is known; `Located` adds file and line.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    pub type_name: String,
    pub message: String,
    pub help: String,
    /// Where the problem was found, when already known.
    pub at: Option<(PathBuf, usize)>,
}

impl Problem {
    pub(crate) fn new(type_name: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            type_name: type_name.into(),
            message: message.into(),
            help: escape_hatch_help(),
            at: None,
        }
    }

    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = help.into();
        self
    }

    /// Sets the location unless a more precise one is already known (a line
    /// of 0 is unknown: an enclosing node's line replaces it).
    pub(crate) fn at(mut self, file: &std::path::Path, line: usize) -> Self {
        let known = matches!(&self.at, Some((_, l)) if *l > 0);
        if !known && (self.at.is_none() || line > 0) {
            self.at = Some((file.to_path_buf(), line));
        }
        self
    }

    pub(crate) fn into_error(self) -> DeriveError {
        let (file, line) = self.at.unwrap_or_default();
        DeriveError {
            type_name: self.type_name,
            file,
            line,
            message: self.message,
            help: self.help,
        }
    }
}

pub(crate) type PResult<T> = Result<T, Problem>;
