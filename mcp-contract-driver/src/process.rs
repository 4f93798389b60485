//! The server as a child process: stdin to write to, stdout delivered line by
//! line through a channel (so every read can have a deadline), and the tail of
//! stderr kept for error messages. Dropping a [`ServerProcess`] (or calling
//! [`ServerProcess::shutdown`]) closes stdin, then terminates and kills the
//! server's whole process group and reaps it, the way MCP's stdio transport
//! describes shutting a server down.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::command::ServerCommand;
use crate::error::{DriverError, ErrorKind};

/// How many bytes of stderr are kept, and how many lines are shown.
const TAIL_BYTES: usize = 8 * 1024;
const TAIL_LINES: usize = 20;

/// How long a server gets to exit after stdin closes, and after SIGTERM.
const EXIT_GRACE: Duration = Duration::from_millis(100);
const TERM_GRACE: Duration = Duration::from_millis(1000);

/// One thing that happened on the server's stdout.
#[derive(Debug)]
pub enum StdoutEvent {
    /// One line, without its line terminator.
    Line(Vec<u8>),
    /// stdout closed.
    Eof,
    /// Reading failed.
    Error(String),
}

/// A running server.
pub struct ServerProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Receiver<StdoutEvent>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_done: Receiver<()>,
    command: String,
    status: Option<ExitStatus>,
    /// Whether the server ended before we stopped it.
    ended_by_itself: bool,
    /// Whether [`ServerProcess::shutdown`] has run.
    shut_down: bool,
}

impl ServerProcess {
    /// Starts `cmd` with piped stdin, stdout and stderr, in its own process group.
    pub fn spawn(cmd: &ServerCommand) -> Result<ServerProcess, DriverError> {
        let mut command = Command::new(&cmd.program);
        command
            .args(&cmd.args)
            .envs(cmd.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &cmd.cwd {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| DriverError {
            kind: Box::new(ErrorKind::Spawn {
                error: format!("`{}`: {e}", cmd.program),
            }),
            command: cmd.to_string(),
            stderr_tail: String::new(),
            exit_status: None,
        })?;
        #[cfg(unix)]
        crate::signals::register(child.id() as i32);

        let stdin = child.stdin.take();
        let (line_tx, stdout) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(out);
                loop {
                    let mut line = vec![];
                    let event = match reader.read_until(b'\n', &mut line) {
                        Ok(0) => StdoutEvent::Eof,
                        Ok(_) => {
                            while matches!(line.last(), Some(b'\n' | b'\r')) {
                                line.pop();
                            }
                            StdoutEvent::Line(line)
                        }
                        Err(e) => StdoutEvent::Error(e.to_string()),
                    };
                    let last = !matches!(event, StdoutEvent::Line(_));
                    if line_tx.send(event).is_err() || last {
                        return;
                    }
                }
            });
        }
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let (done_tx, stderr_done) = mpsc::channel();
        if let Some(mut err) = child.stderr.take() {
            let sink = Arc::clone(&stderr);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n @ 1..) = err.read(&mut buf) {
                    let mut tail = sink.lock().unwrap_or_else(|p| p.into_inner());
                    tail.extend_from_slice(&buf[..n]);
                    if tail.len() > 2 * TAIL_BYTES {
                        let cut = tail.len() - TAIL_BYTES;
                        tail.drain(..cut);
                    }
                }
                let _ = done_tx.send(());
            });
        }
        Ok(ServerProcess {
            child,
            stdin,
            stdout,
            stderr,
            stderr_done,
            command: cmd.to_string(),
            status: None,
            ended_by_itself: false,
            shut_down: false,
        })
    }

    /// The command, shell-quoted, for messages.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The server's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Writes one line (a serialized JSON-RPC message) to the server's stdin.
    pub fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("stdin is closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\n")?;
        stdin.flush()
    }

    /// The next stdout event, or `None` when `deadline` passes first.
    pub fn recv(&self, deadline: Instant) -> Option<StdoutEvent> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.stdout.recv_timeout(wait) {
            Ok(event) => Some(event),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(StdoutEvent::Eof),
        }
    }

    /// The last lines of what the server wrote to stderr so far.
    pub fn stderr_tail(&self) -> String {
        let bytes = self.stderr.lock().unwrap_or_else(|p| p.into_inner());
        let start = bytes.len().saturating_sub(TAIL_BYTES);
        let text = String::from_utf8_lossy(&bytes[start..]);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(TAIL_LINES)..].join("\n")
    }

    /// Stops the server (if still running) and turns `kind` into an error
    /// with the complete stderr tail and, if the server ended by itself, how.
    pub fn fail(&mut self, kind: ErrorKind) -> DriverError {
        self.shutdown();
        DriverError {
            kind: Box::new(kind),
            command: self.command.clone(),
            stderr_tail: self.stderr_tail(),
            exit_status: self
                .status
                .filter(|_| self.ended_by_itself)
                .map(|s| s.to_string()),
        }
    }

    /// Closes stdin, gives the server a moment to exit, then terminates and
    /// kills its process group and reaps it. Idempotent.
    pub fn shutdown(&mut self) -> Option<ExitStatus> {
        if self.shut_down {
            return self.status;
        }
        self.shut_down = true;
        self.has_exited();
        drop(self.stdin.take());
        if self.status.is_none() {
            self.status = self.wait_for(EXIT_GRACE);
            // Exiting when stdin closes is the server's own, orderly end.
            self.ended_by_itself = self.status.is_some();
        }
        #[cfg(unix)]
        {
            let pgid = self.child.id() as i32;
            if self.status.is_none() {
                crate::signals::kill_group(pgid, libc::SIGTERM);
                self.status = self.wait_for(TERM_GRACE);
            }
            // Also stops whatever the server started in its group.
            crate::signals::kill_group(pgid, libc::SIGKILL);
        }
        if self.status.is_none() {
            let _ = self.child.kill();
            self.status = self.child.wait().ok();
        }
        #[cfg(unix)]
        crate::signals::unregister(self.child.id() as i32);
        // Let the stderr reader drain what the server wrote before it ended.
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(500));
        self.status
    }

    fn wait_for(&mut self, grace: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + grace;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Whether the server has ended by itself (reaping it if so).
    pub fn has_exited(&mut self) -> bool {
        if self.status.is_none() {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.status = Some(status);
                self.ended_by_itself = true;
            }
        }
        self.status.is_some()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.shutdown();
    }
}
