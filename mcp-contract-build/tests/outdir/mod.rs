//! What the cache tests share: dating a written file the way edits are
//! dated, and reading every file a build wrote under `OUT_DIR`.

use std::collections::BTreeMap;
use std::path::Path;

/// Dates a written file an hour back, one second later than the previous
/// write: each edit gets its own modification time, as edits do, and old
/// enough for the cache to trust it (a file modified in the last two
/// seconds is always read).
pub fn age(path: &Path) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static TICK: AtomicU64 = AtomicU64::new(0);
    let tick = TICK.fetch_add(1, Ordering::SeqCst);
    let when = std::time::SystemTime::now() - std::time::Duration::from_secs(3600)
        + std::time::Duration::from_secs(tick);
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_modified(when).unwrap();
}

/// Every file under `out` except the caches, by relative path.
pub fn outputs(out: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![out.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                pending.push(p);
                continue;
            }
            let rel = p.strip_prefix(out).unwrap().to_string_lossy().into_owned();
            if !rel.starts_with("mcp-contract-cache") {
                files.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    files
}
