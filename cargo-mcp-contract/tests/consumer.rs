//! The consumer's side end to end against scripted servers
//! (`mcp-contract-driver/tests/stubs/surface-server.sh`, which publishes
//! what a directory holds): `lock --config` writes one lockfile for every
//! server a `.mcp.json` names; `check --config` finds a server's breaking
//! change with its witness, reports a server whose digests match as pinned,
//! a server that cannot start as that server's error (stderr tail shown,
//! secrets scrubbed) while the others are still checked, takes
//! acknowledgements from the consumer's record, and warns about servers the
//! lock or the record name but the configuration does not start.

#![cfg(unix)]

#[path = "../../tests/support/scratch.rs"]
mod scratch;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_cargo-mcp-contract");
const SECRET_VAR: &str = "MCP_CONTRACT_TEST_CONSUMER_TOKEN";

fn stub() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp-contract-driver/tests/stubs/surface-server.sh")
}

/// A server's directory for the stub: its version and tools.
fn publish(dir: &Path, server: &str, version: &str, tools: Value) {
    let d = dir.join(server);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("version"), version).unwrap();
    std::fs::write(d.join("tools"), tools.to_string()).unwrap();
    let _ = std::fs::remove_file(d.join("stderr"));
}

/// Makes `server` exit at start, printing `text` to stderr.
fn crash(dir: &Path, server: &str, text: &str) {
    std::fs::write(dir.join(server).join("stderr"), text).unwrap();
}

fn config(dir: &Path, servers: &[&str], extra: Value) -> PathBuf {
    let mut m = serde_json::Map::new();
    for s in servers {
        m.insert(
            s.to_string(),
            json!({"command": "sh", "args": [stub().to_str().unwrap(), dir.join(s).to_str().unwrap()],
                   "env": {"TOKEN": format!("${{{SECRET_VAR}}}")}}),
        );
    }
    if let Value::Object(x) = extra {
        m.extend(x);
    }
    let path = dir.join(".mcp.json");
    std::fs::write(&path, json!({"mcpServers": m}).to_string()).unwrap();
    path
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .env_remove("CI")
        .env(SECRET_VAR, "s3cr3t-consumer-value")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn search(extra: Value) -> Value {
    let mut t = json!({"name": "search", "description": "Search the docs",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}}});
    if let (Value::Object(t), Value::Object(x)) = (&mut t, extra) {
        t.extend(x);
    }
    t
}

