//! Soundness of the compatibility engine on the schemas real servers
//! publish (issue 9). Seeds are read at test time from real artifacts:
//! schemars' output for the build step's parity fixture types, the
//! examples' lockfiles, the github-mcp-server corpus in `../shared`, and
//! built-in schemars/MCP 2026-07-28 shapes (non-object output roots among
//! them), and the foundation shapes (`soundness_real/foundation_shapes.rs`:
//! draft-07 and draft-04 documents, schemars' recursive `Expr` and a
//! JSON-value-like recursion, thirty object alternatives, a shared type
//! first reached beneath nodes that accept nothing, names declared only in
//! `required`, `enum`/`const` fields, pydantic's float bounds). Each pair
//! mutates one node of a seed, anywhere (inside `$defs`/`definitions`
//! targets, alternative branches, beside `$ref`s, at the root), with one of
//! the kinds in `soundness_real/mutate/` (among them the `$schema` switch and
//! respelling, number respellings that keep or change meaning, `-` in regex
//! classes, a `required`-only name given a schema, an `enum` relaxed to a
//! patterned string and back). Instances generated from both sides are
//! checked with the `jsonschema` crate, each side in the dialect its
//! `$schema` names (see `oracle.rs`), plus serde's range for integer and
//! float `format`s:
//! - input: accepted by OLD, rejected by NEW ⇒ an `input.*` breaking change;
//! - output: accepted by NEW, rejected by OLD ⇒ an `output.*` (or
//!   `tool.output-*`) breaking change.
//!
//! Filters: an instance the two sides disagree on the breaking way is set
//! aside, not counted, in two cases only, both on inputs (the summary line
//! `input filters:` counts each; against the comparator of commit c636443
//! the default run, seed 20261201 with 1200 pairs, set aside 71 and 157
//! instances, a 20,000-pair run 1,659 and 2,579):
//! - it is not a JSON object: MCP sends `arguments` as an object, so an
//!   input schema's other roots (an `anyOf` with a string branch, say) are
//!   never exercised by a caller;
//! - it sends a name the old schema does not declare at that place (the
//!   input policy the README states: callers send the properties the schema
//!   declares; a closed or `{"type": "object"}` node declares none beyond its
//!   `properties`, an open rest or `{}` takes any). A name listed in
//!   `required` (here, in an alternative, `then`/`else` or a dependent
//!   schema; not under `if`) counts as declared, with any value, as the
//!   comparator reads it: 36 of the default run's counterexamples (486 in
//!   20,000 pairs) send such a name and were dropped by this filter before.
//!   In draft-07 and before, properties beside a `$ref` declare nothing.
//!
//! Pairs, not instances, are skipped when the crate does not compile a
//! side (a mutation that leaves draft-04 a numeric `exclusiveMinimum` or a
//! boolean one without `minimum`, a wrapped root whose references no longer
//! resolve) or the loader refuses one (the gate exits 2 on it): the summary
//! lists them by reason and kind.
//!
//! A counterexample without a breaking verdict is a miss and fails the
//! test (a hung diff is the miss class `hang`; a `$schema` switch's misses
//! are classed by the two drafts, `input.dialect.switch.2020-12-to-draft-04`,
//! since each pair of dialects differs in its own keywords). Breaking
//! verdicts on kinds known to be harmless (annotations only, a `$defs`
//! rename, a removed constraint on an input, a respelling) without a
//! counterexample are noise; both are
//! printed by class, with precision (breaking pairs with a counterexample /
//! breaking pairs).
//!
//! `MCP_CONTRACT_SOUNDNESS_PAIRS` (default 1200) and
//! `MCP_CONTRACT_SOUNDNESS_SEED` size and vary the run;
//! `MCP_CONTRACT_SOUNDNESS_MISSES_DIR` receives one `<class>.json` repro per
//! miss class; `MCP_CONTRACT_SOUNDNESS_HANG_SECS` (default 20) is the hang
//! guard's patience (a hang ends the run at once: the stuck thread cannot be
//! stopped and may keep allocating); `MCP_CONTRACT_SOUNDNESS_SKIP_SEEDS`
//! (comma-separated origins such as `shape:root-recursive-allOf`) leaves
//! seeds out of a long run; `MCP_CONTRACT_SOUNDNESS_DUMP=FILE` appends the pairs
//! called breaking without a counterexample, for precision work;
//! `MCP_CONTRACT_SOUNDNESS_TRACE=FILE` holds the pair being judged (what
//! to look at when a diff exhausts memory and aborts the process).

