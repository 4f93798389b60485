//! Where the server is: a command to start (stdio) or a URL to connect to
//! (Streamable HTTP, or the legacy HTTP+SSE transport), with the headers to
//! send. Header values are secrets: `${VAR}` in them is expanded from the
//! environment when the endpoint is built, and neither the value nor the
//! expansion is ever printed, recorded or put into an error (only header
//! names are). The URL shown in messages has its user info and query
//! removed for the same reason, and shows `${VAR}` where a configuration's
//! URL read a variable. Every value expanded, every header value, the user
//! info and the query are recorded in the endpoint's [`Secrets`], which the
//! session scrubs from all the server says ([`crate::secret`]).

use std::fmt;

use crate::command::ServerCommand;
use crate::secret::Secrets;

/// How to reach the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// Start a command and speak MCP over its stdio.
    Command(ServerCommand),
    /// Connect to a running server over HTTP.
    Http(HttpEndpoint),
}

impl From<&ServerCommand> for Endpoint {
    fn from(c: &ServerCommand) -> Self {
        Endpoint::Command(c.clone())
    }
}

impl From<ServerCommand> for Endpoint {
    fn from(c: ServerCommand) -> Self {
        Endpoint::Command(c)
    }
}

impl From<&Endpoint> for Endpoint {
    fn from(e: &Endpoint) -> Self {
        e.clone()
    }
}

impl From<HttpEndpoint> for Endpoint {
    fn from(h: HttpEndpoint) -> Self {
        Endpoint::Http(h)
    }
}

impl Endpoint {
    /// The values never to show for this endpoint.
    pub fn secrets(&self) -> &Secrets {
        match self {
            Endpoint::Command(c) => &c.secrets,
            Endpoint::Http(h) => &h.secrets,
        }
    }
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Endpoint::Command(c) => c.fmt(f),
            Endpoint::Http(h) => h.fmt(f),
        }
    }
}

/// Which HTTP transport to speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HttpTransport {
    /// Streamable HTTP, falling back to the legacy HTTP+SSE transport when
    /// the server refuses the first POST with 400, 404 or 405 (the
    /// specification's backwards-compatibility procedure).
    #[default]
    Auto,
    /// Streamable HTTP only (MCP 2025-03-26 and later).
    Streamable,
    /// The legacy HTTP+SSE transport (MCP 2024-11-05): GET an event stream,
    /// POST to the endpoint it names.
    Sse,
}

impl HttpTransport {
    pub const NAMES: &'static [&'static str] = &["auto", "streamable-http", "sse"];

    pub fn parse(s: &str) -> Option<HttpTransport> {
        match s {
            "auto" => Some(HttpTransport::Auto),
            "streamable-http" | "http" => Some(HttpTransport::Streamable),
            "sse" => Some(HttpTransport::Sse),
            _ => None,
        }
    }
}

/// A header to send with every request. The value never leaves this struct
/// except onto the wire.
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    value: String,
}

impl Header {
    /// The value, for the HTTP client only.
    pub(crate) fn value(&self) -> &str {
        &self.value
    }
}

impl fmt::Debug for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: <redacted>", self.name)
    }
}

/// A URL to connect to and the headers to send.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpEndpoint {
    /// The URL as given (may hold secrets in its query: see [`HttpEndpoint::shown`]).
    pub url: String,
    pub headers: Vec<Header>,
    pub transport: HttpTransport,
    /// Header values, expanded variables, user info and query.
    pub secrets: Secrets,
}

/// A header that cannot be used, with why (never the value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderError {
    pub message: String,
    pub fix: String,
}

impl HttpEndpoint {
    /// Checks the URL (http or https, with a host).
    pub fn new(url: &str) -> Result<HttpEndpoint, HeaderError> {
        HttpEndpoint::with_secrets(url, Secrets::default())
    }

    /// Like [`HttpEndpoint::new`] for a URL that `secrets` says how to show
    /// (expanded from `${VAR}`s).
    pub fn with_secrets(url: &str, mut secrets: Secrets) -> Result<HttpEndpoint, HeaderError> {
        let lower = url.to_ascii_lowercase();
        let rest = lower
            .strip_prefix("http://")
            .or_else(|| lower.strip_prefix("https://"));
        match rest {
            Some(r) if !r.is_empty() && !r.starts_with('/') => {
                record_url_secrets(url, &mut secrets);
                Ok(HttpEndpoint {
                    url: url.to_string(),
                    headers: vec![],
                    transport: HttpTransport::Auto,
                    secrets,
                })
            }
            _ => Err(HeaderError {
                message: format!(
                    "`{}` is not an http:// or https:// URL with a host",
                    shown_url(&secrets.shown(url))
                ),
                fix: "give the server's MCP endpoint, e.g. --url http://127.0.0.1:3001/mcp".into(),
            }),
        }
    }

    /// Adds `NAME: VALUE` (from `--header`), expanding `${VAR}` from `env`.
    pub fn header(
        &mut self,
        spec: &str,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<(), HeaderError> {
        let Some((name, value)) = spec.split_once(':') else {
            return Err(HeaderError {
                message: "a header must be `NAME: VALUE`".into(),
                fix: "write it as --header \"Authorization: Bearer ${TOKEN}\"".into(),
            });
        };
        let name = name.trim();
        if name.is_empty() || !name.bytes().all(is_tchar) {
            return Err(HeaderError {
                message: format!("`{name}` is not a valid header name"),
                fix: "header names are letters, digits and !#$%&'*+-.^_`|~".into(),
            });
        }
        let value = expand(value.trim(), name, env, &mut self.secrets)?;
        if value.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
            return Err(HeaderError {
                message: format!("the value of header `{name}` contains a line break"),
                fix: "remove line breaks from the value (or from the variable it reads)".into(),
            });
        }
        self.secrets.add(&value, &format!("<{name} header>"));
        self.headers.push(Header {
            name: name.to_string(),
            value,
        });
        Ok(())
    }

