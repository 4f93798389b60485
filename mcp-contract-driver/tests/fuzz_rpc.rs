//! Fuzzing the driver's JSON-RPC reader on arbitrary bytes: a stub server
//! answers `initialize` properly and then answers `tools/list` with mutated
//! bytes (valid pages, batches, server requests and notifications, mutated
//! by `tests/support/fuzz.rs`). Every case must end — with a surface or a
//! driver error, never a panic or a hang — and leave no process behind.
//!
//! Each case starts a process, so the default is 30 cases
//! (`MCP_CONTRACT_FUZZ_ITERS` / 10; `MCP_CONTRACT_FUZZ_SEED` as elsewhere).

#![cfg(unix)]

#[path = "../../tests/support/fuzz.rs"]
mod engine;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use engine::{guarded, iterations, mutate, seed, Rng};
use mcp_contract_driver::{capture, Options, Protocol, ServerCommand};

const STUB: &str = r#"
IFS= read -r line
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"fuzz"}}}'
IFS= read -r line
IFS= read -r line
cat "$1"
exec sleep 5
"#;

const SEEDS: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"integer"}}}}]}}"#,
    r#"{"jsonrpc":"2.0","id":"srv","method":"ping"}
{"jsonrpc":"2.0","method":"notifications/progress","params":{}}

{"jsonrpc":"2.0","id":2,"result":{"tools":[],"nextCursor":null}}"#,
    r#"[{"jsonrpc":"2.0","method":"notifications/message"},{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"b","inputSchema":{}}]}}]"#,
    r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"no","data":{"x":[1,2]}}}"#,
    r##"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"c","inputSchema":{"$ref":"#/$defs/A","$defs":{"A":{"type":"object"}}},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}],"_meta":{"ttlMs":1}}}"##,
];

#[test]
fn fuzz_driver_jsonrpc_reader() {
    let started = Instant::now();
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-rpc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(seed("rpc"));
    let n = (iterations() / 10).max(1);
    let (mut ok, mut errors) = (0, 0);
    for i in 0..n {
        let base = SEEDS[rng.below(SEEDS.len())].as_bytes();
        let mut bytes = mutate(&mut rng, base);
        if rng.chance(2) {
            bytes = mutate(&mut rng, &bytes);
        }
        bytes.push(b'\n');
        let file = dir.join(format!("case-{i}"));
        std::fs::write(&file, &bytes).unwrap();
        let cmd = ServerCommand::new("sh")
            .arg("-c")
            .arg(STUB)
            .arg("sh")
            .arg(file.display().to_string());
        let what = format!(
            "rpc: seed {} iteration {i}: {:?}",
            seed("rpc"),
            String::from_utf8_lossy(&bytes)
        );
        let result = guarded(what, move || {
            capture(
                &cmd,
                &Options {
                    timeout: Duration::from_secs(2),
                    protocol: Protocol::Handshake,
                    ..Options::default()
                },
            )
            .map(|c| c.surface.tools.len())
            .map_err(|e| e.to_string())
        });
        match result {
            Ok(_) => ok += 1,
            Err(_) => errors += 1,
        }
        let _ = std::fs::remove_file(&file);
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "fuzz rpc: {n} cases in {:.2}s ({ok} surfaces, {errors} driver errors)",
        started.elapsed().as_secs_f64()
    );
}
