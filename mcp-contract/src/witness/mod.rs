//! Witnesses: the proof behind each breaking verdict.
//!
//! A breaking verdict is a sentence; a reviewer cannot tell a proven break
//! from a conservative guess. After the diff has decided (the engine never
//! looks here), a separate pass searches, for every breaking change, a
//! concrete instance that shows it:
//! - `input.*`: an `arguments` object the old schema accepts and the new one
//!   rejects, or, for a field removed from an open object, a call that sends
//!   it and is now silently ignored;
//! - `output.*` / `tool.output-*`: a `structuredContent` value the new schema
//!   allows and the old one forbids;
//! - integer widths (`format: int32`, ...): the boundary value serde now rejects;
//! - tool removal, renames and annotation widening: the call or the hint itself.
//!
//! Every witness is checked with the `jsonschema` crate on both sides
//! (linear-time regular expressions), the search is bounded per verdict and
//! deterministic, and the result is shrunk (fewest properties, shortest
//! strings, smallest numbers). The outcome is recorded on the change as a
//! [`Proof`]: `proven`, `by-construction`, or `unproven` with the reason (the
//! verdict stays breaking: recall comes first).
//!
//! The types live here unconditionally (a [`crate::Change`] carries them);
//! the search needs the `validate` feature.

#[cfg(feature = "validate")]
mod attribution;
#[cfg(feature = "validate")]
mod candidates;
#[cfg(feature = "validate")]
mod construction;
#[cfg(feature = "validate")]
mod default;
#[cfg(feature = "validate")]
mod embed;
#[cfg(feature = "validate")]
mod fixtures;
#[cfg(feature = "validate")]
mod ints;
#[cfg(feature = "validate")]
mod pass;
#[cfg(feature = "validate")]
mod path;
#[cfg(feature = "validate")]
mod pattern;
#[cfg(feature = "validate")]
mod placeholders;
#[cfg(feature = "validate")]
mod random;
#[cfg(feature = "validate")]
mod removed;
#[cfg(feature = "validate")]
mod sample;
#[cfg(feature = "validate")]
mod search;
#[cfg(feature = "validate")]
mod shrink;
#[cfg(feature = "validate")]
mod undone;
#[cfg(feature = "validate")]
mod validators;
#[cfg(feature = "validate")]
mod values;
#[cfg(feature = "validate")]
mod widths;

#[cfg(feature = "validate")]
pub use fixtures::{fixture_for, write_fixtures, WrittenFixture};
#[cfg(feature = "validate")]
pub use pass::{attach, attach_changes, Options};

use serde_json::Value;

/// How a breaking verdict is backed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// A witness was found and checked with the validator on both sides.
    Proven,
    /// The change is its own proof (a removed tool, a widened hint, a reused name).
    ByConstruction,
    /// No witness within the search bound; still breaking, for the reason given.
    Unproven { reason: String },
}

impl Proof {
    /// `proven`, `by-construction` or `unproven`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Proof::Proven => "proven",
            Proof::ByConstruction => "by-construction",
            Proof::Unproven { .. } => "unproven",
        }
    }

    /// Is the verdict backed (proven or by construction)?
    pub fn is_backed(&self) -> bool {
        !matches!(self, Proof::Unproven { .. })
    }
}

/// What a witness shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WitnessKind {
    /// `arguments` the old input schema accepted and the new one rejects.
    Rejected,
    /// `arguments` both accept, sending a field the new schema no longer
    /// declares: the handler silently ignores it.
    Ignored,
    /// `arguments` that omit a field whose default changed: the same call now means something else.
    Reinterpreted,
    /// A `structuredContent` value the new output schema allows and the old one forbids.
    Unexpected,
    /// A `tools/call` request that worked and now fails (removed or renamed tool).
    Call,
    /// The annotations before and after, with the effective hint that widened.
    Hint,
}

impl WitnessKind {
    pub fn as_str(self) -> &'static str {
        match self {
            WitnessKind::Rejected => "rejected",
            WitnessKind::Ignored => "ignored",
            WitnessKind::Reinterpreted => "reinterpreted",
            WitnessKind::Unexpected => "unexpected",
            WitnessKind::Call => "call",
            WitnessKind::Hint => "hint",
        }
    }
}

/// A concrete instance behind a breaking verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Witness {
    pub kind: WitnessKind,
    /// The `arguments`, the `structuredContent`, the `tools/call` params, or
    /// `{"old": annotations, "new": annotations}`.
    pub value: Value,
    /// Why the other side disagrees (the validator's message, the unknown
    /// tool, the effective hint), one line.
    pub detail: String,
}

impl Witness {
    /// One line for reports: `{...} was accepted, now rejected: ...`.
    pub fn sentence(&self) -> String {
        let v = compact(&self.value);
        match self.kind {
            WitnessKind::Rejected => format!("{v} was accepted, now rejected: {}", self.detail),
            WitnessKind::Ignored => {
                format!("{v} was accepted, now silently ignored: {}", self.detail)
            }
            WitnessKind::Reinterpreted => format!("{v} now means something else: {}", self.detail),
            WitnessKind::Unexpected => format!(
                "structuredContent {v} is now allowed, old clients reject it: {}",
                self.detail
            ),
            WitnessKind::Call => format!("tools/call {v} worked, now fails: {}", self.detail),
            WitnessKind::Hint => format!("annotations {v}: {}", self.detail),
        }
    }
}

/// A value as one line of JSON, cut at 300 characters.
pub fn compact(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 300 {
        let cut: String = s.chars().take(297).collect();
        format!("{cut}...")
    } else {
        s
    }
}
