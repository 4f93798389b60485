//! The build cache against random edit sequences: a small crate shaped like
//! real servers' (argument structs reaching shared structs and enums in
//! another file, `Option`/`Vec`/maps, serde `default`/`rename_all`/`rename`,
//! doc comments on types and fields, a hand-written `Default`, handler
//! bodies) goes through seeded random edits: fields renamed, retyped, added
//! and removed, docs and serde attributes changed, enum variants renamed
//! and added, handler bodies edited, types added. After every edit the
//! cached build (every path: nothing changed, re-derive a few tools, full)
//! must write byte for byte what an uncached build writes, or fail with the
//! same error. The same crate is also written the way rmcp servers are
//! (`examples/weather-server`, `../shared/rmcp-servers`): the argument
//! structs derive `JsonSchema` and are reached through `Parameters<T>` from
//! `#[tool]` fns in a `#[tool_router]` impl, whose doc comments are the
//! descriptions, with `String`, `Json<shared struct>` and `Json<argument
//! struct>` outputs, one tool gated on a cargo feature, and a
//! `#[prompt_router]` prompt whose arguments are a shared struct (which
//! edits may make a tool's too); there the edits also change tool and
//! prompt doc comments, the bodies of tool and helper fns inside the impl,
//! and which feature gates a tool (`#[cfg(feature = ...)]`).
//! `MCP_CONTRACT_CACHE_EDITS=n` and `MCP_CONTRACT_CACHE_SEED=s` change the run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_contract_build::{Builder, Mode};

mod outdir;
use outdir::{age, outputs};

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[derive(Clone)]
struct Field {
    name: String,
    ty: String,
    doc: Option<String>,
    /// `#[serde(default)]` (only on types with a default).
    default: bool,
    /// `#[serde(rename = "..")]`.
    rename: Option<String>,
}

#[derive(Clone)]
struct Struct {
    name: String,
    doc: String,
    rename_all: bool,
    fields: Vec<Field>,
}

#[derive(Clone)]
struct Enum {
    name: String,
    doc: String,
    variants: Vec<String>,
}

/// The crate: shared types in `src/shared.rs`, one tool per file in `src/tools/`.
#[derive(Clone)]
struct Model {
    shared: Vec<Struct>,
    enums: Vec<Enum>,
    tools: Vec<Struct>,
    bodies: Vec<u64>,
    counter: u64,
    /// Written as an rmcp server (see the module docs), not with
    /// `#[mcp_contract::tool]`.
    rmcp: bool,
    /// The rmcp tools' doc comments.
    tool_docs: Vec<String>,
    /// The body of a helper fn (no tool) in the `#[tool_router]` impl.
    helper: u64,
    /// The cargo feature each rmcp tool is gated on (`#[cfg(feature)]`).
    gates: Vec<Option<String>>,
    /// The doc comment of the rmcp form's prompt (which reads `Window`).
    prompt_doc: String,
}

const SCALARS: &[&str] = &[
    "String",
    "bool",
    "u32",
    "i64",
    "f64",
    "Option<u32>",
    "Option<String>",
    "Vec<String>",
    "Vec<u8>",
    "std::collections::BTreeMap<String, u64>",
    "Option<Vec<i32>>",
];

impl Model {
    fn new(rmcp: bool) -> Self {
        let field = |name: &str, ty: &str| Field {
            name: name.into(),
            ty: ty.into(),
            doc: None,
            default: false,
            rename: None,
        };
        let shared = vec![
            Struct {
                name: "Range".into(),
                doc: "A range.".into(),
                rename_all: false,
                fields: vec![field("min", "Option<i64>"), field("max", "Option<i64>")],
            },
            Struct {
                name: "Window".into(),
                doc: "A window of days.".into(),
                rename_all: false,
                fields: vec![field("days", "u32")],
            },
        ];
        let enums = vec![Enum {
            name: "Mode".into(),
            doc: "How to match.".into(),
            variants: vec!["Fast".into(), "Exact".into()],
        }];
        let tools = (0..3)
            .map(|i| Struct {
                name: format!("Args{i}"),
                doc: format!("Tool {i}."),
                rename_all: false,
                fields: vec![
                    field("query", "String"),
                    field("range", "crate::shared::Range"),
                    field("mode", "crate::shared::Mode"),
                ],
            })
            .collect();
        Model {
            shared,
            enums,
            tools,
            bodies: vec![0, 0, 0],
            counter: 0,
            rmcp,
            tool_docs: (0..3).map(|i| format!("Tool {i}.")).collect(),
            helper: 0,
            gates: vec![None, Some("extra".into()), None],
            prompt_doc: "Plans a window.".into(),
        }
    }

