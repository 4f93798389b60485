//! Served == gated in the documented CI setup: a small rmcp server (one
//! `#[tool]`, the `Contracted` wrapper, `build.rs` with the build step) in
//! a temporary git repository, gated by the GitHub Action's own script
//! (`action/check.sh`, a Cargo workspace: `check --workspace --served`).
//! While what it serves is what the build step derived, the run passes and
//! says how many tools it compared. Then the server rewrites its tool's
//! schema at run time (what a hand-written schema or a description set in
//! code does): the lockfile does not change, the gate alone would pass,
//! and the run fails with an annotation on the tool's lockfile line naming
//! the first differing pointer, the same finding in SARIF.
//!
//! Built into the target directory the tests' child projects share
//! (`tests/support/child_build.rs`), with the workspace's `Cargo.lock`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../../tests/support/child_build.rs"]
mod child_build;

const CLI: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed:\n{}", text(&out));
    out
}

const MAIN: &str = r#"//! A counter server on rmcp, published through the contract wrapper.
use mcp_contract::rmcp::Contracted;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::Deserialize;

/// Arguments of `count`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct CountArgs {
    /// How far to count.
    pub n: u32,
}

#[derive(Clone)]
pub struct Counter {
    tool_router: ToolRouter<Counter>,
}

#[tool_router]
impl Counter {
    fn new() -> Self {
        #[allow(unused_mut)]
        let mut tool_router = Self::tool_router();
        // REWRITE
        Counter { tool_router }
    }

    /// Counts from one to `n`.
    #[tool]
    async fn count(&self, Parameters(args): Parameters<CountArgs>) -> String {
        (1..=args.n).map(|i| i.to_string()).collect::<Vec<_>>().join(" ")
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Counter {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Contracted::new(Counter::new(), mcp_contract::rmcp!());
    server.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
"#;

/// What the server does to its tool at run time in the second half: `n`
/// published with a bound the handler's type does not have.
const REWRITE: &str = r#"if let Some(route) = tool_router.map.get_mut("count") {
            let mut schema = (*route.attr.input_schema).clone();
            schema["properties"]["n"]["maximum"] = serde_json::json!(10);
            route.attr.input_schema = std::sync::Arc::new(schema);
        }"#;

struct Repo {
    dir: PathBuf,
}

impl Repo {
    fn new(dir: &Path) -> Repo {
        let ws = workspace();
        std::fs::create_dir_all(dir.join("src")).unwrap();
        std::fs::write(
            dir.join("Cargo.toml"),
            format!(
                "[package]\nname = \"served-probe-server\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n{}{}",
                child_build::rmcp_server_dependencies(&ws),
                child_build::PROFILE
            ),
        )
        .unwrap();
        std::fs::write(
            dir.join("build.rs"),
            "fn main() {\n    mcp_contract_build::snapshot();\n}\n",
        )
        .unwrap();
        std::fs::write(dir.join("src/main.rs"), MAIN).unwrap();
        std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
        std::fs::write(dir.join(".gitignore"), "/target\n").unwrap();
        let repo = Repo {
            dir: dir.to_path_buf(),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    fn git(&self, args: &[&str]) {
        ok(Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(&self.dir));
    }

    /// A developer's build (the build step writes the lockfile), committed.
    fn build_and_commit(&self) {
        ok(Command::new(env!("CARGO"))
            .args(["build", "--quiet"])
            .current_dir(&self.dir)
            .env("CARGO_TARGET_DIR", child_build::target_dir())
            .env_remove("CI")
            .env_remove("RUSTFLAGS"));
        assert!(self.dir.join("contracts/mcp-contract.lock").exists());
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", "the counter server"]);
    }

    /// `action/check.sh` as the Action runs it here: exit status, stdout
    /// (GitHub annotations), stderr, the SARIF report.
    fn action(&self) -> (i32, String, String, serde_json::Value) {
        let sarif = self.dir.join("target-report.sarif");
        let outputs = self.dir.join("target-github-output");
        let out = Command::new("bash")
            .arg(workspace().join("action/check.sh"))
            .current_dir(&self.dir)
            .env("MCP_CONTRACT_CLI", CLI)
            .env("MCP_CONTRACT_AGAINST", "HEAD")
            .env("MCP_CONTRACT_SARIF", &sarif)
            .env("GITHUB_OUTPUT", &outputs)
            .env("CI", "true")
            .env("CARGO_TARGET_DIR", child_build::target_dir())
            .env_remove("RUSTFLAGS")
            .env_remove("GITHUB_BASE_REF")
            .env_remove("MCP_CONTRACT_SERVED")
            .output()
            .unwrap();
        let report = std::fs::read_to_string(&sarif).unwrap_or_default();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
            serde_json::from_str(&report).unwrap_or_default(),
        )
    }
}

#[test]
fn a_tool_served_differently_from_the_lockfile_fails_the_action() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Repo::new(tmp.path());
    repo.build_and_commit();

    // served as derived: the run passes and says what it compared
    let (status, stdout, stderr, _) = repo.action();
    assert_eq!(status, 0, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("served: 1 locked tools compared with what served-probe-server (probed) serves, 0 served differently"),
        "{stderr}"
    );

    // the server rewrites its schema at run time: the lockfile is unchanged
    let main = repo.dir.join("src/main.rs");
    let source = std::fs::read_to_string(&main).unwrap();
    std::fs::write(&main, source.replacen("// REWRITE", REWRITE, 1)).unwrap();
    let (status, stdout, stderr, sarif) = repo.action();
    assert_eq!(status, 1, "{stdout}\n{stderr}");
    let lock = std::fs::read_to_string(repo.dir.join("contracts/mcp-contract.lock")).unwrap();
    let line = lock
        .lines()
        .position(|l| l.trim_start().starts_with("\"n\": {"))
        .map(|i| i + 1)
        .expect("the lockfile has `n`");
    let annotation = stdout
        .lines()
        .find(|l| l.contains("served.differs"))
        .unwrap_or_else(|| panic!("no served.differs annotation:\n{stdout}\n{stderr}"));
    assert!(
        annotation.starts_with(&format!(
            "::error file=contracts/mcp-contract.lock,line={line},"
        )),
        "the annotation is on `n`'s line ({line}): {annotation}"
    );
    assert!(
        annotation.contains("tool `count` is served differently from the lockfile, first at /inputSchema/properties/n/maximum")
            && annotation.contains("locked (absent) / served 10"),
        "{annotation}"
    );
    let results = sarif["runs"][0]["results"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let found: Vec<_> = results
        .iter()
        .filter(|r| r["ruleId"] == "served.differs")
        .collect();
    assert_eq!(found.len(), 1, "{sarif}");
    assert!(
        found[0]["message"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("/inputSchema/properties/n/maximum")),
        "{}",
        found[0]
    );
}
