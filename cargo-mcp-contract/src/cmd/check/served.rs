//! `check --served`: served == gated for a package whose build step writes
//! its lockfile. Builds the package's binaries with cargo, starts each with
//! `MCP_CONTRACT_PROBE` naming a file (stdin closed, no arguments), and
//! reads what the `Contracted` wrapper wrote there before serving
//! (`mcp_contract::rmcp::probe`): every locked tool as the binary really
//! publishes it, against what the build step derived. Why a probe of the
//! binary and not a test: the comparison needs the server's own code run
//! (rmcp's schemas are generated at run time), and starting the binary the
//! package ships needs nothing from the user; why this process and not a
//! live `verify`: the wrapper knows each tool's locked entry and answers
//! before any configuration a real session would need.
//!
//! A binary that ends without writing the probe, or runs past the timeout
//! (then it is killed), is named with what it did; when none of them
//! constructs the wrapper and the sources install it, served == gated could
//! not be checked (an error); when the sources never install it, the
//! package publishes its tools from their locked entries and there is
//! nothing to compare.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcp_contract::check::packages::PackageLockfile;
use mcp_contract::check::probe::{self, ServedRun, PROBE_ENV};

/// How long one binary may take to construct the wrapper.
const TIMEOUT: Duration = Duration::from_secs(60);
/// The most of a binary's stderr kept for the report.
const STDERR_TAIL: usize = 2000;

/// What `--served` found for package `p` (`lockfile` as the report names
/// it); `Err`: it could not be checked, with the reason and the fix.
pub(super) fn check(p: &PackageLockfile, lockfile: &str) -> Result<ServedRun, String> {
    let binaries = build(p)?;
    let mut run = ServedRun::default();
    let mut probed = vec![];
    for (i, bin) in binaries.iter().enumerate() {
        let file = std::env::temp_dir().join(format!(
            "mcp-contract-probe-{}-{i}.json",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&file);
        let (outcome, wrote) = start(bin, &p.dir, &file);
        run.binaries.push((shown_bin(bin), outcome));
        if wrote {
            let text = std::fs::read_to_string(&file);
            let _ = std::fs::remove_file(&file);
            let text =
                text.map_err(|e| format!("--served: cannot read {}: {e}", file.display()))?;
            probed.push(probe::parse(&text, &shown_bin(bin))?);
        }
    }
    let probed: Vec<_> = probed
        .into_iter()
        .filter(|pr| pr.package.as_deref().is_none_or(|name| name == p.name))
        .collect();
    if probed.is_empty() {
        if !installs_wrapper(&p.dir) {
            run.nothing_to_compare = Some(
                "its sources never install the Contracted wrapper: every tool is published from its locked entry".into(),
            );
            return Ok(run);
        }
        let what: Vec<String> = run
            .binaries
            .iter()
            .map(|(b, what)| format!("{b}: {what}"))
            .collect();
        return Err(format!(
            "served == gated not checked for `{}`: its sources install the Contracted wrapper, but none of its binaries constructed it under the probe ({})\n  help: `check --served` starts each binary of the package with no arguments, stdin closed and {PROBE_ENV} set; construct `Contracted::new(...)` before the server reads its configuration or waits for a connection, or run the check without --served for this package",
            p.name,
            if what.is_empty() { "it has no binary".to_string() } else { what.join("; ") }
        ));
    }
    let text = std::fs::read_to_string(&p.lockfile).unwrap_or_default();
    let mut unanswered = vec![];
    for pr in &probed {
        let (r, missing) = probe::findings(pr, lockfile, &text);
        run.compared += r.compared;
        run.findings.extend(r.findings);
        unanswered.extend(missing);
    }
    unanswered.sort();
    unanswered.dedup();
    if !unanswered.is_empty() {
        return Err(format!(
            "served == gated not checked for `{}`: the server's get_tool does not answer for {} (a hand-written list_tools without get_tool?)\n  help: answer get_tool for every tool the server lists (`#[tool_handler]` writes it), or run the check without --served for this package",
            p.name,
            unanswered
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(run)
}

/// Builds the package's binaries; their paths.
fn build(p: &PackageLockfile) -> Result<Vec<PathBuf>, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = p.dir.join("Cargo.toml");
    let out = Command::new(&cargo)
        .arg("build")
        .arg("--manifest-path")
        .arg(&manifest)
        .args([
            "-p",
            &p.name,
            "--bins",
            "--message-format",
            "json-render-diagnostics",
        ])
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("--served: cannot run `cargo build`: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "--served: `cargo build -p {} --bins` failed (its messages are above)\n  help: fix the build, or run the check without --served",
            p.name
        ));
    }
    let manifest = manifest.canonicalize().unwrap_or(manifest);
    let mut bins = vec![];
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let is_bin = msg["target"]["kind"]
            .as_array()
            .is_some_and(|k| k.iter().any(|k| k == "bin"));
        let ours = msg["manifest_path"]
            .as_str()
            .is_some_and(|m| Path::new(m).canonicalize().ok().as_deref() == Some(&manifest));
        if msg["reason"] == "compiler-artifact" && is_bin && ours {
            if let Some(exe) = msg["executable"].as_str() {
                bins.push(PathBuf::from(exe));
            }
        }
    }
    Ok(bins)
}

/// Starts `bin` under the probe; what it did, and whether it wrote `file`.
fn start(bin: &Path, dir: &Path, file: &Path) -> (String, bool) {
    let child = Command::new(bin)
        .current_dir(dir)
        .env(PROBE_ENV, file)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => return (format!("cannot start: {e}"), false),
    };
    let mut stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stderr.as_mut() {
            let _ = s.take(1 << 20).read_to_end(&mut buf);
        }
        buf
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() < TIMEOUT => {
                std::thread::sleep(Duration::from_millis(20))
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let tail = tail(&reader.join().unwrap_or_default());
    let wrote = file.exists();
    let outcome = match status {
        _ if wrote => "probed".to_string(),
        Some(s) => match s.code() {
            Some(c) => format!("exited with {c} without constructing the wrapper{tail}"),
            None => format!("ended by a signal without constructing the wrapper{tail}"),
        },
        None => format!(
            "still running after {} s without constructing the wrapper, stopped{tail}",
            TIMEOUT.as_secs()
        ),
    };
    (outcome, wrote)
}

/// The end of a binary's stderr, for the report (`""` when it wrote nothing).
fn tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let text = text.trim();
    if text.is_empty() {
        return String::new();
    }
    let mut start = text.len().saturating_sub(STDERR_TAIL);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    format!("; its stderr ends: {}", text[start..].replace('\n', " | "))
}

fn shown_bin(bin: &Path) -> String {
    bin.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| bin.display().to_string())
}

/// Source spellings of the rmcp wrapper (`compat_plan!()` alone serves
/// `#[mcp_contract::tool]` routes, which publish their locked entries).
const WRAPPER_MARKERS: &[&str] = &["Contracted", "with_contract(", "rmcp!("];

/// Do the package's sources install the rmcp wrapper?
fn installs_wrapper(dir: &Path) -> bool {
    fn walk(dir: &Path, depth: usize) -> bool {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return false;
        };
        entries.flatten().any(|e| {
            let path = e.path();
            if path.is_dir() {
                depth < 16 && walk(&path, depth + 1)
            } else {
                path.extension().is_some_and(|x| x == "rs")
                    && std::fs::read_to_string(&path)
                        .is_ok_and(|t| WRAPPER_MARKERS.iter().any(|m| t.contains(m)))
            }
        })
    }
    walk(&dir.join("src"), 0)
}
