//! The consumer's record, `mcp-contract.servers.toml` beside the consumer
//! lockfile: a migration record per server, under `[servers.NAME]`, so a
//! consumer acknowledges a server's change exactly as a producer does in
//! `contracts/migrations.toml`:
//!
//! ```toml
//! version = 1
//!
//! [[servers.everything.acknowledge]]
//! tool = "add"
//! rule = "tool.removed"
//! pointer = ""
//! subject = "add"
//! reason = "our prompts call get-sum now"
//! owner = "@agents-team"
//! transition = { kind = "rename", from = "add", to = "get-sum" }
//! ```

use std::path::Path;

use crate::error::InputError;
use crate::migrations::{self, Grouped, Problem};

/// Reads the record at `path` (absent: empty): each server's record with
/// its problems, and the problems of the file as a whole.
pub fn read(path: &Path) -> Result<(Grouped, Vec<Problem>), InputError> {
    let file = path.display().to_string();
    match crate::limits::read(path) {
        Ok(bytes) => {
            match String::from_utf8(bytes) {
                Ok(text) => Ok(migrations::parse_grouped(&text, &file, super::RECORD_GROUP)),
                Err(_) => Err(InputError::new(&file, "file is not valid UTF-8")
                    .fix("save the record as UTF-8")),
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((Grouped::new(), vec![])),
        Err(e) => Err(
            InputError::new(&file, format!("cannot read the record: {e}"))
                .fix("check that the file is readable"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::migrations::{parse_grouped, Level};

    #[test]
    fn each_server_has_its_record_and_its_problems_at_the_files_lines() {
        let text = "version = 1\n\n[[servers.a.acknowledge]]\ntool = \"x\"\nrule = \"tool.removed\"\npointer = \"\"\nsubject = \"x\"\nreason = \"gone\"\nowner = \"@me\"\ntransition = { kind = \"other\" }\n\n[[servers.b.acknowledge]]\ntool = \"y\"\nrule = \"tool.removed\"\npointer = \"\"\nreason = \"\"\nowner = \"@me\"\ntransition = { kind = \"other\" }\n";
        let (groups, whole) = parse_grouped(text, "r.toml", "servers");
        assert!(whole.is_empty(), "{whole:?}");
        let (a, pa) = &groups["a"];
        assert_eq!(a.entries.len(), 1);
        assert_eq!(a.entries[0].pos.line, 3);
        assert!(pa.is_empty());
        let (b, pb) = &groups["b"];
        assert!(b.entries.is_empty());
        assert_eq!(pb.len(), 1);
        assert_eq!((pb[0].level, pb[0].pos.line), (Level::Error, 16));
        assert!(pb[0].message.contains("`reason` is empty"), "{}", pb[0]);
        let (_, whole) = parse_grouped("[[acknowledge]]\n", "r.toml", "servers");
        assert!(
            whole[0].message.contains("unknown key `acknowledge`"),
            "{}",
            whole[0]
        );
    }
}
