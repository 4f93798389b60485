//! Tallies by mutation kind and direction, the misses with one repro per
//! class (optionally written as `<class>.json` into
//! `MCP_CONTRACT_SOUNDNESS_MISSES_DIR`), noise by class, and the summary
//! line with precision.

use std::collections::BTreeMap;

use serde_json::{json, Value};

#[derive(Default, Clone)]
pub struct Counts {
    pub pairs: usize,
    pub counterexamples: usize,
    pub breaking: usize,
    pub confirmed: usize,
    pub misses: usize,
    pub noise: usize,
}

pub struct Repro {
    pub direction: &'static str,
    pub old: Value,
    pub new: Value,
    pub instance: Value,
    pub note: String,
}

#[derive(Default)]
pub struct Report {
    pub by_kind: BTreeMap<(String, &'static str), Counts>,
    pub misses: BTreeMap<String, (usize, Repro)>,
    pub noise: BTreeMap<String, (usize, String)>,
    pub unconfirmed_rules: BTreeMap<&'static str, usize>,
    /// Pairs not judged, by reason and kind (`validator:dialect.switch`).
    pub skipped: BTreeMap<String, usize>,
    pub instances: usize,
    /// What the input filters removed (see `pair::Filtered`).
    pub filtered: super::pair::Filtered,
    pub harmless_with_counterexample: usize,
    /// A few of them, to check the kinds' claims.
    pub harmless_examples: Vec<String>,
}

fn size(r: &Repro) -> usize {
    r.old.to_string().len() + r.new.to_string().len() + r.instance.to_string().len()
}

impl Report {
    pub fn counts(&mut self, kind: &str, dir: &'static str) -> &mut Counts {
        self.by_kind.entry((kind.to_string(), dir)).or_default()
    }

    /// Records a miss; keeps the smallest repro of its class.
    pub fn miss(&mut self, class: String, repro: Repro) {
        let e = self.misses.entry(class).or_insert((0, repro_placeholder()));
        e.0 += 1;
        if e.0 == 1 || size(&repro) < size(&e.1) {
            e.1 = repro;
        }
    }

    pub fn noise(&mut self, class: String, example: String) {
        let e = self.noise.entry(class).or_insert((0, example));
        e.0 += 1;
    }

    pub fn totals(&self) -> Counts {
        let mut t = Counts::default();
        for c in self.by_kind.values() {
            t.pairs += c.pairs;
            t.counterexamples += c.counterexamples;
            t.breaking += c.breaking;
            t.confirmed += c.confirmed;
            t.misses += c.misses;
            t.noise += c.noise;
        }
        t
    }

    pub fn print(&self, seed: u64, kinds_total: usize) {
        let t = self.totals();
        let precision = if t.breaking == 0 {
            100.0
        } else {
            100.0 * t.confirmed as f64 / t.breaking as f64
        };
        println!("soundness_real (seed {seed}): {} pairs, {} instances, {} pairs with a counterexample; breaking verdict on {} pairs, {} of them with a counterexample (precision {precision:.1}%); {} misses in {} classes; {} noise in {} classes",
            t.pairs, self.instances, t.counterexamples, t.breaking, t.confirmed, t.misses, self.misses.len(), t.noise, self.noise.len());
        println!(
            "skipped pairs: {:?}; harmless-kind pairs that had a counterexample anyway: {}",
            self.skipped, self.harmless_with_counterexample
        );
        let f = &self.filtered;
        println!(
            "input filters: {} instances dropped as non-object arguments, {} as sending a name the old schema does not declare; {} counterexamples send a name only `required` lists (the filter dropped those before)",
            f.not_an_object, f.undeclared, f.required_only_names
        );
        let kinds_seen: std::collections::BTreeSet<&String> =
            self.by_kind.keys().map(|(k, _)| k).collect();
        println!(
            "mutation kinds exercised: {} of {kinds_total}",
            kinds_seen.len()
        );
        println!(
            "{:<32} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5}",
            "kind/direction", "pairs", "cex", "brk", "conf", "miss", "noise"
        );
        for ((k, d), c) in &self.by_kind {
            println!(
                "{:<32} {:>5} {:>5} {:>5} {:>5} {:>5} {:>5}",
                format!("{k}/{d}"),
                c.pairs,
                c.counterexamples,
                c.breaking,
                c.confirmed,
                c.misses,
                c.noise
            );
        }
        let mut rules: Vec<_> = self.unconfirmed_rules.iter().collect();
        rules.sort_by(|a, b| b.1.cmp(a.1));
        println!("breaking verdicts without a counterexample, by rule: {rules:?}");
        for e in &self.harmless_examples {
            println!("HARMLESS KIND WITH A COUNTEREXAMPLE {e}");
        }
        for (class, (n, example)) in &self.noise {
            println!("NOISE {class}: {n} pairs, e.g. {example}");
        }
        for (class, (n, r)) in &self.misses {
            println!(
                "MISS {class}: {n} pairs; {}\n  old      = {}\n  new      = {}\n  instance = {}",
                r.note, r.old, r.new, r.instance
            );
        }
    }

    /// Writes one `<class>.json` per miss class into the directory.
    pub fn write_misses(&self, dir: &std::path::Path) {
        std::fs::create_dir_all(dir).expect("the misses directory can be created");
        for (class, (_, r)) in &self.misses {
            let body = json!({"direction": r.direction, "old": r.old, "new": r.new, "instance": r.instance, "note": r.note});
            let text = serde_json::to_string_pretty(&body).unwrap() + "\n";
            std::fs::write(dir.join(format!("{class}.json")), text)
                .expect("a miss repro is written");
        }
    }
}

fn repro_placeholder() -> Repro {
    Repro {
        direction: "",
        old: Value::Null,
        new: Value::Null,
        instance: Value::Null,
        note: String::new(),
    }
}
