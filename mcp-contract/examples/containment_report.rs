//! How the comparator answers the public JSON Schema containment test suite
//! (<https://github.com/sdbs-uni-p/json-schema-containment-testsuite>).
//!
//! ```text
//! cargo run --release -p mcp-contract --example containment_report -- SUITE/tests [--verbose] [--literal-wrap]
//! ```
//!
//! The suite is read, never copied: `SUITE/tests/<draft>/<group>/*.json` and
//! `SUITE/tests/<draft>/<group>/optional/**.json`, each file an array of
//! `{"id", "schema1", "schema2", "tests": {"s1SubsetEqOfs2", "s2SubsetEqOfs1"?}}`
//! (the second answer is given only by the `reflexive`, `universal` and
//! `unsatisfiable` groups; the suite has no `description`, so a question is
//! named by its file and `id`). Only `draft2020-12` and `draft4` are measured.
//! Each given answer is one *question* ("is A ⊆ B?"), and each question is
//! asked twice, through the same entry points `cargo mcp-contract diff` uses
//! ([`mcp_contract::load::surface_from_value`], then
//! [`mcp_contract::diff_surfaces`] and [`mcp_contract::DiffReport::is_breaking`]):
//!
//! * **input**: old tool `inputSchema: WRAP(A)`, new tool `inputSchema: WRAP(B)`.
//!   Every call the old schema accepted must still be accepted, so
//!   "compatible" means A ⊆ B.
//! * **output**: `inputSchema: {"type": "object"}` on both, old
//!   `outputSchema: WRAP(B)`, new `outputSchema: WRAP(A)`. Clients must only
//!   ever receive what the old schema promised, so "compatible" means A ⊆ B.
//!
//! A breaking verdict is read as "not contained", a compatible one as
//! "contained". `WRAP(S)` is `{"type": "object", "properties": {"x": S},
//! "required": ["x"]}` (a boolean `S` is put in as is) with `S`'s root
//! `$defs`, `definitions`, `$id` and `$schema` (draft 4: also a non-fragment
//! `id`) hoisted to the wrapper root — except a schema with its own `$id`
//! (draft 4: `id`), which stays whole where it stands as an embedded
//! resource, its references resolving against it; draft 4 wrappers also get
//! `"$schema": "http://json-schema.org/draft-04/schema#"` unless `S` brings
//! its own. Because the suite's schemas point into their own root (`"$ref":
//! "#"`, `"#/anyOf/0"`, `"#/properties/foo"`), local references that do not
//! go through a hoisted `$defs`/`definitions` are re-rooted under
//! `#/properties/x` so that they keep meaning what they meant; `--literal-wrap`
//! turns that off (to see what the plain wrapper does).
//!
//! For every (question, direction) the report records: agreement, *false
//! breaking* (contained, but called breaking), *missed* (not contained, but
//! called compatible — a soundness gap, printed with both schemas), loading
//! refusals (`surface_from_value` errors), findings whose rule id ends in
//! `not-compared`, panics (each question runs under `catch_unwind`) and the
//! time taken (over one second is flagged). It prints one table per draft,
//! per group (`valid/optional` is the `optional/` folder of `valid`) and per
//! direction, totals per draft overall and outside `optional`, the misses,
//! refusals (grouped by message), `not-compared` findings, panics and slow
//! questions, and a histogram of the rules behind the false-breaking
//! verdicts. `--verbose` also prints every disagreement.
//!
//! It only reads files and prints. Exit status 2 when the directory is
//! missing or the arguments are wrong, 0 otherwise (disagreement is the
//! measurement, not a failure).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Map, Value};

/// The drafts measured: the folder under `tests/` and how to wrap its schemas.
const DRAFTS: [(&str, Draft); 2] = [
    ("draft2020-12", Draft::Draft2020),
    ("draft4", Draft::Draft4),
];

/// Over this, a question is flagged as slow.
const SLOW: Duration = Duration::from_secs(1);

/// How many refusal messages are printed in full per draft (panics: twice as many in all).
const FIRST_FEW: usize = 8;

/// How many rules the false-breaking histogram shows.
const TOP_RULES: usize = 25;

/// Schemas longer than this (compact JSON) are cut when printed.
const SCHEMA_PRINT_LIMIT: usize = 1500;

/// Keywords whose values are data, not schemas: no reference inside them.
const DATA_KEYWORDS: [&str; 5] = ["const", "enum", "default", "examples", "example"];

