//! A scratch directory for one test, under cargo's `CARGO_TARGET_TMPDIR`
//! (inside `CARGO_TARGET_DIR`) and removed when the test ends, passed or
//! failed: a run leaves nothing behind.
//!
//! Included by path (`#[path = "../../tests/support/scratch.rs"] mod scratch;`).
//! A [`Scratch`] reads as the directory's [`Path`].

#![allow(dead_code)]

use std::ops::Deref;
use std::path::Path;

/// The directory, removed on drop.
pub struct Scratch(tempfile::TempDir);

/// A fresh directory `<CARGO_TARGET_TMPDIR>/<prefix>-XXXXXX`.
pub fn scratch(prefix: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("{prefix}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("a scratch directory under CARGO_TARGET_TMPDIR");
    Scratch(dir)
}

impl Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}
