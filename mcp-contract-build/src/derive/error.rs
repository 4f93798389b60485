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

/// Who publishes a tool's schemas at run time, which decides the escape
/// hatch that works for a type the build step cannot read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Publisher {
    /// `#[mcp_contract::tool]`: the macro publishes the locked schema, so a
    /// schema given verbatim (feature `macros`) is what is published.
    #[default]
    Macro,
    /// rmcp's `#[tool]` and `#[prompt]`: rmcp publishes what schemars
    /// derives at run time, so only what schemars itself reads changes it
    /// (a verbatim schema would be locked but never published).
    Schemars,
}

/// Which escape hatch a problem allows: where a schema given instead of the
/// derived one would go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hatch {
    /// A type the build step cannot read: on the field that uses it, or on
    /// the type's definition.
    Type,
    /// One field's schema (its default, its skip predicate, its
    /// `schema_with`): on that field.
    Field,
    /// A verbatim schema in a type (named) whose macro does not remove it,
    /// so that it does not compile.
    Unmarked(String),
}

/// The advice a problem gives beyond its own (`lead`), by escape hatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Escape {
    /// What to do that holds whoever publishes (may be empty).
    pub lead: String,
    pub hatch: Hatch,
}

impl Escape {
    /// The whole help, for the tool's publisher: what works for it first.
    pub fn help(&self, publisher: Publisher) -> String {
        let hatch = match (publisher, &self.hatch) {
            (Publisher::Macro, Hatch::Type) => format!(
                "give the JSON Schema verbatim with {FIELD_OVERRIDE}, or with `{TYPE_SCHEMA_ATTRIBUTE}` \
                 on the type's definition (both need mcp-contract's `macros` feature); or, on a type that \
                 derives `schemars::JsonSchema`, name a type the build step reads with \
                 `#[schemars(with = \"OtherType\")]` (e.g. `String`)"
            ),
            (Publisher::Macro, Hatch::Field) => format!(
                "give the field's schema verbatim with {FIELD_OVERRIDE}, which needs mcp-contract's \
                 `macros` feature"
            ),
            (Publisher::Macro, Hatch::Unmarked(ty)) => format!(
                "put `#[mcp_contract::schema]` on `{ty}` (it needs mcp-contract's `macros` feature): \
                 the macro removes the attribute"
            ),
            (Publisher::Schemars, Hatch::Type) => SCHEMARS_FORMS.to_string(),
            (Publisher::Schemars, Hatch::Unmarked(_)) => {
                format!("remove it: {SCHEMARS_FORMS}")
            }
            // A value schemars computes at run time: nothing replaces it
            // but a form the build step reads (the lead says which).
            (Publisher::Schemars, Hatch::Field) => String::new(),
        };
        match (self.lead.is_empty(), hatch.is_empty()) {
            (true, _) => hatch,
            (false, true) => self.lead.clone(),
            (false, false) => format!("{}; or {hatch}", self.lead),
        }
    }
}

/// The field-level escape hatch, with where it compiles.
const FIELD_OVERRIDE: &str =
    "`#[mcp_contract(schema = r#\"{ ... }\"#)]` on the field (outside a tool's \
     argument struct, also put `#[mcp_contract::schema]` on the type that declares it)";

/// What changes the schema rmcp publishes, in forms the build step reads.
const SCHEMARS_FORMS: &str = "rmcp publishes what schemars derives, so change that in a form the build \
     step reads: `#[schemars(with = \"u32\")]` on the field, naming a type the build step reads; or \
     `#[schemars(schema_with = \"my_schema\")]` on the field with \
     `fn my_schema(_: &mut SchemaGenerator) -> Schema { json_schema!({ ... }) }` (JSON values only); \
     or, on a type of your own, `impl JsonSchema` whose `json_schema` returns such a literal";

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
    /// How to fix it, including the escape hatch (for `#[mcp_contract::tool]`
    /// unless [`published_by`](Self::published_by) said otherwise).
    pub help: String,
    /// The escape hatch the help names, when there is one: the help is
    /// given again for another publisher from it.
    pub escape: Option<Box<Escape>>,
}

impl DeriveError {
    /// The error with its help for tools `publisher` publishes: what works
    /// for them first, and nothing that does not.
    pub fn published_by(mut self, publisher: Publisher) -> Self {
        if let Some(escape) = &self.escape {
            self.help = escape.help(publisher);
        }
        self
    }
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

/// An error before the location is known; `Located` adds file and line.
#[derive(Debug, Clone)]
pub(crate) struct Problem {
    pub type_name: String,
    pub message: String,
    /// How to fix it: advice of its own, and the escape hatch when one applies.
    pub help: Help,
    /// Where the problem was found, when already known.
    pub at: Option<(PathBuf, usize)>,
}

#[derive(Debug, Clone)]
pub(crate) enum Help {
    /// Advice that needs no escape hatch.
    Plain(String),
    Escape(Box<Escape>),
}

impl Problem {
    /// A problem whose fix is the escape hatch for a type.
    pub(crate) fn new(type_name: impl Into<String>, message: impl Into<String>) -> Self {
        Problem {
            type_name: type_name.into(),
            message: message.into(),
            help: Help::Escape(Box::new(Escape {
                lead: String::new(),
                hatch: Hatch::Type,
            })),
            at: None,
        }
    }

    /// Advice in place of the escape hatch.
    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Help::Plain(help.into());
        self
    }

    /// Advice of its own (`lead`), then the escape hatch `hatch`.
    pub(crate) fn with_escape(mut self, lead: impl Into<String>, hatch: Hatch) -> Self {
        self.help = Help::Escape(Box::new(Escape {
            lead: lead.into(),
            hatch,
        }));
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
        let (help, escape) = match self.help {
            Help::Plain(text) => (text, None),
            Help::Escape(e) => (e.help(Publisher::Macro), Some(e)),
        };
        DeriveError {
            type_name: self.type_name,
            file,
            line,
            message: self.message,
            help,
            escape,
        }
    }
}

pub(crate) type PResult<T> = Result<T, Problem>;
