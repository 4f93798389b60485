//! What a package's `build.rs` configures the build step with, read from
//! its text without running it.
//!
//! `cargo mcp-contract check` (and `--staged`, the hook and the Action, which
//! run it) verifies that the lockfile is what the build step would write
//! now. It runs the build step itself, outside cargo, so it must configure
//! it as `build.rs` does: the escape hatches (`tool_field`, `prompt_field`)
//! give published values the sources cannot, and `lockfile`/`crate_root`
//! move what is read and written. A bare `Builder::new()` would judge
//! another build.
//!
//! The configuration is read as written: one chain rooted at
//! `mcp_contract_build::Builder::new()` (or `::default()`), or
//! `mcp_contract_build::snapshot()` for the defaults. Arguments are string
//! literals (raw or not), `const`/`static` string items of the same file,
//! `include_str!` of a file beside it, `concat!` of those, and the same
//! behind `&`, `.to_string()`, `.into()`, `String::from`. Anything else is an
//! error at its line naming what is accepted: a configuration `check` cannot
//! see is never replaced by a guess.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

use crate::builder::Builder;
use crate::error::Error;
use crate::source::Source;

/// The build step's configuration in a `build.rs`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildScript {
    /// The build script read.
    pub path: PathBuf,
    /// `.lockfile(...)`, relative to the package root.
    pub lockfile: Option<PathBuf>,
    /// `.crate_root(...)`, in order.
    pub crate_roots: Vec<PathBuf>,
    /// `.tool_field(tool, key, json)`, in order.
    pub tool_fields: Vec<(String, String, String)>,
    /// `.prompt_field(prompt, key, json)`, in order.
    pub prompt_fields: Vec<(String, String, String)>,
}

/// Methods of [`Builder`] a chain may call, and how many string arguments each takes.
const METHODS: &[(&str, usize)] = &[
    ("lockfile", 1),
    ("crate_root", 1),
    ("tool_field", 3),
    ("prompt_field", 3),
    // what only a build script's own run uses: no effect on what is verified
    ("package", 1),
    ("out_dir", 1),
    ("quiet", 0),
    ("no_cache", 0),
    ("verify", 0),
    ("run", 0),
    ("build", 0),
    ("generate", 0),
];

/// Most bytes an `include_str!` may bring (as for every input file).
const MAX_INCLUDE: u64 = mcp_contract::limits::MAX_INPUT_BYTES;

/// Most nested expressions one argument is followed through (`&`, `.into()`, consts).
const MAX_STEPS: usize = 32;

impl BuildScript {
    /// `builder` configured as the build script configures it.
    pub fn configure(&self, mut builder: Builder) -> Builder {
        if let Some(l) = &self.lockfile {
            builder = builder.lockfile(l);
        }
        for r in &self.crate_roots {
            builder = builder.crate_root(r);
        }
        for (t, k, j) in &self.tool_fields {
            builder = builder.tool_field(t, k, j);
        }
        for (p, k, j) in &self.prompt_fields {
            builder = builder.prompt_field(p, k, j);
        }
        builder
    }
}

/// Reads the build step's configuration from the build script at `path`.
pub fn read(path: &Path) -> Result<BuildScript, Error> {
    let bytes = mcp_contract::limits::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        action: "read the build script",
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        problem(
            path,
            0,
            0,
            "is not UTF-8 text".into(),
            "save build.rs as UTF-8",
        )
    })?;
    let source = Source::parse(text).map_err(|e| {
        problem(
            path,
            e.pos.line,
            e.pos.column,
            format!("does not parse: {}", e.message),
            "fix build.rs (`cargo build` shows the same error)",
        )
    })?;
    parse(path, &source)
}

