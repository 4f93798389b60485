//! The engine's verdict on one pair, the way the gate computes it (both
//! sides loaded as a one-tool surface, then `diff_surfaces`), run on a
//! worker thread so that a hang is seen as a hang: a diff that has not
//! answered within the timeout is reported (miss class `hang`) and its
//! thread abandoned. This guards the harness; it asserts nothing about speed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use mcp_contract::diff::Direction;
use mcp_contract::load::surface_from_value;
use mcp_contract::{diff_surfaces, Severity};
use serde_json::{json, Value};

pub enum Verdict {
    /// The breaking changes in the direction's namespace (rule, pointer).
    Diffed(Vec<(&'static str, String)>),
    /// The loader refused a side (`old` or `new`): the gate exits 2, not silent.
    Refused(&'static str),
    Hang,
    Panic(String),
}

type Job = (Value, Value, Direction);

pub struct Judge {
    tx: Sender<Job>,
    rx: Receiver<Verdict>,
    timeout: Duration,
    pub abandoned: usize,
}

pub fn tool(schema: &Value, dir: Direction) -> Value {
    match dir {
        Direction::Input => json!({"name": "t", "inputSchema": schema}),
        Direction::Output => {
            json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": schema})
        }
    }
}

fn judge(old: &Value, new: &Value, dir: Direction) -> Verdict {
    let o = match surface_from_value(&tool(old, dir), "old.json") {
        Ok(s) => s,
        Err(_) => return Verdict::Refused("old"),
    };
    let n = match surface_from_value(&tool(new, dir), "new.json") {
        Ok(s) => s,
        Err(_) => return Verdict::Refused("new"),
    };
    let ns = match dir {
        Direction::Input => ["input.", "input."],
        Direction::Output => ["output.", "tool.output-"],
    };
    Verdict::Diffed(
        diff_surfaces(&o, &n)
            .changes
            .into_iter()
            .filter(|c| {
                c.severity == Severity::Breaking && ns.iter().any(|p| c.rule.starts_with(p))
            })
            .map(|c| (c.rule, c.pointer))
            .collect(),
    )
}

fn spawn() -> (Sender<Job>, Receiver<Verdict>) {
    let (jtx, jrx) = channel::<Job>();
    let (vtx, vrx) = channel::<Verdict>();
    std::thread::spawn(move || {
        while let Ok((old, new, dir)) = jrx.recv() {
            let v = catch_unwind(AssertUnwindSafe(|| judge(&old, &new, dir))).unwrap_or_else(|p| {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Verdict::Panic(msg)
            });
            if vtx.send(v).is_err() {
                return;
            }
        }
    });
    (jtx, vrx)
}

impl Judge {
    pub fn new(timeout: Duration) -> Judge {
        let (tx, rx) = spawn();
        Judge {
            tx,
            rx,
            timeout,
            abandoned: 0,
        }
    }

    pub fn verdict(&mut self, old: &Value, new: &Value, dir: Direction) -> Verdict {
        if self.tx.send((old.clone(), new.clone(), dir)).is_err() {
            let (tx, rx) = spawn();
            self.tx = tx;
            self.rx = rx;
            return Verdict::Panic("the diff worker died".into());
        }
        match self.rx.recv_timeout(self.timeout) {
            Ok(v) => v,
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                // leave the stuck worker behind; its channels close with it
                self.abandoned += 1;
                let (tx, rx) = spawn();
                self.tx = tx;
                self.rx = rx;
                Verdict::Hang
            }
        }
    }
}