/// Keywords whose values map names to schemas (the names are not keywords).
const NAMED_SCHEMAS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Draft {
    Draft2020,
    Draft4,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Direction {
    Input,
    Output,
}

impl Direction {
    const BOTH: [Direction; 2] = [Direction::Input, Direction::Output];

    fn as_str(self) -> &'static str {
        match self {
            Direction::Input => "input",
            Direction::Output => "output",
        }
    }
}

struct Options {
    tests_dir: PathBuf,
    verbose: bool,
    rewrite_refs: bool,
}

/// One question of the suite: is `sub` ⊆ `sup`?
struct Question {
    draft: &'static str,
    dialect: Draft,
    /// The folder under the draft (`valid`, `nonvalid`, ...).
    group: String,
    /// Under the group's `optional/` folder?
    optional: bool,
    /// The file, relative to the draft folder.
    file: String,
    /// The group's `id` inside the file.
    id: Value,
    /// `s1 ⊆ s2` or `s2 ⊆ s1`.
    asked: &'static str,
    sub: Value,
    sup: Value,
    /// The suite's answer: is `sub` contained in `sup`?
    contained: bool,
    /// A keyword the declared draft does not define, used by either schema:
    /// that draft's validators ignore it (python-jsonschema's
    /// `Draft4Validator` accepts `"x"` under `{"const": [1]}`), and so does
    /// the comparator, while the label reads it as a later draft would. Such
    /// questions are counted apart, not in the agreement.
    foreign: Option<&'static str>,
}

impl Question {
    fn row_label(&self) -> String {
        if self.optional {
            format!("{}/optional", self.group)
        } else {
            self.group.clone()
        }
    }

    fn name(&self) -> String {
        format!(
            "{}/{} id={} {}",
            self.draft,
            self.file,
            compact(&self.id),
            self.asked
        )
    }
}

/// What the comparator said about one question in one direction.
enum Verdict {
    /// `surface_from_value` refused one of the two surfaces.
    Refused(String),
    Panicked(String),
    Answered {
        breaking: bool,
        /// The breaking findings' rule ids (each once).
        breaking_rules: BTreeSet<&'static str>,
        /// The `*.not-compared` findings: `rule pointer: message`.
        not_compared: Vec<String>,
    },
}

struct Outcome {
    verdict: Verdict,
    elapsed: Duration,
}

impl Outcome {
    fn agrees(&self, contained: bool) -> bool {
        matches!(self.verdict, Verdict::Answered { breaking, .. } if breaking != contained)
    }
}

/// One line of a table.
#[derive(Default, Clone, Copy)]
struct Tally {
    pairs: usize,
    agree: usize,
    false_breaking: usize,
    missed: usize,
    refused: usize,
    not_compared: usize,
    panicked: usize,
    slow: usize,
}

impl Tally {
    fn add(&mut self, q: &Question, o: &Outcome) {
        self.pairs += 1;
        if o.elapsed > SLOW {
            self.slow += 1;
        }
        match &o.verdict {
            Verdict::Refused(_) => self.refused += 1,
            Verdict::Panicked(_) => self.panicked += 1,
            Verdict::Answered {
                breaking,
                not_compared,
                ..
            } => {
                if !not_compared.is_empty() {
                    self.not_compared += 1;
                }
                match (q.contained, *breaking) {
                    (true, true) => self.false_breaking += 1,
                    (false, false) => self.missed += 1,
                    _ => self.agree += 1,
                }
            }
        }
    }

    fn merge(&mut self, other: &Tally) {
        self.pairs += other.pairs;
        self.agree += other.agree;
        self.false_breaking += other.false_breaking;
        self.missed += other.missed;
        self.refused += other.refused;
        self.not_compared += other.not_compared;
        self.panicked += other.panicked;
        self.slow += other.slow;
    }

    fn row(&self, label: &str, direction: &str) -> String {
        let pct = if self.pairs == 0 {
            "-".to_string()
        } else {
            format!("{:.1}", 100.0 * self.agree as f64 / self.pairs as f64)
        };
        format!(
            "{label:<24} {direction:<6} {:>6} {:>6} {:>6} {:>7} {:>6} {:>7} {:>7} {:>6} {:>5}",
            self.pairs,
            self.agree,
            pct,
            self.false_breaking,
            self.missed,
            self.refused,
            self.not_compared,
            self.panicked,
            self.slow
        )
    }
}

