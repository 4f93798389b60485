//! The validator every witness is checked with, on both sides: the
//! `jsonschema` crate with linear-time regular expressions and `format`
//! asserted, compiled once per (tool, schema, side).

use std::collections::HashMap;

use jsonschema::{PatternOptions, Validator};
use serde_json::Value;

/// Compiled validators per (tool, schema, side), compiled once.
#[derive(Default)]
pub(super) struct Validators {
    pub(super) map: HashMap<(String, &'static str, bool), Result<std::rc::Rc<Validator>, String>>,
    /// With integer widths spelled out (`None`: the schema has none, or they do not compile).
    pub(super) strict: HashMap<(String, &'static str, bool), Option<std::rc::Rc<Validator>>>,
}

impl Validators {
    pub(super) fn get(
        &mut self,
        tool: &str,
        which: &'static str,
        new_side: bool,
        schema: &Value,
    ) -> Result<std::rc::Rc<Validator>, String> {
        self.map
            .entry((tool.to_string(), which, new_side))
            .or_insert_with(|| compile(schema).map(std::rc::Rc::new))
            .clone()
    }

    /// The validator of `schema` with its integer widths enforced, when it has any.
    pub(super) fn strict(
        &mut self,
        tool: &str,
        which: &'static str,
        new_side: bool,
        schema: &Value,
    ) -> Option<std::rc::Rc<Validator>> {
        self.strict
            .entry((tool.to_string(), which, new_side))
            .or_insert_with(|| {
                super::widths::spell_out(schema)
                    .and_then(|s| compile(&s).ok())
                    .map(std::rc::Rc::new)
            })
            .clone()
    }
}

/// A validator with linear-time regular expressions and format assertions.
pub(crate) fn compile(schema: &Value) -> Result<Validator, String> {
    jsonschema::options()
        .with_pattern_options(PatternOptions::regex().size_limit(1 << 20))
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| one_line(&e.to_string()))
}

pub(super) fn one_line(s: &str) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() > 200 {
        format!("{}...", s.chars().take(197).collect::<String>())
    } else {
        s
    }
}

pub(super) fn error_detail(e: &jsonschema::ValidationError<'_>) -> String {
    let at = e.instance_path().as_str().to_string();
    let msg = one_line(&e.to_string());
    if at.is_empty() {
        msg
    } else {
        format!("{msg} (at {at})")
    }
}
