//! `check --server` (a live capture as the candidate, the path for servers
//! in any language): each finding points at its tool's entry in the
//! lockfile, exactly where the same finding points when the lockfile is the
//! candidate, never at line 1.

#![cfg(unix)]

mod check_support;

use check_support::*;

fn stub() -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp-contract-driver/tests/stubs/stub-server.sh")
        .display()
        .to_string()
}

/// The `-->` lines of a human report.
fn pointers(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.trim_start().starts_with("--> "))
        .map(str::trim)
        .collect()
}

#[test]
fn findings_of_a_live_capture_point_at_the_tools_entry() {
    let r = TestRepo::new();
    let script = stub();
    let server = ["--", "sh", script.as_str(), "ok"];
    let mut args = vec!["snapshot", "--server"];
    args.extend(server);
    let run = r.run(&args);
    assert_eq!(run.code, 0, "{run:?}");
    let current = r.read(LOCK);
    // The release before: `add` also took `b`, `boom` said more.
    let mut before = mcp_contract::lockfile::parse(current.as_bytes(), LOCK).expect("lockfile");
    let add = before.tools.get_mut("add").expect("the stub publishes add");
    add.input_schema["properties"]["b"] = serde_json::json!({"type": "string"});
    before.tools.get_mut("boom").expect("and boom").description = Some("breaks things".into());
    let release = mcp_contract::lockfile::release(&current, LOCK)
        .expect("the release")
        .expect("snapshot records it");
    r.write(
        LOCK,
        &mcp_contract::lockfile::render_captured(&before, &release),
    );
    r.commit("add takes a and b");
    // This change: the server no longer takes `b`, and the lockfile is its
    // snapshot (line 23: `add`'s "properties"; line 33: `boom`'s "description";
    // lines 11-14 are the release it was captured from, `serverInfo`).
    r.write(LOCK, &current);
    let lines: Vec<&str> = current.lines().collect();
    assert_eq!(
        (lines[15], lines[22], lines[31], lines[32]),
        (
            "    \"add\": {",
            "        \"properties\": {",
            "    \"boom\": {",
            "      \"description\": \"breaks\","
        ),
        "{current}"
    );
    let expected = [
        "--> contracts/mcp-contract.lock:23 (add /inputSchema/properties/b)",
        "--> contracts/mcp-contract.lock:33 (boom /description)",
        // the version rule, at the release the lockfile records
        "--> contracts/mcp-contract.lock:11",
    ];
    let mut args = vec!["check", "--against", "HEAD", "--server"];
    args.extend(server);
    let live = r.run(&args);
    assert_eq!(live.code, 1, "{live:?}");
    assert!(
        live.stdout
            .contains("the surface the running server publishes"),
        "{live:?}"
    );
    assert_eq!(pointers(&live.stdout), expected, "{live:?}");
    // Where the same findings point with the lockfile as the candidate.
    let written = r.check(&["--against", "HEAD"]);
    assert_eq!(pointers(&written.stdout), expected, "{written:?}");
    // CI annotations land on those lines too.
    let mut args = vec![
        "check",
        "--against",
        "HEAD",
        "--format",
        "github",
        "--server",
    ];
    args.extend(server);
    let github = r.run(&args);
    assert_eq!(github.code, 1, "{github:?}");
    for line in ["line=23", "line=33"] {
        assert!(
            github
                .stdout
                .contains(&format!("file=contracts/mcp-contract.lock,{line}")),
            "{line}: {github:?}"
        );
    }
    assert!(!github.stdout.contains("line=1,"), "{github:?}");
}