fn parse(path: &Path, source: &Source) -> Result<BuildScript, Error> {
    let mut consts = HashMap::new();
    for item in &source.syntax().items {
        let (ident, expr) = match item {
            syn::Item::Const(c) => (&c.ident, &*c.expr),
            syn::Item::Static(s) => (&s.ident, &*s.expr),
            _ => continue,
        };
        consts.insert(ident.to_string(), expr);
    }
    let mut finder = Chains::default();
    finder.visit_file(source.syntax());
    let at = |ident: &syn::Ident| {
        source
            .pos_of(ident)
            .map_or((0, 0), |p| (p.line, p.column + 1))
    };
    if let Some(stray) = finder.stray.first() {
        let (line, column) = at(stray);
        return Err(problem(
            path,
            line,
            column,
            format!("`.{stray}(...)` configures a builder `cargo mcp-contract check` cannot follow (it reads build.rs without running it)"),
            "write the configuration as one chain: `mcp_contract_build::Builder::new().tool_field(...).run()`",
        ));
    }
    let mut chains = finder.chains;
    if chains.len() > 1 {
        let (line, column) = at(chains[1].root);
        return Err(problem(
            path,
            line,
            column,
            "runs the build step a second time".into(),
            "configure one `Builder` for the package (one lockfile per package)",
        ));
    }
    let Some(chain) = chains.pop() else {
        return Err(problem(
            path,
            0,
            0,
            "calls neither `mcp_contract_build::snapshot()` nor `mcp_contract_build::Builder::new()...run()`, so `cargo mcp-contract check` cannot tell how the build step is configured".into(),
            "call the build step from build.rs itself: `fn main() { mcp_contract_build::snapshot(); }`",
        ));
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let eval = Eval {
        consts: &consts,
        dir,
    };
    let mut out = BuildScript {
        path: path.to_path_buf(),
        ..BuildScript::default()
    };
    for call in &chain.calls {
        let name = call.method.to_string();
        let (line, column) = at(call.method);
        let Some(&(_, arity)) = METHODS.iter().find(|(m, _)| *m == name) else {
            let known: Vec<&str> = METHODS.iter().map(|(m, _)| *m).collect();
            return Err(problem(
                path,
                line,
                column,
                format!("`.{name}(...)` is not a method `cargo mcp-contract check` can follow"),
                &format!("use only {}", known.join(", ")),
            ));
        };
        if call.args.len() != arity {
            return Err(problem(
                path,
                line,
                column,
                format!(
                    "`.{name}(...)` takes {arity} argument(s), found {}",
                    call.args.len()
                ),
                "see mcp_contract_build::Builder",
            ));
        }
        let mut args = Vec::with_capacity(arity);
        for a in &call.args {
            args.push(eval.string(a, 0).map_err(|why| {
                problem(
                    path,
                    line,
                    column,
                    format!("an argument of `.{name}(...)` {why}, and `cargo mcp-contract check` reads build.rs without running it"),
                    "give it as a string literal (r#\"...\"#), a `const` of build.rs, or `include_str!(\"file\")`",
                )
            })?);
        }
        let mut args = args.into_iter();
        let mut next = || args.next().unwrap_or_default();
        match name.as_str() {
            "lockfile" => out.lockfile = Some(PathBuf::from(next())),
            "crate_root" => out.crate_roots.push(PathBuf::from(next())),
            "tool_field" => out.tool_fields.push((next(), next(), next())),
            "prompt_field" => out.prompt_fields.push((next(), next(), next())),
            _ => {}
        }
    }
    Ok(out)
}

fn problem(path: &Path, line: usize, column: usize, message: String, help: &str) -> Error {
    Error::BuildScript {
        file: path.to_path_buf(),
        line,
        column,
        message,
        help: help.to_string(),
    }
}

/// One method call of a chain.
struct Call<'a> {
    method: &'a syn::Ident,
    args: Vec<&'a syn::Expr>,
}

/// A chain rooted at the build step: its root's identifier and its calls in order.
struct Chain<'a> {
    root: &'a syn::Ident,
    calls: Vec<Call<'a>>,
}

#[derive(Default)]
struct Chains<'a> {
    chains: Vec<Chain<'a>>,
    /// Configuring methods called on something that is not such a chain.
    stray: Vec<&'a syn::Ident>,
}

/// `Builder::new()`/`Builder::default()` (any path ending so), or `snapshot()`
/// (`mcp_contract_build::snapshot` or imported): the identifier to point at.
fn build_step_root(expr: &syn::Expr) -> Option<(&syn::Ident, bool)> {
    let syn::Expr::Call(call) = expr else {
        return None;
    };
    let syn::Expr::Path(p) = &*call.func else {
        return None;
    };
    let segs: Vec<&syn::Ident> = p.path.segments.iter().map(|s| &s.ident).collect();
    match segs.as_slice() {
        [.., b, f] if *b == "Builder" && (*f == "new" || *f == "default") => Some((b, true)),
        [f] if *f == "snapshot" => Some((f, false)),
        [first, .., f] if *first == "mcp_contract_build" && *f == "snapshot" => Some((f, false)),
        _ => None,
    }
}

