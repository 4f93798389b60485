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
        filtered: Filtered,
    },
    Hang,
    Panic(String),
}

/// What the oracle makes of one instance.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Check {
    /// The sides agree on it (or it breaks nobody in this direction).
    Agree,
    /// A counterexample.
    Counterexample,
    /// Input: the sides disagree the breaking way, but the instance is not
    /// an object (MCP `arguments` always are): never sent.
    NotAnObject,
    /// Input: the sides disagree the breaking way, but the instance sends a
    /// name the old schema does not declare there (the input policy).
    Undeclared,
}

/// What `inst` is for this pair and direction.
pub fn check(
    vo: &jsonschema::Validator,
    vn: &jsonschema::Validator,
    old: &Value,
    inst: &Value,
    dir: Direction,
) -> Check {
    match dir {
        Direction::Input => {
            if !vo.is_valid(inst) || vn.is_valid(inst) {
                Check::Agree
            } else if !inst.is_object() {
                // a tool's `arguments` is always a JSON object (MCP): other
                // roots are never sent, whatever the input schema's other
                // branches admit
                Check::NotAnObject
            } else if !declared_only(old, inst, true) {
                Check::Undeclared
            } else {
                Check::Counterexample
            }
        }
        Direction::Output => {
            if vn.is_valid(inst) && !vo.is_valid(inst) {
                Check::Counterexample
            } else {
                Check::Agree
            }
        }
    }
}

/// Is `inst` a counterexample for this pair and direction?
pub fn is_counterexample(
    vo: &jsonschema::Validator,
    vn: &jsonschema::Validator,
    old: &Value,
    inst: &Value,
    dir: Direction,
) -> bool {
    check(vo, vn, old, inst, dir) == Check::Counterexample
}

/// Instances the input filters removed (each one the sides disagreed on
/// the breaking way), and the counterexamples that only count because a
/// name `required` lists is declared (the filter dropped them before).
#[derive(Default, Clone, Copy)]
pub struct Filtered {
    pub not_an_object: usize,
    pub undeclared: usize,
    pub required_only_names: usize,
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
    let mut filtered = Filtered::default();
    // a breaking verdict gets a longer search before it counts as unconfirmed
    let budget = if breaking.is_empty() { n } else { 4 * n };
    for i in 0..budget {
        let inst = gens[i % 2].instance(rng);
        instances += 1;
        match check(&vo, &vn, old, &inst, dir) {
            Check::Agree => {}
            Check::NotAnObject => filtered.not_an_object += 1,
            Check::Undeclared => filtered.undeclared += 1,
            Check::Counterexample => {
                if !declared_only(old, &inst, false) {
                    filtered.required_only_names += 1;
                }
                counterexample = Some(inst);
                break;
            }
        }
    }
    Outcome::Judged {
        breaking,
        counterexample,
        instances,
        filtered,
    }
}
