//! `cargo mcp-contract selftest`: mutate a temporary copy of the contract
//! the way careless changes would (`mcp_contract::selftest` plans them), run
//! the real gate — this binary's own `check`, and with `--server` its
//! `replay` — on each, and print which check caught each mutation.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mcp_contract::selftest::{self, Planned, Row, Verdict};
use mcp_contract::{fixtures, lockfile, migrations};

use crate::cmd::live::ServerArgs;
use crate::output;

#[derive(clap::Args)]
pub struct Args {
    /// The lockfile whose contract is mutated (its migrations.toml and fixtures/ sit beside it)
    #[arg(long, value_name = "PATH", default_value = lockfile::DEFAULT_PATH)]
    lockfile: PathBuf,
    /// Also replay the (mutated) fixtures against the server command given after `--`
    #[arg(long)]
    server: bool,
    #[command(flatten)]
    live: ServerArgs,
}

/// A scratch directory removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn run(args: Args) -> u8 {
    if args.server == args.live.command.is_empty() {
        eprintln!("error: --server and a server command after `--` go together\n  help: `cargo mcp-contract selftest --server -- CMD`, or neither");
        return output::ERROR;
    }
    let surface = match lockfile::read(&args.lockfile) {
        Ok(s) => s,
        Err(e) => return output::input_error(&e),
    };
    let record_path = migrations::path_for(&args.lockfile);
    let record_text = std::fs::read_to_string(&record_path).unwrap_or_default();
    let record = match migrations::read(&record_path) {
        Ok((r, _)) => r,
        Err(e) => return output::input_error(&e),
    };
    let contracts = args
        .lockfile
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let found = match fixtures::read_dir_if_present(&contracts.join("fixtures")) {
        Ok(f) => f,
        Err(e) => return output::input_error(&e),
    };
    let plan = selftest::plan(&surface, &record, &record_text, &found, "fixtures");

    let scratch =
        Scratch(std::env::temp_dir().join(format!("mcp-contract-selftest-{}", std::process::id())));
    let copy = scratch.0.join("contracts");
    if let Err(e) = prepare(&args.lockfile, &record_path, contracts, &copy, &scratch.0) {
        eprintln!("error: cannot prepare the temporary copy in {}: {e}\n  help: check that the temporary directory is writable", scratch.0.display());
        return output::ERROR;
    }

    // A gate that fails the unmodified contract proves nothing by failing
    // the mutations: stop.
    let unmutated_passes = match gate(&scratch.0, &args) {
        Gate::Passed => true,
        Gate::Failed(by) | Gate::Error(by) => {
            eprintln!("error: the unmodified contract does not pass the gate ({})\n  help: run `cargo mcp-contract check` (and `replay --server`) and fix what it reports first", by.join(", "));
            return output::ERROR;
        }
    };
    let mut rows = vec![];
    for p in plan {
        match p {
            Planned::NotApplicable { kind, tool, why } => rows.push(Row {
                kind,
                tool,
                detail: why,
                verdict: None,
            }),
            Planned::Mutation(m) => {
                let verdict = match apply(&copy, &m) {
                    Err(e) => Verdict::Error(format!("cannot write the mutation: {e}")),
                    Ok(()) => match gate(&scratch.0, &args) {
                        Gate::Passed => Verdict::Missed,
                        Gate::Failed(by) => Verdict::Caught(by),
                        Gate::Error(e) => Verdict::Error(e.join("; ")),
                    },
                };
                if let Err(e) = git(&scratch.0, &["checkout", "-q", "--", "."]) {
                    eprintln!("error: cannot restore the temporary copy: {e}");
                    return output::ERROR;
                }
                rows.push(Row {
                    kind: m.kind,
                    tool: m.tool,
                    detail: m.detail,
                    verdict: Some(verdict),
                });
            }
        }
    }
    output::out!("{}", selftest::render(&rows, unmutated_passes));
    if selftest::all_caught(&rows, unmutated_passes) {
        output::OK
    } else {
        output::FAILED
    }
}

/// Copies the lockfile, the record and the fixtures (regular files only)
/// into `copy` and commits them as the baseline of a fresh repository.
fn prepare(
    lock: &Path,
    record: &Path,
    contracts: &Path,
    copy: &Path,
    root: &Path,
) -> std::io::Result<()> {
    std::fs::create_dir_all(copy)?;
    std::fs::copy(lock, copy.join("mcp-contract.lock"))?;
    if record.is_file() {
        std::fs::copy(record, copy.join("migrations.toml"))?;
    }
    copy_files(&contracts.join("fixtures"), &copy.join("fixtures"))?;
    git(root, &["init", "-q"])?;
    git(root, &["add", "-A"])?;
    git(
        root,
        &["commit", "-q", "--allow-empty", "-m", "selftest baseline"],
    )?;
    Ok(())
}

fn copy_files(from: &Path, to: &Path) -> std::io::Result<()> {
    let Ok(entries) = std::fs::read_dir(from) else {
        return Ok(());
    };
    std::fs::create_dir_all(to)?;
    for e in entries {
        let e = e?;
        let kind = e.file_type()?;
        if kind.is_dir() {
            copy_files(&e.path(), &to.join(e.file_name()))?;
        } else if kind.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name()))?;
        }
    }
    Ok(())
}

