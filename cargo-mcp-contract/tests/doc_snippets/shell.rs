//! The shell lines of a snippet, split the way a POSIX shell would (quotes,
//! backslash-newline, `#` comments, `&&`/`||`/`;`/`|` between commands),
//! without running anything.

/// One simple command: `NAME=VALUE` assignments, then the words.
#[derive(Debug, PartialEq)]
pub struct Command {
    pub env: Vec<(String, String)>,
    pub words: Vec<String>,
}

/// The commands of a script, in order. Unbalanced quotes are an error.
pub fn commands(script: &str) -> Result<Vec<Command>, String> {
    let script = script.replace("\\\n", " ");
    let mut out = Vec::new();
    for line in script.lines() {
        let mut words: Vec<String> = Vec::new();
        let mut word: Option<String> = None;
        let mut chars = line.chars().peekable();
        let flush = |word: &mut Option<String>, words: &mut Vec<String>| {
            if let Some(w) = word.take() {
                words.push(w);
            }
        };
        while let Some(c) = chars.next() {
            match c {
                '\'' | '"' => {
                    let w = word.get_or_insert_with(String::new);
                    loop {
                        match chars.next() {
                            Some(q) if q == c => break,
                            Some('\\') if c == '"' => w.extend(chars.next()),
                            Some(ch) => w.push(ch),
                            None => return Err(format!("unbalanced {c} in `{line}`")),
                        }
                    }
                }
                '\\' => word.get_or_insert_with(String::new).extend(chars.next()),
                '#' if word.is_none() => break,
                c if c.is_whitespace() => flush(&mut word, &mut words),
                '&' | '|' | ';' => {
                    flush(&mut word, &mut words);
                    if chars.peek() == Some(&c) {
                        chars.next();
                    }
                    words.push(";".into());
                }
                c => word.get_or_insert_with(String::new).push(c),
            }
        }
        flush(&mut word, &mut words);
        for part in words.split(|w| w == ";") {
            let mut env = Vec::new();
            let mut rest = part;
            while let Some((first, tail)) = rest.split_first() {
                match first.split_once('=') {
                    Some((name, value))
                        if !name.is_empty()
                            && name.chars().all(|c| c.is_ascii_uppercase() || c == '_') =>
                    {
                        env.push((name.to_string(), value.to_string()));
                        rest = tail;
                    }
                    _ => break,
                }
            }
            if !rest.is_empty() || !env.is_empty() {
                out.push(Command {
                    env,
                    words: rest.to_vec(),
                });
            }
        }
    }
    Ok(out)
}

#[test]
fn words_quotes_comments_and_separators() {
    let c = commands(
        "A=1 cargo test -p x \\\n  --test 'slow_*' -- --nocapture  # why\n\
         cd d && run \"a b\" | head -1; export T=...\n# only a comment\n",
    )
    .unwrap();
    let words: Vec<Vec<&str>> = c
        .iter()
        .map(|c| c.words.iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        words,
        [
            vec![
                "cargo",
                "test",
                "-p",
                "x",
                "--test",
                "slow_*",
                "--",
                "--nocapture"
            ],
            vec!["cd", "d"],
            vec!["run", "a b"],
            vec!["head", "-1"],
            vec!["export", "T=..."],
        ]
    );
    assert_eq!(c[0].env, [("A".to_string(), "1".to_string())]);
    assert!(commands("echo 'open").is_err());
}