    /// Gives every field of a type the crate lacks a type it has.
    fn fix_missing(&mut self) {
        for s in self.structs_mut() {
            for f in &mut s.fields {
                if f.ty.contains("Missing") {
                    f.ty = "String".into();
                }
            }
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}", self.counter)
    }

    /// Every type a field may have.
    fn types(&self) -> Vec<String> {
        let mut all: Vec<String> = SCALARS.iter().map(|s| s.to_string()).collect();
        for s in &self.shared {
            all.push(format!("crate::shared::{}", s.name));
            all.push(format!("Option<crate::shared::{}>", s.name));
        }
        for e in &self.enums {
            all.push(format!("crate::shared::{}", e.name));
            all.push(format!("Vec<crate::shared::{}>", e.name));
        }
        all
    }

    /// One random edit; returns what it was.
    fn edit(&mut self, rng: &mut Rng) -> String {
        let types = self.types();
        match rng.below(if self.rmcp { 16 } else { 12 }) {
            0 | 1 => {
                let (s, f) = self.some_field(rng);
                let name = self.fresh("f");
                let field = &mut self.structs_mut()[s].fields[f];
                let what = format!("rename field {} -> {name}", field.name);
                field.name = name;
                what
            }
            2 => {
                let (s, f) = self.some_field(rng);
                // Now and then a type the crate does not have: the build
                // fails (the same error both ways) until a later edit fixes it.
                let ty = if rng.below(12) == 0 {
                    "crate::shared::Missing".to_string()
                } else {
                    rng.pick(&types).clone()
                };
                let field = &mut self.structs_mut()[s].fields[f];
                field.ty = ty.clone();
                field.default = false;
                format!("retype field {} -> {ty}", field.name)
            }
            3 => {
                let (s, f) = self.some_field(rng);
                // Text the lockfile escapes: quotes, a backslash, non-ASCII.
                let doc = self.fresh("Doc \"quoted\" \\ é ");
                let field = &mut self.structs_mut()[s].fields[f];
                field.doc = if field.doc.is_some() && rng.below(3) == 0 {
                    None
                } else {
                    Some(doc)
                };
                format!("field doc {}", field.name)
            }
            4 => {
                let n = self.structs_mut().len();
                let s = rng.below(n);
                let doc = self.fresh("Type doc ");
                let st = &mut self.structs_mut()[s];
                st.doc = doc;
                format!("type doc {}", st.name)
            }
            5 => {
                let n = self.structs_mut().len();
                let s = rng.below(n);
                let name = self.fresh("g");
                let ty = rng.pick(&types).clone();
                let st = &mut self.structs_mut()[s];
                st.fields.push(Field {
                    name: name.clone(),
                    ty,
                    doc: None,
                    default: false,
                    rename: None,
                });
                format!("add field {name} to {}", st.name)
            }
            6 => {
                let (s, f) = self.some_field(rng);
                let st = &mut self.structs_mut()[s];
                if st.fields.len() > 1 {
                    let gone = st.fields.remove(f);
                    format!("remove field {}", gone.name)
                } else {
                    "nothing".into()
                }
            }
            7 => {
                let (s, f) = self.some_field(rng);
                let field = &mut self.structs_mut()[s].fields[f];
                let defaults = field.ty.starts_with("Option<")
                    || field.ty.starts_with("Vec<")
                    || matches!(field.ty.as_str(), "String" | "bool" | "u32" | "i64");
                if rng.below(2) == 0 {
                    field.default = defaults && !field.default;
                    format!("toggle default on {}", field.name)
                } else {
                    field.rename = match field.rename {
                        Some(_) => None,
                        None => Some(format!("{}Wire", field.name)),
                    };
                    format!("toggle rename on {}", field.name)
                }
            }
            8 => {
                let n = self.structs_mut().len();
                let s = rng.below(n);
                let st = &mut self.structs_mut()[s];
                st.rename_all = !st.rename_all;
                format!("toggle rename_all on {}", st.name)
            }
            9 => {
                let v = self.fresh("V");
                let e = &mut self.enums[0];
                if rng.below(2) == 0 || e.variants.len() > 4 {
                    let i = rng.below(e.variants.len());
                    e.variants[i] = v.clone();
                } else {
                    e.variants.push(v.clone());
                }
                format!("enum variant {v}")
            }
            10 => {
                let t = rng.below(self.bodies.len());
                self.counter += 1;
                self.bodies[t] = self.counter;
                format!("handler body of tool {t}")
            }
            12 => {
                let t = rng.below(self.tool_docs.len());
                self.tool_docs[t] = self.fresh("Tool \"doc\" ");
                format!("tool doc of tool {t}")
            }
            13 => {
                self.counter += 1;
                self.helper = self.counter;
                "helper body in the tool router".into()
            }
            14 => {
                // Gated, ungated or gated on another feature: the tool
                // derives the same, the manifest lists other features.
                let t = rng.below(self.gates.len());
                self.gates[t] = match (&self.gates[t], rng.below(2)) {
                    (Some(_), 0) => None,
                    _ => Some(self.fresh("feature-")),
                };
                format!("gate of tool {t}: {:?}", self.gates[t])
            }
            15 => {
                self.prompt_doc = self.fresh("Plans \"a\" window ");
                "prompt doc".into()
            }
            _ => {
                let name = self.fresh("Extra");
                self.shared.push(Struct {
                    name: name.clone(),
                    doc: format!("{name}."),
                    rename_all: false,
                    fields: vec![Field {
                        name: "value".into(),
                        ty: "Option<String>".into(),
                        doc: None,
                        default: false,
                        rename: None,
                    }],
                });
                format!("new type {name}")
            }
        }
    }

