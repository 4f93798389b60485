//! Every snippet of `README.md` and `docs/*.md` is checked against the
//! code it describes, and a snippet nothing checks fails the test: moving
//! text between pages, renaming a flag, a test target or a feature, or
//! changing what the CLI prints breaks it here, not for a reader.
//!
//! Each fenced block is claimed by the check for its kind:
//! - `sh` (and the `run:` lines of `yaml`): every command is one this
//!   repository has. `cargo mcp-contract ...` is parsed by the real CLI
//!   (`--help` appended: exit 0 only when every option and value exists);
//!   `cargo test/bench/run/build/install ...` name packages, test, bench and
//!   example targets, features and environment variables that exist;
//! - `toml`: a migration record parses without a problem; dependency lines
//!   name the repository, real features and what an example really uses;
//! - `json`: a report is what `diff --format json` prints, a fixture
//!   parses, usage evidence is read by `usage`;
//! - `text`: `diff` output is real output, Prometheus text is imported;
//! - `rust`: every line is a line of an example's sources.
//!
//! A block checked by another test says so on the line above its fence,
//! `<!-- checked-by: PATH -->`; that file must exist and name the page.
//! Inline code that runs `cargo test`, `cargo bench` or `cargo run` is
//! checked like a shell line.

mod doc_snippets {
    pub mod markdown;
    pub mod shell;
    pub mod workspace;
}

use std::path::Path;
use std::process::Command as Process;

use doc_snippets::markdown::{self, Block};
use doc_snippets::shell::{self, Command};
use doc_snippets::workspace::Workspace;
use serde_json::Value;

const CLI: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

/// README.md and every page under docs/, in a stable order.
fn pages(ws: &Workspace) -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(ws.root.join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(ws.root.join(&n)).unwrap();
            (n, text)
        })
        .collect()
}

