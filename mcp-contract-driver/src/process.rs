//! The server as a child process: stdin to write to, stdout delivered line by
//! line through a channel (so every read can have a deadline), and the tail of
//! stderr kept for error messages. Dropping a [`ServerProcess`] (or calling
//! [`ServerProcess::shutdown`]) closes stdin, then terminates and kills the
//! server's whole process group and reaps it, the way MCP's stdio transport
//! describes shutting a server down.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::command::ServerCommand;
use crate::error::{DriverError, ErrorKind};

/// How many bytes of stderr are kept, and how many lines are shown.
const TAIL_BYTES: usize = 8 * 1024;
const TAIL_LINES: usize = 20;

/// The longest line read from the server's stdout. A line is one JSON-RPC
/// message; a `tools/list` page of a few hundred tools is well under 1 MiB.
/// Longer (or a stream without any newline) is an error, so the bytes held
/// for one line never exceed this.
pub const MAX_LINE_BYTES: usize = 8 * 1024 * 1024;

/// Messages queued for a server that does not read its stdin (a flood of
/// server requests each needs an answer) before that is an error instead of
/// a write that blocks forever.
const STDIN_QUEUE: usize = 64;

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
    /// More than [`MAX_LINE_BYTES`] without a newline; `start` is its beginning.
    TooLong { start: Vec<u8> },
    /// Reading failed.
    Error(String),
}

/// A running server.
pub struct ServerProcess {
    child: Child,
    /// Lines for the writer thread, which owns the pipe (dropping this closes it).
    stdin: Option<SyncSender<Vec<u8>>>,
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
                error: format!("`{}`: {e}", cmd.shown_program()),
            }),
            command: cmd.to_string(),
            stderr_tail: String::new(),
            exit_status: None,
        })?;
        #[cfg(unix)]
        crate::signals::register(child.id() as i32);

        let stdin = child.stdin.take().map(|mut pipe| {
            let (tx, rx) = mpsc::sync_channel::<Vec<u8>>(STDIN_QUEUE);
            std::thread::spawn(move || {
                for line in rx {
                    if pipe.write_all(&line).and_then(|()| pipe.flush()).is_err() {
                        return;
                    }
                }
            });
            tx
        });
        // One line in flight at most: a server writing faster than the
        // client reads waits on its pipe instead of filling our memory.
        let (line_tx, stdout) = mpsc::sync_channel(1);
        if let Some(out) = child.stdout.take() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(out);
                loop {
                    let mut line = vec![];
                    let limit = MAX_LINE_BYTES as u64 + 1;
                    let event = match (&mut reader).take(limit).read_until(b'\n', &mut line) {
                        Ok(0) => StdoutEvent::Eof,
                        Ok(n) if n as u64 == limit && line.last() != Some(&b'\n') => {
                            line.truncate(200);
                            StdoutEvent::TooLong { start: line }
                        }
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

    /// Queues one line (a serialized JSON-RPC message) for the server's
    /// stdin. Never blocks: a server that stopped reading its stdin while
    /// [`STDIN_QUEUE`] messages wait is an error.
    pub fn send_line(&mut self, line: &str) -> std::io::Result<()> {
        let stdin = self
            .stdin
            .as_ref()
            .ok_or_else(|| std::io::Error::other("stdin is closed"))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match stdin.try_send(bytes) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(std::io::Error::other(format!(
                "the server has not read its stdin while {STDIN_QUEUE} messages waited"
            ))),
            Err(TrySendError::Disconnected(_)) => Err(std::io::ErrorKind::BrokenPipe.into()),
        }
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
