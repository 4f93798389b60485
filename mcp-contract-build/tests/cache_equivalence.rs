//! The build cache is an optimization only: over a sequence of edits (a
//! handler's body, a field renamed, doc comments, a default function's
//! body, a new tool, a removed tool, a type moved to another file, a
//! migration record, a corrupt and a foreign cache), the cached run writes
//! byte for byte the lockfile and `OUT_DIR` files the uncached run writes,
//! and finds affected only the tools the edit can change.

use std::path::{Path, PathBuf};

use mcp_contract_build::{Builder, Built, Mode};

mod outdir;
use outdir::{age, outputs};

const SHARED: &str = r#"/// A range.
pub struct Filter {
    /// Lowest.
    pub min: Option<i64>,
    pub max: Option<i64>,
}
"#;

const A: &str = r#"use crate::shared::Filter;

/// Searches.
#[mcp_contract::tool(name = "search", version = 1, output = Hits)]
pub struct SearchArgs {
    /// What to look for.
    pub query: String,
    pub filter: Filter,
    #[serde(default = "default_limit")]
    pub limit: u32,
}

fn default_limit() -> u32 {
    10
}

/// The hits.
pub struct Hits {
    pub hits: Vec<String>,
}

/// The handler.
pub fn handle(args: &SearchArgs) -> Hits {
    let hits = vec![args.query.clone()];
    Hits { hits }
}
"#;

const B: &str = r#"/// Fetches one thing.
#[mcp_contract::tool(name = "fetch", read_only)]
pub struct FetchArgs {
    pub id: u64,
}

pub fn handle(args: &FetchArgs) -> u64 {
    args.id + 1
}
"#;

struct Crate {
    dir: tempfile::TempDir,
    cached_out: PathBuf,
    plain_out: PathBuf,
}

impl Crate {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let cached_out = root.join("out-cached");
        let plain_out = root.join("out-plain");
        let c = Crate {
            dir,
            cached_out,
            plain_out,
        };
        c.write("src/lib.rs", "pub mod shared;\npub mod tools;\n");
        c.write("src/tools/mod.rs", "pub mod a;\npub mod b;\n");
        c.write("src/shared.rs", SHARED);
        c.write("src/tools/a.rs", A);
        c.write("src/tools/b.rs", B);
        c
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, rel: &str, text: &str) {
        let path = self.root().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        age(&path);
    }

    fn edit(&self, rel: &str, from: &str, to: &str) {
        let path = self.root().join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{rel} lacks {from:?}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        age(&path);
    }

    fn builder(&self, lock: &str, out: &Path) -> Builder {
        Builder::new()
            .manifest_dir(self.root())
            .package("cache-demo")
            .lockfile(format!("contracts/{lock}"))
            .out_dir(out)
            .mode(Mode::Update)
            .quiet()
    }

    /// Runs both; asserts identical outputs; returns what the cached run did.
    fn both(&self, step: &str) -> Built {
        let cached = self
            .builder("cached.lock", &self.cached_out)
            .build()
            .unwrap_or_else(|e| panic!("{step}: {e}"));
        self.builder("plain.lock", &self.plain_out)
            .no_cache()
            .build()
            .unwrap_or_else(|e| panic!("{step}: {e}"));
        let lock = |name: &str| std::fs::read(self.root().join("contracts").join(name)).unwrap();
        assert!(
            lock("cached.lock") == lock("plain.lock"),
            "{step}: the lockfiles differ"
        );
        assert_eq!(
            outputs(&self.cached_out),
            outputs(&self.plain_out),
            "{step}: OUT_DIR differs"
        );
        cached
    }
}

fn names(b: &Built) -> Vec<&str> {
    let mut v: Vec<&str> = b.affected.iter().map(String::as_str).collect();
    v.sort();
    v
}

