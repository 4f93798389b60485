//! The fuzzing engine shared by the fuzz tests of every crate
//! (`#[path = "../../tests/support/fuzz.rs"] mod engine;`): a seeded PRNG,
//! a byte mutator with a dictionary of the tokens the parsers care about,
//! and a watchdog that turns a panic or a hang into a test failure naming
//! the case. Coverage-free on purpose: it runs on stable Rust, in `cargo
//! test`, with no extra toolchain or dependency.

#![allow(dead_code)]

use std::sync::mpsc;
use std::time::Duration;

/// xorshift64*: small, seedable, good enough to drive mutations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

pub fn iterations() -> usize {
    std::env::var("MCP_CONTRACT_FUZZ_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

pub fn seed(target: &str) -> u64 {
    let base = std::env::var("MCP_CONTRACT_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED_0015);
    // A different stream per target, from the same seed (FNV-1a).
    target.bytes().fold(base ^ 0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
    }) | 1
}

/// Tokens that matter to the parsers, spliced in by the mutator.
const DICTIONARY: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "\\u0000",
    "\\ud800",
    "null",
    "true",
    "false",
    "-0",
    "1e400",
    "99999999999999999999999",
    "0.1",
    "\"$ref\"",
    "\"#/$defs/A\"",
    "\"#\"",
    "\"$defs\"",
    "\"anyOf\"",
    "\"oneOf\"",
    "\"allOf\"",
    "\"not\"",
    "\"type\"",
    "\"required\"",
    "\"properties\"",
    "\"tools\"",
    "\"name\"",
    "\"inputSchema\"",
    "\"outputSchema\"",
    "\"digest\"",
    "\"lockfile_version\"",
    "\"jsonrpc\"",
    "\"result\"",
    "<<<<<<< ",
    "=======",
    ">>>>>>> ",
    "[[acknowledge]]",
    "[tools.x]",
    "tool = ",
    "rule = ",
    "kind = ",
    "transition = { kind = \"rename\", from = \"a\", to = \"b\" }",
    "2026-02-30",
    "\n",
    "\r\n",
    "\t",
    "\u{feff}",
    "é",
    "\u{10ffff}",
];

/// One to four random edits of `input`.
pub fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                let end = (at + 1 + rng.below(16)).min(v.len());
                v.drain(at.min(end)..end);
            }
            2 => {
                let t = DICTIONARY[rng.below(DICTIONARY.len())];
                v.splice(at..at, t.bytes());
            }
            3 if !v.is_empty() => {
                // Duplicate a chunk elsewhere (nests structures).
                let s = rng.below(v.len());
                let e = (s + 1 + rng.below(64)).min(v.len());
                let chunk = v[s..e].to_vec();
                v.splice(at..at, chunk);
            }
            4 => v.insert(at, rng.next() as u8),
            5 if !v.is_empty() => v.truncate(at),
            _ => {
                let digits = (0..1 + rng.below(40)).map(|_| b'0' + rng.below(10) as u8);
                v.splice(at..at, digits);
            }
        }
    }
    v
}

/// Runs `f` on a thread and fails when it panics or takes longer than the
/// watchdog (a hang, not a slow case: the bound is generous).
pub fn guarded<T: Send + 'static>(what: String, f: impl FnOnce() -> T + Send + 'static) -> T {
    const WATCHDOG: Duration = Duration::from_secs(20);
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let _ = tx.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
        })
        .unwrap();
    match rx.recv_timeout(WATCHDOG) {
        Ok(Ok(v)) => v,
        Ok(Err(_)) => panic!("{what}: panicked (see above)"),
        Err(_) => panic!("{what}: did not finish within {WATCHDOG:?}"),
    }
}
