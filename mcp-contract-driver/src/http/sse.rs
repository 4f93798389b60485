//! Server-sent events, as MCP's HTTP transports use them: `event:` names the
//! event (`message` by default, `endpoint` for the legacy transport's first
//! event), `data:` lines carry one JSON-RPC message, a blank line ends the
//! event, `:` lines are comments (keep-alives). Reading is bounded: a line
//! longer than the limit, or more bytes in total than the limit, is an
//! error rather than a growing buffer.

use std::io::{self, BufRead};

/// One event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The event type (`message` when not given).
    pub event: String,
    /// The data lines joined with `\n`.
    pub data: String,
}

/// Why reading stopped without an event.
#[derive(Debug)]
pub enum ReadError {
    /// The stream ended.
    Eof,
    /// More than the limit was read.
    TooLarge(u64),
    Io(io::Error),
}

/// Reads events from a byte stream, at most `limit` bytes in all.
pub struct EventReader<R> {
    reader: R,
    limit: u64,
    read: u64,
}

impl<R: BufRead> EventReader<R> {
    pub fn new(reader: R, limit: u64) -> Self {
        EventReader {
            reader,
            limit,
            read: 0,
        }
    }

    /// Starts counting toward the limit afresh (per event, for a stream
    /// that lives as long as the session).
    pub fn reset_count(&mut self) {
        self.read = 0;
    }

    /// The next event with data (events without data, or with empty data,
    /// are skipped, as the SSE specification says).
    pub fn next_event(&mut self) -> Result<Event, ReadError> {
        let mut event = String::new();
        let mut data: Option<String> = None;
        loop {
            let line = self.line()?;
            let line = String::from_utf8_lossy(&line);
            let line = line.strip_suffix('\r').unwrap_or(&line);
            if line.is_empty() {
                // An empty data buffer dispatches nothing (the HTML
                // specification's rule; MCP servers send such a priming
                // event with only an `id` for resumability).
                if let Some(data) = data.take().filter(|d| !d.is_empty()) {
                    let event = if event.is_empty() {
                        "message".to_string()
                    } else {
                        std::mem::take(&mut event)
                    };
                    return Ok(Event { event, data });
                }
                event.clear();
                continue;
            }
            if line.starts_with(':') {
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                None => (line, ""),
            };
            match field {
                "event" => event = value.to_string(),
                "data" => match &mut data {
                    Some(d) => {
                        d.push('\n');
                        d.push_str(value);
                    }
                    None => data = Some(value.to_string()),
                },
                _ => {}
            }
        }
    }

    /// One line without its `\n`, bounded by what is left of the limit.
    fn line(&mut self) -> Result<Vec<u8>, ReadError> {
        let mut out = Vec::new();
        loop {
            let buf = match self.reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(ReadError::Io(e)),
            };
            if buf.is_empty() {
                return if out.is_empty() {
                    Err(ReadError::Eof)
                } else {
                    Ok(out)
                };
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], Some(i + 1)),
                None => (buf, None),
            };
            let take = done.unwrap_or(chunk.len());
            self.read += take as u64;
            if self.read > self.limit {
                return Err(ReadError::TooLarge(self.limit));
            }
            out.extend_from_slice(chunk);
            self.reader.consume(take);
            if done.is_some() {
                return Ok(out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_events_comments_and_multiline_data() {
        let text = ": keep-alive\n\nid: 1\ndata: \n\nevent: endpoint\ndata: /messages?s=1\n\ndata: {\"a\":\ndata: 1}\r\n\r\nevent: x\n\n";
        let mut r = EventReader::new(text.as_bytes(), 1 << 20);
        assert_eq!(
            r.next_event().unwrap(),
            Event {
                event: "endpoint".into(),
                data: "/messages?s=1".into()
            }
        );
        assert_eq!(
            r.next_event().unwrap(),
            Event {
                event: "message".into(),
                data: "{\"a\":\n1}".into()
            }
        );
        assert!(matches!(r.next_event(), Err(ReadError::Eof)));
    }

    #[test]
    fn stops_at_the_limit() {
        let text = "data: ".to_string() + &"x".repeat(100) + "\n\n";
        let mut r = EventReader::new(text.as_bytes(), 50);
        assert!(matches!(r.next_event(), Err(ReadError::TooLarge(50))));
        let endless = std::io::repeat(b':');
        let mut r = EventReader::new(std::io::BufReader::new(endless), 4096);
        assert!(matches!(r.next_event(), Err(ReadError::TooLarge(4096))));
    }
}