fn header() -> String {
    format!(
        "{:<24} {:<6} {:>6} {:>6} {:>6} {:>7} {:>6} {:>7} {:>7} {:>6} {:>5}",
        "group",
        "dir",
        "pairs",
        "agree",
        "agree%",
        "f-break",
        "missed",
        "refused",
        "not-cmp",
        "panics",
        "slow"
    )
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("containment_report: {msg}");
            eprintln!(
                "usage: cargo run --release -p mcp-contract --example containment_report -- SUITE/tests [--verbose] [--literal-wrap]"
            );
            return ExitCode::from(2);
        }
    };
    if !options.tests_dir.is_dir() {
        eprintln!(
            "containment_report: `{}` is not a directory; pass the suite's `tests` folder (it holds draft2020-12/, draft4/, ...)",
            options.tests_dir.display()
        );
        return ExitCode::from(2);
    }
    let missing: Vec<&str> = DRAFTS
        .iter()
        .map(|(d, _)| *d)
        .filter(|d| !options.tests_dir.join(d).is_dir())
        .collect();
    if missing.len() == DRAFTS.len() {
        eprintln!(
            "containment_report: `{}` holds none of {}; pass the suite's `tests` folder",
            options.tests_dir.display(),
            DRAFTS.map(|(d, _)| d).join(", ")
        );
        return ExitCode::from(2);
    }
    for d in &missing {
        eprintln!("containment_report: warning: no `{d}` folder, skipping that draft");
    }

    let started = Instant::now();
    let last_panic = install_panic_hook();
    let current = Arc::new(Mutex::new(None::<(String, Instant)>));
    start_watchdog(Arc::clone(&current));

    let mut questions = vec![];
    let mut bad_files = vec![];
    for (draft, dialect) in DRAFTS {
        let dir = options.tests_dir.join(draft);
        if dir.is_dir() {
            collect_draft(&dir, draft, dialect, &mut questions, &mut bad_files);
        }
    }
    for (file, why) in &bad_files {
        println!("unreadable suite file {file}: {why}");
    }
    eprintln!(
        "containment_report: {} questions, asked in 2 directions each",
        questions.len()
    );

    let mut outcomes: Vec<[Outcome; 2]> = Vec::with_capacity(questions.len());
    for q in &questions {
        let one = |d: Direction| {
            *current.lock().unwrap_or_else(|e| e.into_inner()) =
                Some((format!("{} ({})", q.name(), d.as_str()), Instant::now()));
            let o = ask(q, d, options.rewrite_refs, &last_panic);
            *current.lock().unwrap_or_else(|e| e.into_inner()) = None;
            o
        };
        outcomes.push([one(Direction::Input), one(Direction::Output)]);
    }

    let mut out = String::new();
    report(&mut out, &questions, &outcomes, &options);
    let _ = writeln!(
        out,
        "\ntotal run time: {:.2} s ({} questions x 2 directions)",
        started.elapsed().as_secs_f64(),
        questions.len()
    );
    print!("{out}");
    ExitCode::SUCCESS
}

fn parse_args() -> Result<Options, String> {
    let mut tests_dir = None;
    let mut verbose = false;
    let mut rewrite_refs = true;
    for arg in std::env::args_os().skip(1) {
        match arg.to_str() {
            Some("--verbose" | "-v") => verbose = true,
            Some("--literal-wrap") => rewrite_refs = false,
            Some(s) if s.starts_with('-') => return Err(format!("unknown option `{s}`")),
            _ if tests_dir.is_none() => tests_dir = Some(PathBuf::from(arg)),
            _ => return Err("more than one directory given".to_string()),
        }
    }
    let tests_dir = tests_dir.ok_or("missing the suite's tests directory")?;
    Ok(Options {
        tests_dir,
        verbose,
        rewrite_refs,
    })
}

// ---------------------------------------------------------------- the suite