impl<'a> Visit<'a> for Chains<'a> {
    fn visit_expr(&mut self, expr: &'a syn::Expr) {
        // the outermost call of a chain: collect it whole
        let mut calls = Vec::new();
        let mut at = expr;
        while let syn::Expr::MethodCall(m) = at {
            calls.push(Call {
                method: &m.method,
                args: m.args.iter().collect(),
            });
            at = &m.receiver;
        }
        if let Some((root, _)) = build_step_root(at) {
            calls.reverse();
            for c in &calls {
                for a in &c.args {
                    self.visit_expr(a);
                }
            }
            self.chains.push(Chain { root, calls });
            return;
        }
        if let syn::Expr::MethodCall(m) = expr {
            let name = m.method.to_string();
            if ["tool_field", "prompt_field", "lockfile", "crate_root"].contains(&name.as_str()) {
                self.stray.push(&m.method);
            }
        }
        syn::visit::visit_expr(self, expr);
    }
}

/// Evaluates string arguments the way `rustc` would, for the forms listed in the module docs.
struct Eval<'a> {
    consts: &'a HashMap<String, &'a syn::Expr>,
    dir: &'a Path,
}

impl Eval<'_> {
    fn string(&self, expr: &syn::Expr, depth: usize) -> Result<String, String> {
        if depth > MAX_STEPS {
            return Err("goes through too many steps".into());
        }
        let next = depth + 1;
        match expr {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Ok(s.value()),
            syn::Expr::Reference(r) => self.string(&r.expr, next),
            syn::Expr::Paren(p) => self.string(&p.expr, next),
            syn::Expr::Group(g) => self.string(&g.expr, next),
            syn::Expr::Path(p) if p.path.segments.len() == 1 => {
                let name = p.path.segments[0].ident.to_string();
                match self.consts.get(&name) {
                    Some(e) => self.string(e, next),
                    None => Err(format!(
                        "is `{name}`, which is not a `const` or `static` item of build.rs"
                    )),
                }
            }
            syn::Expr::MethodCall(m)
                if m.args.is_empty()
                    && ["to_string", "to_owned", "into"]
                        .contains(&m.method.to_string().as_str()) =>
            {
                self.string(&m.receiver, next)
            }
            syn::Expr::Call(c) if c.args.len() == 1 && is_string_from(&c.func) => {
                self.string(&c.args[0], next)
            }
            syn::Expr::Macro(m) => self.mac(&m.mac, next),
            _ => Err("is computed".into()),
        }
    }

    fn mac(&self, mac: &syn::Macro, depth: usize) -> Result<String, String> {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let args = mac
            .parse_body_with(
                syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
            )
            .map_err(|_| format!("is a `{name}!` whose arguments do not parse"))?;
        match name.as_str() {
            "include_str" if args.len() == 1 => {
                let rel = self.string(&args[0], depth)?;
                let file = self.dir.join(&rel);
                let len = std::fs::metadata(&file)
                    .map_err(|e| format!("includes `{rel}`, which cannot be read ({e})"))?
                    .len();
                if len > MAX_INCLUDE {
                    return Err(format!(
                        "includes `{rel}`, which {}",
                        mcp_contract::limits::too_large(len)
                    ));
                }
                std::fs::read_to_string(&file)
                    .map_err(|e| format!("includes `{rel}`, which cannot be read ({e})"))
            }
            "concat" => {
                let mut out = String::new();
                for a in &args {
                    out.push_str(&self.string(a, depth)?);
                }
                Ok(out)
            }
            _ => Err(format!("is a `{name}!` call")),
        }
    }
}

