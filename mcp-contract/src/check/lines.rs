//! Where a change sits in the canonical lockfile text, as a 1-based line, so
//! CI annotations (GitHub, SARIF) land on the tool or field that changed.
//! The lockfile is rendered deterministically, so a key at depth `d` inside
//! a tool entry is the first line indented `6 + 2d` spaces that starts with
//! the quoted key.

/// The line of `pointer` inside `tool`'s entry; the tool's own line when the
/// pointer cannot be followed further; `None` when the tool is absent.
pub fn line_of(text: &str, tool: &str, pointer: &str) -> Option<usize> {
    let tool_key = format!(
        "    {}: {{",
        serde_json::to_string(tool).unwrap_or_default()
    );
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| *l == tool_key)?;
    let mut end = lines[start + 1..]
        .iter()
        .position(|l| *l == "    }" || *l == "    },")
        .map(|i| start + 1 + i)
        .unwrap_or(lines.len());
    let mut found = start;
    let mut indent = 6;
    for token in pointer.split('/').skip(1) {
        let key = token.replace("~1", "/").replace("~0", "~");
        let prefix = format!(
            "{}{}: ",
            " ".repeat(indent),
            serde_json::to_string(&key).unwrap_or_default()
        );
        match (found + 1..end)
            .find(|&i| lines[i].starts_with(&prefix) || lines[i] == prefix.trim_end())
        {
            Some(i) => {
                // Later keys are searched inside this one's value only: a
                // key absent here (a removed field) must not be found in a
                // sibling (the output's property of the same name).
                end = (i + 1..end)
                    .find(|&j| {
                        let l = lines[j];
                        l.len() - l.trim_start().len() <= indent && !l.trim().is_empty()
                    })
                    .unwrap_or(end);
                found = i;
                indent += 2;
            }
            None => break,
        }
    }
    Some(found + 1)
}

/// The line of the `"tools"` key (where removed tools are reported).
pub fn tools_line(text: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with("  \"tools\":"))
        .map(|i| i + 1)
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Surface, Tool};

    #[test]
    fn finds_tool_and_nested_pointer_lines() {
        let mut s = Surface::new();
        let mut t = Tool::new("search");
        t.input_schema = serde_json::json!({"type": "object", "properties": {"limit": {"type": "integer"}, "query": {"type": "string"}}, "required": ["query"]});
        s.insert(Tool::new("alpha"));
        s.insert(t);
        let text = crate::lockfile::render(&s);
        let lines: Vec<&str> = text.lines().collect();
        let tool = line_of(&text, "search", "").unwrap();
        assert_eq!(lines[tool - 1], "    \"search\": {");
        let q = line_of(&text, "search", "/inputSchema/properties/query").unwrap();
        assert_eq!(lines[q - 1], "          \"query\": {");
        let req = line_of(&text, "search", "/inputSchema/required").unwrap();
        assert_eq!(lines[req - 1], "        \"required\": [");
        let missing = line_of(&text, "search", "/inputSchema/properties/nope").unwrap();
        assert!(lines[missing - 1].contains("\"properties\""));
        assert_eq!(line_of(&text, "absent", ""), None);
        // A field removed from the input is not found in the output.
        let mut s = Surface::new();
        let mut t = Tool::new("forecast");
        t.input_schema =
            serde_json::json!({"type": "object", "properties": {"place": {"type": "string"}}});
        t.output_schema = Some(
            serde_json::json!({"type": "object", "properties": {"days": {"type": "integer"}}}),
        );
        s.insert(t);
        let text = crate::lockfile::render(&s);
        let lines: Vec<&str> = text.lines().collect();
        let removed = line_of(&text, "forecast", "/inputSchema/properties/days").unwrap();
        assert_eq!(lines[removed - 1].trim(), "\"properties\": {");
        assert!(removed < line_of(&text, "forecast", "/outputSchema").unwrap());
        assert_eq!(lines[tools_line(&text) - 1], "  \"tools\": {");
    }
}