#[test]
fn cached_and_uncached_runs_write_the_same_bytes_over_a_sequence_of_edits() {
    let c = Crate::new();
    let first = c.both("first build");
    assert!(first.full);
    assert_eq!(names(&first), ["fetch", "search"]);
    let lock = || std::fs::read_to_string(c.root().join("contracts/cached.lock")).unwrap();
    assert!(lock().contains("\"query\"") && lock().contains("Lowest."));

    // Nothing changed: no derivation.
    let again = c.both("no change");
    assert!(!again.full);

    // A handler's body: parsed, nothing derived.
    c.edit(
        "src/tools/a.rs",
        "vec![args.query.clone()]",
        "vec![args.query.to_uppercase()]",
    );
    let body = c.both("handler body");
    assert!(!body.full, "a handler body edit ran the full step");

    // A field renamed: only that tool.
    c.edit(
        "src/tools/a.rs",
        "pub query: String",
        "pub search_text: String",
    );
    let field = c.both("field rename");
    assert_eq!(names(&field), ["search"]);
    assert!(field.spliced, "a field rename rendered every tool");
    assert!(!field.full, "a field rename parsed and derived every tool");
    assert!(lock().contains("search_text"));

    // The doc comment of another tool: only that tool.
    c.edit(
        "src/tools/b.rs",
        "/// Fetches one thing.",
        "/// Fetches exactly one thing.",
    );
    let doc = c.both("tool doc");
    assert_eq!(names(&doc), ["fetch"]);
    assert!(doc.spliced && !doc.full, "a doc edit rendered every tool");
    assert!(lock().contains("Fetches exactly one thing."));

    // A doc comment on a type one tool reaches (another file): that tool.
    c.edit("src/shared.rs", "/// Lowest.", "/// Lowest accepted.");
    let reached = c.both("reached type doc");
    assert_eq!(names(&reached), ["search"]);
    assert!(reached.spliced && !reached.full);
    assert!(lock().contains("Lowest accepted."));

    // The body of a function a derivation evaluates (a serde default) is
    // not a handler body: the tool is derived again.
    c.edit("src/tools/a.rs", "    10\n", "    20\n");
    let default = c.both("default fn body");
    assert_eq!(names(&default), ["search"]);
    assert!(lock().contains("\"default\": 20"));
    assert!(default.spliced && !default.full);

    // A type with a hand-written `Default` in another file (a new item:
    // the structure changed, so the full step)...
    c.edit(
        "src/shared.rs",
        "pub struct Filter {",
        "pub struct Window {\n    pub days: u32,\n}\n\nimpl Default for Window {\n    fn default() -> Self {\n        Window { days: 7 }\n    }\n}\n\npub struct Filter {",
    );
    let window = c.both("new type");
    assert!(window.full);
    // ...then a field of that type, defaulted: only the edited file is
    // parsed again; the other is read through the cached names, its impl
    // found by its cached header.
    c.edit(
        "src/tools/a.rs",
        "    pub filter: Filter,\n",
        "    pub filter: Filter,\n    #[serde(default)]\n    pub window: crate::shared::Window,\n",
    );
    let field_of_other_file = c.both("field of a type in another file");
    assert!(field_of_other_file.spliced && !field_of_other_file.full);
    assert_eq!(names(&field_of_other_file), ["search"]);
    assert!(lock().contains("\"days\"") && lock().contains("\"window\""));

    // An alias without the rename the record needs: the same error as
    // the full step (not a silently published alias).
    c.edit(
        "src/tools/b.rs",
        "    pub id: u64,",
        "    #[mcp_contract(alias = \"key\")]\n    pub id: u64,",
    );
    let cached = c.builder("cached.lock", &c.cached_out).build();
    let plain = c.builder("plain.lock", &c.plain_out).no_cache().build();
    let (Err(cached), Err(plain)) = (cached, plain) else {
        panic!("an alias without its rename was accepted");
    };
    assert_eq!(cached.to_string(), plain.to_string());
    c.edit(
        "src/tools/b.rs",
        "    #[mcp_contract(alias = \"key\")]\n    pub id: u64,",
        "    pub id: u64,",
    );
    c.both("alias removed");

    // A tool renamed in its attribute: not spliced (the old name's entry
    // would stay), the full step renames it.
    c.edit("src/tools/b.rs", "name = \"fetch\"", "name = \"fetch_one\"");
    let renamed = c.both("tool renamed");
    assert!(renamed.full && !renamed.spliced);
    assert!(lock().contains("\"fetch_one\"") && !lock().contains("\"fetch\""));
    c.edit("src/tools/b.rs", "name = \"fetch_one\"", "name = \"fetch\"");
    c.both("tool renamed back");
    c.edit(
        "src/tools/a.rs",
        "    #[serde(default)]\n    pub window: crate::shared::Window,\n",
        "",
    );
    let field_removed = c.both("field removed");
    assert!(field_removed.spliced && !field_removed.full);

    // A new tool in a new file.
    c.write(
        "src/tools/c.rs",
        "/// Counts.\n#[mcp_contract::tool(name = \"count\")]\npub struct CountArgs {\n    pub of: String,\n}\n",
    );
    c.edit(
        "src/tools/mod.rs",
        "pub mod b;\n",
        "pub mod b;\npub mod c;\n",
    );
    let added = c.both("new tool");
    assert!(added.full && names(&added).contains(&"count"));
    assert!(!added.spliced, "a new tool is rendered in full");

    // A tool removed.
    c.edit("src/tools/mod.rs", "pub mod b;\n", "");
    std::fs::remove_file(c.root().join("src/tools/b.rs")).unwrap();
    c.both("removed tool");
    assert!(!lock().contains("\"fetch\""));
    let tool_file = |name: &str| {
        c.cached_out
            .join(format!("mcp-contract-cache/root0/{name}.json"))
            .exists()
    };
    assert!(
        !tool_file("fetch") && tool_file("search"),
        "a removed tool's cache file stays"
    );

    // A type moved to another file (same schema).
    c.write("src/shared.rs", "pub use crate::tools::a::Filter;\n");
    c.edit(
        "src/tools/a.rs",
        "use crate::shared::Filter;\n",
        &format!("{SHARED}\n").replace("Lowest.", "Lowest accepted."),
    );
    c.both("type moved");

    // A migration record (part of the key): everything again.
    c.write(
        "contracts/migrations.toml",
        "version = 1\n\n[tools.count]\nowner = \"@team\"\n",
    );
    let record = c.both("record");
    assert!(record.full);

    // A corrupt cache (one byte flipped), then a truncated one, then garbage.
    let index = c.cached_out.join("mcp-contract-cache.txt");
    for damage in [0usize, 1, 2] {
        let mut bytes = std::fs::read(&index).unwrap();
        match damage {
            0 => {
                let at = bytes.len() / 2;
                bytes[at] ^= 0x20;
            }
            1 => bytes.truncate(bytes.len() / 3),
            _ => bytes = b"{\"key\": \"not a cache\"}".to_vec(),
        }
        std::fs::write(&index, bytes).unwrap();
        c.edit("src/tools/a.rs", "to_uppercase()", "to_lowercase()");
        let after = c.both("corrupt cache");
        assert!(after.full, "a damaged cache was used (case {damage})");
        c.edit("src/tools/a.rs", "to_lowercase()", "to_uppercase()");
        c.both("after the rebuild");
    }
    // A damaged tool file, then an edit that affects that tool without
    // changing its schema: the damaged file is not taken for the tool.
    std::fs::write(
        c.cached_out.join("mcp-contract-cache/root0/count.json"),
        "{}",
    )
    .unwrap();
    c.edit(
        "src/tools/c.rs",
        "pub struct CountArgs",
        "#[derive(Clone)]\npub struct CountArgs",
    );
    let tools_gone = c.both("damaged tool file");
    assert_eq!(names(&tools_gone), ["count"]);
    // The same kind of edit with the tool's file intact: nothing rendered or written.
    c.edit(
        "src/tools/c.rs",
        "#[derive(Clone)]",
        "#[derive(Clone, Debug)]",
    );
    let same = c.both("same schema");
    assert_eq!(names(&same), ["count"]);

    // An output in OUT_DIR touched since: the full step restores it.
    let entry = c.cached_out.join("mcp-contract/count.rs");
    std::fs::write(&entry, "{}").unwrap();
    c.edit("src/tools/a.rs", "to_uppercase()", "to_lowercase()");
    let restored = c.both("touched output");
    assert!(restored.full);

    // A foreign cache (another crate's, same format): ignored.
    let other = Crate::new();
    other.both("other crate");
    std::fs::copy(
        other.cached_out.join("mcp-contract-cache.txt"),
        c.cached_out.join("mcp-contract-cache.txt"),
    )
    .unwrap();
    let foreign = c.both("foreign cache");
    assert!(foreign.full);

    // A hand-edited lockfile: put back, by the full step.
    c.write("contracts/cached.lock", "{}\n");
    c.write("contracts/plain.lock", "{}\n");
    let relocked = c.both("edited lockfile");
    assert!(relocked.full);
}