fn is_string_from(func: &syn::Expr) -> bool {
    let syn::Expr::Path(p) = func else {
        return false;
    };
    let segs: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    matches!(segs.as_slice(), [.., s, f] if s == "String" && f == "from")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Result<BuildScript, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("build.rs");
        std::fs::write(&path, text).unwrap();
        std::fs::write(dir.path().join("schema.json"), r#"{"type":"object"}"#).unwrap();
        read(&path).map_err(|e| {
            e.to_string()
                .replace(&format!("{}/", dir.path().display()), "")
        })
    }

    #[test]
    fn snapshot_is_the_defaults() {
        let s = read_text("fn main() { mcp_contract_build::snapshot(); }").unwrap();
        assert_eq!(
            (s.lockfile, s.crate_roots, s.tool_fields),
            (None, vec![], vec![])
        );
    }

    #[test]
    fn a_chain_gives_every_escape_hatch_in_order() {
        let s = read_text(
            r##"
const DESC: &str = r#""Exports notes.""#;
fn main() {
    mcp_contract_build::Builder::new()
        .lockfile("contracts/other.lock")
        .crate_root("src/bin/server.rs")
        .tool_field("export_notes", "description", DESC)
        .tool_field("import", "inputSchema", include_str!("schema.json"))
        .prompt_field("p", "title", concat!("\"", "T", "\""))
        .tool_field("x", "title", &String::from("\"X\"").to_string())
        .run();
}"##,
        )
        .unwrap();
        assert_eq!(s.lockfile, Some(PathBuf::from("contracts/other.lock")));
        assert_eq!(s.crate_roots, vec![PathBuf::from("src/bin/server.rs")]);
        assert_eq!(
            s.tool_fields,
            vec![
                (
                    "export_notes".into(),
                    "description".into(),
                    "\"Exports notes.\"".into()
                ),
                (
                    "import".into(),
                    "inputSchema".into(),
                    r#"{"type":"object"}"#.into()
                ),
                ("x".into(), "title".into(), "\"X\"".into()),
            ]
        );
        assert_eq!(
            s.prompt_fields,
            vec![("p".into(), "title".into(), "\"T\"".into())]
        );
    }

    #[test]
    fn an_imported_builder_is_followed() {
        let s = read_text(
            "use mcp_contract_build::Builder;\nfn main() {\n    let b = Builder::default().tool_field(\"t\", \"title\", \"\\\"T\\\"\");\n    b.run();\n}",
        )
        .unwrap();
        assert_eq!(s.tool_fields.len(), 1);
    }

    #[test]
    fn what_it_cannot_follow_is_an_error_at_its_line() {
        let e = read_text(
            "fn main() {\n    let d = std::env::var(\"D\").unwrap();\n    mcp_contract_build::Builder::new()\n        .tool_field(\"t\", \"description\", d)\n        .run();\n}",
        )
        .unwrap_err();
        assert_eq!(
            e,
            "build.rs:4:10: an argument of `.tool_field(...)` is `d`, which is not a `const` or `static` item of build.rs, and `cargo mcp-contract check` reads build.rs without running it\n  help: give it as a string literal (r#\"...\"#), a `const` of build.rs, or `include_str!(\"file\")`"
        );
        let e = read_text("fn main() {\n    let b = mcp_contract_build::Builder::new();\n    b.tool_field(\"t\", \"title\", \"\\\"T\\\"\").run();\n}").unwrap_err();
        assert!(e.starts_with("build.rs:3:7: `.tool_field(...)` configures a builder `cargo mcp-contract check` cannot follow"), "{e}");
        let e = read_text("fn main() { mcp_contract_build::Builder::new().frobnicate().run(); }")
            .unwrap_err();
        assert!(
            e.starts_with("build.rs:1:48: `.frobnicate(...)` is not a method"),
            "{e}"
        );
        assert!(
            e.contains("help: use only lockfile, crate_root, tool_field"),
            "{e}"
        );
        let e = read_text("fn main() { other::build(); }").unwrap_err();
        assert!(e.starts_with("build.rs: calls neither"), "{e}");
        let e = read_text(
            "fn main() { mcp_contract_build::snapshot(); mcp_contract_build::snapshot(); }",
        )
        .unwrap_err();
        assert!(e.contains("runs the build step a second time"), "{e}");
        let e = read_text("fn main() { mcp_contract_build::Builder::new().tool_field(\"t\", \"title\", include_str!(\"missing.json\")).run(); }").unwrap_err();
        assert!(
            e.contains("includes `missing.json`, which cannot be read"),
            "{e}"
        );
    }
}