    /// Tools first, then shared structs (index into `structs_mut`).
    fn structs_mut(&mut self) -> Vec<&mut Struct> {
        self.tools
            .iter_mut()
            .chain(self.shared.iter_mut())
            .collect()
    }

    fn some_field(&mut self, rng: &mut Rng) -> (usize, usize) {
        let n = self.tools.len() + self.shared.len();
        let s = rng.below(n);
        let len = self.structs_mut()[s].fields.len();
        (s, rng.below(len))
    }

    fn struct_text(s: &Struct, attr: Option<String>, rmcp: bool) -> String {
        let mut out = format!("/// {}\n", s.doc);
        if let Some(attr) = attr {
            out.push_str(&attr);
        }
        out.push_str(if rmcp {
            "#[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema)]\n"
        } else {
            "#[derive(Debug, serde::Deserialize, serde::Serialize)]\n"
        });
        if s.rename_all {
            out.push_str("#[serde(rename_all = \"camelCase\")]\n");
        }
        out.push_str(&format!("pub struct {} {{\n", s.name));
        for f in &s.fields {
            if let Some(doc) = &f.doc {
                out.push_str(&format!("    /// {doc}\n"));
            }
            if f.default {
                out.push_str("    #[serde(default)]\n");
            }
            if let Some(r) = &f.rename {
                out.push_str(&format!("    #[serde(rename = \"{r}\")]\n"));
            }
            out.push_str(&format!("    pub {}: {},\n", f.name, f.ty));
        }
        out.push_str("}\n");
        out
    }

