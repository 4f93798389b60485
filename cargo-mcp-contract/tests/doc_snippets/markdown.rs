//! The snippets of a Markdown page: fenced code blocks (with their info
//! string and the `<!-- checked-by: PATH -->` marker a block may carry on
//! the line above it) and inline code spans.

/// One fenced code block.
pub struct Block {
    /// `README.md` or `docs/NAME.md`, as the failure messages name it.
    pub file: String,
    /// 1-based line of the opening fence.
    pub line: usize,
    /// The info string: `sh`, `toml`, ... (empty when none).
    pub lang: String,
    /// The block's text, the fence's indentation taken off each line.
    pub text: String,
    /// `PATH` of a `<!-- checked-by: PATH -->` line right above the fence.
    pub checked_by: Option<String>,
}

/// One inline code span outside the fenced blocks.
pub struct Span {
    pub file: String,
    pub line: usize,
    pub text: String,
}

/// Every fenced block and inline code span of `text`. An unclosed fence is
/// an error naming its line (a block nobody could check).
pub fn read(file: &str, text: &str) -> Result<(Vec<Block>, Vec<Span>), String> {
    let mut blocks = Vec::new();
    let mut spans = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let indent = line.len() - line.trim_start().len();
        if let Some(info) = line.trim_start().strip_prefix("```") {
            let start = i;
            let mut body = Vec::new();
            i += 1;
            loop {
                let Some(l) = lines.get(i) else {
                    return Err(format!(
                        "{file}:{}: a code block is never closed",
                        start + 1
                    ));
                };
                if l.trim_start().starts_with("```") {
                    break;
                }
                body.push(l.get(indent..).unwrap_or(l.trim_start()));
                i += 1;
            }
            let checked_by = start
                .checked_sub(1)
                .and_then(|p| lines[p].trim().strip_prefix("<!-- checked-by:"))
                .and_then(|m| m.strip_suffix("-->"))
                .map(|m| m.trim().to_string());
            blocks.push(Block {
                file: file.to_string(),
                line: start + 1,
                lang: info.trim().to_string(),
                text: body.join("\n") + "\n",
                checked_by,
            });
        } else {
            for (n, part) in line.split('`').enumerate() {
                if n % 2 == 1 && !part.is_empty() {
                    spans.push(Span {
                        file: file.to_string(),
                        line: i + 1,
                        text: part.to_string(),
                    });
                }
            }
        }
        i += 1;
    }
    Ok((blocks, spans))
}

#[test]
fn blocks_and_spans_are_found_with_their_lines() {
    let page = "Run `cargo test`.\n\n<!-- checked-by: tests/x.rs -->\n  ```sh\n  a\n    b\n  ```\n";
    let (blocks, spans) = read("p.md", page).unwrap();
    assert_eq!(spans.len(), 1);
    assert_eq!((spans[0].line, spans[0].text.as_str()), (1, "cargo test"));
    assert_eq!(blocks.len(), 1);
    let b = &blocks[0];
    assert_eq!(
        (b.line, b.lang.as_str(), b.text.as_str()),
        (4, "sh", "a\n  b\n")
    );
    assert_eq!(b.checked_by.as_deref(), Some("tests/x.rs"));
    assert!(read("p.md", "```sh\nnever closed\n").is_err());
}
