//! Who made a call, as far as the server knows: the client's own name and
//! version from the MCP `initialize` request (`clientInfo`), and a label the
//! server may add (an agent, a tenant, a batch job's name). Usage is counted
//! per caller because "nobody calls the old name any more" is a statement
//! about every client, and the one that still does has to be named.
//!
//! Borrowed, so passing it costs nothing on the request path; names only,
//! never anything from the call's arguments.

use std::fmt;

/// The longest client name, version or label kept (in bytes); longer text
/// is cut at a character boundary. A client chooses its own `clientInfo`.
pub const MAX_NAME: usize = 128;

/// The client key of a caller that does not name itself.
pub const UNKNOWN_CLIENT: &str = "unknown";

/// The caller of one tool call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Caller<'a> {
    /// `clientInfo.name` from `initialize`.
    pub name: Option<&'a str>,
    /// `clientInfo.version` from `initialize`.
    pub version: Option<&'a str>,
    /// A label the server supplies (agent, tenant), when it has one.
    pub agent: Option<&'a str>,
}

impl<'a> Caller<'a> {
    /// A caller that does not name itself (what `Compat::prepare` reports).
    pub const UNKNOWN: Caller<'static> = Caller {
        name: None,
        version: None,
        agent: None,
    };

    /// The client as it named itself in `initialize`.
    pub fn client(name: &'a str, version: &'a str) -> Caller<'a> {
        Caller {
            name: Some(name),
            version: Some(version),
            agent: None,
        }
    }

    /// The same caller with the server's agent (or tenant) label.
    pub fn with_agent(self, agent: &'a str) -> Caller<'a> {
        Caller {
            agent: Some(agent),
            ..self
        }
    }

    /// The name, if it is not empty, cut to [`MAX_NAME`].
    pub fn name(&self) -> Option<&'a str> {
        clean(self.name)
    }

    /// The version, if it is not empty, cut to [`MAX_NAME`].
    pub fn version(&self) -> Option<&'a str> {
        clean(self.version)
    }

    /// The agent label, if it is not empty, cut to [`MAX_NAME`].
    pub fn agent(&self) -> Option<&'a str> {
        clean(self.agent)
    }

    /// The client as usage evidence names it: `name/version`
    /// (`claude-desktop/1.2`), `name` without a version, `unknown` without
    /// a name. The agent label is not part of it.
    pub fn client_key(&self) -> ClientKey<'a> {
        ClientKey(self.name(), self.version())
    }
}

/// [`Caller::client_key`], written without allocating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientKey<'a>(Option<&'a str>, Option<&'a str>);

impl fmt::Display for ClientKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0, self.1) {
            (None, _) => f.write_str(UNKNOWN_CLIENT),
            (Some(n), None) => f.write_str(n),
            (Some(n), Some(v)) => write!(f, "{n}/{v}"),
        }
    }
}

fn clean(s: Option<&str>) -> Option<&str> {
    let s = s?.trim();
    if s.is_empty() {
        return None;
    }
    let mut end = s.len().min(MAX_NAME);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    Some(&s[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_keys_as_the_evidence_names_them() {
        let c = Caller::client("claude-desktop", "1.2");
        assert_eq!(c.client_key().to_string(), "claude-desktop/1.2");
        assert_eq!(
            c.with_agent("nightly").client_key().to_string(),
            "claude-desktop/1.2",
            "the agent label is not part of the client key"
        );
        assert_eq!(Caller::UNKNOWN.client_key().to_string(), "unknown");
        assert_eq!(
            Caller::client("  ", "1").client_key().to_string(),
            "unknown"
        );
        assert_eq!(
            Caller::client("batch", "").client_key().to_string(),
            "batch"
        );
    }

    #[test]
    fn long_names_are_cut_at_a_character_boundary() {
        let long = "é".repeat(MAX_NAME);
        let c = Caller::client(&long, "1");
        let name = c.name().unwrap();
        assert!(name.len() <= MAX_NAME && name.len() >= MAX_NAME - 1);
        assert!(long.starts_with(name));
    }
}