/// rmcp's own `#[tool]`s and `#[prompt]`s are never derived from the cache,
/// but an edit that reaches nothing they read (a handler's body, in the
/// `#[tool_router]` impl or elsewhere) leaves the output as it was, with
/// nothing derived; anything they read runs the full step.
#[test]
fn rmcp_tools_a_handler_body_edit_derives_nothing() {
    let c = Crate::new();
    c.write("src/lib.rs", "pub mod helpers;\npub mod server;\n");
    c.write(
        "src/helpers.rs",
        "pub fn shout(s: &str) -> String {\n    s.to_uppercase()\n}\n",
    );
    c.write(
        "src/server.rs",
        r#"use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{prompt, prompt_router, tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct EchoArgs {
    /// The text.
    pub text: String,
}

#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct Echoed {
    pub text: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct GreetArgs {
    pub who: String,
}

pub struct Server;

#[tool_router]
impl Server {
    /// Echoes.
    #[tool]
    async fn echo(&self, Parameters(a): Parameters<EchoArgs>) -> Json<Echoed> {
        Json(Echoed { text: a.text })
    }

    fn unrouted(&self) -> u8 {
        1
    }
}

#[prompt_router]
impl Server {
    /// Greets.
    #[prompt]
    async fn greet(&self, Parameters(a): Parameters<GreetArgs>) -> Vec<String> {
        vec![]
    }
}
"#,
    );
    let lock = || std::fs::read_to_string(c.root().join("contracts/cached.lock")).unwrap();
    let first = c.both("rmcp first");
    assert!(first.full);
    assert!(
        lock().contains("\"echo\"") && lock().contains("\"text\"") && lock().contains("\"greet\"")
    );
    let nothing = |b: &Built, step: &str| {
        assert!(
            !b.full && !b.spliced && b.affected.is_empty(),
            "{step}: {:?}",
            names(b)
        );
    };
    c.edit(
        "src/server.rs",
        "        Json(Echoed { text: a.text })\n",
        "        Json(Echoed { text: crate::helpers::shout(&a.text) })\n",
    );
    nothing(&c.both("rmcp tool body"), "rmcp tool body");
    c.edit("src/server.rs", "        1\n", "        2\n");
    nothing(&c.both("rmcp other fn body"), "rmcp other fn body");
    c.edit(
        "src/server.rs",
        "        vec![]\n",
        "        vec![\"hi\".into()]\n",
    );
    nothing(&c.both("rmcp prompt body"), "rmcp prompt body");
    c.edit("src/helpers.rs", "to_uppercase", "to_lowercase");
    nothing(&c.both("helper body"), "helper body");

    // What a tool reads: that tool is derived again and spliced in; the
    // prompts, which read none of it, are kept as they were.
    let echo_only = |b: &Built, step: &str| {
        assert!(!b.full && b.spliced, "{step}: {:?}", names(b));
        assert_eq!(names(b), ["echo"], "{step}");
    };
    c.edit("src/server.rs", "pub text: String", "pub words: String");
    c.edit("src/server.rs", "shout(&a.text)", "shout(&a.words)");
    echo_only(&c.both("rmcp argument field"), "rmcp argument field");
    assert!(lock().contains("\"words\""));
    c.edit("src/server.rs", "/// The text.", "/// The words.");
    echo_only(&c.both("rmcp field doc"), "rmcp field doc");
    assert!(lock().contains("The words."));
    c.edit("src/server.rs", "/// Echoes.", "/// Echoes it back.");
    echo_only(&c.both("rmcp tool doc"), "rmcp tool doc");
    assert!(lock().contains("Echoes it back."));
    // What a prompt reads: the full step.
    c.edit("src/server.rs", "pub who: String", "pub name: String");
    assert!(c.both("rmcp prompt argument").full);
    assert!(lock().contains("\"name\""));
    c.edit(
        "src/server.rs",
        "    fn unrouted",
        "    #[tool]\n    fn unrouted",
    );
    assert!(c.both("rmcp new tool").full);
    assert!(lock().contains("\"unrouted\""));
    c.edit("src/server.rs", "/// Greets.", "/// Greets you.");
    assert!(c.both("rmcp prompt doc").full);
    assert!(lock().contains("Greets you."));
    c.edit("src/server.rs", "        2\n", "        3\n");
    nothing(&c.both("rmcp new tool's body"), "rmcp new tool's body");
    // A type a tool and a prompt both read: the full step.
    c.edit(
        "src/server.rs",
        "Parameters<GreetArgs>",
        "Parameters<EchoArgs>",
    );
    assert!(c.both("rmcp prompt on the tool's type").full);
    c.edit("src/server.rs", "pub words: String", "pub phrase: String");
    c.edit("src/server.rs", "shout(&a.words)", "shout(&a.phrase)");
    assert!(c.both("rmcp type of a tool and a prompt").full);
    assert!(lock().contains("\"phrase\""));
}

