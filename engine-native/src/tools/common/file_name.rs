//! A note's file name made from text a caller gave (a title, a goal): what Obsidian refuses
//! in a file name cannot get in, and the new note is written under the first free name.

use engine_core::acl::AclOp;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{VaultError, WriteOptions, WriteOutcome};

/// `title` with the characters Obsidian refuses in file names (and control characters)
/// replaced by `-`, trimmed, without leading dots: never a path separator, never `..`.
pub(crate) fn clean_title(title: &str) -> String {
    title
        .chars()
        .map(|c| {
            if c.is_control() || "\\/:*?\"<>|#^[]".contains(c) {
                '-'
            } else {
                c
            }
        })
        .collect::<String>()
        .trim()
        .trim_start_matches('.')
        .to_owned()
}

/// How many numbered names [`write_new_note`] tries before giving up.
const MAX_ATTEMPTS: u32 = 1000;

/// Writes `bytes` as a new note `<folder>/<stem>.md`, or `<stem> 2.md`, `<stem> 3.md`, ...
/// when the name is taken (as Obsidian numbers a new note), each name checked against the
/// caller's write ACL; never replaces a file. `already_exists` when every name is taken.
pub(crate) fn write_new_note(
    ctx: &ToolContext<'_>,
    folder: &str,
    stem: &str,
    bytes: &[u8],
) -> Result<WriteOutcome, ToolError> {
    for attempt in 1..=MAX_ATTEMPTS {
        let name = if attempt == 1 {
            format!("{stem}.md")
        } else {
            format!("{stem} {attempt}.md")
        };
        let path = format!("{folder}/{name}");
        ctx.check_path(&path, AclOp::Write)?;
        ctx.mark_effect_started();
        match ctx.vault().write(&path, bytes, &WriteOptions::default()) {
            Ok(outcome) => return Ok(outcome),
            Err(VaultError::AlreadyExists { .. }) => continue,
            Err(error) => return Err(tool_error_from_vault(&error, AclOp::Write)),
        }
    }
    Err(ToolError::new(
        ErrorCode::AlreadyExists,
        format!("every name for '{stem}' in '{folder}' is taken; choose another"),
    ))
}
