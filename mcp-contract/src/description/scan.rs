//! The heuristics that flag a description: each looks for one kind of text
//! that has no business in an honest description and that tool-poisoning
//! attacks use, and returns the exact text and where it starts. They are
//! deliberately narrow (exact phrases, exact shapes): a description is
//! prose written for a model, and most of what a broad pattern would catch
//! in it is honest (`IMPORTANT: dates are ISO 8601`, "use list_issues
//! first"). Their false-flag rate on real servers' release histories is
//! measured (docs/check.md, "Description drift").

/// What a flag found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Flag {
    /// Invisible or bidirectional Unicode (zero-width, bidi overrides,
    /// tag characters, controls): text a person reviewing it does not see.
    Invisible,
    /// Text addressed to the model rather than describing the tool
    /// (`<IMPORTANT>`, "ignore previous instructions", "do not tell the user").
    Instruction,
    /// A reference to tools or servers other than this server's own
    /// (shadowing: steering how the model uses someone else's tool).
    CrossReference,
    /// A credential path (`~/.ssh/id_rsa`, `.aws/credentials`, an MCP
    /// client's configuration) or a string shaped like a secret.
    Credential,
    /// A long encoded run (base64, hex, a `data:` URI): content a reviewer cannot read.
    EncodedBlob,
}

impl Flag {
    pub const ALL: [Flag; 5] = [
        Flag::Invisible,
        Flag::Instruction,
        Flag::CrossReference,
        Flag::Credential,
        Flag::EncodedBlob,
    ];

    /// The flag's name in findings (the first of a finding's `values`).
    pub fn as_str(self) -> &'static str {
        match self {
            Flag::Invisible => "invisible-character",
            Flag::Instruction => "model-instruction",
            Flag::CrossReference => "cross-reference",
            Flag::Credential => "credential",
            Flag::EncodedBlob => "encoded-blob",
        }
    }

    /// What the text now does, for messages.
    pub fn what(self) -> &'static str {
        match self {
            Flag::Invisible => "an invisible or bidirectional character",
            Flag::Instruction => "text addressed to the model",
            Flag::CrossReference => "a reference to other tools or servers",
            Flag::Credential => "a credential path or a secret-looking string",
            Flag::EncodedBlob => "an encoded blob",
        }
    }
}

/// One finding in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub flag: Flag,
    /// Where it starts, in characters from the start of the text.
    pub start: usize,
    /// How many characters of the text it covers.
    pub len: usize,
    /// The exact text found (an invisible character as `U+XXXX NAME`; a
    /// long blob shortened to its first characters and its length).
    pub text: String,
}

/// Every hit in `text`, by position. `own` is the surface's own tool
/// names (a reference to them is no cross-reference).
pub fn scan(text: &str, own: &[&str]) -> Vec<Hit> {
    let chars: Vec<char> = text.chars().collect();
    let mut hits = invisible(&chars);
    let lower: Vec<char> = chars
        .iter()
        .map(|c| match c {
            '\u{2019}' | '\u{2018}' => '\'',
            c => c.to_lowercase().next().unwrap_or(*c),
        })
        .collect();
    hits.extend(instructions(&chars, &lower));
    hits.extend(cross_references(&chars, &lower, own));
    hits.extend(credentials(&chars, &lower));
    hits.extend(blobs(&chars));
    // longest first at each place, then drop what an earlier hit of the
    // same flag covers (`~/.ssh/id_rsa` is one finding, not three)
    hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.len), h.flag));
    let mut out: Vec<Hit> = vec![];
    for h in hits {
        let covered = out.iter().any(|o| {
            o.flag == h.flag
                && (o.text == h.text || (o.start <= h.start && h.start < o.start + o.len))
        });
        if !covered {
            out.push(h);
        }
    }
    out
}

fn invisible_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{00AD}' => "SOFT HYPHEN",
        '\u{061C}' => "ARABIC LETTER MARK",
        '\u{180E}' => "MONGOLIAN VOWEL SEPARATOR",
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' => "LEFT-TO-RIGHT MARK",
        '\u{200F}' => "RIGHT-TO-LEFT MARK",
        '\u{202A}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202B}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202C}' => "POP DIRECTIONAL FORMATTING",
        '\u{202D}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202E}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2060}' => "WORD JOINER",
        '\u{2061}'..='\u{2064}' => "INVISIBLE OPERATOR",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{FEFF}' => "ZERO WIDTH NO-BREAK SPACE",
        '\u{FFF9}'..='\u{FFFB}' => "INTERLINEAR ANNOTATION",
        '\u{E0000}'..='\u{E007F}' => "TAG CHARACTER",
        c if c.is_control() && !matches!(c, '\n' | '\r' | '\t') => "CONTROL CHARACTER",
        _ => return None,
    })
}

