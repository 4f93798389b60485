//! Deciding `pattern` inclusion: does every string one JSON Schema pattern
//! accepts also match another? Patterns are ECMA-262 regular expressions
//! matched anywhere in the string (not anchored). The subset schemas use —
//! literals, classes, `\d`/`\w`/`\s`, `.`, anchors, groups, alternation,
//! quantifiers — is translated to `regex-automata` syntax with ECMA's
//! meaning (`\d` is ASCII, `.` excludes line terminators), compiled to DFAs
//! and compared through their product. Anything else (look-around,
//! back-references, `\b`, Unicode properties) or an automaton past the size
//! limits is [`Inclusion::Unknown`], with the reason: the caller stays
//! conservative and says so. Every step is linear in the automata's size,
//! and the sizes are bounded, so hostile patterns cannot make this hang.

use std::collections::{HashMap, VecDeque};

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::nfa::thompson;
use regex_automata::util::primitives::StateID;
use regex_automata::util::{start, syntax};
use regex_automata::{Anchored, MatchKind};

/// The longest pattern this module compiles.
const MAX_PATTERN_LEN: usize = 4096;
/// Heap a pattern's Thompson NFA may take. Counted repetition is expanded
/// there (`(a{100}){100}` is 10,000 copies), and determinization works on
/// sets of its states, so this bound is what keeps both fast: ~4,000 states,
/// far above real schema patterns (`^[0-9a-f]{64}$`, e-mail shapes, UUIDs).
const NFA_BYTES: usize = 192 << 10;
/// Memory a single DFA may take once built.
const DFA_BYTES: usize = 1 << 20;
/// Memory determinization may use beside the DFA (mostly the NFA state
/// sets of DFA states): its time is about proportional to this.
const DETERMINIZE_BYTES: usize = 256 << 10;
/// Product states explored before giving up.
const MAX_PRODUCT_STATES: usize = 50_000;

/// The answer to "does `a` accept only strings `b` accepts?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inclusion {
    Included,
    /// A string `a` accepts and `b` rejects.
    NotIncluded(String),
    /// Not decided, and why.
    Unknown(String),
}

/// A compiled pattern: the language of strings in which it matches somewhere.
pub struct Compiled {
    dfa: dense::DFA<Vec<u32>>,
    start: StateID,
}

impl Compiled {
    /// Compiles an ECMA-262 pattern (`None`: no pattern, every string).
    pub fn new(pattern: Option<&str>) -> Result<Compiled, String> {
        let translated = match pattern {
            Some(p) => translate(p)?,
            None => String::new(),
        };
        let whole = format!("(?s:.)*(?:{translated})(?s:.)*");
        let dfa = dense::Builder::new()
            .syntax(syntax::Config::new().utf8(true).unicode(true))
            .thompson(thompson::Config::new().nfa_size_limit(Some(NFA_BYTES)))
            .configure(
                dense::Config::new()
                    .match_kind(MatchKind::All)
                    .start_kind(StartKind::Anchored)
                    .dfa_size_limit(Some(DFA_BYTES))
                    .determinize_size_limit(Some(DETERMINIZE_BYTES)),
            )
            .build(&whole)
            .map_err(|e| {
                // the NFA error says only "error building NFA"; its source says which limit
                let why = match std::error::Error::source(&e) {
                    Some(source) => format!("{e}: {source}"),
                    None => e.to_string(),
                };
                format!("the pattern could not be compiled within the limits ({why})")
            })?;
        let start = dfa
            .start_state(&start::Config::new().anchored(Anchored::Yes))
            .map_err(|e| format!("no start state ({e})"))?;
        Ok(Compiled { dfa, start })
    }

    fn accepts_at_end(&self, s: StateID) -> bool {
        self.dfa.is_match_state(self.dfa.next_eoi_state(s))
    }

    /// The automaton's start state (for searches over several patterns at once).
    pub(crate) fn start(&self) -> StateID {
        self.start
    }

    /// The state after reading `byte` in state `s`.
    pub(crate) fn step(&self, s: StateID, byte: u8) -> StateID {
        self.dfa.next_state(s, byte)
    }

    /// Does no string lead from `s` to a match any more?
    pub(crate) fn is_dead(&self, s: StateID) -> bool {
        self.dfa.is_dead_state(s)
    }

    /// Does the text read so far (ending in state `s`) match?
    pub(crate) fn accepts(&self, s: StateID) -> bool {
        self.accepts_at_end(s)
    }

    /// Does the pattern match somewhere in `text`?
    pub fn is_match(&self, text: &str) -> bool {
        let mut s = self.start;
        for b in text.bytes() {
            s = self.dfa.next_state(s, b);
            if self.dfa.is_dead_state(s) {
                return false;
            }
        }
        self.accepts_at_end(s)
    }
}

