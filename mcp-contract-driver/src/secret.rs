//! The values that must never be shown: what `${VAR}` expanded to (in a
//! configuration's `command`, `args`, `cwd`, `env`, `url` and `headers`, or
//! in `--header`), every header value, and a URL's user info and query.
//!
//! They are collected where they come into being ([`crate::endpoint::expand`],
//! [`crate::endpoint::HttpEndpoint::header`]) into the endpoint's
//! [`Secrets`], and taken out again in two ways:
//!
//! - the command and the URL shown in messages are built from the words as
//!   written (`--api-key=${API_KEY}`, `http://host/mcp/${TOKEN}/sse`), never
//!   from their expansion ([`Secrets::shown`]);
//! - everything that leaves a session (every answer of the server, every
//!   error with the server's stderr, its messages, the published tools that
//!   become the lockfile) passes through one redacting link
//!   ([`crate::redact`]), which puts the placeholder back wherever a value
//!   appears ([`Secrets::scrub`]).
//!
//! Values shorter than [`MIN_SCRUBBED`] characters are not searched for in
//! free text: they cannot be credentials, and replacing them would rewrite
//! ordinary words and numbers of the server's answers (a port such as
//! `3000`, a flag such as `1`). They are still never part of the command or
//! URL shown.

use std::fmt;

use mcp_contract::InputError;
use serde_json::Value;

use crate::error::{DriverError, ErrorKind};

/// The shortest value searched for (and replaced) in free text.
pub const MIN_SCRUBBED: usize = 8;

/// Secret values and what to show instead.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secrets {
    /// (value, placeholder), longest value first.
    values: Vec<(String, String)>,
    /// (expanded word, word as written).
    words: Vec<(String, String)>,
}

impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Secrets({} values)", self.values.len())
    }
}

impl Secrets {
    /// Records `value`, shown as `placeholder` (`${VAR}`, `<Authorization header>`).
    pub fn add(&mut self, value: &str, placeholder: &str) {
        if value.is_empty() || self.values.iter().any(|(v, _)| v == value) {
            return;
        }
        self.values
            .push((value.to_string(), placeholder.to_string()));
        self.values
            .sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
    }

    /// Records that `expanded` was written as `written` (for [`Secrets::shown`]).
    pub fn add_word(&mut self, expanded: &str, written: &str) {
        if expanded != written && !self.words.iter().any(|(e, _)| e == expanded) {
            self.words.push((expanded.to_string(), written.to_string()));
        }
    }

