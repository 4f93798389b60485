//! Size limits on what the tool reads, so that a hostile or broken input is
//! refused with the limit named instead of being read into memory whole.
//!
//! A lockfile of 1,000 tools is a few MiB; the driver keeps at most 32 MiB
//! of `tools/list` text per capture, which renders (indented) to well under
//! [`MAX_INPUT_BYTES`]. Files larger than that — a lockfile, a surface, a
//! migration record, a contract fixture, or a blob of one in git history —
//! are refused by size before any byte of them is read.

use std::io::Read;
use std::path::Path;

/// The largest input file (or git blob) read, in bytes: 64 MiB.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// The message for an input of `len` bytes over the limit.
pub fn too_large(len: u64) -> String {
    format!(
        "is {:.1} MiB, over the {} MiB this tool reads (a lockfile of 1,000 tools is a few MiB): refused without reading it",
        len as f64 / (1024.0 * 1024.0),
        MAX_INPUT_BYTES >> 20
    )
}

/// Reads `path` whole unless it is larger than [`MAX_INPUT_BYTES`]; a larger
/// file is an `InvalidData` error saying so, and is not read.
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    if len > MAX_INPUT_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            too_large(len),
        ));
    }
    // The size may change while reading (a pipe, a growing file): never
    // read more than the limit either way.
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            too_large(bytes.len() as u64),
        ));
    }
    Ok(bytes)
}
