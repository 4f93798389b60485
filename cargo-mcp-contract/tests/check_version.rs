//! The version rule in `check`: the bump the change requires (breaking →
//! major, additive → minor, else patch; before 1.0 one place down), the
//! step each declared version makes, and `--require-version-bump`, which
//! fails when the step does not carry the bump. Fixtures for each bump level
//! and for pre-1.0, on a cargo package (its `Cargo.toml`, inherited from the
//! workspace or not, and a package whose build step writes the lockfile) and
//! on a capture (the `serverInfo.version` a live server gives, and the one
//! `snapshot` records in the lockfile); the MCP registry's `server.json`
//! rules; and a consumer's server whose version does not carry its change.

#![cfg(unix)]

mod check_support;

use std::path::{Path, PathBuf};

use check_support::*;
use serde_json::{json, Value};

/// What the candidate changes, relative to the baseline's `search {q, limit}`.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// `limit` removed: breaking.
    Breaking,
    /// a tool `fetch` added: additive.
    Additive,
    /// the description of `search` changed: behavioral.
    Behavioral,
    None,
}

fn tools(change: Change) -> Value {
    let mut search = json!({"name": "search", "description": "Search documents.",
        "inputSchema": {"type": "object", "properties": {
            "q": {"type": "string"}, "limit": {"type": "integer"}}}});
    let mut out = vec![];
    match change {
        Change::Breaking => {
            search["inputSchema"]["properties"]
                .as_object_mut()
                .unwrap()
                .remove("limit");
        }
        Change::Additive => out.push(json!({"name": "fetch", "inputSchema": {"type": "object"}})),
        Change::Behavioral => search["description"] = json!("Search documents and pages."),
        Change::None => {}
    }
    out.push(search);
    Value::Array(out)
}

fn manifest(version: &str) -> String {
    format!("[package]\nname = \"srv\"\nversion = \"{version}\"\nedition = \"2021\"\n")
}

/// A cargo package `srv` (no build step: its lockfile is judged as
/// written) at `from` with the baseline surface committed, then `to` and
/// the candidate surface in the working tree.
fn package(from: &str, to: &str, change: Change) -> TestRepo {
    let r = TestRepo::new();
    r.write("Cargo.toml", &manifest(from));
    r.write("src/lib.rs", "");
    r.lock(tools(Change::None));
    r.commit("srv");
    r.write("Cargo.toml", &manifest(to));
    r.lock(tools(change));
    r
}

fn json_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {run:?}"))
}

/// The version part of the only check of a JSON report.
fn version(report: &Value) -> &Value {
    &report["checks"][0]["version"]
}