fn collect_draft(
    dir: &Path,
    draft: &'static str,
    dialect: Draft,
    questions: &mut Vec<Question>,
    bad_files: &mut Vec<(String, String)>,
) {
    let mut files = vec![];
    json_files(dir, &mut files);
    files.sort();
    for path in files {
        let rel = path.strip_prefix(dir).unwrap_or(&path);
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let rel_name = parts.join("/");
        // <group>/<file>.json or <group>/optional/**; a file right under the
        // draft folder (none today) is its own group "(top)".
        let (group, optional) = match parts.as_slice() {
            [_file] => ("(top)".to_string(), false),
            [group, rest @ ..] => (group.clone(), rest.len() > 1 && rest[0] == "optional"),
            [] => continue,
        };
        let groups = match std::fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()))
        {
            Ok(Value::Array(groups)) => groups,
            Ok(_) => {
                bad_files.push((format!("{draft}/{rel_name}"), "not a JSON array".into()));
                continue;
            }
            Err(e) => {
                bad_files.push((format!("{draft}/{rel_name}"), e));
                continue;
            }
        };
        for (i, g) in groups.into_iter().enumerate() {
            let (Some(s1), Some(s2)) = (g.get("schema1"), g.get("schema2")) else {
                bad_files.push((
                    format!("{draft}/{rel_name} [{i}]"),
                    "no schema1/schema2".into(),
                ));
                continue;
            };
            let id = g.get("id").cloned().unwrap_or(json!(i));
            let tests = g.get("tests");
            let answer = |k: &str| tests.and_then(|t| t.get(k)).and_then(Value::as_bool);
            let asked = [
                ("s1 ⊆ s2", answer("s1SubsetEqOfs2"), s1, s2),
                ("s2 ⊆ s1", answer("s2SubsetEqOfs1"), s2, s1),
            ];
            for (asked, contained, sub, sup) in asked {
                let Some(contained) = contained else { continue };
                questions.push(Question {
                    draft,
                    dialect,
                    group: group.clone(),
                    optional,
                    file: rel_name.clone(),
                    id: id.clone(),
                    asked,
                    sub: sub.clone(),
                    sup: sup.clone(),
                    contained,
                    foreign: if dialect == Draft::Draft4 {
                        foreign_keyword(sub, None).or_else(|| foreign_keyword(sup, None))
                    } else {
                        None
                    },
                });
            }
        }
    }
}

/// Keywords later drafts brought that draft-04 does not define.
const AFTER_DRAFT4: [&str; 15] = [
    "const",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "prefixItems",
    "minContains",
    "maxContains",
    "$defs",
    "$anchor",
];

/// The first keyword of [`AFTER_DRAFT4`] a schema uses (names under
/// `properties` and the like are names, and data is data).
fn foreign_keyword(v: &Value, parent: Option<&str>) -> Option<&'static str> {
    const NAMES: [&str; 4] = [
        "properties",
        "patternProperties",
        "definitions",
        "dependencies",
    ];
    const DATA: [&str; 4] = ["enum", "const", "default", "examples"];
    match v {
        Value::Object(m) if parent.is_some_and(|p| NAMES.contains(&p)) => {
            m.values().find_map(|x| foreign_keyword(x, None))
        }
        Value::Object(m) => {
            if let Some(k) = AFTER_DRAFT4.iter().find(|k| m.contains_key(**k)) {
                return Some(k);
            }
            m.iter()
                .filter(|(k, _)| !DATA.contains(&k.as_str()))
                .find_map(|(k, x)| foreign_keyword(x, Some(k)))
        }
        Value::Array(a) => a.iter().find_map(|x| foreign_keyword(x, None)),
        _ => None,
    }
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

// ---------------------------------------------------------------- asking

/// `{"type":"object","properties":{"x": S},"required":["x"]}`, with `S`'s
/// root resources hoisted to the wrapper root (see the module docs).
fn wrap(s: &Value, dialect: Draft, rewrite_refs: bool) -> Value {
    let mut root = Map::new();
    let inner = match s {
        Value::Object(m) => {
            let mut m = m.clone();
            // a schema with its own base URI is an embedded resource where
            // it stands: its references resolve against it, so it keeps its
            // `$defs` and references as written
            let resource = m.contains_key("$id")
                || (dialect == Draft::Draft4
                    && m.get("id")
                        .and_then(Value::as_str)
                        .is_some_and(|id| !id.starts_with('#')));
            let keys: &[&str] = if resource {
                &["$schema"]
            } else {
                &["$defs", "definitions", "$id", "$schema", "id"]
            };
            for &key in keys {
                let hoist = match (key, m.get(key)) {
                    (_, None) => false,
                    // draft 4's `id`; a fragment (`"#foo"`) names a place
                    // inside S and stays there
                    ("id", Some(v)) => {
                        dialect == Draft::Draft4
                            && v.as_str().is_some_and(|id| !id.starts_with('#'))
                    }
                    _ => true,
                };
                if hoist {
                    if let Some(v) = m.remove(key) {
                        root.insert(key.to_string(), v);
                    }
                }
            }
            let mut inner = Value::Object(m);
            if rewrite_refs && !resource {
                let hoisted: Vec<&str> = ["$defs", "definitions"]
                    .into_iter()
                    .filter(|k| root.contains_key(*k))
                    .collect();
                reroot_refs(&mut inner, &hoisted);
                for key in &hoisted {
                    if let Some(Value::Object(defs)) = root.get_mut(*key) {
                        for d in defs.values_mut() {
                            reroot_refs(d, &hoisted);
                        }
                    }
                }
            }
            inner
        }
        other => other.clone(),
    };
    if dialect == Draft::Draft4 && !root.contains_key("$schema") {
        root.insert(
            "$schema".into(),
            json!("http://json-schema.org/draft-04/schema#"),
        );
    }
    root.insert("type".into(), json!("object"));
    root.insert("properties".into(), json!({ "x": inner }));
    root.insert("required".into(), json!(["x"]));
    Value::Object(root)
}