    fn files(&self) -> Vec<(String, String)> {
        let mut shared = String::new();
        for s in &self.shared {
            shared.push_str(&Self::struct_text(s, None, self.rmcp));
            if s.name == "Window" {
                shared.push_str(
                    "\nimpl Default for Window {\n    fn default() -> Self {\n        Window { days: 7 }\n    }\n}\n",
                );
            }
            shared.push('\n');
        }
        for e in &self.enums {
            shared.push_str(&format!(
                "/// {}\n#[derive(Debug, serde::Deserialize, serde::Serialize)]\npub enum {} {{\n",
                e.doc, e.name
            ));
            for v in &e.variants {
                shared.push_str(&format!("    {v},\n"));
            }
            shared.push_str("}\n\n");
        }
        let lib = if self.rmcp {
            "pub mod server;\npub mod shared;\npub mod tools;\n"
        } else {
            "pub mod shared;\npub mod tools;\n"
        };
        let mut files = vec![
            ("src/lib.rs".to_string(), lib.to_string()),
            ("src/shared.rs".to_string(), shared),
        ];
        let mut mods = String::new();
        for (i, t) in self.tools.iter().enumerate() {
            mods.push_str(&format!("pub mod t{i};\n"));
            if self.rmcp {
                files.push((
                    format!("src/tools/t{i}.rs"),
                    Self::struct_text(t, None, true),
                ));
                continue;
            }
            let attr = format!("#[mcp_contract::tool(name = \"tool_{i}\", version = 1)]\n");
            let mut text = Self::struct_text(t, Some(attr), false);
            text.push_str(&format!(
                "\n/// The handler.\npub fn handle(args: &{}) -> u64 {{\n    let seen = {};\n    seen + 1\n}}\n",
                t.name, self.bodies[i]
            ));
            files.push((format!("src/tools/t{i}.rs"), text));
        }
        if self.rmcp {
            files.push(("src/server.rs".to_string(), self.server_text()));
        }
        files.push(("src/tools/mod.rs".to_string(), mods));
        files
    }
}

impl Model {
    /// `src/server.rs` of the rmcp form: one `#[tool]` fn per tool.
    fn server_text(&self) -> String {
        let mut out = String::from(
            "use rmcp::handler::server::wrapper::{Json, Parameters};\n\
             use rmcp::{tool, tool_router};\n\n\
             pub struct Server;\n\n\
             #[tool_router]\nimpl Server {\n",
        );
        for (i, t) in self.tools.iter().enumerate() {
            let args = format!("crate::tools::t{i}::{}", t.name);
            let (output, value) = match i % 3 {
                0 => ("String".to_string(), "seen.to_string()".to_string()),
                1 => (
                    "Json<crate::shared::Range>".to_string(),
                    "Json(crate::shared::Range { min: None, max: Some(seen) })".to_string(),
                ),
                _ => (format!("Json<{args}>"), "Json(args)".to_string()),
            };
            if let Some(feature) = &self.gates[i] {
                out.push_str(&format!("    #[cfg(feature = \"{feature}\")]\n"));
            }
            out.push_str(&format!(
                "    /// {}\n    #[tool(name = \"tool_{i}\")]\n    \
                 async fn tool_{i}(&self, Parameters(args): Parameters<{args}>) -> {output} {{\n        \
                 let seen = {};\n        {value}\n    }}\n\n",
                self.tool_docs[i], self.bodies[i]
            ));
        }
        out.push_str(&format!(
            "    fn helper(&self) -> u64 {{\n        {}\n    }}\n}}\n",
            self.helper
        ));
        out.push_str(&format!(
            "\n#[rmcp::prompt_router]\nimpl Server {{\n    /// {}\n    #[rmcp::prompt(name = \"plan\")]\n    \
             async fn plan(&self, Parameters(_args): Parameters<crate::shared::Window>) -> Vec<String> {{\n        \
             vec![]\n    }}\n}}\n",
            self.prompt_doc
        ));
        out
    }
}

fn builder(root: &Path, lock: &str, out: &Path) -> Builder {
    Builder::new()
        .manifest_dir(root)
        .package("random-edits")
        .lockfile(format!("contracts/{lock}"))
        .out_dir(out)
        .mode(Mode::Update)
        .quiet()
}

