//! Mutations of a document's dialect: `$schema` added, removed or switched
//! at the root among draft-04, draft-07, 2019-09 and 2020-12 (what each
//! side's keywords mean changes with it: `$ref` siblings, tuple `items`,
//! `dependencies`, boolean exclusives, `id`), and `$schema` respelled to a
//! URI naming the same draft (absent is 2020-12, `http`/`https`, a
//! trailing `#`).

use serde_json::{json, Value};

use super::super::rng::Rng;
use super::{Effect, Kind};

pub const DRAFT04: &str = "http://json-schema.org/draft-04/schema#";
pub const DRAFT07: &str = "http://json-schema.org/draft-07/schema#";
pub const DRAFT2019: &str = "https://json-schema.org/draft/2019-09/schema";
pub const DRAFT2020: &str = "https://json-schema.org/draft/2020-12/schema";

pub fn kinds() -> Vec<Kind> {
    use Effect::*;
    vec![
        Kind {
            name: "dialect.switch",
            effect: Mixed,
            apply: dialect_switch,
        },
        Kind {
            name: "dialect.respell",
            effect: Same,
            apply: dialect_respell,
        },
    ]
}

/// The draft a `$schema` names (absent: 2020-12, MCP's default).
pub fn draft_of(doc: &Value) -> &'static str {
    let uri = doc.get("$schema").and_then(Value::as_str).unwrap_or("");
    ["draft-04", "draft-06", "draft-07", "2019-09"]
        .into_iter()
        .find(|d| uri.contains(d))
        .unwrap_or("2020-12")
}

fn dialect_switch(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    if !ptr.is_empty() {
        return false;
    }
    let from = draft_of(doc);
    let Some(m) = doc.as_object_mut() else {
        return false;
    };
    let mut choices: Vec<Option<&str>> = [DRAFT04, DRAFT07, DRAFT2019, DRAFT2020]
        .into_iter()
        .filter(|u| !u.contains(from))
        .map(Some)
        .collect();
    if from != "2020-12" {
        // removing it reads the document as 2020-12
        choices.push(None);
    }
    match *rng.pick(&choices) {
        Some(u) => {
            m.insert("$schema".into(), json!(u));
        }
        None => {
            m.remove("$schema");
        }
    }
    true
}

fn dialect_respell(doc: &mut Value, ptr: &str, rng: &mut Rng) -> bool {
    if !ptr.is_empty() {
        return false;
    }
    let Some(m) = doc.as_object_mut() else {
        return false;
    };
    let Some(uri) = m.get("$schema").and_then(Value::as_str).map(String::from) else {
        // absent is 2020-12: name it
        m.insert(
            "$schema".into(),
            json!([DRAFT2020, "https://json-schema.org/draft/2020-12/schema#"][rng.below(2)]),
        );
        return true;
    };
    let bare = uri.trim_end_matches('#');
    if bare.ends_with("/draft/2020-12/schema") && rng.chance(40) {
        m.remove("$schema");
        return true;
    }
    let respelled = if rng.chance(50) {
        if uri.ends_with('#') {
            bare.to_string()
        } else {
            format!("{uri}#")
        }
    } else if let Some(rest) = uri.strip_prefix("https://") {
        format!("http://{rest}")
    } else if let Some(rest) = uri.strip_prefix("http://") {
        format!("https://{rest}")
    } else {
        return false;
    };
    m.insert("$schema".into(), json!(respelled));
    true
}