#[path = "../../tests/support/skip.rs"]
mod skip;

#[path = "soundness_real/foundation_shapes.rs"]
mod foundation_shapes;
#[path = "soundness_real/instances.rs"]
mod instances;
#[path = "soundness_real/mutate.rs"]
mod mutate;
#[path = "soundness_real/oracle.rs"]
mod oracle;
#[path = "soundness_real/pair.rs"]
mod pair;
#[path = "soundness_real/reduce.rs"]
mod reduce;
#[path = "soundness_real/report.rs"]
mod report;
#[path = "soundness_real/rng.rs"]
mod rng;
#[path = "soundness_real/schemars_seeds.rs"]
mod schemars_seeds;
#[path = "soundness_real/seeds.rs"]
mod seeds;
#[path = "soundness_real/shapes.rs"]
mod shapes;
#[path = "soundness_real/verdict.rs"]
mod verdict;
#[path = "soundness_real/walk.rs"]
mod walk;
#[path = "soundness_real/widths.rs"]
mod widths;

use std::time::Duration;

use mcp_contract::diff::Direction;
use serde_json::Value;

use mutate::{Effect, Kind};
use pair::Outcome;
use report::{Report, Repro};
use rng::Rng;
use verdict::{Judge, Verdict};

const INSTANCES_PER_PAIR: usize = 48;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn dir_name(d: Direction) -> &'static str {
    match d {
        Direction::Input => "input",
        Direction::Output => "output",
    }
}

fn has_unevaluated(v: &Value) -> bool {
    let s = v.to_string();
    s.contains("\"unevaluatedProperties\"") || s.contains("\"unevaluatedItems\"")
}

/// Does the kind say this pair cannot be breaking in this direction?
fn harmless(kind: &Kind, monotone: bool, old: &Value, dir: Direction) -> bool {
    match kind.effect {
        Effect::Same | Effect::Annotation => true,
        Effect::Widen => dir == Direction::Input && monotone && !has_unevaluated(old),
        Effect::Narrow => dir == Direction::Output && monotone && !has_unevaluated(old),
        Effect::Mixed => false,
    }
}

/// A usable seed: the validator compiles it and the loader takes it in
/// the direction(s) it is used in.
struct Usable {
    origin: String,
    schema: Value,
    input: bool,
}

fn usable(
    judge: &mut Judge,
    seeds: seeds::Seeds,
) -> (Vec<(&'static str, Vec<Usable>)>, Vec<String>) {
    let mut groups = vec![];
    let mut notes = seeds.notes;
    for (name, list) in seeds.groups {
        let total = list.len();
        let mut ok = vec![];
        for s in list {
            if oracle::validator(&s.schema).is_none() {
                continue;
            }
            let loads =
                |j: &mut Judge, d| matches!(j.verdict(&s.schema, &s.schema, d), Verdict::Diffed(_));
            let input = loads(judge, Direction::Input);
            if input || loads(judge, Direction::Output) {
                ok.push(Usable {
                    origin: s.origin,
                    schema: s.schema,
                    input,
                });
            }
        }
        let inputs = ok.iter().filter(|u| u.input).count();
        notes.push(format!("seeds {name}: {} usable of {total} distinct ({inputs} with an object root usable as input)", ok.len()));
        if !ok.is_empty() {
            groups.push((name, ok));
        }
    }
    (groups, notes)
}

/// `MCP_CONTRACT_SOUNDNESS_DUMP=FILE` appends every pair called breaking
/// without a counterexample (one JSON line each), for precision work.
fn dump_unconfirmed(d: &str, kind: &str, old: &Value, new: &Value, breaking: &[(&str, String)]) {
    let Some(path) = std::env::var_os("MCP_CONTRACT_SOUNDNESS_DUMP") else {
        return;
    };
    let line = serde_json::json!({"direction": d, "kind": kind, "old": old, "new": new, "breaking": breaking})
        .to_string()
        + "\n";
    use std::io::Write;
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = f.write_all(line.as_bytes());
    }
}

