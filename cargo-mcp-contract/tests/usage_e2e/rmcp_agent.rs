//! A client on rmcp: starts the server command given after the arguments
//! over stdio (rmcp's child-process transport), introduces itself with the
//! given clientInfo, calls one tool and prints the result as one JSON object.
//!
//! usage: rmcp_agent NAME VERSION TOOL ARGS_JSON -- SERVER [ARG...]

use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientInfo, Implementation};
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let argv: Vec<String> = std::env::args().collect();
    assert!(
        argv.len() >= 7 && argv[5] == "--",
        "usage: rmcp_agent NAME VERSION TOOL ARGS_JSON -- SERVER [ARG...]"
    );
    let args: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&argv[4]).expect("ARGS_JSON is a JSON object");
    let mut cmd = tokio::process::Command::new(&argv[6]);
    cmd.args(&argv[7..]);
    let transport = TokioChildProcess::new(cmd).expect("spawn the server");
    let info = ClientInfo::new(
        ClientCapabilities::default(),
        Implementation::new(argv[1].clone(), argv[2].clone()),
    );
    let client = info.serve(transport).await.expect("initialize");
    let result = client
        .call_tool(CallToolRequestParams::new(argv[3].clone()).with_arguments(args))
        .await
        .expect("a tool result");
    println!("{}", serde_json::to_string(&result).expect("serializable"));
    client.cancel().await.expect("close the session");
}