/// Does every string `a` matches also match `b` (`None`: no pattern)?
pub fn includes(a: Option<&str>, b: Option<&str>) -> Inclusion {
    let (ca, cb) = match (Compiled::new(a), Compiled::new(b)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => return Inclusion::Unknown(e),
    };
    included(&ca, &cb)
}

/// Breadth-first search of the product automaton for a string `a` accepts
/// and `b` rejects; the first one found is among the shortest.
pub fn included(a: &Compiled, b: &Compiled) -> Inclusion {
    let mut parent: Parents = HashMap::new();
    let first = (a.start, b.start);
    parent.insert(first, None);
    let mut queue = VecDeque::from([first]);
    while let Some((sa, sb)) = queue.pop_front() {
        if a.accepts_at_end(sa) && !b.accepts_at_end(sb) {
            return Inclusion::NotIncluded(witness(&parent, (sa, sb)));
        }
        for byte in 0..=255u8 {
            let na = a.dfa.next_state(sa, byte);
            if a.dfa.is_dead_state(na) {
                continue;
            }
            let nb = b.dfa.next_state(sb, byte);
            if let std::collections::hash_map::Entry::Vacant(e) = parent.entry((na, nb)) {
                e.insert(Some(((sa, sb), byte)));
                if parent.len() > MAX_PRODUCT_STATES {
                    return Inclusion::Unknown(format!(
                        "comparing the patterns takes more than {MAX_PRODUCT_STATES} automaton states"
                    ));
                }
                queue.push_back((na, nb));
            }
        }
    }
    Inclusion::Included
}

type Parents = HashMap<(StateID, StateID), Option<((StateID, StateID), u8)>>;