#[test]
fn engine_never_misses_a_counterexample_on_real_shapes() {
    let seed = env_u64("MCP_CONTRACT_SOUNDNESS_SEED", 20261201);
    let pairs = env_u64("MCP_CONTRACT_SOUNDNESS_PAIRS", 1200) as usize;
    let mut judge = Judge::new(Duration::from_secs(env_u64(
        "MCP_CONTRACT_SOUNDNESS_HANG_SECS",
        20,
    )));
    let (groups, notes) = usable(&mut judge, seeds::load());
    for n in &notes {
        println!("{n}");
    }
    let kinds = mutate::kinds();
    let mut report = Report::default();
    let mut rng = Rng::new(seed);
    let mut done = 0;
    let mut attempt = 0usize;
    // seeds left out by name (a long run around a known hang)
    let quarantined: std::collections::BTreeSet<String> =
        std::env::var("MCP_CONTRACT_SOUNDNESS_SKIP_SEEDS")
            .unwrap_or_default()
            .split(',')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
    if !quarantined.is_empty() {
        println!("seeds left out (MCP_CONTRACT_SOUNDNESS_SKIP_SEEDS): {quarantined:?}");
    }
    let trace = std::env::var_os("MCP_CONTRACT_SOUNDNESS_TRACE");
    while done < pairs && attempt < pairs * 4 {
        attempt += 1;
        if judge.abandoned > 0 {
            // the hung diff keeps its thread and may keep allocating (one took
            // 12 GB): report now rather than let it take the machine down
            println!("stopped after a hung diff: reporting what was found so far");
            break;
        }
        // kinds in turn, so that each gets its share; seeds at random
        let kind = &kinds[attempt % kinds.len()];
        let mut found = None;
        for _ in 0..8 {
            let (_, group) = rng.pick(&groups);
            let s = rng.pick(group);
            if quarantined.contains(&s.origin) {
                continue;
            }
            if let Some((new, site)) = mutate::mutate(&s.schema, kind, &mut rng) {
                found = Some((s, new, site));
                break;
            }
        }
        if found.is_none() {
            // a kind that needs a rare keyword: look through every seed once
            let all: Vec<&Usable> = groups.iter().flat_map(|(_, g)| g.iter()).collect();
            let start = rng.below(all.len());
            for i in 0..all.len() {
                let s = all[(start + i) % all.len()];
                if quarantined.contains(&s.origin) {
                    continue;
                }
                if let Some((new, site)) = mutate::mutate(&s.schema, kind, &mut rng) {
                    found = Some((s, new, site));
                    break;
                }
            }
        }
        let Some((s, new, site)) = found else {
            continue;
        };
        let dir = if s.input && rng.chance(55) {
            Direction::Input
        } else {
            Direction::Output
        };
        let old = &s.schema;
        let d = dir_name(dir);
        if let Some(path) = &trace {
            // the pair about to be judged, for a run the engine brings down
            let line = serde_json::json!({"kind": kind.name, "direction": d, "origin": s.origin, "at": site.ptr, "old": old, "new": new});
            let _ = std::fs::write(path, line.to_string());
        }
        let outcome = pair::evaluate(&mut judge, old, &new, dir, &mut rng, INSTANCES_PER_PAIR);
        let note = format!("kind {} at {:?} of {}", kind.name, site.ptr, s.origin);
        match outcome {
            Outcome::Skipped(why) => {
                *report
                    .skipped
                    .entry(format!("{why}:{}", kind.name))
                    .or_default() += 1;
                continue;
            }
            Outcome::Hang | Outcome::Panic(_) => {
                let class = if matches!(outcome, Outcome::Hang) {
                    "hang".to_string()
                } else {
                    "panic".to_string()
                };
                let note = match outcome {
                    Outcome::Panic(m) => format!("{note}: {m}"),
                    _ => format!("{note}: no verdict within the guard's timeout"),
                };
                report.counts(kind.name, d).pairs += 1;
                report.counts(kind.name, d).misses += 1;
                report.miss(
                    class,
                    Repro {
                        direction: d,
                        old: old.clone(),
                        new: new.clone(),
                        instance: Value::Null,
                        note,
                    },
                );
            }
            Outcome::Judged {
                breaking,
                counterexample,
                instances,
                filtered,
            } => {
                done += 1;
                report.instances += instances;
                report.filtered.not_an_object += filtered.not_an_object;
                report.filtered.undeclared += filtered.undeclared;
                report.filtered.required_only_names += filtered.required_only_names;
                if done % 10_000 == 0 {
                    let t = report.totals();
                    println!(
                        "progress: {done} pairs, {} instances, {} counterexamples, {} breaking ({} confirmed), {} misses, {} noise",
                        report.instances, t.counterexamples, t.breaking, t.confirmed, t.misses, t.noise
                    );
                }
                let harmless = harmless(kind, site.monotone, old, dir);
                let c = report.counts(kind.name, d);
                c.pairs += 1;
                let is_breaking = !breaking.is_empty();
                c.breaking += is_breaking as usize;
                match (&counterexample, is_breaking) {
                    (Some(_), true) => {
                        c.counterexamples += 1;
                        c.confirmed += 1;
                    }
                    (Some(_), false) => {
                        c.counterexamples += 1;
                        c.misses += 1;
                    }
                    (None, true) if harmless => c.noise += 1,
                    _ => {}
                }
                if let (Some(inst), true) = (&counterexample, harmless) {
                    report.harmless_with_counterexample += 1;
                    if report.harmless_examples.len() < 6 {
                        let mut e = format!(
                            "{d} {note} (breaking: {}): old {old} new {new} instance {inst}",
                            !breaking.is_empty()
                        );
                        e.truncate(1500);
                        report.harmless_examples.push(e);
                    }
                }
                if is_breaking && counterexample.is_none() {
                    let rules: std::collections::BTreeSet<&'static str> =
                        breaking.iter().map(|(r, _)| *r).collect();
                    for rule in &rules {
                        *report.unconfirmed_rules.entry(rule).or_default() += 1;
                    }
                    dump_unconfirmed(d, kind.name, old, &new, &breaking);
                    if harmless {
                        let mut example = format!("{note}: {rules:?} at {}", breaking[0].1);
                        example.truncate(400);
                        report.noise(format!("{d}.{}", kind.name), example);
                    }
                }
                if let (Some(inst), false) = (counterexample, is_breaking) {
                    // a dialect switch is classed by its drafts: each pair
                    // of dialects differs in its own keywords
                    let class = if kind.name == "dialect.switch" {
                        let draft = mutate::dialects::draft_of;
                        format!("{d}.{}.{}-to-{}", kind.name, draft(old), draft(&new))
                    } else {
                        format!("{d}.{}", kind.name)
                    };
                    report.miss(
                        class,
                        Repro {
                            direction: d,
                            old: old.clone(),
                            new,
                            instance: inst,
                            note,
                        },
                    );
                }
            }
        }
    }
    // one small repro per miss class
    let classes: Vec<String> = report.misses.keys().cloned().collect();
    for class in classes {
        if class == "hang" || class == "panic" || judge.abandoned > 0 {
            continue;
        }
        let r = &report.misses[&class].1;
        let dir = if r.direction == "input" {
            Direction::Input
        } else {
            Direction::Output
        };
        let (o, n, i) = reduce::reduce(&mut judge, &r.old, &r.new, &r.instance, dir);
        let e = report.misses.get_mut(&class).unwrap();
        e.1.note = format!(
            "{}; {}",
            e.1.note,
            oracle::why_rejected(&o, &n, &i, dir == Direction::Input)
        );
        e.1.old = o;
        e.1.new = n;
        e.1.instance = i;
    }
    report.print(seed, kinds.len());
    if let Some(dir) = std::env::var_os("MCP_CONTRACT_SOUNDNESS_MISSES_DIR") {
        report.write_misses(std::path::Path::new(&dir));
    }
    let t = report.totals();
    let exercised: std::collections::BTreeSet<&String> =
        report.by_kind.keys().map(|(k, _)| k).collect();
    assert!(
        t.pairs < kinds.len() * 8 || exercised.len() == kinds.len(),
        "only {} of {} mutation kinds applied anywhere: the seeds or the kinds are broken",
        exercised.len(),
        kinds.len()
    );
    assert!(
        t.pairs * 2 >= pairs,
        "only {} of {pairs} pairs could be judged: the generator is broken",
        t.pairs
    );
    assert!(
        t.counterexamples * 20 >= t.pairs,
        "counterexamples on only {} of {} pairs: the instance generator is broken",
        t.counterexamples,
        t.pairs
    );
    assert!(
        report.misses.is_empty(),
        "{} pairs with a counterexample and no breaking verdict, in classes {:?} (repros above)",
        t.misses,
        report.misses.keys().collect::<Vec<_>>()
    );
}