/// Where `S` sits inside the wrapper.
const REROOT: &str = "#/properties/x";

/// Re-roots the local pointer references (`#`, `#/...`) of a schema under
/// [`REROOT`], except those into a definitions map hoisted to the wrapper
/// root; anchors (`#name`) and remote references stay as they are.
fn reroot_refs(v: &mut Value, hoisted: &[&str]) {
    map_refs(v, &mut |r| {
        let frag = r.strip_prefix('#')?;
        if frag.is_empty() {
            return Some(REROOT.to_string());
        }
        let first = frag.strip_prefix('/')?.split('/').next()?;
        (!hoisted.contains(&first)).then(|| format!("{REROOT}{frag}"))
    });
}

/// Applies `f` to every `$ref`/`$dynamicRef` string of a schema (not inside
/// data keywords); `f` returns the replacement, or `None` to keep it.
fn map_refs(v: &mut Value, f: &mut dyn FnMut(&str) -> Option<String>) {
    match v {
        Value::Object(m) => {
            for key in ["$ref", "$dynamicRef"] {
                if let Some(Value::String(r)) = m.get_mut(key) {
                    if let Some(new) = f(r) {
                        *r = new;
                    }
                }
            }
            for (k, child) in m.iter_mut() {
                if DATA_KEYWORDS.contains(&k.as_str()) {
                    continue;
                }
                if NAMED_SCHEMAS.contains(&k.as_str()) {
                    if let Value::Object(named) = child {
                        for s in named.values_mut() {
                            map_refs(s, f);
                        }
                        continue;
                    }
                }
                // (an embedded resource: its references resolve against its `$id`)
                if child.get("$id").is_some() {
                    continue;
                }
                map_refs(child, f);
            }
        }
        Value::Array(a) => {
            for x in a {
                map_refs(x, f);
            }
        }
        _ => {}
    }
}

/// The two surfaces for one question in one direction: (old, new).
fn surfaces(q: &Question, d: Direction, rewrite_refs: bool) -> (Value, Value) {
    let sub = wrap(&q.sub, q.dialect, rewrite_refs);
    let sup = wrap(&q.sup, q.dialect, rewrite_refs);
    match d {
        Direction::Input => (
            json!({"tools": [{"name": "t", "inputSchema": sub}]}),
            json!({"tools": [{"name": "t", "inputSchema": sup}]}),
        ),
        Direction::Output => (
            json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}, "outputSchema": sup}]}),
            json!({"tools": [{"name": "t", "inputSchema": {"type": "object"}, "outputSchema": sub}]}),
        ),
    }
}

fn ask(
    q: &Question,
    d: Direction,
    rewrite_refs: bool,
    last_panic: &Mutex<Option<String>>,
) -> Outcome {
    let (old_value, new_value) = surfaces(q, d, rewrite_refs);
    let start = Instant::now();
    let result = panic::catch_unwind(AssertUnwindSafe(|| {
        let old = mcp_contract::load::surface_from_value(&old_value, "old.json")
            .map_err(|e| e.to_string())?;
        let new = mcp_contract::load::surface_from_value(&new_value, "new.json")
            .map_err(|e| e.to_string())?;
        Ok::<_, String>(mcp_contract::diff_surfaces(&old, &new))
    }));
    let elapsed = start.elapsed();
    let verdict = match result {
        Err(_) => Verdict::Panicked(
            last_panic
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .unwrap_or_else(|| "(no message)".to_string()),
        ),
        Ok(Err(refusal)) => Verdict::Refused(refusal),
        Ok(Ok(report)) => Verdict::Answered {
            breaking: report.is_breaking(),
            breaking_rules: report
                .changes
                .iter()
                .filter(|c| c.severity >= mcp_contract::Severity::Breaking)
                .map(|c| c.rule)
                .collect(),
            not_compared: report
                .changes
                .iter()
                .filter(|c| c.rule.ends_with("not-compared"))
                .map(|c| {
                    format!(
                        "{} {}: {}",
                        c.rule,
                        cut_to(&c.pointer, 80),
                        cut_to(&c.message, 160)
                    )
                })
                .collect(),
        },
    };
    Outcome { verdict, elapsed }
}