const DEFAULT_SEED: u64 = 20261201;

#[test]
fn cached_builds_match_uncached_ones_over_random_edits() {
    run(false, &["unchanged", "re-derived", "full", "error"]);
}

/// The rmcp form: rmcp's `#[tool]` fns take every path the attribute does.
#[test]
fn cached_rmcp_builds_match_uncached_ones_over_random_edits() {
    run(true, &["unchanged", "re-derived", "full", "error"]);
}

/// `MCP_CONTRACT_CACHE_EDITS` builds of seeded random edits (see the
/// module docs); every path in `reached` must be taken on the default seed.
fn run(rmcp: bool, reached: &[&str]) {
    let steps: usize = std::env::var("MCP_CONTRACT_CACHE_EDITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let seed: u64 = std::env::var("MCP_CONTRACT_CACHE_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let (cached_out, plain_out) = (root.join("out-cached"), root.join("out-plain"));
    let mut model = Model::new(rmcp);
    let mut rng = Rng(seed);
    let mut written: BTreeMap<String, String> = BTreeMap::new();
    let mut paths: BTreeMap<&str, usize> = BTreeMap::new();
    let mut log: Vec<String> = Vec::new();
    let mut failing = false;
    for step in 0..=steps {
        let what = if step == 0 {
            "first build".to_string()
        } else if failing && rng.below(2) == 0 {
            model.fix_missing();
            "fix the missing type".to_string()
        } else {
            // One to three edits per build, as a save often holds several.
            (0..1 + rng.below(3))
                .map(|_| model.edit(&mut rng))
                .collect::<Vec<_>>()
                .join("; ")
        };
        for (rel, text) in model.files() {
            if written.get(&rel) != Some(&text) {
                let path: PathBuf = root.join(&rel);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &text).unwrap();
                age(&path);
                written.insert(rel, text);
            }
        }
        log.push(format!("{step}: {what}"));
        let cached = builder(root, "cached.lock", &cached_out).build();
        let plain = builder(root, "plain.lock", &plain_out).no_cache().build();
        let context = || log[log.len().saturating_sub(4)..].join("\n");
        failing = plain.is_err();
        match (cached, plain) {
            (Ok(c), Ok(_)) => {
                let lock = |name: &str| std::fs::read(root.join("contracts").join(name)).unwrap();
                assert!(
                    lock("cached.lock") == lock("plain.lock"),
                    "the lockfiles differ after\n{}",
                    context()
                );
                assert!(
                    outputs(&cached_out) == outputs(&plain_out),
                    "OUT_DIR differs after\n{}",
                    context()
                );
                if step == 0 && rmcp {
                    let text = String::from_utf8(lock("cached.lock")).unwrap();
                    assert!(text.contains("\"plan\""), "the prompt is not locked");
                }
                let path = match (c.full, c.spliced) {
                    (false, false) => "unchanged",
                    (false, true) => "re-derived",
                    (true, true) => "full, spliced",
                    (true, false) => "full",
                };
                *paths.entry(path).or_default() += 1;
            }
            (Err(c), Err(p)) => {
                assert_eq!(c.to_string(), p.to_string(), "after\n{}", context());
                *paths.entry("error").or_default() += 1;
            }
            (c, p) => panic!(
                "cached {:?} but uncached {:?} after\n{}",
                c.map(|b| b.outcome),
                p.map(|b| b.outcome),
                context()
            ),
        }
    }
    let form = if rmcp { "rmcp" } else { "attribute" };
    eprintln!("cache random edits, {form} form (seed {seed}, {steps} builds): {paths:?}");
    // The generator must reach the paths it is here to check (asserted on
    // the default run; another seed may by chance miss one).
    for &path in reached {
        if paths.get(path).copied().unwrap_or(0) == 0 {
            assert!(
                seed != DEFAULT_SEED,
                "no build took the {path:?} path: {paths:?}"
            );
            eprintln!("note: no build of seed {seed} took the {path:?} path");
        }
    }
}