/// rmcp `#[tool]` fns are re-derived one by one: a field renamed in one
/// tool's argument type derives that tool again and splices it in; a type
/// two tools reach derives both; a tool's doc comment (its description)
/// derives that tool; its attribute (structure) runs the full step.
#[test]
fn rmcp_tools_a_field_rename_re_derives_only_the_tools_that_read_it() {
    let c = Crate::new();
    c.write("src/lib.rs", "pub mod server;\npub mod types;\n");
    c.write(
        "src/types.rs",
        r#"#[derive(serde::Deserialize, serde::Serialize, schemars::JsonSchema)]
pub struct Page {
    pub size: u32,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct EchoArgs {
    /// The text.
    pub text: String,
    pub page: Page,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct CountArgs {
    pub words: Vec<String>,
    pub page: Page,
}
"#,
    );
    c.write(
        "src/server.rs",
        r#"use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{tool, tool_router};

use crate::types::*;

pub struct Server;

#[tool_router]
impl Server {
    /// Echoes.
    #[tool]
    async fn echo(&self, Parameters(a): Parameters<EchoArgs>) -> String {
        a.text
    }

    /// Counts.
    #[tool(annotations(read_only_hint = true))]
    async fn count(&self, Parameters(a): Parameters<CountArgs>) -> Json<Page> {
        Json(Page { size: a.words.len() as u32 })
    }
}

/// Free.
#[tool]
fn ping() -> String {
    "pong".into()
}
"#,
    );
    let lock = || std::fs::read_to_string(c.root().join("contracts/cached.lock")).unwrap();
    assert!(c.both("first").full);
    c.edit("src/types.rs", "pub text: String", "pub line: String");
    let one = c.both("echo's field");
    assert!(!one.full && one.spliced, "{:?}", names(&one));
    assert_eq!(names(&one), ["echo"]);
    assert!(lock().contains("\"line\""));
    c.edit("src/types.rs", "/// The text.", "/// The line.");
    assert_eq!(names(&c.both("echo's field doc")), ["echo"]);
    c.edit("src/types.rs", "pub size: u32", "pub limit: u32");
    let both = c.both("the shared type");
    assert!(!both.full && both.spliced, "{:?}", names(&both));
    assert_eq!(names(&both), ["count", "echo"]);
    c.edit("src/server.rs", "\"pong\".into()", "\"PONG\".into()");
    let body = c.both("a body");
    assert!(!body.full && !body.spliced && body.affected.is_empty());
    c.edit("src/server.rs", "/// Counts.", "/// Counts words.");
    let doc = c.both("a tool's doc comment");
    assert!(!doc.full && doc.spliced, "{:?}", names(&doc));
    assert_eq!(names(&doc), ["count"]);
    assert!(lock().contains("Counts words."));
    c.edit("src/server.rs", "/// Free.", "/// Free, and cheap.");
    assert_eq!(names(&c.both("a free tool fn's doc comment")), ["ping"]);
    assert!(lock().contains("Free, and cheap."));
    c.edit(
        "src/server.rs",
        "#[tool]\n    async fn echo",
        "#[tool(name = \"say\")]\n    async fn echo",
    );
    assert!(c.both("a tool renamed").full);
    assert!(lock().contains("\"say\""));
}

/// Feature-gated rmcp tools are cached tool by tool like the others: the
/// manifest lists each one's features beside it, which only a change of
/// structure (a `#[cfg]`) can change, and that runs the full step.
#[test]
fn rmcp_feature_gated_tools_are_re_derived_tool_by_tool() {
    let c = Crate::new();
    c.write("src/lib.rs", "pub mod server;\n");
    c.write(
        "src/server.rs",
        r#"use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct EchoArgs {
    pub text: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct SumArgs {
    pub terms: Vec<i64>,
}

pub struct Server;

#[tool_router]
impl Server {
    /// Echoes.
    #[tool]
    async fn echo(&self, Parameters(a): Parameters<EchoArgs>) -> String {
        a.text
    }
}

#[cfg(feature = "math")]
#[tool_router(router = math_router)]
impl Server {
    /// Sums.
    #[tool]
    async fn sum(&self, Parameters(a): Parameters<SumArgs>) -> String {
        a.terms.iter().sum::<i64>().to_string()
    }
}
"#,
    );
    let manifest = || std::fs::read_to_string(c.cached_out.join("mcp-contract-rmcp.json")).unwrap();
    assert!(c.both("first").full);
    assert!(
        manifest().contains(r#""features":{"sum":["math"]}"#),
        "{}",
        manifest()
    );
    c.edit(
        "src/server.rs",
        "pub terms: Vec<i64>",
        "pub values: Vec<i64>",
    );
    let field = c.both("a gated tool's field");
    assert!(!field.full && field.spliced, "{:?}", names(&field));
    assert_eq!(names(&field), ["sum"]);
    c.edit("src/server.rs", "/// Sums.", "/// Sums the values.");
    assert_eq!(names(&c.both("a gated tool's doc comment")), ["sum"]);
    c.edit("src/server.rs", "a.text\n", "a.text.to_uppercase()\n");
    let body = c.both("a body");
    assert!(!body.full && body.affected.is_empty());
    // A new gate derives the same tool: only its features change.
    c.edit(
        "src/server.rs",
        "    #[tool]\n    async fn echo",
        "    #[cfg(feature = \"loud\")]\n    #[tool]\n    async fn echo",
    );
    assert!(c.both("a tool gated").full);
    assert!(manifest().contains(r#""echo":["loud"]"#), "{}", manifest());
    c.edit("src/server.rs", "pub text: String", "pub line: String");
    assert_eq!(names(&c.both("the newly gated tool's field")), ["echo"]);
}

/// A description read from a file (`include_str!`): the file is watched
/// like a source (cargo reruns the step when it alone changes) and checked
/// by the cache; the crate is cached as a whole, any edit runs the full step.
#[test]
fn rmcp_descriptions_from_files_are_watched() {
    let c = Crate::new();
    c.write("src/lib.rs", "pub mod server;\n");
    c.write("src/docs/echo.md", "Echoes.");
    c.write(
        "src/server.rs",
        r#"use rmcp::{tool, tool_router};

pub struct Server;

#[tool_router]
impl Server {
    #[tool(description = concat!("Tool: ", include_str!("docs/echo.md")))]
    async fn echo(&self) -> String {
        String::new()
    }
}
"#,
    );
    assert!(c.both("first").full);
    let lock = || std::fs::read_to_string(c.root().join("contracts/cached.lock")).unwrap();
    assert!(lock().contains("Tool: Echoes."), "{}", lock());
    let snap = c.builder("cached.lock", &c.cached_out).generate().unwrap();
    let md = c.root().join("src/docs/echo.md");
    assert!(snap.sources.contains(&md), "{:?}", snap.sources);

    c.write("src/docs/echo.md", "Echoes back.");
    assert!(c.both("the file alone").full);
    assert!(lock().contains("Tool: Echoes back."), "{}", lock());
    c.edit("src/server.rs", "String::new()", "\"x\".into()");
    assert!(c.both("a body").full);
}