/// Keeps panic messages (for the report) instead of printing them.
fn install_panic_hook() -> Arc<Mutex<Option<String>>> {
    let slot = Arc::new(Mutex::new(None));
    let hook_slot = Arc::clone(&slot);
    panic::set_hook(Box::new(move |info| {
        let msg = info.to_string().replace('\n', " ");
        *hook_slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(msg);
    }));
    slot
}

/// Tells (on stderr) about a question that has run for over 30 s, so a
/// hang is visible while it happens.
fn start_watchdog(current: Arc<Mutex<Option<(String, Instant)>>>) {
    std::thread::spawn(move || {
        let mut told = String::new();
        loop {
            std::thread::sleep(Duration::from_secs(5));
            let now = current.lock().unwrap_or_else(|e| e.into_inner()).clone();
            if let Some((name, since)) = now {
                if since.elapsed() > Duration::from_secs(30) && name != told {
                    eprintln!("containment_report: still on {name} after 30 s");
                    told = name;
                }
            }
        }
    });
}

// ---------------------------------------------------------------- the report

fn report(out: &mut String, qs: &[Question], os: &[[Outcome; 2]], opt: &Options) {
    let _ = writeln!(
        out,
        "JSON Schema containment suite: {}\nwrapper: {}\n",
        opt.tests_dir.display(),
        if opt.rewrite_refs {
            "local references re-rooted under #/properties/x"
        } else {
            "literal (--literal-wrap: local references left as written)"
        }
    );
    let _ = writeln!(
        out,
        "pairs = questions (\"is A ⊆ B?\"); agree% = agree/pairs; f-break = contained but called breaking;\nmissed = not contained but called compatible; refused = a surface did not load; not-cmp = a *not-compared finding;\nslow = over {} s\n",
        SLOW.as_secs()
    );

    for (draft, _) in DRAFTS {
        let idx: Vec<usize> = (0..qs.len()).filter(|&i| qs[i].draft == draft).collect();
        if idx.is_empty() {
            continue;
        }
        let _ = writeln!(out, "== {draft} ==\n{}", header());
        let mut rows: BTreeMap<(String, Direction), Tally> = BTreeMap::new();
        let mut overall = [Tally::default(); 2];
        let mut required = [Tally::default(); 2];
        let mut optional = [Tally::default(); 2];
        let mut foreign = [Tally::default(); 2];
        let mut foreign_kw: BTreeMap<&str, usize> = BTreeMap::new();
        for &i in &idx {
            if let Some(k) = qs[i].foreign {
                *foreign_kw.entry(k).or_default() += 1;
            }
            for (k, d) in Direction::BOTH.into_iter().enumerate() {
                let q = &qs[i];
                let o = &os[i][k];
                rows.entry((q.row_label(), d)).or_default().add(q, o);
                overall[k].add(q, o);
                if q.foreign.is_some() {
                    foreign[k].add(q, o)
                } else if q.optional {
                    optional[k].add(q, o)
                } else {
                    required[k].add(q, o)
                }
            }
        }
        for ((label, d), t) in &rows {
            let _ = writeln!(out, "{}", t.row(label, d.as_str()));
        }
        let _ = writeln!(out, "{}", "-".repeat(header().chars().count()));
        for (label, t) in [
            ("TOTAL", &overall),
            ("TOTAL outside optional", &required),
            ("TOTAL optional only", &optional),
            ("TOTAL foreign keyword", &foreign),
        ] {
            for (k, d) in Direction::BOTH.into_iter().enumerate() {
                let _ = writeln!(out, "{}", t[k].row(label, d.as_str()));
            }
            let mut both = t[0];
            both.merge(&t[1]);
            let _ = writeln!(out, "{}", both.row(label, "both"));
        }
        if !foreign_kw.is_empty() {
            let _ = writeln!(
                out,
                "(foreign keyword: questions using a keyword {draft} does not define, which its validators ignore and the label does not; apart from the other totals: {foreign_kw:?})"
            );
        }
        let _ = writeln!(out);
    }

    missed(out, qs, os);
    refusals(out, qs, os);
    not_compared(out, qs, os);
    panics(out, qs, os);
    slow(out, qs, os);
    histogram(out, qs, os);
    if opt.verbose {
        disagreements(out, qs, os);
    }
}

