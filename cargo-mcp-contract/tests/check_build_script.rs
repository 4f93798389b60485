//! What `build.rs` configures, every command that runs the build step sees:
//! an rmcp tool whose description is a constant cannot be read from source,
//! the build step says to give it in `build.rs` with `tool_field`, and once
//! that is done `check` (`-p`, plain, `--staged`) and the Action's script
//! pass — and judge the value `build.rs` gives, not a bare build's.

mod check_support;

use std::process::Command;

use check_support::{TestRepo, TINY_MANIFEST};

const LIB: &str = r#"use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_router};

const EXPORT_DESC: &str = "Export the notes.";

#[derive(serde::Deserialize, schemars::JsonSchema)]
pub struct ExportArgs {
    /// The output format.
    pub format: String,
}

pub struct Notes;

#[tool_router]
impl Notes {
    #[tool(description = EXPORT_DESC)]
    async fn export_notes(&self, Parameters(args): Parameters<ExportArgs>) -> String {
        args.format
    }
}
"#;

/// What cargo would do with the package's build script: run the build step
/// configured as `build.rs` says (`given`: the `tool_field` calls it makes).
fn build(repo: &TestRepo, given: &[(&str, &str, &str)]) -> Result<(), String> {
    let mut b = mcp_contract_build::Builder::new();
    for (t, k, v) in given {
        b = b.tool_field(*t, *k, *v);
    }
    b.manifest_dir(repo.path())
        .package("tiny")
        .mode(mcp_contract_build::Mode::Update)
        .quiet()
        .generate()
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The Rust code the help line quotes between backticks.
fn quoted_code(help: &str) -> String {
    let start = help.find('`').expect("the help quotes code") + 1;
    let end = start + help[start..].find('`').expect("closed quote");
    help[start..end].to_string()
}

#[test]
fn the_escape_hatch_in_build_rs_is_what_check_the_hook_and_the_action_verify() {
    let repo = TestRepo::new();
    repo.write("Cargo.toml", TINY_MANIFEST);
    repo.write("build.rs", "fn main() { mcp_contract_build::snapshot() }\n");
    repo.write("src/lib.rs", LIB);

    // A bare build cannot read the constant; its help names the escape hatch.
    let err = build(&repo, &[]).unwrap_err();
    assert!(
        err.contains("cannot evaluate the description `EXPORT_DESC`"),
        "{err}"
    );
    let help = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("help: "))
        .expect("a help line");
    // Follow it to the letter: its code, with the published text filled in.
    let code = quoted_code(help).replace("\"Your text.\"", "\"Export the notes.\"");
    assert_eq!(
        code,
        r####"mcp_contract_build::Builder::new().tool_field("export_notes", "description", r#""Export the notes.""#).run()"####
    );
    repo.write("build.rs", &format!("fn main() {{\n    {code};\n}}\n"));
    let given = [("export_notes", "description", "\"Export the notes.\"")];
    build(&repo, &given).expect("the build passes with the escape hatch");
    let lock = repo.read(check_support::LOCK);
    assert!(lock.contains("Export the notes."), "{lock}");
    repo.commit("notes, with the description given in build.rs");

    for args in [
        &["check", "-p", "tiny", "--against", "HEAD"][..],
        &["check", "--against", "HEAD"],
        &["check", "--workspace", "--against", "HEAD"],
    ] {
        let r = repo.run(args);
        assert_eq!(r.code, 0, "{args:?}: {r:?}");
    }

    // The hook's check on a staged source edit that changes nothing published.
    repo.write("src/lib.rs", &format!("{LIB}\n// a comment\n"));
    repo.git(&["add", "src/lib.rs"]);
    let r = repo.run(&["check", "--staged", "--against", "HEAD"]);
    assert_eq!(r.code, 0, "{r:?}");

    // The Action's script, in the repository, with the CLI under test.
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../action/check.sh");
    let out = Command::new("bash")
        .arg(&script)
        .current_dir(repo.path())
        .env("MCP_CONTRACT_CLI", env!("CARGO_BIN_EXE_cargo-mcp-contract"))
        .env("MCP_CONTRACT_AGAINST", "HEAD")
        .env("MCP_CONTRACT_SARIF", "")
        // the package's dependencies are not real crates: nothing to build
        // and start (slow_served_probe runs the Action's probe on a server)
        .env("MCP_CONTRACT_SERVED", "false")
        .env_remove("CI")
        .env_remove("GITHUB_OUTPUT")
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "action/check.sh: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    // What is verified is build.rs's value: changing it there without
    // rebuilding leaves the lockfile stale.
    repo.write(
        "build.rs",
        &format!(
            "fn main() {{\n    {};\n}}\n",
            code.replace("Export the notes.", "Export every note.")
        ),
    );
    let r = repo.run(&["check", "-p", "tiny", "--against", "HEAD"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("out of date with the sources"), "{r:?}");
    assert!(r.stderr.contains("changed: export_notes"), "{r:?}");
}

#[test]
fn a_build_rs_check_cannot_read_is_an_error_naming_its_line() {
    let repo = TestRepo::new();
    repo.write("Cargo.toml", TINY_MANIFEST);
    repo.write("src/lib.rs", LIB);
    repo.write(
        "build.rs",
        "fn main() {\n    let desc = std::env::var(\"DESC\").unwrap();\n    mcp_contract_build::Builder::new()\n        .tool_field(\"export_notes\", \"description\", desc)\n        .run();\n}\n",
    );
    repo.commit("a computed escape hatch");
    let r = repo.run(&["check", "-p", "tiny", "--against", "HEAD"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("build.rs: line 4, column 10: an argument of `.tool_field(...)` is `desc`, which is not a `const` or `static` item of build.rs"),
        "{r:?}"
    );
    assert!(
        r.stderr
            .contains("help: give it as a string literal (r#\"...\"#), a `const` of build.rs, or `include_str!(\"file\")`"),
        "{r:?}"
    );
    assert!(r.stdout.is_empty(), "{r:?}");
}

/// A lockfile path `build.rs` configures is where `check` looks.
#[test]
fn the_lockfile_build_rs_names_is_the_one_checked() {
    let repo = TestRepo::new();
    repo.write("Cargo.toml", TINY_MANIFEST);
    repo.write(
        "src/lib.rs",
        &check_support::tiny_lib("Echo the text.", "text"),
    );
    repo.write(
        "build.rs",
        "fn main() {\n    mcp_contract_build::Builder::new().lockfile(\"api/tiny.lock\").run();\n}\n",
    );
    mcp_contract_build::Builder::new()
        .manifest_dir(repo.path())
        .package("tiny")
        .lockfile("api/tiny.lock")
        .mode(mcp_contract_build::Mode::Update)
        .quiet()
        .generate()
        .expect("snapshot");
    repo.commit("tiny, locked in api/");
    let r = repo.run(&["check", "--workspace", "--against", "HEAD"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("api/tiny.lock"), "{r:?}");
    repo.write(
        "src/lib.rs",
        &check_support::tiny_lib("Echo the text.", "words"),
    );
    let r = repo.run(&["check", "-p", "tiny", "--against", "HEAD"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("api/tiny.lock"), "{r:?}");
}