#[test]
fn every_snippet_is_checked() {
    let ws = Workspace::load();
    let examples = ws.example_lines();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (file, text) in pages(&ws) {
        let (blocks, spans) = match markdown::read(&file, &text) {
            Ok(found) => found,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        for block in &blocks {
            match check_block(&ws, &examples, block) {
                Ok(()) => checked += 1,
                Err(e) => failures.push(format!("{}:{}: {e}", block.file, block.line)),
            }
        }
        for span in spans.iter().filter(|s| runs_cargo_targets(&s.text)) {
            match check_script(&ws, &span.text) {
                Ok(()) => checked += 1,
                Err(e) => {
                    failures.push(format!("{}:{}: `{}`: {e}", span.file, span.line, span.text))
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} snippet(s) do not match the code:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked >= 40,
        "only {checked} snippets found: were the pages moved?"
    );
}

/// The check for a block's kind, or the one its marker names.
fn check_block(ws: &Workspace, examples: &[String], block: &Block) -> Result<(), String> {
    match (&block.checked_by, block.lang.as_str()) {
        (Some(path), _) => checked_elsewhere(ws, &block.file, path),
        (None, "sh") => check_script(ws, &block.text),
        (None, "yaml") => check_workflow(ws, &block.text),
        (None, "toml") => check_toml(ws, &block.text),
        (None, "json") => check_json(ws, &block.text),
        (None, "text") => check_text(ws, &block.text),
        (None, "rust") => check_rust(examples, &block.text),
        (None, lang) => Err(format!(
            "no check reads a `{lang}` block: give it a kind this test checks \
             (sh, yaml, toml, json, text, rust) or name the test that checks it \
             with `<!-- checked-by: PATH -->` above the fence"
        )),
    }
}

/// Inline code worth checking: a contributor command that names a package
/// or target (`cargo test -p ...`, with or without `NAME=VALUE` first).
fn runs_cargo_targets(span: &str) -> bool {
    let words: Vec<&str> = span
        .split_whitespace()
        .skip_while(|w| w.contains('=') && w.starts_with(|c: char| c.is_ascii_uppercase()))
        .collect();
    matches!(words.as_slice(), ["cargo", "test" | "bench" | "run", ..])
}

fn checked_elsewhere(ws: &Workspace, page: &str, path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(ws.root.join(path))
        .map_err(|e| format!("checked-by {path}: {e}"))?;
    let name = Path::new(page).file_name().unwrap().to_string_lossy();
    if text.contains(&*name) {
        Ok(())
    } else {
        Err(format!("checked-by {path}, which never reads {page}"))
    }
}

// ---- shell ---------------------------------------------------------------

fn check_script(ws: &Workspace, script: &str) -> Result<(), String> {
    let commands = shell::commands(script)?;
    if commands.is_empty() {
        return Err("a shell block without a command".into());
    }
    let mut cwd = ws.root.clone();
    for c in &commands {
        check_command(ws, &mut cwd, c)?;
    }
    Ok(())
}

fn check_command(ws: &Workspace, cwd: &mut std::path::PathBuf, c: &Command) -> Result<(), String> {
    let words: Vec<&str> = c.words.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => Ok(()),
        ["cd", dir] => {
            *cwd = cwd.join(dir);
            if cwd.is_dir() {
                Ok(())
            } else {
                Err(format!("cd {dir}: no such directory in the repository"))
            }
        }
        ["export", assignment] if assignment.contains('=') => Ok(()),
        ["cargo", "mcp-contract", args @ ..] | ["cargo-mcp-contract", args @ ..] => {
            check_env(ws, &ws.root, &c.env)?;
            check_cli(args)
        }
        ["cargo", sub, args @ ..] => check_cargo(ws, sub, args, &c.env),
        _ => Err(format!(
            "`{}` is not a command this test knows how to check",
            words.join(" ")
        )),
    }
}

/// The real CLI parses `args` with `--help` appended (before `--`): exit 0
/// when the subcommand, every option and every value exists.
fn check_cli(args: &[&str]) -> Result<(), String> {
    let (own, _server) = match args.iter().position(|a| *a == "--") {
        Some(i) => args.split_at(i),
        None => (args, &[][..]),
    };
    let Some(sub) = own.first() else {
        return Err("`cargo mcp-contract` without a command".into());
    };
    let out = Process::new(CLI)
        .args(own)
        .arg("--help")
        .output()
        .map_err(|e| e.to_string())?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.success() && stdout.contains(&format!("Usage: cargo mcp-contract {sub}")) {
        Ok(())
    } else {
        Err(format!(
            "cargo mcp-contract {}: {}",
            own.join(" "),
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .next()
                .unwrap_or("refused")
        ))
    }
}

/// A placeholder such as `NAME`, `PKG` or `<n>`: not checked.
fn placeholder(word: &str) -> bool {
    word.starts_with('<')
        || word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c == '.' || c.is_ascii_digit())
}

fn check_cargo(
    ws: &Workspace,
    sub: &str,
    args: &[&str],
    env: &[(String, String)],
) -> Result<(), String> {
    if !matches!(
        sub,
        "test" | "bench" | "run" | "build" | "install" | "clippy" | "fmt"
    ) {
        return Err(format!(
            "`cargo {sub}` is not a command this test knows how to check"
        ));
    }
    let (own, rest) = match args.iter().position(|a| *a == "--") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let mut package = None;
    let mut workspace = false;
    let mut targets: Vec<(&str, &str)> = Vec::new();
    let mut features = Vec::new();
    let mut positional = Vec::new();
    let mut it = own.iter();
    while let Some(&a) = it.next() {
        let mut value = || it.next().copied().ok_or(format!("{a} without a value"));
        match a {
            "-q" | "--quiet" | "--release" | "--locked" | "--offline" | "--no-run"
            | "--all-targets" | "--all" | "--tests" | "--lib" | "--check" => {}
            "--workspace" => workspace = true,
            "-p" | "--package" => package = Some(value()?),
            "--test" | "--bench" | "--example" | "--bin" => {
                targets.push((&a[2..], value()?));
            }
            "--features" | "-F" => features.extend(value()?.split(',')),
            "--git" => {
                let url = value()?;
                if url != ws.repository {
                    return Err(format!("--git {url}: the repository is {}", ws.repository));
                }
            }
            "--path" => {
                let path = value()?;
                if !ws.root.join(path).join("Cargo.toml").is_file() {
                    return Err(format!("--path {path}: no package there"));
                }
            }
            a if a.starts_with('-') => {
                return Err(format!(
                    "cargo {sub} {a}: an option this test does not know"
                ))
            }
            a => positional.push(a),
        }
    }
    if sub == "run" && package == Some("cargo-mcp-contract") && targets.is_empty() {
        check_cli(rest)?;
    }
    if sub == "install" {
        for name in &positional {
            let found = ws
                .targets("bin")
                .any(|(p, _)| p["name"] == *name && p["publish"] != serde_json::json!([]));
            if !found {
                return Err(format!(
                    "cargo install {name}: no installable package of that name"
                ));
            }
        }
    }
    let selected: Vec<&Value> = match package {
        Some(p) if placeholder(p) => return Ok(()),
        Some(p) => vec![ws.package(p).ok_or(format!("-p {p}: no such package"))?],
        None if workspace => ws.packages.iter().collect(),
        None => ws.packages.iter().collect(),
    };
    for (kind, name) in &targets {
        let pattern = glob(name);
        let found = ws
            .targets(kind)
            .any(|(p, t)| selected.contains(&p) && pattern(t["name"].as_str().unwrap()));
        if !found {
            return Err(format!("--{kind} {name}: no such {kind} target"));
        }
    }
    for f in features {
        if !selected.iter().any(|p| p["features"].get(f).is_some()) {
            return Err(format!("--features {f}: no selected package has it"));
        }
    }
    let dirs: Vec<_> = selected.iter().map(|p| ws.dir(p)).collect();
    for (name, _) in env {
        if !dirs.iter().any(|d| ws.mentions(d, name)) {
            return Err(format!("{name}: nothing in the selected packages reads it"));
        }
    }
    Ok(())
}

fn check_env(ws: &Workspace, dir: &Path, env: &[(String, String)]) -> Result<(), String> {
    for (name, _) in env {
        if !ws.mentions(dir, name) {
            return Err(format!("{name}: nothing in the workspace reads it"));
        }
    }
    Ok(())
}

/// `*` matches any run of characters; nothing else is special.
fn glob(pattern: &str) -> impl Fn(&str) -> bool + '_ {
    move |name| {
        let parts: Vec<&str> = pattern.split('*').collect();
        if parts.len() == 1 {
            return name == pattern;
        }
        let mut rest = name;
        for (i, part) in parts.iter().enumerate() {
            if i == 0 {
                let Some(r) = rest.strip_prefix(part) else {
                    return false;
                };
                rest = r;
            } else if i == parts.len() - 1 {
                return rest.ends_with(part);
            } else {
                let Some(at) = rest.find(part) else {
                    return false;
                };
                rest = &rest[at + part.len()..];
            }
        }
        true
    }
}

