//! One schema pair judged three ways: the engine's verdict, the oracle on
//! instances generated from both sides, and what the mutation's kind says
//! it should be. A counterexample is an instance the old side accepts and
//! the new rejects (input; declared properties only) or the new accepts and
//! the old rejects (output).

use mcp_contract::diff::Direction;
use serde_json::Value;

use super::instances::Gen;
use super::oracle::{declared_only, validator};
use super::rng::Rng;
use super::verdict::{Judge, Verdict};

pub enum Outcome {
    /// A side the validator does not compile, or the loader refuses (the
    /// gate exits 2 on it: not silence).
    Skipped(&'static str),
    Judged {
        breaking: Vec<(&'static str, String)>,
        counterexample: Option<Value>,
        instances: usize,
    },
    Hang,
    Panic(String),
}

/// Is `inst` a counterexample for this pair and direction?
pub fn is_counterexample(
    vo: &jsonschema::Validator,
    vn: &jsonschema::Validator,
    old: &Value,
    inst: &Value,
    dir: Direction,
) -> bool {
    match dir {
        // a tool's `arguments` is always a JSON object (MCP): other roots
        // are never sent, whatever the input schema's other branches admit
        Direction::Input => {
            inst.is_object() && vo.is_valid(inst) && !vn.is_valid(inst) && declared_only(old, inst)
        }
        Direction::Output => vn.is_valid(inst) && !vo.is_valid(inst),
    }
}

pub fn evaluate(
    judge: &mut Judge,
    old: &Value,
    new: &Value,
    dir: Direction,
    rng: &mut Rng,
    n: usize,
) -> Outcome {
    let (Some(vo), Some(vn)) = (validator(old), validator(new)) else {
        return Outcome::Skipped("validator");
    };
    let breaking = match judge.verdict(old, new, dir) {
        Verdict::Diffed(b) => b,
        Verdict::Refused("old") => return Outcome::Skipped("loader-old"),
        Verdict::Refused(_) => return Outcome::Skipped("loader-new"),
        Verdict::Hang => return Outcome::Hang,
        Verdict::Panic(m) => return Outcome::Panic(m),
    };
    let gens = [Gen::new(old), Gen::new(new)];
    let mut counterexample = None;
    let mut instances = 0;
    // a breaking verdict gets a longer search before it counts as unconfirmed
    let budget = if breaking.is_empty() { n } else { 4 * n };
    for i in 0..budget {
        let inst = gens[i % 2].instance(rng);
        instances += 1;
        if is_counterexample(&vo, &vn, old, &inst, dir) {
            counterexample = Some(inst);
            break;
        }
    }
    Outcome::Judged {
        breaking,
        counterexample,
        instances,
    }
}
