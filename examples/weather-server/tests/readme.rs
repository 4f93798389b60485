//! The README's end-to-end server is this example: every line of the code
//! blocks between the build-time heading and the `#[mcp_contract::tool]`
//! form (comments and blank lines aside) is a line of the example's files.

use std::path::Path;

#[test]
fn readme_is_the_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../../README.md")).unwrap();
    let start = readme
        .find("## Build-time snapshot: `build.rs` locks rmcp's own `#[tool]`s")
        .expect("the README's build-time section");
    let end = start
        + readme[start..]
            .find("### The `#[mcp_contract::tool]` form")
            .expect("the section's second part");
    let section = &readme[start..end];
    let manifest = std::fs::read_to_string(root.join("../../Cargo.toml")).unwrap();
    let repository = manifest
        .lines()
        .find_map(|l| l.strip_prefix("repository = \""))
        .and_then(|r| r.strip_suffix('"'))
        .expect("the workspace's repository");
    let mut sources = String::new();
    for f in ["Cargo.toml", "build.rs", "src/lib.rs", "src/main.rs"] {
        sources.push_str(&std::fs::read_to_string(root.join(f)).unwrap());
    }
    let source_lines: Vec<&str> = sources.lines().map(str::trim).collect();
    let mut in_code = false;
    let mut checked = 0;
    for line in section.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let t = line.trim();
        if !in_code
            || t.is_empty()
            || t.starts_with("// ")
            || t.starts_with("# ")
            || t.starts_with('[')
        {
            continue;
        }
        // A dependency line may say `version = ...` (or, until publication,
        // `git = ...`) where the example says `workspace = true`.
        if let Some((dep, _)) = t.split_once(" = ") {
            if t.contains("version = ")
                || t.contains("git = ")
                || t.starts_with(&format!("{dep} = \""))
            {
                if let Some(at) = t.find("git = ") {
                    assert!(
                        t[at..].starts_with(&format!("git = \"{repository}\"")),
                        "README dependency `{dep}` names another repository than the workspace's {repository}"
                    );
                }
                assert!(
                    source_lines
                        .iter()
                        .any(|l| l.starts_with(&format!("{dep} "))
                            || l.starts_with(&format!("{dep}."))),
                    "README dependency `{dep}` is not a dependency of the example"
                );
                checked += 1;
                continue;
            }
        }
        assert!(
            source_lines.contains(&t),
            "README line not in the example: {t}"
        );
        checked += 1;
    }
    assert!(checked > 30, "only {checked} lines checked");
}
