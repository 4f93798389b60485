//! Over stdio, with rmcp's own client and with the `cargo mcp-contract`
//! driver: after the rename `city` → `location` acknowledged in
//! `contracts/migrations.toml`,
//! - the wrapped server publishes exactly the lockfile (`city` as a
//!   deprecated alias), accepts a call using `city`, and answers a call
//!   giving both names with `CONFLICTING_ALIASES`; every contract fixture
//!   replays as recorded;
//! - the same server without the wrapper (`WEATHER_SERVER_UNWRAPPED=1`)
//!   fails `verify` (it does not publish `city`) and `replay` (it rejects
//!   the call using `city`), each naming the field.

use std::path::Path;

use mcp_contract::fixtures;
use mcp_contract::lockfile;
use mcp_contract_driver::replay::{replay_server, Expect, Status};
use mcp_contract_driver::verify::verify;
use mcp_contract_driver::{capture, Options, ServerCommand};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{json, Map, Value};

const BIN: &str = env!("CARGO_BIN_EXE_weather-server");

fn contracts() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("contracts")
}

fn command(unwrapped: bool) -> ServerCommand {
    let cmd = ServerCommand::new(if unwrapped { "env" } else { BIN });
    if unwrapped {
        cmd.arg("WEATHER_SERVER_UNWRAPPED=1").arg(BIN)
    } else {
        cmd
    }
}

async fn client() -> RunningService<RoleClient, ()> {
    let mut cmd = tokio::process::Command::new(BIN);
    cmd.env_remove("WEATHER_SERVER_UNWRAPPED");
    ().serve(TokioChildProcess::new(cmd).expect("spawn weather-server"))
        .await
        .expect("initialize")
}

fn args(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn wrapped_server_accepts_the_old_name_and_refuses_a_conflict() {
    let client = client().await;
    let tools = client.list_all_tools().await.unwrap();
    let forecast = tools.iter().find(|t| t.name == "get_forecast").unwrap();
    assert_eq!(
        forecast.input_schema["properties"]["city"]["deprecated"],
        json!(true)
    );

    let old = client
        .call_tool(
            CallToolRequestParams::new("get_forecast")
                .with_arguments(args(json!({"city": "Lisbon"}))),
        )
        .await
        .unwrap();
    assert_ne!(old.is_error, Some(true), "{old:?}");
    assert_eq!(
        old.structured_content.as_ref().unwrap()["location"],
        json!("Lisbon")
    );

    let both = client
        .call_tool(
            CallToolRequestParams::new("get_forecast")
                .with_arguments(args(json!({"city": "Lisbon", "location": "Oslo"}))),
        )
        .await
        .unwrap();
    assert_eq!(both.is_error, Some(true));
    let structured = both.structured_content.as_ref().unwrap();
    assert_eq!(
        structured["error_code"],
        json!("CONFLICTING_ALIASES"),
        "{structured}"
    );
    client.cancel().await.unwrap();
}

#[test]
fn wrapped_server_verifies_and_replays() {
    let locked = lockfile::read(&contracts().join("mcp-contract.lock")).unwrap();
    let mut live = capture(command(false), &Options::default()).unwrap();
    // the lockfile records tools and prompts; the server section is not locked here
    live.surface.server = None;
    let v = verify(&locked, &live.surface);
    assert!(v.identical(), "published != locked: {:?}", v.differing);
    let fixtures = fixtures::read_dir(&contracts().join("fixtures")).unwrap();
    assert_eq!(fixtures.len(), 3);
    let report = replay_server(
        command(false),
        &Options::default(),
        &fixtures,
        Expect::Recorded,
    )
    .unwrap();
    assert_eq!((report.passed(), report.failed()), (3, 0), "{report:?}");
}

#[test]
fn without_the_wrapper_verify_and_replay_fail_naming_the_field() {
    let locked = lockfile::read(&contracts().join("mcp-contract.lock")).unwrap();
    let mut live = capture(command(true), &Options::default()).unwrap();
    live.surface.server = None;
    let v = verify(&locked, &live.surface);
    assert_eq!(v.differing, ["get_forecast"]);
    let named: Vec<String> = v
        .report
        .changes
        .iter()
        .map(|c| format!("{} {}", c.rule, c.pointer))
        .collect();
    assert!(
        named.iter().any(|c| c.contains("/properties/city")),
        "{named:?}"
    );

    let fixtures = fixtures::read_dir(&contracts().join("fixtures")).unwrap();
    let report = replay_server(
        command(true),
        &Options::default(),
        &fixtures,
        Expect::Recorded,
    )
    .unwrap();
    let failed: Vec<String> = report
        .entries
        .iter()
        .filter(|e| e.status != Status::Passed)
        .map(|e| format!("{:?}: {:?}", e.file, e.status))
        .collect();
    assert_eq!(failed.len(), 2, "{failed:?}");
    let legacy = failed
        .iter()
        .find(|f| f.contains("legacy_city"))
        .expect("legacy_city fails");
    assert!(
        legacy.contains("location"),
        "the failure names the field: {legacy}"
    );
    eprintln!("without the wrapper:\n  verify: {named:?}\n  replay: {failed:#?}");
}