    /// Takes every value and word of `other` too.
    pub fn extend(&mut self, other: &Secrets) {
        for (v, p) in &other.values {
            self.add(v, p);
        }
        for (e, w) in &other.words {
            self.add_word(e, w);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.words.is_empty()
    }

    /// `text` with every value of at least [`MIN_SCRUBBED`] characters
    /// replaced by its placeholder.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (value, placeholder) in &self.values {
            if value.chars().count() >= MIN_SCRUBBED && out.contains(value.as_str()) {
                out = out.replace(value.as_str(), placeholder);
            }
        }
        out
    }

    /// A word of the command or the URL for messages: as written when it
    /// was expanded (whatever the length of the values in it), else scrubbed.
    pub fn shown(&self, word: &str) -> String {
        match self.words.iter().find(|(e, _)| e == word) {
            Some((_, written)) => written.clone(),
            None => self.scrub(word),
        }
    }

    /// Scrubs every string (and object key) in `value`.
    pub fn scrub_value(&self, value: &mut Value) {
        if self.values.is_empty() {
            return;
        }
        match value {
            Value::String(s) => *s = self.scrub(s),
            Value::Array(items) => items.iter_mut().for_each(|v| self.scrub_value(v)),
            Value::Object(m) => {
                let keys: Vec<String> = m.keys().cloned().collect();
                for k in keys {
                    let Some(mut v) = m.remove(&k) else { continue };
                    self.scrub_value(&mut v);
                    m.insert(self.scrub(&k), v);
                }
            }
            _ => {}
        }
    }

    /// `e` with every text it carries scrubbed.
    pub fn scrub_input(&self, e: InputError) -> InputError {
        InputError {
            file: self.scrub(&e.file),
            location: e.location.map(|l| self.scrub(&l)),
            message: self.scrub(&e.message),
            fix: e.fix.map(|f| self.scrub(&f)),
        }
    }

    /// `e` with every text it carries scrubbed: the command, the server's
    /// stderr, and whatever the server or the transport said.
    pub fn scrub_error(&self, e: DriverError) -> DriverError {
        if self.values.is_empty() {
            return e;
        }
        let s = |t: String| self.scrub(&t);
        let kind = match *e.kind {
            ErrorKind::Spawn { error } => ErrorKind::Spawn { error: s(error) },
            ErrorKind::Timeout { waiting_for, secs } => ErrorKind::Timeout {
                waiting_for: s(waiting_for),
                secs,
            },
            ErrorKind::Exited { during } => ErrorKind::Exited { during: s(during) },
            ErrorKind::Garbage { during, line } => ErrorKind::Garbage {
                during: s(during),
                line: s(line),
            },
            ErrorKind::JsonRpc {
                method,
                code,
                message,
            } => ErrorKind::JsonRpc {
                method: s(method),
                code,
                message: s(message),
            },
            ErrorKind::Protocol { during, message } => ErrorKind::Protocol {
                during: s(during),
                message: s(message),
            },
            ErrorKind::Io { during, error } => ErrorKind::Io {
                during: s(during),
                error: s(error),
            },
            ErrorKind::Surface(i) => ErrorKind::Surface(self.scrub_input(i)),
            ErrorKind::Connect { url, error } => ErrorKind::Connect {
                url: s(url),
                error: s(error),
            },
            ErrorKind::Http {
                during,
                status,
                problem,
                fix,
            } => ErrorKind::Http {
                during: s(during),
                status,
                problem: s(problem),
                fix: s(fix),
            },
            ErrorKind::TooLarge { during, limit } => ErrorKind::TooLarge {
                during: s(during),
                limit,
            },
        };
        DriverError {
            kind: Box::new(kind),
            command: s(e.command),
            stderr_tail: s(e.stderr_tail),
            exit_status: e.exit_status.map(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn secrets() -> Secrets {
        let mut s = Secrets::default();
        s.add("TOPSECRET-123456", "${API_KEY}");
        s.add("TOPSECRET", "${SHORTER}");
        s.add("3000", "${PORT}");
        s.add_word("--api-key=TOPSECRET-123456", "--api-key=${API_KEY}");
        s.add_word("--port=3000", "--port=${PORT}");
        s
    }

    #[test]
    fn longest_values_first_and_short_ones_left_in_free_text() {
        let s = secrets();
        assert_eq!(
            s.scrub("key TOPSECRET-123456 and TOPSECRET on port 3000"),
            "key ${API_KEY} and ${SHORTER} on port 3000"
        );
        assert_eq!(s.shown("--port=3000"), "--port=${PORT}");
        assert_eq!(
            s.shown("--api-key=TOPSECRET-123456"),
            "--api-key=${API_KEY}"
        );
        assert_eq!(s.shown("x=TOPSECRET-123456"), "x=${API_KEY}");
        assert!(!format!("{s:?}").contains("TOPSECRET"));
    }

    #[test]
    fn values_and_errors_are_scrubbed_everywhere() {
        let s = secrets();
        let mut v =
            json!({"a": ["TOPSECRET-123456"], "TOPSECRET-123456": {"b": "x TOPSECRET-123456"}});
        s.scrub_value(&mut v);
        assert!(!v.to_string().contains("TOPSECRET"), "{v}");
        let e = DriverError {
            kind: Box::new(ErrorKind::Http {
                during: "initialize".into(),
                status: 400,
                problem: "Cannot POST /mcp/TOPSECRET-123456/sse".into(),
                fix: "f".into(),
            }),
            command: "srv --api-key=TOPSECRET-123456".into(),
            stderr_tail: "bad key TOPSECRET-123456".into(),
            exit_status: None,
        };
        let shown = s.scrub_error(e).to_string();
        assert!(!shown.contains("TOPSECRET"), "{shown}");
        assert!(shown.contains("/mcp/${API_KEY}/sse"), "{shown}");
    }
}