/// The oracle itself: serde's ranges for widths, and exact bounds.
#[test]
fn oracle_enforces_serde_widths_and_exact_bounds() {
    use serde_json::json;
    let u32v =
        oracle::validator(&json!({"type": "integer", "format": "uint32", "minimum": 0})).unwrap();
    assert!(u32v.is_valid(&json!(4294967295u64)));
    assert!(!u32v.is_valid(&json!(4294967296u64)));
    let i8v = oracle::validator(&json!({"type": "integer", "format": "int8"})).unwrap();
    assert!(
        i8v.is_valid(&json!(-128)) && !i8v.is_valid(&json!(-129)) && !i8v.is_valid(&json!(128))
    );
    let f32v = oracle::validator(&json!({"type": "number", "format": "float"})).unwrap();
    assert!(f32v.is_valid(&json!(3.4028234663852886e38)) && !f32v.is_valid(&json!(3.5e38)));
    let u64v = oracle::validator(&json!({"type": "integer", "format": "uint64"})).unwrap();
    assert!(u64v.is_valid(&json!(u64::MAX)) && !u64v.is_valid(&json!(-1)));
    let exact =
        oracle::validator(&json!({"type": "integer", "maximum": 9007199254740992u64})).unwrap();
    assert!(
        !exact.is_valid(&json!(9007199254740993u64)),
        "bounds must compare exactly"
    );
    // string formats stay annotations, as the `jsonschema` default has them
    let s = oracle::validator(&json!({"type": "string", "format": "date-time"})).unwrap();
    assert!(s.is_valid(&json!("not a date")));
}