fn witness(parent: &Parents, mut at: (StateID, StateID)) -> String {
    let mut bytes = vec![];
    while let Some(Some((prev, byte))) = parent.get(&at) {
        bytes.push(*byte);
        at = *prev;
    }
    bytes.reverse();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// ECMA-262 whitespace and line terminators (what `\s` matches).
const ECMA_SPACE: &str =
    r"\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// Translates the decidable ECMA-262 subset to `regex-syntax`, or says
/// which construct it does not decide.
pub fn translate(p: &str) -> Result<String, String> {
    if p.len() > MAX_PATTERN_LEN {
        return Err(format!(
            "the pattern is longer than {MAX_PATTERN_LEN} bytes"
        ));
    }
    let unsupported = |what: &str| {
        Err(format!(
            "the pattern uses {what}, which the engine does not decide"
        ))
    };
    let mut out = String::with_capacity(p.len() * 2);
    let chars: Vec<char> = p.chars().collect();
    let mut i = 0;
    let mut in_class = false;
    // inside a class: the last thing read can start a range (`a` of `a-z`),
    // and a range operator waits for its end
    let mut atom_before = false;
    let mut range_open = false;
    while i < chars.len() {
        let c = chars[i];
        // what this step reads inside a class: a single character (an
        // atom), a set (`\d`), or neither
        let mut class_item = None;
        match c {
            '\\' => {
                let Some(&e) = chars.get(i + 1) else {
                    return unsupported("a trailing backslash");
                };
                i += 1;
                class_item = Some(!matches!(e, 'd' | 'D' | 'w' | 'W' | 's' | 'S'));
                match (e, in_class) {
                    ('d', false) => out.push_str("[0-9]"),
                    ('d', true) => out.push_str("0-9"),
                    ('D', false) => out.push_str("[^0-9]"),
                    ('w', false) => out.push_str("[A-Za-z0-9_]"),
                    ('w', true) => out.push_str("A-Za-z0-9_"),
                    ('W', false) => out.push_str("[^A-Za-z0-9_]"),
                    ('s', false) => out.push_str(&format!("[{ECMA_SPACE}]")),
                    ('s', true) => out.push_str(ECMA_SPACE),
                    ('S', false) => out.push_str(&format!("[^{ECMA_SPACE}]")),
                    ('n' | 'r' | 't' | 'f' | 'v', _) => {
                        out.push('\\');
                        out.push(e);
                    }
                    ('0', _) if !chars.get(i + 1).is_some_and(char::is_ascii_digit) => {
                        out.push_str(r"\x00")
                    }
                    ('x', _) => {
                        let hex: String = chars.iter().skip(i + 1).take(2).collect();
                        if hex.len() != 2 || !hex.chars().all(|h| h.is_ascii_hexdigit()) {
                            return unsupported("a malformed `\\x` escape");
                        }
                        out.push_str(&format!(r"\x{{{hex}}}"));
                        i += 2;
                    }
                    ('u', _) => {
                        let hex: String = chars.iter().skip(i + 1).take(4).collect();
                        let code = (hex.len() == 4)
                            .then(|| u32::from_str_radix(&hex, 16).ok())
                            .flatten();
                        match code {
                            Some(c) if !(0xD800..0xE000).contains(&c) => {
                                out.push_str(&format!(r"\x{{{hex}}}"));
                                i += 4;
                            }
                            _ => {
                                return unsupported(
                                    "a `\\u` escape that is not one whole character",
                                )
                            }
                        }
                    }
                    // a control character: `\cJ` is U+000A
                    ('c', _) if chars.get(i + 1).is_some_and(char::is_ascii_alphabetic) => {
                        let letter = chars[i + 1] as u32;
                        out.push_str(&format!(r"\x{{{:02X}}}", letter % 32));
                        i += 1;
                    }
                    (e, _) if e.is_ascii_punctuation() => {
                        out.push('\\');
                        out.push(e);
                    }
                    ('b' | 'B', false) => return unsupported("a word boundary (`\\b`)"),
                    ('p' | 'P', _) => return unsupported("a Unicode property (`\\p{…}`)"),
                    (e, _) if e.is_ascii_digit() => return unsupported("a back-reference"),
                    (e, _) => return unsupported(&format!("the escape `\\{e}`")),
                }
            }
            '[' if !in_class => {
                in_class = true;
                (atom_before, range_open) = (false, false);
                out.push('[');
                if chars.get(i + 1) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                if chars.get(i + 1) == Some(&']') {
                    return unsupported("an empty class (`[]` or `[^]`)");
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            // ECMA reads `-` as a range operator only between two single
            // characters; anywhere else it is itself (regex-syntax reads
            // `--` as class difference, so a literal one is escaped)
            '-' if in_class
                && atom_before
                && !range_open
                && chars.get(i + 1).is_some_and(|&n| n != ']') =>
            {
                out.push('-');
                range_open = true;
                atom_before = false;
            }
            '[' | '&' | '~' | '-' if in_class => {
                out.push('\\');
                out.push(c);
                class_item = Some(true);
            }
            '.' if !in_class => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            '(' if !in_class => {
                let rest: String = chars.iter().skip(i + 1).take(3).collect();
                if rest.starts_with("?=")
                    || rest.starts_with("?!")
                    || rest.starts_with("?<=")
                    || rest.starts_with("?<!")
                {
                    return unsupported("a look-around assertion");
                }
                out.push('(');
            }
            _ => {
                out.push(c);
                class_item = Some(true);
            }
        }
        if in_class {
            if let Some(single) = class_item {
                // a range's end completes it: it starts no other range
                atom_before = single && !range_open;
                range_open = false;
            }
        }
        i += 1;
    }
    if in_class {
        return unsupported("an unterminated class");
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Patterns whose automata blow up: nested counted repetition (NFA size),
    /// alternations under stars counted again (determinization), and large
    /// Unicode classes repeated (UTF-8 automata per copy).
    const HOSTILE: &[&str] = &[
        "(a{100}){100}",
        "((a{100}){100}){100}",
        "((a|aa)*){1000}",
        "((a|aa)+b){1000}",
        "(a|b)*a(a|b){1000}",
        "[^a]{1000}",
        "[\\u0100-\\uffff]{1000}x",
        "(.{100}){100}",
        "(\\w|\\W){1000}[^\\u0000-\\u007f]{1000}",
    ];

    #[test]
    fn widening_narrowing_and_equal_languages() {
        assert_eq!(
            includes(Some("^[a-z]+$"), Some("^[a-z0-9]+$")),
            Inclusion::Included
        );
        assert!(matches!(
            includes(Some("^[a-z0-9]+$"), Some("^[a-z]+$")),
            Inclusion::NotIncluded(w) if w == "0"
        ));
        // unanchored: `a` matches everything containing an `a`
        assert_eq!(includes(Some("a"), Some("a|b")), Inclusion::Included);
        assert_eq!(
            includes(Some("^\\d{3}$"), Some("^[0-9]{3}$")),
            Inclusion::Included
        );
        assert_eq!(
            includes(Some("^[0-9]{3}$"), Some("^\\d{3}$")),
            Inclusion::Included
        );
        // no pattern accepts everything
        assert_eq!(includes(Some("^x"), None), Inclusion::Included);
        assert!(matches!(includes(None, Some("^x")), Inclusion::NotIncluded(w) if w.is_empty()));
        assert_eq!(includes(Some(".*"), None), Inclusion::Included);
        assert_eq!(includes(None, Some(".*")), Inclusion::Included);
    }

    #[test]
    fn ecma_meaning_of_classes() {
        // ECMA `\d` is ASCII only; `.` does not match a line break
        let c = Compiled::new(Some("^\\d$")).unwrap();
        assert!(c.is_match("7"));
        assert!(!c.is_match("٣"));
        let dot = Compiled::new(Some("^.$")).unwrap();
        assert!(dot.is_match("é"));
        assert!(!dot.is_match("\n"));
    }

    /// A `-` is a range operator only between two single characters:
    /// `[+--]` is `+` through `-`, and `[a-z--x]` adds `-` through `x`
    /// (digits among them) to `a-z`.
    #[test]
    fn dashes_in_classes_mean_what_ecma_says() {
        let plus_to_dash = Compiled::new(Some("^[+--]$")).unwrap();
        for ok in ["+", ",", "-"] {
            assert!(plus_to_dash.is_match(ok), "{ok}");
        }
        assert!(!plus_to_dash.is_match("a"));
        assert!(matches!(
            includes(Some("^[+--]$"), Some("^[+]$")),
            Inclusion::NotIncluded(_)
        ));
        let wide = Compiled::new(Some("^[a-z--x]+$")).unwrap();
        assert!(wide.is_match("0"));
        assert!(wide.is_match("q-"));
        assert!(matches!(
            includes(Some("^[a-z--x]+$"), Some("^[a-z]+$")),
            Inclusion::NotIncluded(_)
        ));
        for (p, yes, no) in [
            ("^[-a]$", "-", "b"),
            ("^[a-]$", "-", "b"),
            ("^[a-c-e]$", "-", "d"),
            ("^[\\d-z]$", "-", "y"),
            ("^[--/]$", ".", "0"),
        ] {
            let c = Compiled::new(Some(p)).unwrap();
            assert!(c.is_match(yes), "{p} must match {yes}");
            assert!(!c.is_match(no), "{p} must not match {no}");
        }
    }

    #[test]
    fn undecidable_constructs_say_why() {
        for p in ["(?=a)b", "(a)\\1", "\\bword", "\\p{L}", "[]"] {
            match includes(Some(p), Some("a")) {
                Inclusion::Unknown(why) => assert!(why.contains("the pattern"), "{p}: {why}"),
                other => panic!("{p}: {other:?}"),
            }
        }
    }

    /// Each of these once took seconds to minutes (or all memory) in the
    /// Thompson NFA or in determinization; each must now be refused by a
    /// size limit, with the reason. Termination only: the time is printed
    /// with `--nocapture`.
    #[test]
    fn automaton_blow_ups_are_refused_with_the_reason() {
        for p in HOSTILE {
            let started = std::time::Instant::now();
            match includes(Some(p), Some("^a+$")) {
                Inclusion::Unknown(why) => assert!(why.contains("limit"), "{p}: {why}"),
                other => panic!("{p}: {other:?}"),
            }
            // either side, and against itself
            assert!(
                matches!(includes(Some("^a+$"), Some(p)), Inclusion::Unknown(_)),
                "{p}"
            );
            assert!(
                matches!(includes(Some(p), Some(p)), Inclusion::Unknown(_)),
                "{p}"
            );
            // a figure for the note, not an assertion
            eprintln!("{p}: refused 3 times in {:?}", started.elapsed());
        }
    }

    /// The limits leave room for the long patterns real schemas use.
    #[test]
    fn real_long_patterns_are_still_decided() {
        let uuid = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";
        assert_eq!(
            includes(Some(uuid), Some("^[0-9a-f-]{36}$")),
            Inclusion::Included
        );
        assert_eq!(
            includes(Some("^.{1,255}$"), Some("^.{1,256}$")),
            Inclusion::Included
        );
        assert!(matches!(
            includes(Some("^.{1,256}$"), Some("^.{1,255}$")),
            Inclusion::NotIncluded(w) if w.chars().count() == 256
        ));
        assert_eq!(
            includes(Some("^[0-9a-f]{64}$"), Some("^\\w{64}$")),
            Inclusion::Included
        );
        let email = "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$";
        assert_eq!(includes(Some(email), Some("@")), Inclusion::Included);
    }

    #[test]
    fn hostile_patterns_are_bounded() {
        // exponential DFA blow-up is refused by the size limit, not computed
        let p = "(a|b)*a(a|b){20}";
        assert!(matches!(
            includes(Some(p), Some("a")),
            Inclusion::Unknown(_)
        ));
        let long = "a".repeat(MAX_PATTERN_LEN + 1);
        assert!(matches!(includes(Some(&long), None), Inclusion::Unknown(_)));
    }
}
