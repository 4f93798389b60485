//! Helpers for the driver's tests: the stub server script and process checks.

#![allow(dead_code)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mcp_contract_driver::ServerCommand;

/// `sh stub-server.sh MODE PIDFILE`, plus the pid file it writes.
pub fn stub(mode: &str) -> (ServerCommand, PidFile) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/stubs/stub-server.sh");
    let pids = PidFile::new(mode);
    let cmd = ServerCommand::new("sh")
        .arg(script.display().to_string())
        .arg(mode)
        .arg(pids.path.display().to_string());
    (cmd, pids)
}

/// A file the stub appends its pids to.
pub struct PidFile {
    pub path: PathBuf,
}

impl PidFile {
    pub fn new(mode: &str) -> Self {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("driver-pids");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!(
            "{mode}-{}-{:?}.pids",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_file(&path);
        PidFile { path }
    }

    pub fn pids(&self) -> Vec<i32> {
        std::fs::read_to_string(&self.path)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Asserts that every recorded process is gone (or a zombie awaiting its
    /// new parent), waiting briefly for orphans to be collected.
    pub fn assert_all_gone(&self, expected: usize) {
        let pids = self.pids();
        assert_eq!(pids.len(), expected, "pids recorded: {pids:?}");
        let until = Instant::now() + Duration::from_secs(3);
        for pid in pids {
            while running(pid) {
                assert!(Instant::now() < until, "process {pid} is still running");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

impl Drop for PidFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Is `pid` a live (not zombie) process?
pub fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the parenthesised command name.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) if std::path::Path::new("/proc/self/stat").exists() => false,
        // No procfs: signal 0 says whether the pid exists (zombies included).
        Err(_) => unsafe { libc::kill(pid, 0) == 0 },
    }
}