/// A pictograph an emoji sequence joins with U+200D.
fn pictograph(c: Option<&char>) -> bool {
    c.is_some_and(|&c| matches!(c as u32, 0x2600..=0x27BF | 0x1F000..=0x1FAFF) || c == '\u{FE0F}')
}

fn invisible(chars: &[char]) -> Vec<Hit> {
    let mut out = vec![];
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let Some(name) = invisible_name(c) else {
            i += 1;
            continue;
        };
        // the joiner inside an emoji sequence is what it is for
        if c == '\u{200D}'
            && pictograph(i.checked_sub(1).and_then(|j| chars.get(j)))
            && pictograph(chars.get(i + 1))
        {
            i += 1;
            continue;
        }
        // a run of the same kind is one finding (tag characters spell text)
        let start = i;
        while i < chars.len() && invisible_name(chars[i]) == Some(name) {
            i += 1;
        }
        let n = i - start;
        let mut text = format!("U+{:04X} {name}", c as u32);
        if n > 1 {
            text.push_str(&format!(" x{n}"));
        }
        out.push(Hit {
            flag: Flag::Invisible,
            start,
            len: n,
            text,
        });
    }
    out
}

/// Where `needle` (lower case) occurs in `lower` at a word boundary.
fn find_all(lower: &[char], needle: &str) -> Vec<usize> {
    find(lower, needle, true)
}

/// Where `needle` starts a word of `lower` (what follows it may continue the word).
fn find_prefix(lower: &[char], needle: &str) -> Vec<usize> {
    find(lower, needle, false)
}

fn find(lower: &[char], needle: &str, end_boundary: bool) -> Vec<usize> {
    let n: Vec<char> = needle.chars().collect();
    if n.is_empty() || n.len() > lower.len() {
        return vec![];
    }
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    (0..=lower.len() - n.len())
        .filter(|&i| lower[i..i + n.len()] == n[..])
        .filter(|&i| {
            (!word(n.first()) || !word(i.checked_sub(1).and_then(|j| lower.get(j))))
                && (!end_boundary || !word(n.last()) || !word(lower.get(i + n.len())))
        })
        .collect()
}

fn hit(flag: Flag, chars: &[char], start: usize, len: usize) -> Hit {
    Hit {
        flag,
        start,
        len,
        text: chars[start..(start + len).min(chars.len())]
            .iter()
            .collect(),
    }
}

/// Text with whitespace runs read as one space, with a map back to the original.
fn squeeze(lower: &[char]) -> (Vec<char>, Vec<usize>) {
    let mut out = vec![];
    let mut at = vec![];
    for (i, &c) in lower.iter().enumerate() {
        if c.is_whitespace() {
            if out.last() == Some(&' ') {
                continue;
            }
            out.push(' ');
        } else {
            out.push(c);
        }
        at.push(i);
    }
    (out, at)
}

/// Tags a poisoned description wraps its orders in.
const TAGS: &[&str] = &[
    "important",
    "system",
    "instructions",
    "instruction",
    "secret",
    "hidden",
    "admin",
    "critical",
    "sys",
    "system-prompt",
    "system_prompt",
];

/// Phrases addressed to the model, not describing the tool.
const ORDERS: &[&str] = &[
    "ignore previous",
    "ignore all previous",
    "ignore the previous",
    "ignore prior",
    "ignore all prior",
    "ignore the above",
    "ignore all above",
    "ignore all instructions",
    "ignore any instructions",
    "ignore any previous",
    "ignore your instructions",
    "ignore other instructions",
    "ignore all other instructions",
    "disregard previous",
    "disregard all previous",
    "disregard prior",
    "disregard the above",
    "disregard any previous",
    "disregard your instructions",
    "disregard all instructions",
    "forget previous instructions",
    "forget all previous",
    "forget your instructions",
    "do not tell the user",
    "don't tell the user",
    "never tell the user",
    "do not inform the user",
    "don't inform the user",
    "do not notify the user",
    "do not mention this to the user",
    "do not mention it to the user",
    "don't mention this to the user",
    "do not reveal this to the user",
    "do not show this to the user",
    "do not disclose this to the user",
    "without telling the user",
    "without informing the user",
    "without notifying the user",
    "without alerting the user",
    "without the user knowing",
    "without the user's knowledge",
    "hide this from the user",
    "keep this from the user",
    "the user must not know",
    "the user should not know",
    "the user must not see",
    "the user should not see",
    "not visible to the user",
    "you are now",
    "your new instructions",
    "new instructions:",
    "override your instructions",
    "override previous instructions",
];