    /// Adds a header whose value is already final (from a config file,
    /// after [`expand`]).
    pub fn raw_header(&mut self, name: &str, value: String) {
        self.secrets.add(&value, &format!("<{name} header>"));
        self.headers.push(Header {
            name: name.to_string(),
            value,
        });
    }

    /// Names of the headers given (for messages).
    pub fn header_names(&self) -> Vec<&str> {
        self.headers.iter().map(|h| h.name.as_str()).collect()
    }

    /// The URL without user info and query, as written, for messages.
    pub fn shown(&self) -> String {
        shown_url(&self.secrets.shown(&self.url))
    }
}

impl fmt::Debug for HttpEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HttpEndpoint")
            .field("url", &self.shown())
            .field("headers", &self.headers)
            .field("transport", &self.transport)
            .finish()
    }
}

impl fmt::Display for HttpEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown())
    }
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Records a URL's user info and query (secrets however they were given).
fn record_url_secrets(url: &str, secrets: &mut Secrets) {
    let cut = url.find(['?', '#']).unwrap_or(url.len());
    if let Some(query) = url[cut..].strip_prefix('?') {
        let query = query.split('#').next().unwrap_or("");
        secrets.add(query, "…");
    }
    let rest = url[..cut].split_once("://").map_or(&url[..cut], |(_, r)| r);
    let authority = &rest[..rest.find('/').unwrap_or(rest.len())];
    if let Some((user, _)) = authority.rsplit_once('@') {
        secrets.add(user, "…");
    }
}

/// `url` without `user:pass@` and without `?query` / `#fragment`.
pub fn shown_url(url: &str) -> String {
    let cut = url.find(['?', '#']).unwrap_or(url.len());
    let had_query = cut < url.len();
    let url = &url[..cut];
    let (scheme, rest) = match url.split_once("://") {
        Some((s, r)) => (Some(s), r),
        None => (None, url),
    };
    let host_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(host_end);
    let authority = match authority.rsplit_once('@') {
        Some((_, host)) => host,
        None => authority,
    };
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push_str("://");
    }
    out.push_str(authority);
    out.push_str(path);
    if had_query {
        out.push_str("?…");
    }
    out
}

/// Expands `${VAR}` in `value` from `env`; `$$` is a literal `$`. A missing
/// variable is an error naming it (and the header), never the value. Each
/// variable's value is recorded in `secrets` (shown as `${VAR}`), and so is
/// the whole expanded text (shown as `value`, as written).
pub fn expand(
    value: &str,
    header: &str,
    env: &dyn Fn(&str) -> Option<String>,
    secrets: &mut Secrets,
) -> Result<String, HeaderError> {
    let expanded = expand_text(value, header, env, secrets)?;
    secrets.add_word(&expanded, value);
    Ok(expanded)
}

fn expand_text(
    value: &str,
    header: &str,
    env: &dyn Fn(&str) -> Option<String>,
    secrets: &mut Secrets,
) -> Result<String, HeaderError> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if let Some(r) = after.strip_prefix('$') {
            out.push('$');
            rest = r;
        } else if let Some(r) = after.strip_prefix('{') {
            let Some(end) = r.find('}') else {
                return Err(HeaderError {
                    message: format!("header `{header}`: `${{` without a closing `}}`"),
                    fix: "write variables as ${NAME}".into(),
                });
            };
            let var = &r[..end];
            if var.is_empty() || !var.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return Err(HeaderError {
                    message: format!("header `{header}`: `${{{var}}}` is not a variable name"),
                    fix: "variable names are letters, digits and _".into(),
                });
            }
            match env(var) {
                Some(v) => {
                    secrets.add(&v, &format!("${{{var}}}"));
                    out.push_str(&v)
                }
                None => {
                    return Err(HeaderError {
                        message: format!("header `{header}` reads ${{{var}}}, which is not set"),
                        fix: format!("export {var} before running (its value is sent only to the server, never printed)"),
                    })
                }
            }
            rest = &r[end + 1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        (name == "TOKEN").then(|| "s3cr3t".to_string())
    }

    #[test]
    fn headers_expand_variables_and_never_show_values() {
        let mut e = HttpEndpoint::new("https://user:pw@example.com/mcp?key=abc").unwrap();
        e.header("Authorization: Bearer ${TOKEN}", &env).unwrap();
        assert_eq!(e.headers[0].value(), "Bearer s3cr3t");
        let shown = format!("{e} {e:?}");
        assert!(
            !shown.contains("s3cr3t") && !shown.contains("pw") && !shown.contains("abc"),
            "{shown}"
        );
        assert_eq!(e.shown(), "https://example.com/mcp?…");
        let err = e.header("X-Key: ${MISSING}", &env).unwrap_err();
        assert!(
            err.message.contains("${MISSING}") && err.fix.contains("export MISSING"),
            "{err:?}"
        );
        assert!(e.header("no colon", &env).is_err());
        assert!(e.header("Bad Name: x", &env).is_err());
        assert_eq!(
            expand("a$$b$c", "h", &env, &mut Secrets::default()).unwrap(),
            "a$b$c"
        );
        assert!(HttpEndpoint::new("ftp://x").is_err());
        assert!(HttpEndpoint::new("http://").is_err());
    }
}
