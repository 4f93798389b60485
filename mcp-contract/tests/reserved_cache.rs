//! The reserved-names cache (`history::cache`) gives exactly what walking
//! the whole history gives, over a sequence of commits: tools and fields
//! added, removed and changed, a commit that leaves the lockfile alone, a
//! hand-formatted revision, a broken one, the file deleted and restored,
//! prompts, a merge, a rewritten history and a damaged cache. It answers
//! from the cache when the baseline is its key and walks only the new
//! revisions when the baseline is a descendant.

use std::path::Path;
use std::process::Command;

use mcp_contract::git::Repo;
use mcp_contract::history::cache::{reserved_history, Source, Wanted};
use mcp_contract::history::{self, History};
use mcp_contract::load::surface_from_value;
use mcp_contract::{lockfile, Surface};
use serde_json::{json, Value};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn surface(tools: Value, prompts: Value) -> Surface {
    surface_from_value(&json!({"tools": tools, "prompts": prompts}), "t.json").unwrap()
}

fn tool(name: &str, props: &[&str]) -> Value {
    let p: serde_json::Map<String, Value> = props
        .iter()
        .map(|n| (n.to_string(), json!({"type": "string"})))
        .collect();
    json!({"name": name, "inputSchema": {"type": "object", "properties": p}})
}

struct Repo1 {
    dir: tempfile::TempDir,
}

impl Repo1 {
    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn commit_text(&self, text: Option<&str>, msg: &str) {
        let lock = self.root().join(lockfile::DEFAULT_PATH);
        match text {
            Some(t) => {
                std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
                std::fs::write(&lock, t).unwrap();
            }
            None => {
                let _ = std::fs::remove_file(&lock);
            }
        }
        git(self.root(), &["add", "-A"]);
        git(self.root(), &["commit", "-q", "--allow-empty", "-m", msg]);
    }

    fn commit(&self, s: &Surface, msg: &str) {
        self.commit_text(Some(&lockfile::render(s)), msg);
    }

    /// Cached and uncached answers at HEAD for every name ever published;
    /// asserts they agree with each other and with the full walk.
    fn compare(&self, step: &str) -> Source {
        let repo = Repo::discover(self.root()).unwrap();
        let head = repo.resolve_commit("HEAD").unwrap().unwrap();
        let rel = lockfile::DEFAULT_PATH;
        let mut full: History = history::from_repo(&repo, &head, rel).unwrap();
        full.timelines.clear();
        let wanted = Wanted {
            tools: full.published.keys().cloned().collect(),
            entries: full.published_entries.keys().cloned().collect(),
        };
        let (plain, s) = reserved_history(&repo, &head, rel, &wanted, false).unwrap();
        assert_eq!(s, Source::Walked);
        let (cached, source) = reserved_history(&repo, &head, rel, &wanted, true).unwrap();
        assert_eq!(plain, full, "{step}: uncached differs from the walk");
        assert_eq!(
            cached, full,
            "{step}: cached differs from the walk ({source:?})"
        );
        // A subset is a subset.
        let one = Wanted {
            tools: full.published.keys().take(1).cloned().collect(),
            entries: Default::default(),
        };
        let (part, again) = reserved_history(&repo, &head, rel, &one, true).unwrap();
        assert_eq!(
            again,
            Source::Cached,
            "{step}: second look not from the cache"
        );
        assert_eq!(part.published.len(), one.tools.len());
        assert_eq!(part.revisions, full.revisions);
        source
    }
}

fn cache_file(root: &Path) -> std::path::PathBuf {
    let dir = root.join(".git/mcp-contract");
    std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "cache"))
        .expect("a cache file")
}

#[test]
fn cached_and_walked_reserved_names_agree_over_a_sequence_of_commits() {
    let r = Repo1 {
        dir: tempfile::tempdir().unwrap(),
    };
    git(r.root(), &["init", "-q"]);
    r.commit(
        &surface(
            json!([tool("a", &["x", "y"]), tool("b", &["z"])]),
            json!([]),
        ),
        "c1",
    );
    assert_eq!(r.compare("first"), Source::Walked);

    r.commit(
        &surface(json!([tool("a", &["x", "y"])]), json!([])),
        "remove b",
    );
    assert_eq!(r.compare("removed tool"), Source::Updated(1));

    r.commit(
        &surface(json!([tool("a", &["x"])]), json!([])),
        "remove field y",
    );
    git(
        r.root(),
        &["commit", "-q", "--allow-empty", "-m", "unrelated"],
    );
    assert_eq!(
        r.compare("removed field + unrelated commit"),
        Source::Updated(1)
    );

    // Hand-formatted (not canonical) and then broken revisions.
    let s = surface(json!([tool("a", &["x", "w"])]), json!([]));
    let pretty = serde_json::to_string(&lockfile::to_value(&s)).unwrap();
    r.commit_text(Some(&pretty), "one line");
    r.commit_text(Some("{ not json"), "broken");
    assert_eq!(r.compare("formatted + broken"), Source::Updated(2));

    // Deleted, then restored with prompts (non-tool entries).
    r.commit_text(None, "deleted");
    r.commit(
        &surface(
            json!([tool("a", &["x"]), tool("c", &[])]),
            json!([{"name": "greet", "arguments": [{"name": "who", "required": true}]}]),
        ),
        "restored with a prompt",
    );
    assert_eq!(r.compare("deleted + restored"), Source::Updated(2));
    r.commit(
        &surface(json!([tool("a", &["x"])]), json!([])),
        "prompt and c removed",
    );
    assert!(matches!(r.compare("prompt removed"), Source::Updated(1)));

    // A merge: the side branch's key is not on main's first-parent chain.
    git(r.root(), &["checkout", "-q", "-b", "side"]);
    r.commit(&surface(json!([tool("a", &["x", "v"])]), json!([])), "side");
    assert_eq!(r.compare("side branch"), Source::Updated(1));
    git(r.root(), &["checkout", "-q", "main"]);
    r.commit(
        &surface(json!([tool("a", &["x"]), tool("d", &[])]), json!([])),
        "main moves",
    );
    git(
        r.root(),
        &[
            "merge", "-q", "--no-ff", "-s", "ours", "side", "-m", "merge",
        ],
    );
    assert_eq!(r.compare("merge"), Source::Walked);
    r.commit(
        &surface(json!([tool("d", &["q"])]), json!([])),
        "after merge",
    );
    assert_eq!(r.compare("after merge"), Source::Updated(1));

    // Rewritten history: the key commit is no ancestor any more.
    git(r.root(), &["reset", "-q", "--hard", "HEAD~3"]);
    r.commit(&surface(json!([tool("e", &["x"])]), json!([])), "rewritten");
    assert_eq!(r.compare("rewritten"), Source::Walked);

    // A damaged cache (one byte flipped, then truncated): walked again.
    for cut in [false, true] {
        let path = cache_file(r.root());
        let mut bytes = std::fs::read(&path).unwrap();
        if cut {
            bytes.truncate(bytes.len() - 40);
        } else {
            let at = bytes.len() - 30;
            bytes[at] ^= 0x01;
        }
        std::fs::write(&path, bytes).unwrap();
        r.commit(
            &surface(json!([tool("e", &["x", "n"])]), json!([])),
            "after damage",
        );
        assert_eq!(r.compare("damaged cache"), Source::Walked);
    }
}