fn instructions(chars: &[char], lower: &[char]) -> Vec<Hit> {
    let mut out = vec![];
    // <IMPORTANT>, </system>, [SYSTEM]; and HTML comments, hidden when rendered
    for (i, &c) in lower.iter().enumerate() {
        if c == '<' && lower.get(i + 1..i + 4) == Some(&['!', '-', '-']) {
            let end = (i + 4..lower.len())
                .find(|&j| lower.get(j..j + 3) == Some(&['-', '-', '>']))
                .map_or(lower.len(), |j| j + 3);
            out.push(hit(Flag::Instruction, chars, i, (end - i).min(60)));
            continue;
        }
        let close = match c {
            '<' => '>',
            '[' => ']',
            _ => continue,
        };
        let mut j = i + 1;
        if lower.get(j) == Some(&'/') {
            j += 1;
        }
        let name_start = j;
        while lower
            .get(j)
            .is_some_and(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
        {
            j += 1;
        }
        let name: String = lower[name_start..j].iter().collect();
        if !TAGS.contains(&name.as_str()) {
            continue;
        }
        // attributes of a tag, up to its end on the same line
        let end = (j..lower.len().min(j + 40))
            .find(|&k| lower[k] == close || lower[k] == '\n')
            .filter(|&k| lower[k] == close);
        let Some(end) = end else { continue };
        if close == ']' && end != j {
            continue;
        }
        // `<IMPORTANT>`, `[SYSTEM]`, or a tag with its closing tag: honest
        // prose says "<important> issues" in lower case and closes nothing
        let shouted = chars[name_start..j].iter().all(|c| !c.is_lowercase());
        let closing: Vec<char> = format!("</{name}").chars().collect();
        let closed = lower
            .windows(closing.len())
            .any(|w| w == closing.as_slice());
        // a closing tag is the same finding as its opening one
        let opening: Vec<char> = format!("<{name}").chars().collect();
        let opened = name_start == i + 2
            && lower
                .windows(opening.len())
                .any(|w| w == opening.as_slice());
        if (shouted || closed) && !opened {
            out.push(hit(Flag::Instruction, chars, i, end + 1 - i));
        }
    }
    let (sq, at) = squeeze(lower);
    for phrase in ORDERS {
        for i in find_all(&sq, phrase) {
            let start = at[i];
            let last = at[i + phrase.chars().count() - 1];
            out.push(hit(Flag::Instruction, chars, start, last + 1 - start));
        }
    }
    out
}

/// Phrases that address tools or servers in general.
const OTHERS: &[&str] = &[
    "other tools",
    "any other tool",
    "all other tools",
    "every other tool",
    "other mcp servers",
    "other mcp server",
    "another mcp server",
    "other servers",
    "another server",
    "all tools",
    "every tool",
    "any tool",
];

/// The length of `chars[start..end]` without the sentence's full stop.
fn trimmed(chars: &[char], start: usize, mut end: usize) -> usize {
    while end > start + 1 && matches!(chars[end - 1], '.' | ',') {
        end -= 1;
    }
    end - start
}

fn identifier_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// Looks like a tool name rather than a word: it has `_`, `-`, or an upper
/// case letter after a lower case one.
fn tool_like(name: &str) -> bool {
    name.len() > 2
        && name.chars().any(|c| c.is_ascii_alphabetic())
        && (name.contains('_')
            || name.contains('-')
            || name
                .as_bytes()
                .windows(2)
                .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase()))
}