/// The oracle reads each side in its own dialect (the crate's draft
/// detection from `$schema`), patterns as ECMA 262 does, `multipleOf` as
/// exact decimals, and the input policy counts a name `required` lists.
#[test]
fn oracle_reads_each_side_in_its_own_dialect() {
    use serde_json::json;
    let d04 = "http://json-schema.org/draft-04/schema#";
    let d07 = "http://json-schema.org/draft-07/schema#";
    let valid = |s: &Value, i: &Value| oracle::validator(s).unwrap().is_valid(i);
    // draft-07: keywords beside $ref are ignored; 2020-12 applies them
    let beside = |d: Option<&str>| {
        let mut s = json!({"$ref": "#/definitions/S", "maxLength": 2, "definitions": {"S": {"type": "string"}}});
        if let Some(d) = d {
            s["$schema"] = json!(d);
        }
        s
    };
    assert!(valid(&beside(Some(d07)), &json!("abcd")));
    assert!(!valid(&beside(None), &json!("abcd")));
    // draft-07 tuples and dependencies
    let tuple = json!({"$schema": d07, "items": [{"type": "string"}], "additionalItems": false});
    assert!(valid(&tuple, &json!(["a"])) && !valid(&tuple, &json!(["a", 1])));
    let deps =
        |d: &str| json!({"$schema": d, "dependencies": {"a": ["b"], "c": {"required": ["d"]}}});
    assert!(!valid(&deps(d07), &json!({"a": 1})) && !valid(&deps(d07), &json!({"c": 1})));
    // 2019-09+: `dependencies` is no keyword (the crate would apply it)
    for d in [
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2019-09/schema",
    ] {
        assert!(valid(&deps(d), &json!({"a": 1, "c": 1})));
    }
    // draft-04: boolean exclusives, 1.0 is no integer, `id` anchors
    let excl = json!({"$schema": d04, "type": "integer", "minimum": 0, "exclusiveMinimum": true});
    assert!(!valid(&excl, &json!(0)) && valid(&excl, &json!(1)));
    assert!(!valid(&excl, &json!(1.0)));
    assert!(valid(&json!({"type": "integer"}), &json!(1.0)));
    let anchored = json!({"$schema": d04, "definitions": {"m": {"id": "#m", "type": "integer"}},
        "properties": {"x": {"$ref": "#m"}}});
    assert!(valid(&anchored, &json!({"x": 1})) && !valid(&anchored, &json!({"x": "s"})));
    assert_eq!(
        walk::resolve(&anchored, "#m"),
        Some(&json!({"id": "#m", "type": "integer"}))
    );
    // ECMA classes: a `-` is a range operator only between two characters
    assert!(oracle::ecma_matches("^[+--]$", ","));
    assert!(!oracle::ecma_matches("^[+]$", ","));
    assert!(oracle::ecma_matches("^[a-z--x]+$", "A1_"));
    assert!(!oracle::ecma_matches("^[a-z]+$", "A"));
    assert!(oracle::ecma_matches("^[a-z-]+$", "a-b"));
    // multipleOf as the decimals written
    let m = |k: Value, v: Value| valid(&json!({"multipleOf": k}), &v);
    assert!(m(json!(0.1), json!(0.3)) && !m(json!(0.1), json!(0.30000000000000004)));
    assert!(m(json!(0.01), json!(0.05)) && !m(json!(0.1), json!(0.05)));
    assert!(m(json!(1.0000000001), json!(3.0000000003)) && !m(json!(1.0000000001), json!(1)));
    // the input policy: a name `required` lists is declared (not under `if`)
    let either = json!({"type": "object", "anyOf": [{"required": ["id"]}, {"required": ["name"]}]});
    assert!(oracle::declared_only(&either, &json!({"id": 1}), true));
    assert!(!oracle::declared_only(&either, &json!({"id": 1}), false));
    assert!(!oracle::declared_only(&either, &json!({"other": 1}), true));
    let cond = json!({"type": "object", "properties": {"a": {}}, "if": {"required": ["b"]}, "then": {"required": ["c"]}});
    assert!(oracle::declared_only(&cond, &json!({"a": 1, "c": 1}), true));
    assert!(!oracle::declared_only(&cond, &json!({"b": 1}), true));
    // draft-07: properties beside a $ref declare nothing
    let sib = json!({"$schema": d07, "type": "object", "properties": {"o": {"$ref": "#/definitions/O", "properties": {"x": {}}}},
        "definitions": {"O": {"type": "object", "properties": {"y": {}}}}});
    assert!(oracle::declared_only(&sib, &json!({"o": {"y": 1}}), true));
    assert!(!oracle::declared_only(&sib, &json!({"o": {"x": 1}}), true));
}