fn fetch() -> Value {
    json!({"name": "fetch", "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}}})
}

fn echo() -> Value {
    json!({"name": "echo", "inputSchema": {"type": "object", "properties": {"m": {"type": "string"}}}})
}

/// Two servers published and locked.
fn locked(name: &str) -> scratch::Scratch {
    let dir = scratch::scratch(&format!("consumer-{name}"));
    publish(&dir, "docs", "1.0.0", json!([search(json!({})), fetch()]));
    publish(&dir, "echo", "0.3.0", json!([echo()]));
    config(&dir, &["docs", "echo"], json!({}));
    let out = run(&dir, &["lock", "--config", ".mcp.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("wrote mcp-contract.servers.lock (2 servers)"));
    dir
}

fn check_json(dir: &Path, extra: &[&str]) -> (Option<i32>, Value, String) {
    let mut args = vec!["check", "--config", ".mcp.json", "--format", "json"];
    args.extend(extra);
    let out = run(dir, &args);
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    (out.status.code(), v, text(&out.stderr))
}

fn server<'v>(report: &'v Value, name: &str) -> &'v Value {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["candidate"]["server"] == name)
        .unwrap_or_else(|| panic!("no check of `{name}` in {report:#}"))
}

#[test]
fn unchanged_servers_are_pinned_and_the_lock_records_versions_and_digests() {
    let dir = locked("pinned");
    let lock: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("mcp-contract.servers.lock")).unwrap(),
    )
    .unwrap();
    assert_eq!(lock["servers"]["docs"]["serverInfo"]["version"], "1.0.0");
    assert!(lock["servers"]["docs"]["tools"]["fetch"]["digest"]
        .as_str()
        .unwrap()
        .starts_with("sha256:"));
    let (code, report, _) = check_json(&dir, &[]);
    assert_eq!(code, Some(0), "{report:#}");
    for name in ["docs", "echo"] {
        let s = server(&report, name);
        assert_eq!(s["candidate"]["state"], "pinned");
        assert_eq!(s["changes"], json!([]));
        assert_eq!(s["status"], "passed");
    }
    // a new release with the same surface is still pinned, and says so
    publish(&dir, "echo", "0.3.1", json!([echo()]));
    let out = run(&dir, &["check", "--config", ".mcp.json"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("server `echo` of .mcp.json: pinned: every digest matches its lock (version 0.3.0 -> 0.3.1, same surface), unchanged"),
        "{stdout}"
    );
}

#[test]
fn a_breaking_change_is_found_with_its_witness_while_a_crashed_server_is_its_own_error() {
    let dir = locked("breaking");
    publish(
        &dir,
        "docs",
        "1.1.0",
        json!([search(
            json!({"inputSchema": {"type": "object", "properties": {"q": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["q"]}})
        )]),
    );
    crash(
        &dir,
        "echo",
        "echo: cannot log in with s3cr3t-consumer-value\n",
    );
    let out = run(&dir, &["check", "--config", ".mcp.json"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    // an error (exit 2) outranks the breaking change (1): as for `check`
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stdout.contains("error[tool.removed]: tool `fetch` was removed"),
        "{stdout}"
    );
    assert!(
        stdout.contains("= witness: tools/call {\"arguments\":{},\"name\":\"fetch\"} worked, now fails: unknown tool \"fetch\""),
        "{stdout}"
    );
    assert!(
        stdout.contains("= witness: {} was accepted, now rejected: \"q\" is a required property"),
        "{stdout}"
    );
    assert!(
        stdout.contains("    [[servers.docs.acknowledge]]\n    tool = \"fetch\""),
        "{stdout}"
    );
    assert!(
        stderr.contains("error: server `echo` of .mcp.json could not be captured"),
        "{stderr}"
    );
    assert!(
        stderr.contains("| echo: cannot log in with ${MCP_CONTRACT_TEST_CONSUMER_TOKEN}"),
        "{stderr}"
    );
    for s in [&stdout, &stderr] {
        assert!(!s.contains("s3cr3t-consumer-value"), "{s}");
    }
    let (code, report, _) = check_json(&dir, &[]);
    assert_eq!(code, Some(2));
    let docs = server(&report, "docs");
    assert_eq!(docs["candidate"]["state"], "compared");
    assert_eq!(
        (
            docs["candidate"]["version"].as_str(),
            docs["baseline"]["version"].as_str()
        ),
        (Some("1.1.0"), Some("1.0.0"))
    );
    assert_eq!(docs["status"], "failed");
    let rules: Vec<&str> = docs["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["tool.removed", "input.required-added"]);
    // the finding points at the locked tool's line in the consumer lockfile
    let lock = std::fs::read_to_string(dir.join("mcp-contract.servers.lock")).unwrap();
    let line = docs["changes"][1]["line"].as_u64().unwrap() as usize;
    // (the locked schema has no `required`: its `inputSchema` line)
    let lines: Vec<&str> = lock.lines().collect();
    assert_eq!(lines[line - 1].trim(), "\"inputSchema\": {");
    let docs_at = lines.iter().position(|l| *l == "    \"docs\": {").unwrap();
    let echo_at = lines.iter().position(|l| *l == "    \"echo\": {").unwrap();
    assert!(docs_at < line && line < echo_at);
    assert!(lines[..line]
        .iter()
        .rev()
        .find(|l| l.starts_with("        \""))
        .unwrap()
        .contains("\"search\""));
    let echo = server(&report, "echo");
    assert_eq!(
        (echo["candidate"]["state"].as_str(), echo["status"].as_str()),
        (Some("not-captured"), Some("error"))
    );
    assert!(echo["errors"][0]["text"]
        .as_str()
        .unwrap()
        .contains("server stderr (last lines)"));
    // every format says the same
    let github = text(
        &run(
            &dir,
            &["check", "--config", ".mcp.json", "--format", "github"],
        )
        .stdout,
    );
    assert!(github.contains(&format!("::error file=mcp-contract.servers.lock,line={line},title=input.required-added (search)::")), "{github}");
    assert!(
        github.contains("::error file=.mcp.json,title=not checked::server `echo`"),
        "{github}"
    );
    let sarif = text(
        &run(
            &dir,
            &["check", "--config", ".mcp.json", "--format", "sarif"],
        )
        .stdout,
    );
    assert!(
        sarif.contains("\"ruleId\": \"tool.removed\"") && !sarif.contains("s3cr3t"),
        "{sarif}"
    );
}

#[test]
fn the_consumers_record_acknowledges_a_servers_change() {
    let dir = locked("acknowledged");
    publish(&dir, "docs", "2.0.0", json!([search(json!({}))]));
    let record = "version = 1\n\n[[servers.docs.acknowledge]]\ntool = \"fetch\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"fetch\"\nreason = \"our agents no longer fetch\"\nowner = \"@agents\"\ntransition = { kind = \"removal\" }\n\n[[servers.echo.acknowledge]]\ntool = \"echo\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"echo\"\nreason = \"not yet\"\nowner = \"@agents\"\ntransition = { kind = \"removal\" }\n";
    std::fs::write(dir.join("mcp-contract.servers.toml"), record).unwrap();
    let out = run(&dir, &["check", "--config", ".mcp.json"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("acknowledged[tool.removed]: tool `fetch` was removed"),
        "{stdout}"
    );
    assert!(stdout.contains("= by mcp-contract.servers.toml:3: removal; owner @agents; reason: our agents no longer fetch"), "{stdout}");
    // an entry for a pinned server matches nothing: a stale entry, as in a producer's record
    assert!(stdout.contains("warning: mcp-contract.servers.toml:12:1: this entry (tool.removed on `echo`) matches no change in the diff"), "{stdout}");
    let out = run(&dir, &["check", "--config", ".mcp.json", "--strict"]);
    assert_eq!(out.status.code(), Some(1));
    // a malformed entry is reported at its line, exit 2
    std::fs::write(
        dir.join("mcp-contract.servers.toml"),
        record.replace(
            "owner = \"@agents\"\ntransition = { kind = \"removal\" }\n\n[[servers.echo",
            "owner = \"\"\ntransition = { kind = \"removal\" }\n\n[[servers.echo",
        ),
    )
    .unwrap();
    let out = run(&dir, &["check", "--config", ".mcp.json"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("mcp-contract.servers.toml:9:"), "{stdout}");
    std::fs::write(
        dir.join("mcp-contract.servers.toml"),
        "[[acknowledge]]\ntool = \"x\"\n",
    )
    .unwrap();
    let out = run(&dir, &["check", "--config", ".mcp.json"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("error: mcp-contract.servers.toml:1:3: unknown key `acknowledge` in the top level of the record"), "{stderr}");
}

#[test]
fn new_disabled_and_dropped_servers_are_said_never_skipped() {
    let dir = locked("membership");
    publish(&dir, "extra", "0.1.0", json!([echo()]));
    // `echo` is gone from the configuration, `extra` is new, `off` is disabled
    config(
        &dir,
        &["docs", "extra"],
        json!({"off": {"command": "false", "disabled": true}}),
    );
    let (code, report, _) = check_json(&dir, &[]);
    assert_eq!(code, Some(0), "{report:#}");
    let state = |n: &str| {
        server(&report, n)["candidate"]["state"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        [state("docs"), state("echo"), state("extra"), state("off")],
        ["pinned", "not-configured", "new", "disabled"]
    );
    let extra = server(&report, "extra");
    assert_eq!(extra["new_surface"], true);
    assert_eq!(extra["changes"][0]["severity"], "additive");
    let warning = |n: &str| {
        server(&report, n)["problems"][0]["message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(warning("extra").contains("server `extra` is not in mcp-contract.servers.lock yet"));
    assert!(warning("echo").contains("server `echo` is not named by .mcp.json"));
    // disabled and never locked: its state says it, nothing to warn about
    assert_eq!(server(&report, "off")["problems"], json!([]));
    let (code, _, _) = check_json(&dir, &["--strict"]);
    assert_eq!(code, Some(1));
    // `lock` locks the new server and drops the one no longer configured
    let out = run(&dir, &["lock", "--config", ".mcp.json"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("dropped `echo`: the configuration no longer names it"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skipped `off`: disabled in the configuration"),
        "{stderr}"
    );
    let (code, report, _) = check_json(&dir, &["--strict"]);
    assert_eq!(code, Some(0), "{report:#}");
}

#[test]
fn lock_writes_nothing_when_a_server_cannot_be_captured_and_locks_only_the_servers_named() {
    let dir = locked("lock");
    let before = std::fs::read(dir.join("mcp-contract.servers.lock")).unwrap();
    publish(&dir, "docs", "1.1.0", json!([search(json!({}))]));
    crash(&dir, "echo", "echo: no database\n");
    let out = run(&dir, &["lock", "--config", ".mcp.json"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: server `echo` of .mcp.json:")
            && stderr.contains("| echo: no database"),
        "{stderr}"
    );
    assert!(
        stderr
            .contains("1 server(s) could not be captured: mcp-contract.servers.lock is unchanged"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(dir.join("mcp-contract.servers.lock")).unwrap(),
        before
    );
    // re-locking one server accepts its change and leaves the other as it was
    let out = run(&dir, &["lock", "--config", ".mcp.json", "docs"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    publish(&dir, "echo", "0.3.0", json!([echo()]));
    let (code, report, _) = check_json(&dir, &[]);
    assert_eq!(code, Some(0), "{report:#}");
    assert_eq!(server(&report, "docs")["candidate"]["state"], "pinned");
    let out = run(&dir, &["lock", "--config", ".mcp.json", "dcos"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("did you mean `docs`?"));
}

#[test]
fn usage_errors_name_the_fix() {
    let dir = locked("usage");
    let out = run(&dir, &["check", "--config", ".mcp.json", "--workspace"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--workspace does not go with --config without --name"));
    let out = run(&dir, &["snapshot", "--config", ".mcp.json", "-o", "x.lock"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("servers there: docs, echo"),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_file(dir.join("mcp-contract.servers.lock")).unwrap();
    let out = run(&dir, &["check", "--config", ".mcp.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr)
        .contains("help: lock the servers first: `cargo mcp-contract lock --config .mcp.json`"));
}

/// The record docs/consumers.md shows is read without a problem, as the
/// entry of its server.
#[test]
fn the_record_in_docs_consumers_md_reads_as_written() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/consumers.md"))
            .unwrap();
    let fence = "<!-- checked-by: cargo-mcp-contract/tests/consumer.rs -->\n```toml\n";
    let start = page
        .find(fence)
        .expect("the page marks its record for this test")
        + fence.len();
    let toml = &page[start..start + page[start..].find("```").unwrap()];
    let (groups, whole) = mcp_contract::migrations::parse_grouped(
        toml,
        "docs/consumers.md",
        mcp_contract::consumer::RECORD_GROUP,
    );
    assert!(whole.is_empty(), "{whole:?}");
    let (record, problems) = &groups["everything"];
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(record.entries.len(), 1);
    assert_eq!(record.entries[0].selector.tool(), "add");
}