/// A GitHub Actions workflow: every `run:` (a plain or folded scalar) is a
/// shell script checked as one, and there is at least one.
fn check_workflow(ws: &Workspace, text: &str) -> Result<(), String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut runs = 0;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let indent = line.len() - line.trim_start().len();
        let body = line.trim_start().trim_start_matches("- ");
        if let Some(value) = body.strip_prefix("run:") {
            let mut script = value.trim().to_string();
            if script == ">" || script == "|" {
                let folded = script == ">";
                script.clear();
                while i + 1 < lines.len()
                    && lines[i + 1].len() - lines[i + 1].trim_start().len() > indent
                {
                    i += 1;
                    script.push_str(lines[i].trim());
                    script.push(if folded { ' ' } else { '\n' });
                }
            }
            let script = replace_expressions(&script);
            check_script(ws, &script).map_err(|e| format!("run: {e}"))?;
            runs += 1;
        }
        i += 1;
    }
    if runs == 0 {
        return Err("a yaml block without a `run:` step: nothing to check".into());
    }
    Ok(())
}

/// `${{ expr }}` becomes `EXPR`, a value the checks read as a placeholder.
fn replace_expressions(script: &str) -> String {
    let mut out = String::new();
    let mut rest = script;
    while let Some(at) = rest.find("${{") {
        out.push_str(&rest[..at]);
        out.push_str("EXPR");
        rest = rest[at..]
            .find("}}")
            .map_or("", |end| &rest[at + end + 2..]);
    }
    out.push_str(rest);
    out
}

// ---- toml ----------------------------------------------------------------

fn check_toml(ws: &Workspace, text: &str) -> Result<(), String> {
    let doc: toml_edit::DocumentMut = text.parse().map_err(|e| format!("not TOML: {e}"))?;
    if doc.contains_key("acknowledge") || doc.contains_key("tools") || doc.contains_key("version") {
        return check_record(text);
    }
    if doc.len() == 1 && doc.contains_key("removal") {
        return check_record(&format!("[tools.any]\n{text}"));
    }
    if doc.contains_key("dependencies") || doc.contains_key("build-dependencies") {
        return check_dependencies(ws, &doc);
    }
    if let Some(profile) = doc.get("profile") {
        let lock = std::fs::read_to_string(ws.root.join("Cargo.lock")).unwrap();
        for (_, p) in profile
            .as_table_like()
            .ok_or("`profile` is not a table")?
            .iter()
        {
            let packages = p.get("package").and_then(|p| p.as_table_like());
            for (name, _) in packages.into_iter().flat_map(|p| p.iter()) {
                if !lock.contains(&format!("name = \"{name}\"")) {
                    return Err(format!("profile package {name}: not a dependency here"));
                }
            }
        }
        return Ok(());
    }
    Err("a toml block that is neither a migration record, dependencies nor a profile".into())
}

