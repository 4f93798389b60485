//! The demo's usage evidence: with `DEMO_SERVER_USAGE_FILE` set, the server
//! counts every compatibility path per tool, path, client and day with
//! mcp-contract's [`UsageRecorder`] and flushes the counts into that file
//! (`mcp-contract-usage` v1): at start, every
//! `DEMO_SERVER_USAGE_FLUSH_SECS` seconds (default 60), and when the client
//! closes the connection.
//!
//! Which day it is can be injected, so a test can play several days:
//! - `DEMO_SERVER_CLOCK_FILE`: a file holding one date (`2026-11-05`), read
//!   on every hit and flush, so a running server moves to the next day when
//!   the file is rewritten;
//! - `DEMO_SERVER_TODAY=YYYY-MM-DD`: a fixed day for the whole process;
//! - neither: the system clock (UTC).
//!
//! Bad configuration (an unreadable clock file, a malformed date, both
//! clock variables at once) stops the server with exit status 2 before it
//! serves anything.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mcp_contract::date::Date;
use mcp_contract::runtime::{Clock, ManualClock, SystemClock, UsageRecorder};

/// The environment variable naming the evidence file.
pub const USAGE_FILE_ENV: &str = "DEMO_SERVER_USAGE_FILE";
/// The environment variable naming the clock file.
pub const CLOCK_FILE_ENV: &str = "DEMO_SERVER_CLOCK_FILE";
/// The environment variable fixing today's date.
pub const TODAY_ENV: &str = "DEMO_SERVER_TODAY";
/// The environment variable setting the flush interval (whole seconds).
pub const FLUSH_SECS_ENV: &str = "DEMO_SERVER_USAGE_FLUSH_SECS";
/// The flush interval without `DEMO_SERVER_USAGE_FLUSH_SECS`.
pub const DEFAULT_FLUSH: Duration = Duration::from_secs(60);

/// The recorder and its flush interval, from the environment.
#[derive(Debug)]
pub struct UsageConfig {
    pub recorder: Arc<UsageRecorder>,
    pub interval: Duration,
}

/// `Ok(None)` without `DEMO_SERVER_USAGE_FILE`; `Err` names the variable
/// and the fix.
pub fn from_env() -> Result<Option<UsageConfig>, String> {
    let clock = clock_from_env()?;
    let Some(file) = var(USAGE_FILE_ENV) else {
        return Ok(None);
    };
    let interval = match var(FLUSH_SECS_ENV) {
        None => DEFAULT_FLUSH,
        Some(s) => match s.parse::<u64>() {
            Ok(n) if (1..=86_400).contains(&n) => Duration::from_secs(n),
            _ => {
                return Err(format!(
                    "{FLUSH_SECS_ENV}: `{s}` is not a number of seconds from 1 to 86400"
                ))
            }
        },
    };
    Ok(Some(UsageConfig {
        recorder: Arc::new(UsageRecorder::with_clock(PathBuf::from(file), clock)),
        interval,
    }))
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

fn clock_from_env() -> Result<Arc<dyn Clock>, String> {
    match (var(CLOCK_FILE_ENV), var(TODAY_ENV)) {
        (Some(_), Some(_)) => Err(format!(
            "{CLOCK_FILE_ENV} and {TODAY_ENV} are both set: set one (the file lets a running server change days)"
        )),
        (Some(path), None) => Ok(Arc::new(FileClock::new(PathBuf::from(path))?)),
        (None, Some(day)) => match Date::parse(day.trim()) {
            Some(d) => Ok(Arc::new(ManualClock::new(d))),
            None => Err(format!(
                "{TODAY_ENV}: `{day}` is not a date; write YYYY-MM-DD (UTC), e.g. 2026-11-05"
            )),
        },
        (None, None) => Ok(Arc::new(SystemClock)),
    }
}

/// Today is what a file says, read on every call.
#[derive(Debug)]
pub struct FileClock {
    path: PathBuf,
    /// The last day read, and the last error reported.
    last: Mutex<(Date, Option<String>)>,
}

impl FileClock {
    /// A clock on `path`, which must hold a date now.
    pub fn new(path: PathBuf) -> Result<Self, String> {
        let today = read_day(&path).map_err(|e| format!("{CLOCK_FILE_ENV}: {e}"))?;
        Ok(FileClock {
            path,
            last: Mutex::new((today, None)),
        })
    }
}

fn read_day(path: &std::path::Path) -> Result<Date, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Date::parse(text.trim()).ok_or_else(|| {
        format!(
            "{}: `{}` is not a date; write one YYYY-MM-DD (UTC) date, e.g. 2026-11-05",
            path.display(),
            text.trim()
        )
    })
}

impl Clock for FileClock {
    fn today(&self) -> Date {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        match read_day(&self.path) {
            Ok(day) => {
                *last = (day, None);
            }
            Err(e) => {
                // Mid-run (a rewrite in progress, say): keep the last good
                // day, and say so once per distinct problem.
                if last.1.as_deref() != Some(e.as_str()) {
                    eprintln!(
                        "demo-server: {CLOCK_FILE_ENV}: {e}; still dating counts {}",
                        last.0
                    );
                }
                last.1 = Some(e);
            }
        }
        last.0
    }
}