fn cross_references(chars: &[char], lower: &[char], own: &[&str]) -> Vec<Hit> {
    let mut out = vec![];
    let (sq, at) = squeeze(lower);
    for phrase in OTHERS {
        for i in find_all(&sq, phrase) {
            let start = at[i];
            let last = at[i + phrase.chars().count() - 1];
            out.push(hit(Flag::CrossReference, chars, start, last + 1 - start));
        }
    }
    // `mcp__server__tool`: a client's name for another server's tool
    for i in find_prefix(lower, "mcp__") {
        let mut j = i;
        while j < chars.len() && identifier_char(chars[j]) {
            j += 1;
        }
        out.push(hit(Flag::CrossReference, chars, i, trimmed(chars, i, j)));
    }
    // "the `send_email` tool", "send_email tool": a tool this server does not have
    let mut i = 0;
    while i < chars.len() {
        if !identifier_char(chars[i]) || (i > 0 && identifier_char(chars[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && identifier_char(chars[i]) {
            i += 1;
        }
        let name: String = chars[start..i].iter().collect();
        let name = name.trim_end_matches('.');
        let quoted = start > 0 && matches!(chars[start - 1], '`' | '"' | '\'');
        let after =
            i + usize::from(quoted && i < chars.len() && matches!(chars[i], '`' | '"' | '\''));
        let follows: String = lower[after.min(lower.len())..(after + 6).min(lower.len())]
            .iter()
            .collect();
        if tool_like(name)
            && (follows.starts_with(" tool") || follows.starts_with(" mcp"))
            && !own.contains(&name)
        {
            out.push(hit(
                Flag::CrossReference,
                chars,
                start,
                name.chars().count(),
            ));
        }
    }
    out
}

/// Files that hold credentials, and MCP clients' configurations.
const CREDENTIAL_PATHS: &[&str] = &[
    "~/.ssh",
    ".ssh/",
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    ".aws/credentials",
    ".aws/config",
    "/etc/passwd",
    "/etc/shadow",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".kube/config",
    ".docker/config.json",
    ".gnupg",
    "claude_desktop_config.json",
    ".cursor/mcp.json",
    "mcp.json",
    "wallet.dat",
    "keychain",
];

/// Prefixes of secrets with a known shape, and how many characters of the
/// secret's alphabet must follow.
const SECRET_SHAPES: &[(&str, usize)] = &[
    ("ghp_", 30),
    ("gho_", 30),
    ("ghs_", 30),
    ("ghu_", 30),
    ("github_pat_", 30),
    ("sk-", 32),
    ("sk_live_", 20),
    ("xoxb-", 20),
    ("xoxp-", 20),
    ("akia", 16),
    ("aiza", 30),
    ("-----begin", 0),
];

fn credentials(chars: &[char], lower: &[char]) -> Vec<Hit> {
    let mut out = vec![];
    for path in CREDENTIAL_PATHS {
        for i in find_all(lower, path) {
            let mut j = i + path.chars().count();
            while j < chars.len() && (identifier_char(chars[j]) || chars[j] == '/') {
                j += 1;
            }
            out.push(hit(Flag::Credential, chars, i, trimmed(chars, i, j)));
        }
    }
    for (prefix, min) in SECRET_SHAPES {
        for i in find_prefix(lower, prefix) {
            let mut j = i + prefix.chars().count();
            while j < chars.len()
                && (chars[j].is_ascii_alphanumeric() || matches!(chars[j], '_' | '-'))
            {
                j += 1;
            }
            let tail = j - i - prefix.chars().count();
            let shaped = if *prefix == "-----begin" {
                lower[i..]
                    .iter()
                    .take(60)
                    .collect::<String>()
                    .contains("private key")
            } else {
                tail >= *min
                    && chars[i + prefix.len()..j]
                        .iter()
                        .any(|c| c.is_ascii_digit())
            };
            if shaped {
                out.push(hit(Flag::Credential, chars, i, (j - i).min(60)));
            }
        }
    }
    out
}

fn blobs(chars: &[char]) -> Vec<Hit> {
    let mut out = vec![];
    let lower: String = chars.iter().collect::<String>().to_lowercase();
    if let Some(at) = lower.find(";base64,") {
        let start = lower[..at].rfind("data:").unwrap_or(at);
        let start_char = lower[..start].chars().count();
        out.push(shortened(
            chars,
            start_char,
            lower[start..]
                .chars()
                .take_while(|c| !c.is_whitespace())
                .count(),
        ));
    }
    let b64 = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '/' | '=' | '_' | '-');
    let mut i = 0;
    while i < chars.len() {
        if !b64(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && b64(chars[i]) {
            i += 1;
        }
        let run = &chars[start..i];
        let hex = run.iter().all(|c| c.is_ascii_hexdigit());
        let mixed = run.iter().any(|c| c.is_ascii_uppercase())
            && run.iter().any(|c| c.is_ascii_lowercase())
            && run.iter().any(|c| c.is_ascii_digit());
        // a path or an identifier is words joined by separators: a blob has long unbroken stretches
        let longest_word = run
            .split(|c| matches!(c, '/' | '_' | '-'))
            .map(<[char]>::len)
            .max()
            .unwrap_or(0);
        if (hex && run.len() >= 64) || (mixed && run.len() >= 48 && longest_word >= 40) {
            out.push(shortened(chars, start, run.len()));
        }
    }
    out
}

fn shortened(chars: &[char], start: usize, len: usize) -> Hit {
    let shown: String = chars[start..start + len.min(24)].iter().collect();
    Hit {
        flag: Flag::EncodedBlob,
        start,
        len,
        text: if len > 24 {
            format!("{shown}... ({len} characters)")
        } else {
            shown
        },
    }
}

/// `line:column` (1-based, in characters) of character `start` of `text`.
pub fn position(text: &str, start: usize) -> (usize, usize) {
    let mut line = 1;
    let mut col = 1;
    for c in text.chars().take(start) {
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}