fn apply(copy: &Path, m: &selftest::Mutation) -> std::io::Result<()> {
    if let Some(text) = &m.lockfile {
        std::fs::write(copy.join("mcp-contract.lock"), text)?;
    }
    if let Some(text) = &m.record {
        std::fs::write(copy.join("migrations.toml"), text)?;
    }
    if let Some((rel, text)) = &m.fixture {
        std::fs::write(copy.join(rel), text)?;
    }
    Ok(())
}

fn git(dir: &Path, args: &[&str]) -> std::io::Result<()> {
    let out = Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .args([
            "-c",
            "user.name=mcp-contract selftest",
            "-c",
            "user.email=selftest@mcp-contract.invalid",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .output()?;
    if out.status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        )))
    }
}

enum Gate {
    Passed,
    /// What caught it: rule ids, `fixture <file>`, `replay <file>`.
    Failed(Vec<String>),
    Error(Vec<String>),
}

/// The real gate on the copy: this binary's `check` (and `replay`).
fn gate(root: &Path, args: &Args) -> Gate {
    let me = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("cargo-mcp-contract"));
    let check = Command::new(&me)
        .current_dir(root)
        .args([
            "check",
            "--lockfile",
            "contracts/mcp-contract.lock",
            "--against",
            "HEAD",
            "--format",
            "json",
        ])
        .env_remove("CI")
        .output();
    let mut caught = vec![];
    match check {
        Err(e) => return Gate::Error(vec![format!("cannot run the check: {e}")]),
        Ok(out) => match out.status.code() {
            Some(0) => {}
            Some(1) => caught.extend(check_catches(&out)),
            _ => return Gate::Error(vec![first_error(&out)]),
        },
    }
    if args.server {
        // From the caller's directory: the server command may be relative.
        let mut replay = Command::new(&me);
        replay
            .args(["replay", "--server", "--fixtures"])
            .arg(root.join("contracts/fixtures"))
            .arg("--timeout")
            .arg(args.live.timeout.as_secs_f64().to_string())
            .arg("--")
            .args(&args.live.command);
        match replay.output() {
            Err(e) => return Gate::Error(vec![format!("cannot run replay: {e}")]),
            Ok(out) => match out.status.code() {
                Some(0) => {}
                Some(1) => {
                    let text = String::from_utf8_lossy(&out.stdout);
                    let fails: Vec<String> = text
                        .lines()
                        .filter_map(|l| l.strip_prefix("FAIL"))
                        .filter_map(|l| l.split_whitespace().nth(1))
                        .map(|f| f.trim_end_matches(':'))
                        .map(|f| format!("replay {}", short(f)))
                        .collect();
                    if fails.is_empty() {
                        caught.push("replay".into());
                    }
                    caught.extend(fails);
                }
                _ => return Gate::Error(vec![format!("replay: {}", first_error(&out))]),
            },
        }
    }
    if caught.is_empty() {
        Gate::Passed
    } else {
        caught.dedup();
        Gate::Failed(caught)
    }
}

/// Rule ids of the failing changes, and the failing fixtures.
fn check_catches(out: &Output) -> Vec<String> {
    let mut by = vec![];
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&out.stdout) {
        for check in v["checks"].as_array().into_iter().flatten() {
            for c in check["changes"].as_array().into_iter().flatten() {
                if c["fails"] == serde_json::Value::Bool(true) {
                    if let Some(rule) = c["rule"].as_str() {
                        if !by.iter().any(|b| b == rule) {
                            by.push(rule.to_string());
                        }
                    }
                }
            }
            // a removed deprecated path the usage gate refuses
            for r in check["usage"]["removals"].as_array().into_iter().flatten() {
                if r["fails"] == serde_json::Value::Bool(true) {
                    if let Some(rule) = r["finding"]["rule"].as_str() {
                        if !by.iter().any(|b| b == rule) {
                            by.push(rule.to_string());
                        }
                    }
                }
            }
            for p in check["problems"].as_array().into_iter().flatten() {
                if p["level"] == "error" {
                    by.push(format!(
                        "record {}",
                        p["kind"].as_str().unwrap_or("problem")
                    ));
                }
            }
        }
    }
    for line in String::from_utf8_lossy(&out.stderr).lines() {
        if let Some(rest) = line.strip_prefix("error[fixture]: ") {
            let file = rest.split(':').next().unwrap_or(rest);
            by.push(format!("fixture {}", short(file)));
        }
    }
    if by.is_empty() {
        by.push("check (exit 1)".into());
    }
    by
}

/// `contracts/fixtures/tool/name.json` -> `tool/name.json`.
fn short(path: &str) -> String {
    let parts: Vec<&str> = path.rsplitn(3, '/').collect();
    match parts.as_slice() {
        [name, tool, ..] => format!("{tool}/{name}"),
        _ => path.to_string(),
    }
}

fn first_error(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with("warning: "))
        .unwrap_or("exit 2")
        .to_string()
}