/// Each missed question once, with the directions that missed it.
fn missed(out: &mut String, qs: &[Question], os: &[[Outcome; 2]]) {
    let mut n = 0;
    let mut text = String::new();
    for (q, o) in qs.iter().zip(os) {
        let dirs: Vec<&str> = Direction::BOTH
            .iter()
            .zip(o)
            .filter(|(_, o)| {
                matches!(
                    o.verdict,
                    Verdict::Answered {
                        breaking: false,
                        ..
                    }
                ) && !q.contained
            })
            .map(|(d, _)| d.as_str())
            .collect();
        if dirs.is_empty() {
            continue;
        }
        n += 1;
        let _ = writeln!(
            text,
            "- {} [{}] missed in: {}\n    A (must not be ⊆): {}\n    B                : {}",
            q.name(),
            q.row_label(),
            dirs.join(", "),
            cut(&compact(&q.sub)),
            cut(&compact(&q.sup))
        );
    }
    let _ = writeln!(
        out,
        "== MISSED: not contained, called compatible ({n} questions; A = the side asked to be contained) ==\n{text}"
    );
}

fn refusals(out: &mut String, qs: &[Question], os: &[[Outcome; 2]]) {
    let mut by_message: BTreeMap<String, usize> = BTreeMap::new();
    let mut first: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut n = 0;
    for (q, o) in qs.iter().zip(os) {
        for (d, o) in Direction::BOTH.iter().zip(o) {
            if let Verdict::Refused(msg) = &o.verdict {
                n += 1;
                *by_message.entry(refusal_kind(msg)).or_default() += 1;
                let shown = first.entry(q.draft).or_default();
                if shown.len() < FIRST_FEW {
                    shown.push(format!(
                        "- {} ({}): {}",
                        q.name(),
                        d.as_str(),
                        msg.replace('\n', "\n    ")
                    ));
                }
            }
        }
    }
    let _ = writeln!(out, "== REFUSALS ({n} question-directions) ==");
    let mut kinds: Vec<_> = by_message.into_iter().collect();
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (kind, count) in kinds {
        let _ = writeln!(out, "{count:>6}  {kind}");
    }
    for (draft, lines) in first {
        let _ = writeln!(out, "first refusals in {draft}:");
        for l in lines {
            let _ = writeln!(out, "{l}");
        }
    }
    let _ = writeln!(out);
}

/// A refusal message without its file name, location, tool name and quoted
/// references, for grouping.
fn refusal_kind(msg: &str) -> String {
    let line = msg.lines().next().unwrap_or(msg);
    // "old.json: /tools/0/inputSchema/...: tool `t`: message"
    let rest = line
        .strip_prefix("old.json: ")
        .or_else(|| line.strip_prefix("new.json: "))
        .unwrap_or(line);
    let rest = match rest.split_once(": ") {
        Some((loc, m)) if loc.starts_with('/') || loc.starts_with("line ") => m,
        _ => rest,
    };
    let rest = rest.strip_prefix("tool `t`: ").unwrap_or(rest);
    // references vary per schema: `"#/a/b"` becomes `"…"`
    let mut kind = String::new();
    for (i, part) in rest.split('"').enumerate() {
        if i > 0 {
            kind.push('"');
        }
        kind.push_str(if i % 2 == 1 { "…" } else { part });
    }
    kind
}