fn check_record(text: &str) -> Result<(), String> {
    let (_, problems) = mcp_contract::migrations::parse(text, "snippet");
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the migration record has problems: {}",
            problems
                .iter()
                .map(|p| format!("{p:?}"))
                .collect::<Vec<_>>()
                .join("; ")
        ))
    }
}

/// Each dependency line: a crate of this workspace comes from the
/// repository's address with features it has; any other is a dependency an
/// example really has, with the same version and features it uses.
fn check_dependencies(ws: &Workspace, doc: &toml_edit::DocumentMut) -> Result<(), String> {
    for (section, kind) in [
        ("dependencies", Value::Null),
        ("build-dependencies", "build".into()),
    ] {
        let Some(deps) = doc.get(section).and_then(|d| d.as_table_like()) else {
            continue;
        };
        for (name, spec) in deps.iter() {
            let get = |key: &str| spec.get(key).and_then(|v| v.as_str().map(str::to_string));
            let wanted: Vec<String> = spec
                .get("features")
                .and_then(|f| f.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            if let Some(own) = ws.package(name) {
                match get("git") {
                    Some(url) if url == ws.repository => {}
                    other => {
                        return Err(format!(
                            "{name}: a crate of this workspace comes from git = \"{}\" \
                             until it is published (found {other:?})",
                            ws.repository
                        ))
                    }
                }
                for f in &wanted {
                    if own["features"].get(f).is_none() {
                        return Err(format!("{name}: no feature {f}"));
                    }
                }
            }
            let version = spec.as_str().map(str::to_string).or_else(|| get("version"));
            let no_defaults = spec.get("default-features").and_then(|v| v.as_bool()) == Some(false);
            let used = ws.packages.iter().any(|p| {
                p["dependencies"].as_array().unwrap().iter().any(|d| {
                    d["name"] == name
                        && d["kind"] == kind
                        && version.as_ref().is_none_or(|v| d["req"] == format!("^{v}"))
                        && (!no_defaults || d["uses_default_features"] == false)
                        && wanted.iter().all(|f| {
                            d["features"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .any(|x| x == f.as_str())
                        })
                })
            });
            if !used {
                return Err(format!(
                    "{name} in [{section}]: no example depends on it with that version and those features"
                ));
            }
        }
    }
    Ok(())
}

// ---- json ----------------------------------------------------------------

fn check_json(ws: &Workspace, text: &str) -> Result<(), String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    if value.get("format_version").is_some() {
        let real: Value = serde_json::from_slice(&diff_example(ws, &["--format", "json"])).unwrap();
        for change in value["changes"]
            .as_array()
            .ok_or("a report without `changes`")?
        {
            if !real["changes"].as_array().unwrap().contains(change) {
                return Err(format!("this change is not in the real report: {change}"));
            }
        }
        for key in ["format_version", "summary"] {
            if value[key] != real[key] {
                return Err(format!("`{key}` is {} in the real report", real[key]));
            }
        }
        return Ok(());
    }
    if value["format"] == "mcp-contract-usage" {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("evidence.json");
        std::fs::write(&file, text).unwrap();
        return run_ok(&["usage", file.to_str().unwrap()]);
    }
    if value.get("expect").is_some() {
        return mcp_contract::fixtures::parse(text.as_bytes(), "snippet.json", "a_tool")
            .map(drop)
            .map_err(|e| e.to_string());
    }
    Err("a json block that is neither a report, usage evidence nor a fixture".into())
}

// ---- text ----------------------------------------------------------------

fn check_text(ws: &Workspace, text: &str) -> Result<(), String> {
    if text.starts_with("error[") {
        let real = String::from_utf8(diff_example(ws, &["--color", "never"])).unwrap();
        let real: Vec<&str> = real.lines().collect();
        let sample: Vec<&str> = text.lines().collect();
        return if real.windows(sample.len()).any(|w| w == sample.as_slice()) {
            Ok(())
        } else {
            Err("these lines are not in the output of the README's diff".into())
        };
    }
    if text.starts_with("mcp_contract_compat_hits_total") {
        let dir = tempfile::tempdir().unwrap();
        let scrape = dir.path().join("scrape.txt");
        let out = dir.path().join("evidence.json");
        std::fs::write(&scrape, text).unwrap();
        run_ok(&[
            "usage",
            "--import-prometheus",
            scrape.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])?;
        return run_ok(&["usage", out.to_str().unwrap()]);
    }
    Err("a text block that is neither diff output nor Prometheus text".into())
}

/// `diff` of the README's two example surfaces (exit 1: breaking changes).
fn diff_example(ws: &Workspace, extra: &[&str]) -> Vec<u8> {
    let surfaces = ws.root.join("examples/surfaces");
    let out = Process::new(CLI)
        .arg("diff")
        .arg(surfaces.join("search-v1.json"))
        .arg(surfaces.join("search-v2.json"))
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn run_ok(args: &[&str]) -> Result<(), String> {
    let out = Process::new(CLI)
        .args(args)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "cargo mcp-contract {}: {}",
            args.first().unwrap_or(&""),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

// ---- rust ----------------------------------------------------------------

/// Every line but blank ones and `// ` comments is a line of an example.
fn check_rust(examples: &[String], text: &str) -> Result<(), String> {
    let mut quoted = 0;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("// ") {
            continue;
        }
        if !examples.iter().any(|l| l == line) {
            return Err(format!(
                "not a line of examples/weather-server or demo-server: {line}"
            ));
        }
        quoted += 1;
    }
    if quoted == 0 {
        return Err("a rust block without code".into());
    }
    Ok(())
}

/// A block that no check claims fails the test (and says how to fix it).
#[test]
fn an_unknown_block_is_a_failure_not_a_pass() {
    let ws = Workspace::load();
    let examples = ws.example_lines();
    let page = "```python\nprint(1)\n```\n```\nno kind\n```\n\
                <!-- checked-by: cargo-mcp-contract/tests/cli_diff.rs -->\n```python\nx\n```\n";
    let (blocks, _) = markdown::read("docs/x.md", page).unwrap();
    assert!(check_block(&ws, &examples, &blocks[0]).is_err());
    assert!(check_block(&ws, &examples, &blocks[1]).is_err());
    // cli_diff.rs never reads docs/x.md
    assert!(check_block(&ws, &examples, &blocks[2]).is_err());
    assert!(check_script(&ws, "npx -y some-server").is_err());
    assert!(check_script(&ws, "cargo mcp-contract check --formt github").is_err());
    assert!(check_script(&ws, "cargo mcp-contract check --format gitlab").is_err());
    assert!(check_script(&ws, "cargo mcp-contract check --format github").is_ok());
    assert!(check_script(&ws, "cargo test -p mcp-contract --test no_such_test").is_err());
    assert!(check_script(
        &ws,
        "NO_SUCH_VARIABLE=1 cargo test -p mcp-contract --test corpus"
    )
    .is_err());
    assert!(check_rust(&ws.example_lines(), "fn not_in_the_example() {}").is_err());
    assert!(check_toml(&ws, "[[acknowledge]]\ntool = \"t\"\nrul = \"x\"\n").is_err());
    assert!(check_text(&ws, "error[input.required-added]: invented\n").is_err());
}

/// The second test command, `cargo test --workspace --test 'slow_*'`, runs
/// exactly the targets the first one leaves out: a `test = false` target
/// not named `slow_*` would never run, and a `slow_*` target with `test`
/// on would run twice. Each is listed in docs/contributing.md.
#[test]
fn the_slow_suites_are_exactly_the_targets_the_everyday_command_leaves_out() {
    let ws = Workspace::load();
    let contributing = std::fs::read_to_string(ws.root.join("docs/contributing.md")).unwrap();
    let mut slow = 0;
    for (package, target) in ws.targets("test") {
        let name = target["name"].as_str().unwrap();
        let everyday = target["test"] == true;
        assert_eq!(
            everyday,
            !name.starts_with("slow_"),
            "{}: test target {name} has test = {everyday}: a slow suite is named slow_* \
             and declared with test = false, every other target keeps test = true",
            package["name"]
        );
        if !everyday {
            slow += 1;
            assert!(
                contributing.contains(&format!("| `{name}` |")),
                "docs/contributing.md does not list the slow suite {name}"
            );
        }
    }
    assert!(
        slow > 0,
        "no slow suite: is the second test command still needed?"
    );
}
