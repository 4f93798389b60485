//! `replay` against a server that does not list a fixture's tool: the
//! failure names the listed tool the fixture's directory most likely means.

#![cfg(unix)]

use std::path::Path;
use std::process::Command;

#[test]
fn a_fixture_for_an_unlisted_tool_names_the_listed_one_it_likely_means() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = dir.path().join("fixtures");
    for (tool, name) in [("addd", "sum"), ("zzz", "other")] {
        std::fs::create_dir_all(fixtures.join(tool)).unwrap();
        std::fs::write(
            fixtures.join(tool).join(format!("{name}.json")),
            r#"{"safe": true, "arguments": {"a": 1}, "expect": {"outcome": "success"}}"#,
        )
        .unwrap();
    }
    let stub = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp-contract-driver/tests/stubs/stub-server.sh");
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-mcp-contract"))
        .args(["replay", "--server", "--fixtures"])
        .arg(&fixtures)
        .args(["--", "sh"])
        .arg(&stub)
        .arg("ok")
        .env_remove("CI")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    // The stub lists `add`, `boom` and `fail`.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines,
        [
            format!("FAIL  addd {}: `tool`: expected `addd` to be published, got no such tool in tools/list (did you mean `add`? the fixture's directory name is the tool name)", fixtures.join("addd/sum.json").display()),
            format!("FAIL  zzz {}: `tool`: expected `zzz` to be published, got no such tool in tools/list", fixtures.join("zzz/other.json").display()),
            "replay: 0 passed, 2 failed, 0 skipped".to_string(),
        ],
        "{stdout}"
    );
}