fn rules(v: &Value) -> Vec<(String, String)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["level"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// (from, to, change, required, step, carries, smallest carrying version)
type Case = (
    &'static str,
    &'static str,
    Change,
    Option<&'static str>,
    &'static str,
    Option<bool>,
    Option<&'static str>,
);

const LEVELS: &[Case] = &[
    (
        "1.4.2",
        "2.0.0",
        Change::Breaking,
        Some("major"),
        "major",
        Some(true),
        Some("2.0.0"),
    ),
    (
        "1.4.2",
        "1.5.0",
        Change::Breaking,
        Some("major"),
        "minor",
        Some(false),
        Some("2.0.0"),
    ),
    (
        "1.4.2",
        "1.5.0",
        Change::Additive,
        Some("minor"),
        "minor",
        Some(true),
        Some("1.5.0"),
    ),
    (
        "1.4.2",
        "1.4.3",
        Change::Additive,
        Some("minor"),
        "patch",
        Some(false),
        Some("1.5.0"),
    ),
    (
        "1.4.2",
        "1.4.3",
        Change::Behavioral,
        Some("patch"),
        "patch",
        Some(true),
        Some("1.4.3"),
    ),
    (
        "1.4.2",
        "1.4.2",
        Change::Behavioral,
        Some("patch"),
        "unchanged",
        Some(false),
        Some("1.4.3"),
    ),
    (
        "1.4.2",
        "1.4.2",
        Change::None,
        None,
        "unchanged",
        None,
        None,
    ),
    // before 1.0: 0.y.z bumps y for a break, z for anything else
    (
        "0.3.1",
        "0.4.0",
        Change::Breaking,
        Some("major"),
        "major",
        Some(true),
        Some("0.4.0"),
    ),
    (
        "0.3.1",
        "0.3.2",
        Change::Breaking,
        Some("major"),
        "minor",
        Some(false),
        Some("0.4.0"),
    ),
    (
        "0.3.1",
        "0.3.2",
        Change::Additive,
        Some("minor"),
        "minor",
        Some(true),
        Some("0.3.2"),
    ),
    (
        "0.3.1",
        "0.3.1",
        Change::Additive,
        Some("minor"),
        "unchanged",
        Some(false),
        Some("0.3.2"),
    ),
    (
        "0.0.1",
        "0.0.2",
        Change::Breaking,
        Some("major"),
        "major",
        Some(true),
        Some("0.0.2"),
    ),
    // from a pre-release, any higher version carries any change
    (
        "2.0.0-rc.1",
        "2.0.0",
        Change::Breaking,
        Some("major"),
        "from-pre-release",
        Some(true),
        Some("2.0.0"),
    ),
];

/// The exit status `check --require-version-bump` must end with: the
/// gate's own (a breaking change is not acknowledged here) or the version
/// rule's.
fn expected_code(change: Change, carries: Option<bool>) -> i32 {
    match (change, carries) {
        (Change::Breaking, _) | (_, Some(false)) => 1,
        _ => 0,
    }
}

fn assert_case(v: &Value, case: &Case, source: &str, what: &str) {
    let (from, to, change, required, step, carries, next) = *case;
    let d = &v["declared"][0];
    let got = (
        v["required"].as_str(),
        d["source"].as_str(),
        d["baseline"].as_str(),
        d["candidate"].as_str(),
        d["step"].as_str(),
        d["carries"].as_bool(),
        d["next"].as_str(),
    );
    assert_eq!(
        got,
        (
            required,
            Some(source),
            Some(from),
            Some(to),
            Some(step),
            carries,
            next
        ),
        "{what} {from} -> {to} ({change:?}): {v:#}"
    );
    let want_rule = match carries {
        Some(true) => Some(("version.bump-carried", "note")),
        Some(false) => Some(("version.bump-missing", "error")),
        None => None,
    };
    let got: Vec<(String, String)> = rules(v);
    match want_rule {
        Some((rule, level)) => assert_eq!(
            got,
            [(rule.to_string(), level.to_string())],
            "{what} {from} -> {to}: {v:#}"
        ),
        None => assert!(got.is_empty(), "{what} {from} -> {to}: {v:#}"),
    }
}

#[test]
fn each_bump_level_on_a_cargo_package() {
    for case in LEVELS {
        let (from, to, change, _, _, carries, _) = *case;
        let r = package(from, to, change);
        let run = r.check(&[
            "-p",
            "srv",
            "--against",
            "HEAD",
            "--require-version-bump",
            "--format",
            "json",
        ]);
        assert_eq!(
            run.code,
            expected_code(change, carries),
            "{from} -> {to} ({change:?}): {run:?}"
        );
        let report = json_of(&run);
        assert_case(version(&report), case, "Cargo.toml", "package");
        assert_eq!(version(&report)["declared"][0]["file"], "Cargo.toml");
    }
}

#[test]
fn without_the_flag_a_missing_bump_is_a_warning_with_the_version_to_declare() {
    let r = package("1.4.2", "1.4.3", Change::Additive);
    let run = r.check(&["-p", "srv", "--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.contains("warning[version.bump-missing]: the changes require a minor bump (1 additive or deprecating change, first tool.added on `fetch`); Cargo.toml of package `srv` goes 1.4.2 -> 1.4.3 (a patch bump)"),
        "{run:?}"
    );
    assert!(run.stdout.contains("  --> Cargo.toml:3\n"), "{run:?}");
    assert!(
        run.stdout
            .contains("help: set `version = \"1.5.0\"` (or a later version) in Cargo.toml"),
        "{run:?}"
    );
    let run = r.check(&["-p", "srv", "--against", "HEAD", "--require-version-bump"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[version.bump-missing]"),
        "{run:?}"
    );
    // every format says the same
    for (format, needle) in [
        (
            "github",
            "::error file=Cargo.toml,line=3,title=version.bump-missing",
        ),
        ("sarif", "\"ruleId\": \"version.bump-missing\""),
        ("junit", "type=\"version.bump-missing\""),
        ("markdown", "version.bump-missing"),
    ] {
        let out = r.check(&[
            "-p",
            "srv",
            "--against",
            "HEAD",
            "--require-version-bump",
            "--format",
            format,
        ]);
        assert_eq!(out.code, 1, "{format}: {out:?}");
        assert!(out.stdout.contains(needle), "{format}: {out:?}");
    }
    // pre-1.0 says how cargo reads it
    let r = package("0.3.1", "0.3.2", Change::Breaking);
    let run = r.check(&["-p", "srv", "--against", "HEAD"]);
    assert!(
        run.stdout.contains(
            "(before 1.0 the places shift: a breaking change bumps y of 0.y.z, anything else z)"
        ),
        "{run:?}"
    );
}

#[test]
fn a_lowered_version_and_an_inherited_one() {
    let r = package("1.4.2", "1.4.1", Change::Additive);
    let run = r.check(&[
        "-p",
        "srv",
        "--against",
        "HEAD",
        "--require-version-bump",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    let report = json_of(&run);
    let v = version(&report);
    assert_eq!(v["declared"][0]["step"], "lowered", "{v:#}");
    assert_eq!(
        rules(v),
        [("version.lowered".to_string(), "error".to_string())]
    );

    // `version.workspace = true`: the workspace root's version, where it is written
    let r = TestRepo::new();
    let root = |v: &str| {
        format!("[workspace]\nmembers = [\"srv\"]\nresolver = \"2\"\n\n[workspace.package]\nversion = \"{v}\"\n")
    };
    r.write("Cargo.toml", &root("1.4.2"));
    r.write(
        "srv/Cargo.toml",
        "[package]\nname = \"srv\"\nversion.workspace = true\nedition = \"2021\"\n",
    );
    r.write("srv/src/lib.rs", "");
    let lock = "srv/contracts/mcp-contract.lock";
    let write_lock = |change| {
        let s = mcp_contract::load::surface_from_value(&tools(change), "t").unwrap();
        r.write(lock, &mcp_contract::lockfile::render(&s));
    };
    write_lock(Change::None);
    r.commit("workspace");
    r.write("Cargo.toml", &root("2.0.0"));
    write_lock(Change::Breaking);
    let run = r.check(&["--workspace", "--against", "HEAD", "--format", "json"]);
    let report = json_of(&run);
    let d = &version(&report)["declared"][0];
    assert_eq!(
        (
            d["file"].as_str(),
            d["baseline"].as_str(),
            d["candidate"].as_str(),
            d["carries"].as_bool()
        ),
        (Some("Cargo.toml"), Some("1.4.2"), Some("2.0.0"), Some(true)),
        "{run:?}"
    );
    assert_eq!(
        report["checks"][0]["version"]["findings"][0]["line"], 6,
        "{run:?}"
    );
}

#[test]
fn a_package_whose_build_step_writes_the_lockfile() {
    let r = tiny_package("Say it back.");
    r.write("src/lib.rs", &tiny_lib("Say it back, louder.", "text"));
    mcp_contract_build::Builder::new()
        .manifest_dir(r.path())
        .package("tiny")
        .mode(mcp_contract_build::Mode::Update)
        .quiet()
        .generate()
        .unwrap();
    let run = r.check(&[
        "-p",
        "tiny",
        "--against",
        "HEAD",
        "--require-version-bump",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    let report = json_of(&run);
    assert_eq!(report["checks"][0]["candidate"]["kind"], "build-step");
    let v = version(&report);
    assert_eq!(v["required"], "patch", "{v:#}");
    assert_eq!(v["declared"][0]["next"], "0.1.1", "{v:#}");
    r.write("Cargo.toml", &TINY_MANIFEST.replace("0.1.0", "0.1.1"));
    let run = r.check(&["-p", "tiny", "--against", "HEAD", "--require-version-bump"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("note[version.bump-carried]"), "{run:?}");
}

fn stub() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp-contract-driver/tests/stubs/surface-server.sh")
}

/// The stub publishes `version` and `change`'s tools from `dir`.
fn publish(dir: &Path, version: &str, change: Change) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("version"), version).unwrap();
    std::fs::write(dir.join("tools"), tools(change).to_string()).unwrap();
}

/// A repository whose lockfile `snapshot` captured from the stub at `from`
/// (committed); the stub now publishes `to` and `change`.
fn captured(from: &str, to: &str, change: Change) -> (TestRepo, PathBuf) {
    let r = TestRepo::new();
    let dir = r.path().join("server");
    publish(&dir, from, Change::None);
    let stub = stub();
    let run = r.run(&[
        "snapshot",
        "--server",
        "--",
        "sh",
        stub.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        r.read(LOCK)
            .contains(&format!("  \"serverInfo\": {{\n    \"name\": \"surface\",\n    \"version\": \"{from}\"\n  }},\n")),
        "{}",
        r.read(LOCK)
    );
    r.commit("captured");
    publish(&dir, to, change);
    (r, dir)
}

#[test]
fn each_bump_level_on_a_capture() {
    let stub = stub();
    for case in LEVELS {
        let (from, to, change, _, _, carries, _) = *case;
        let (r, dir) = captured(from, to, change);
        let live = [
            "check",
            "--server",
            "--against",
            "HEAD",
            "--require-version-bump",
            "--format",
            "json",
            "--",
            "sh",
            stub.to_str().unwrap(),
            dir.to_str().unwrap(),
        ];
        let run = r.run(&live);
        assert_eq!(
            run.code,
            expected_code(change, carries),
            "live {from} -> {to} ({change:?}): {run:?}"
        );
        assert_case(version(&json_of(&run)), case, "serverInfo", "live");
        // the same release captured again and judged as written
        let run = r.run(&[
            "snapshot",
            "--server",
            "--",
            "sh",
            stub.to_str().unwrap(),
            dir.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{run:?}");
        let run = r.check(&[
            "--lockfile",
            LOCK,
            "--against",
            "HEAD",
            "--require-version-bump",
            "--format",
            "json",
        ]);
        assert_eq!(
            run.code,
            expected_code(change, carries),
            "lockfile {from} -> {to} ({change:?}): {run:?}"
        );
        let report = json_of(&run);
        assert_case(version(&report), case, "serverInfo", "lockfile");
        assert_eq!(version(&report)["declared"][0]["owner"], "server `surface`");
    }
}

#[test]
fn a_capture_without_a_semver_version_cannot_be_judged() {
    let (r, dir) = captured("2025-12-18", "2026-01-14", Change::Additive);
    let stub = stub();
    let args = |require: bool| {
        let mut a = vec!["check", "--server", "--against", "HEAD", "--format", "json"];
        if require {
            a.push("--require-version-bump");
        }
        a.extend(["--", "sh", stub.to_str().unwrap(), dir.to_str().unwrap()]);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run = |require| {
        let a = args(require);
        r.run(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let quiet = run(false);
    assert_eq!(quiet.code, 0, "{quiet:?}");
    assert_eq!(
        rules(version(&json_of(&quiet))),
        [("version.unknown".to_string(), "note".to_string())]
    );
    let strict = run(true);
    assert_eq!(strict.code, 1, "{strict:?}");
    let report = json_of(&strict);
    let f = &version(&report)["findings"][0];
    assert_eq!(f["level"], "error");
    assert!(
        f["message"]
            .as_str()
            .unwrap()
            .contains("`2025-12-18`, which is not a SemVer version"),
        "{f:#}"
    );
}

#[test]
fn server_json_follows_the_registry_rules() {
    let r = package("1.4.2", "1.4.2", Change::None);
    let server_json = |version: &str, description: &str| {
        let v = json!({"$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
               "name": "io.github.example/srv", "description": description, "version": version,
               "packages": [{"registryType": "cargo", "identifier": "srv", "version": version,
                             "transport": {"type": "stdio"}}]});
        serde_json::to_string_pretty(&v).unwrap()
    };
    r.write("server.json", &server_json("1.4.2", "Search documents"));
    r.git(&["add", "server.json"]);
    r.git(&["commit", "-q", "-m", "server.json"]);
    // a range, here and in a package: refused whatever the flags
    r.write("server.json", &server_json("^1.4.2", "Search documents"));
    let run = r.check(&["-p", "srv", "--against", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 1, "{run:?}");
    let report = json_of(&run);
    let v = version(&report);
    let got: Vec<(String, Value)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap().to_string(), f["line"].clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("server-json.version-range".to_string(), json!(15)),
            ("server-json.version-range".to_string(), json!(12))
        ],
        "{v:#}"
    );
    // the same version, other metadata: a version published twice
    r.write(
        "server.json",
        &server_json("1.4.2", "Search documents and pages"),
    );
    let run = r.check(&["-p", "srv", "--against", "HEAD"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("warning[server-json.version-reused]: server.json of `io.github.example/srv` keeps version 1.4.2 while what it publishes changed"), "{run:?}");
    let run = r.check(&["-p", "srv", "--against", "HEAD", "--require-version-bump"]);
    assert_eq!(run.code, 1, "{run:?}");
    // a breaking change: server.json must carry the major bump too
    r.write("Cargo.toml", &manifest("2.0.0"));
    r.lock(tools(Change::Breaking));
    r.write("server.json", &server_json("1.5.0", "Search documents"));
    let run = r.check(&["-p", "srv", "--against", "HEAD", "--format", "json"]);
    let report = json_of(&run);
    let v = version(&report);
    let sources: Vec<(&str, bool)> = v["declared"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["source"].as_str().unwrap(),
                d["carries"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sources,
        [("Cargo.toml", true), ("server.json", false)],
        "{v:#}"
    );
}

#[test]
fn a_consumers_server_whose_version_does_not_carry_its_change() {
    let r = TestRepo::new();
    let dir = r.path().join("server");
    publish(&dir, "1.4.2", Change::None);
    let stub = stub();
    r.write(
        ".mcp.json",
        &json!({"mcpServers": {"docs": {"command": "sh", "args": [stub.to_str().unwrap(), dir.to_str().unwrap()]}}}).to_string(),
    );
    let run = r.run(&["lock", "--config", ".mcp.json"]);
    assert_eq!(run.code, 0, "{run:?}");
    publish(&dir, "1.4.3", Change::Breaking);
    let run = r.check(&["--config", ".mcp.json", "--require-version-bump"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[version.bump-missing]: the changes require a major bump (1 breaking change, first input.property-removed on `search`); serverInfo of server `docs` goes 1.4.2 -> 1.4.3 (a patch bump)"),
        "{run:?}"
    );
    assert!(
        run.stdout.contains("  --> mcp-contract.servers.lock:"),
        "{run:?}"
    );
}

#[test]
fn a_lockfile_that_records_no_version_says_nothing_unless_one_is_required() {
    let r = TestRepo::new();
    r.lock(tools(Change::None));
    r.commit("no serverInfo");
    r.lock(tools(Change::Additive));
    let run = r.check(&["--lockfile", LOCK, "--against", "HEAD", "--format", "json"]);
    assert_eq!(run.code, 0, "{run:?}");
    let report = json_of(&run);
    let v = version(&report);
    assert_eq!(v["required"], "minor", "{v:#}");
    assert_eq!(v["findings"], json!([]), "{v:#}");
    let run = r.check(&[
        "--lockfile",
        LOCK,
        "--against",
        "HEAD",
        "--require-version-bump",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains("error[version.unknown]: the changes require a minor bump (1 additive or deprecating change, first tool.added on `fetch`), but serverInfo of the captured server declares no version now"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("help: capture the server with this release"),
        "{run:?}"
    );
}

#[test]
fn verify_says_when_the_recorded_release_is_not_the_running_one() {
    let (r, dir) = captured("1.4.2", "1.4.3", Change::None);
    let stub = stub();
    let run = r.run(&[
        "verify",
        "--server",
        "--",
        "sh",
        stub.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stderr.contains("note: contracts/mcp-contract.lock records serverInfo.version 1.4.2, the server now gives 1.4.3"),
        "{run:?}"
    );
}

/// `server.json` for `srv` at `version`.
fn srv_server_json(version: &str) -> String {
    let v = json!({"name": "io.github.example/srv", "description": "Search documents",
        "version": version,
        "packages": [{"registryType": "cargo", "identifier": "srv", "version": version,
                      "transport": {"type": "stdio"}}]});
    serde_json::to_string_pretty(&v).unwrap()
}

#[test]
fn a_moved_package_reads_its_versions_where_they_were() {
    // crates/srv with its server.json, then `git mv crates/srv packages/srv`
    // in the same change that adds a tool and bumps Cargo.toml (not server.json)
    let r = TestRepo::new();
    let root = |m: &str| format!("[workspace]\nmembers = [\"{m}\"]\nresolver = \"2\"\n");
    r.write("Cargo.toml", &root("crates/srv"));
    r.write("crates/srv/Cargo.toml", &manifest("1.4.2"));
    r.write("crates/srv/src/lib.rs", "");
    r.write("crates/srv/server.json", &srv_server_json("1.4.2"));
    r.lock_at(
        "crates/srv/contracts/mcp-contract.lock",
        tools(Change::None),
    );
    r.commit("srv in crates/");
    std::fs::create_dir_all(r.abs("packages")).unwrap();
    r.git(&["mv", "crates/srv", "packages/srv"]);
    r.write("Cargo.toml", &root("packages/srv"));
    r.write("packages/srv/Cargo.toml", &manifest("1.5.0"));
    r.lock_at(
        "packages/srv/contracts/mcp-contract.lock",
        tools(Change::Additive),
    );
    let short = r.git(&["rev-parse", "--short", "HEAD"]);
    for staged in [false, true] {
        if staged {
            r.git(&["add", "-A"]);
        }
        let mut args = vec![
            "-p",
            "srv",
            "--against",
            "HEAD",
            "--require-version-bump",
            "--format",
            "json",
        ];
        if staged {
            args.push("--staged");
        }
        let run = r.check(&args);
        // server.json keeps 1.4.2: the minor bump is missing there
        assert_eq!(run.code, 1, "staged {staged}: {run:?}");
        let report = json_of(&run);
        assert_eq!(
            report["checks"][0]["baseline"]["lockfile"], "crates/srv/contracts/mcp-contract.lock",
            "{report:#}"
        );
        let v = version(&report);
        let got: Vec<_> = v["declared"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["source"].as_str(),
                    d["baseline"].as_str(),
                    d["candidate"].as_str(),
                    d["step"].as_str(),
                    d["carries"].as_bool(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (
                    Some("Cargo.toml"),
                    Some("1.4.2"),
                    Some("1.5.0"),
                    Some("minor"),
                    Some(true)
                ),
                (
                    Some("server.json"),
                    Some("1.4.2"),
                    Some("1.4.2"),
                    Some("unchanged"),
                    Some(false)
                ),
            ],
            "staged {staged}: {v:#}"
        );
        assert_eq!(
            rules(v),
            [
                ("version.bump-carried".to_string(), "note".to_string()),
                ("version.bump-missing".to_string(), "error".to_string())
            ],
            "{v:#}"
        );
    }
    // the human report says the same
    let run = r.check(&["-p", "srv", "--against", "HEAD", "--staged"]);
    assert!(
        run.stdout.contains(&format!("against {short} (--against HEAD; the lockfile was at crates/srv/contracts/mcp-contract.lock there")),
        "{run:?}"
    );
    assert!(
        run.stdout.contains(
            "Cargo.toml of package `srv` goes 1.4.2 -> 1.5.0 (a minor bump), which carries it"
        ),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("server.json of `io.github.example/srv` stays at 1.4.2"),
        "{run:?}"
    );
}

#[test]
fn a_moved_capture_reads_its_release_where_it_was() {
    let r = TestRepo::new();
    let at = |version: &str, change: Change, rel: &str| {
        let s = mcp_contract::load::surface_from_value(&tools(change), "t").unwrap();
        let release = mcp_contract::model::Release {
            name: Some("surface".into()),
            version: Some(version.into()),
        };
        r.write(rel, &mcp_contract::lockfile::render_captured(&s, &release));
    };
    at("0.3.1", Change::None, LOCK);
    r.commit("captured at the root");
    std::fs::create_dir_all(r.abs("servers/search")).unwrap();
    r.git(&["mv", "contracts", "servers/search/contracts"]);
    let moved = "servers/search/contracts/mcp-contract.lock";
    at("0.3.2", Change::Breaking, moved);
    let run = r.check(&[
        "--lockfile",
        moved,
        "--against",
        "HEAD",
        "--require-version-bump",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{run:?}");
    let report = json_of(&run);
    assert_eq!(
        report["checks"][0]["baseline"]["lockfile"], LOCK,
        "{report:#}"
    );
    let d = &version(&report)["declared"][0];
    assert_eq!(
        (
            d["source"].as_str(),
            d["baseline"].as_str(),
            d["candidate"].as_str(),
            d["carries"].as_bool(),
            d["next"].as_str()
        ),
        (
            Some("serverInfo"),
            Some("0.3.1"),
            Some("0.3.2"),
            Some(false),
            Some("0.4.0")
        ),
        "{report:#}"
    );
}