/// The new kinds write what their names say (over a few random draws).
#[test]
fn foundation_kinds_write_what_they_say() {
    use serde_json::json;
    let kinds = mutate::kinds();
    let outcomes = |name: &str, doc: &Value, ptr: &str| -> Vec<Value> {
        let k = kinds.iter().find(|k| k.name == name).unwrap();
        let mut out = vec![];
        for seed in 0..40 {
            let mut d = doc.clone();
            if (k.apply)(&mut d, ptr, &mut Rng::new(seed)) && !out.contains(&d) {
                out.push(d);
            }
        }
        out
    };
    let pat = |p: &str| json!({"type": "string", "pattern": p});
    let add = outcomes("pattern.class-dash-add", &pat("^[a-z]+$"), "");
    assert!(add.contains(&pat("^[a-z-]+$")) && add.contains(&pat("^[a-z--x]+$")));
    assert!(outcomes("pattern.class-dash-add", &pat("^[+]?[0-9]+$"), "")
        .contains(&pat("^[+--]?[0-9]+$")));
    assert!(outcomes("pattern.class-dash-add", &pat("^[^a]$"), "").is_empty());
    for (from, to) in [
        ("^[+--]$", "^[+]$"),
        ("^[a-z--x]$", "^[a-z]$"),
        ("^[a-z-]$", "^[a-z]$"),
    ] {
        assert_eq!(
            outcomes("pattern.class-dash-remove", &pat(from), ""),
            vec![pat(to)]
        );
    }
    let d04 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer", "minimum": 0, "exclusiveMinimum": true});
    assert!(outcomes("number.exclusive-respell", &d04, "").contains(
        &json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer", "minimum": 1})
    ));
    let excl = json!({"type": "integer", "exclusiveMinimum": 0});
    assert_eq!(
        outcomes("number.exclusive-respell", &excl, ""),
        vec![json!({"type": "integer", "minimum": 1})]
    );
    assert!(outcomes(
        "number.exclusive-respell",
        &json!({"type": "number", "exclusiveMinimum": 0}),
        ""
    )
    .is_empty());
    assert!(
        outcomes("number.integral-respell", &json!({"enum": [0.5, 1.0]}), "")
            .contains(&json!({"enum": [0.5, 1]}))
    );
    let big = json!({"type": "integer", "maximum": 9007199254740993u64});
    assert_eq!(
        outcomes("number.past-2^53-tighten", &big, ""),
        vec![json!({"type": "integer", "maximum": 9007199254740992u64})]
    );
    let m = |k: Value| json!({"type": "number", "multipleOf": k});
    let finer = outcomes("multipleOf.finer", &m(json!(0.1)), "");
    assert_eq!(finer, vec![m(json!(0.01))]);
    assert!(outcomes("multipleOf.coarser", &m(json!(0.01)), "").contains(&m(json!(0.1))));
    assert!(outcomes("multipleOf.skew", &m(json!(1)), "").contains(&m(json!(1.0000000001))));
    let either = json!({"type": "object", "anyOf": [{"required": ["id"]}, {"required": ["name"]}]});
    assert!(outcomes("required-only.constrain", &either, "")
        .iter()
        .all(|d| {
            let p = &d["properties"];
            p.get("id").is_some() || p.get("name").is_some()
        }));
    let e = json!({"type": "string", "enum": ["asc", "desc"]});
    assert!(outcomes("enum.relax-to-pattern", &e, "")
        .contains(&json!({"type": "string", "pattern": "^[a-z]+$"})));
    assert!(outcomes("enum.from-pattern", &pat("^[a-c]+$"), "")
        .iter()
        .all(|d| d["enum"].as_array().is_some_and(|v| v
            .iter()
            .all(|s| oracle::ecma_matches("^[a-c]+$", s.as_str().unwrap())))));
    let sw = outcomes("dialect.switch", &json!({"type": "string"}), "");
    assert!(sw.iter().all(|d| d.get("$schema").is_some()) && sw.len() == 3);
    assert!(outcomes("dialect.respell", &json!({"type": "string"}), "")
        .iter()
        .all(|d| d["$schema"].as_str().is_some_and(|u| u.contains("2020-12"))));
}