fn not_compared(out: &mut String, qs: &[Question], os: &[[Outcome; 2]]) {
    let mut lines = vec![];
    for (q, o) in qs.iter().zip(os) {
        for (d, o) in Direction::BOTH.iter().zip(o) {
            if let Verdict::Answered { not_compared, .. } = &o.verdict {
                for f in not_compared {
                    lines.push(format!("- {} ({}): {f}", q.name(), d.as_str()));
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "== NOT-COMPARED findings ({} findings) ==",
        lines.len()
    );
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = writeln!(out);
}

fn panics(out: &mut String, qs: &[Question], os: &[[Outcome; 2]]) {
    let mut lines = vec![];
    let mut n = 0;
    for (q, o) in qs.iter().zip(os) {
        for (d, o) in Direction::BOTH.iter().zip(o) {
            if let Verdict::Panicked(msg) = &o.verdict {
                n += 1;
                if lines.len() < 2 * FIRST_FEW {
                    lines.push(format!("- {} ({}): {msg}", q.name(), d.as_str()));
                }
            }
        }
    }
    let _ = writeln!(out, "== PANICS ({n} question-directions) ==");
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = writeln!(out);
}

fn slow(out: &mut String, qs: &[Question], os: &[[Outcome; 2]]) {
    let mut all: Vec<(Duration, String)> = vec![];
    let mut slowest = (Duration::ZERO, String::new());
    let mut total = Duration::ZERO;
    for (q, o) in qs.iter().zip(os) {
        for (d, o) in Direction::BOTH.iter().zip(o) {
            total += o.elapsed;
            let name = format!("{} ({})", q.name(), d.as_str());
            if o.elapsed > slowest.0 {
                slowest = (o.elapsed, name.clone());
            }
            if o.elapsed > SLOW {
                all.push((o.elapsed, name));
            }
        }
    }
    all.sort_by_key(|b| std::cmp::Reverse(b.0));
    let _ = writeln!(
        out,
        "== SLOW: over {} s ({} question-directions; time in load+diff {:.2} s; slowest {:.3} s: {}) ==",
        SLOW.as_secs(),
        all.len(),
        total.as_secs_f64(),
        slowest.0.as_secs_f64(),
        slowest.1
    );
    for (t, name) in all {
        let _ = writeln!(out, "- {:.2} s {name}", t.as_secs_f64());
    }
    let _ = writeln!(out);
}

/// Which breaking rules fire on questions whose answer is "contained".
fn histogram(out: &mut String, qs: &[Question], os: &[[Outcome; 2]]) {
    let mut counts: BTreeMap<&'static str, [usize; 3]> = BTreeMap::new();
    let mut n = 0;
    for (q, o) in qs.iter().zip(os) {
        let col = if q.draft == DRAFTS[0].0 { 1 } else { 2 };
        for o in o {
            if let Verdict::Answered {
                breaking: true,
                breaking_rules,
                ..
            } = &o.verdict
            {
                if !q.contained {
                    continue;
                }
                n += 1;
                for r in breaking_rules {
                    let c = counts.entry(r).or_default();
                    c[0] += 1;
                    c[col] += 1;
                }
            }
        }
    }
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort_by(|a, b| b.1[0].cmp(&a.1[0]).then(a.0.cmp(b.0)));
    let _ = writeln!(
        out,
        "== FALSE-BREAKING RULES: breaking rules on the {n} false-breaking question-directions (a question counts once per rule; top {TOP_RULES} of {}) ==",
        rows.len()
    );
    let _ = writeln!(
        out,
        "{:<44} {:>6} {:>13} {:>7}",
        "rule", "total", DRAFTS[0].0, DRAFTS[1].0
    );
    for (rule, [t, a, b]) in rows.into_iter().take(TOP_RULES) {
        let _ = writeln!(out, "{rule:<44} {t:>6} {a:>13} {b:>7}");
    }
    let _ = writeln!(out);
}

fn disagreements(out: &mut String, qs: &[Question], os: &[[Outcome; 2]]) {
    let _ = writeln!(out, "== EVERY DISAGREEMENT (--verbose) ==");
    for (q, o) in qs.iter().zip(os) {
        for (d, o) in Direction::BOTH.iter().zip(o) {
            if o.agrees(q.contained) {
                continue;
            }
            let said = match &o.verdict {
                Verdict::Refused(m) => format!("refused: {}", m.replace('\n', " ")),
                Verdict::Panicked(m) => format!("panicked: {m}"),
                Verdict::Answered {
                    breaking: true,
                    breaking_rules,
                    ..
                } => format!(
                    "breaking ({})",
                    breaking_rules
                        .iter()
                        .copied()
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Verdict::Answered { .. } => "compatible".to_string(),
            };
            let _ = writeln!(
                out,
                "- {} ({}) suite: {}; comparator: {said}\n    A: {}\n    B: {}",
                q.name(),
                d.as_str(),
                if q.contained {
                    "contained"
                } else {
                    "not contained"
                },
                cut(&compact(&q.sub)),
                cut(&compact(&q.sup))
            );
        }
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// A schema as printed: cut after [`SCHEMA_PRINT_LIMIT`] characters.
fn cut(s: &str) -> String {
    cut_to(s, SCHEMA_PRINT_LIMIT)
}

fn cut_to(s: &str, limit: usize) -> String {
    let n = s.chars().count();
    if n <= limit {
        s.to_string()
    } else {
        let head: String = s.chars().take(limit).collect();
        format!("{head}… ({n} chars)")
    }
}
