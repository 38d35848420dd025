//! `rename_tag`: a tag and every tag nested under it renamed in every readable note, all or
//! nothing.
//!
//! Every edit is computed first; the dry run (the default) shows them. Applying asks the
//! user to confirm the list of notes (conditional HITL), and refuses
//! before writing anything when a note carrying the tag cannot be written by the caller or
//! has frontmatter that is not valid YAML. The notes are then written one by one, each
//! against the SHA-256 it was read with; if one write fails, the notes already written are
//! put back byte for byte (each against the SHA-256 just written) and the call fails,
//! naming what was restored.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use super::args::RenameTag;
use super::edit::rename;
use super::parse::{is_under, key_of, valid_tag};
use super::scan::tagged_notes;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{VaultError, WriteOptions, WriteOutcome};

/// One note a rename changes.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct RenamedNote {
    /// The note's path.
    pub path: String,
    /// Frontmatter tags renamed.
    pub frontmatter: usize,
    /// Inline tags renamed.
    pub inline: usize,
}

/// The result of `rename_tag`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct TagRenamed {
    /// The tag renamed (key).
    pub from: String,
    /// Its new name.
    pub to: String,
    /// Whether this was a dry run (nothing written).
    pub dry_run: bool,
    /// The notes changed (or that would be), by path.
    pub notes: Vec<RenamedNote>,
    /// Tags renamed in all.
    pub tags_renamed: usize,
}

/// One planned note edit.
pub(super) struct Planned {
    /// The note's path.
    pub path: String,
    /// Its text as read.
    pub before: String,
    /// The SHA-256 it was read with.
    pub sha256: String,
    /// Its text after the rename.
    pub after: String,
}

/// Renames a tag vault-wide (see the module docs).
pub(super) fn rename_tag(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: RenameTag = parse(args)?;
    let from = key_of(&valid_tag(&args.from)?);
    let to = valid_tag(&args.to)?;
    if is_under(&key_of(&to), &from) && key_of(&to) != from {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "cannot rename '{from}' to '{to}', which is nested under it: pick a name outside '{from}/'"
            ),
        ));
    }
    let mut plan = Vec::new();
    let mut notes = Vec::new();
    let mut invalid = Vec::new();
    let mut unwritable = Vec::new();
    for note in tagged_notes(ctx, None)? {
        if !note.tags.keys().iter().any(|key| is_under(key, &from)) {
            continue;
        }
        if !ctx.may(&note.path, AclOp::Write) {
            unwritable.push(note.path);
            continue;
        }
        match rename(&note.text, &from, &to) {
            Ok(edited) if edited.text != note.text => {
                notes.push(RenamedNote {
                    path: note.path.clone(),
                    frontmatter: edited.frontmatter,
                    inline: edited.inline,
                });
                plan.push(Planned {
                    path: note.path,
                    before: note.text,
                    sha256: note.sha256,
                    after: edited.text,
                });
            }
            Ok(_) => {}
            Err(error) => invalid.push(json!({"path": note.path, "problem": error.to_string()})),
        }
    }
    if !unwritable.is_empty() {
        return Err(ToolError::new(
            ErrorCode::AclDenied,
            format!(
                "{} note(s) carrying '{from}' may not be written by this caller; nothing was renamed",
                unwritable.len()
            ),
        )
        .with_details(json!({ "paths": unwritable })));
    }
    if !invalid.is_empty() {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "some notes carrying the tag have frontmatter that cannot be edited: fix them (details.notes), then rename again; nothing was renamed",
        )
        .with_details(json!({ "notes": invalid })));
    }
    let result = TagRenamed {
        tags_renamed: notes.iter().map(|n| n.frontmatter + n.inline).sum(),
        from,
        to,
        dry_run: args.dry_run,
        notes,
    };
    if args.dry_run || plan.is_empty() {
        return structured(&result);
    }
    ctx.confirm(json!({
        "tool": ctx.tool().name(),
        "vault": ctx.vault_id(),
        "from": result.from,
        "to": result.to,
        "notes": result.notes,
    }))?;
    ctx.mark_effect_started();
    commit(&plan, &mut |path, bytes, options| {
        ctx.vault().write(path, bytes, options)
    })?;
    structured(&result)
}

/// A write of the vault (injected so tests can make one fail).
pub(super) type Write<'a> =
    dyn FnMut(&str, &[u8], &WriteOptions) -> Result<WriteOutcome, VaultError> + 'a;

/// Writes every planned note; on a failure, restores the ones written (module docs).
pub(super) fn commit(plan: &[Planned], write: &mut Write<'_>) -> Result<(), ToolError> {
    let mut written: Vec<(&Planned, String)> = Vec::new();
    for note in plan {
        let options = WriteOptions {
            overwrite: true,
            expected_sha256: Some(note.sha256.clone()),
        };
        match write(&note.path, note.after.as_bytes(), &options) {
            Ok(outcome) => written.push((note, outcome.sha256)),
            Err(error) => return Err(roll_back(&note.path, &error, written, write)),
        }
    }
    Ok(())
}

/// Puts back the notes written before `failed` failed with `error`; the tool error says
/// what was restored (and what could not be, as `indeterminate`).
fn roll_back(
    failed: &str,
    error: &VaultError,
    written: Vec<(&Planned, String)>,
    write: &mut Write<'_>,
) -> ToolError {
    let mut restored = Vec::new();
    let mut not_restored = Vec::new();
    for (note, sha256) in written.into_iter().rev() {
        let options = WriteOptions {
            overwrite: true,
            expected_sha256: Some(sha256),
        };
        match write(&note.path, note.before.as_bytes(), &options) {
            Ok(_) => restored.push(note.path.clone()),
            Err(problem) => {
                not_restored.push(json!({"path": note.path, "problem": problem.to_string()}));
            }
        }
    }
    let cause = tool_error_from_vault(error, AclOp::Write);
    let details = json!({
        "failed_path": failed,
        "cause": cause.code.as_str(),
        "restored": restored,
        "not_restored": not_restored,
    });
    if not_restored.is_empty() {
        ToolError::new(
            cause.code,
            format!("renaming the tag failed at {failed} ({error}); every note written before was restored, nothing changed"),
        )
        .with_details(details)
    } else {
        ToolError::new(
            ErrorCode::Indeterminate,
            format!("renaming the tag failed at {failed} ({error}) and some notes could not be restored: check details.not_restored"),
        )
        .with_details(details)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vault::{Vault, VaultOptions};

    #[test]
    fn a_failed_write_restores_every_note_written_before_byte_for_byte() {
        let dir = tempfile::TempDir::new().expect("temp dir");
        let vault = Vault::open(dir.path(), VaultOptions::default()).expect("vault");
        let mut plan = Vec::new();
        for (name, text) in [
            ("a.md", "#old a\r\n"),
            ("b.md", "#old b"),
            ("c.md", "#old c\n"),
        ] {
            let written = vault
                .write(name, text.as_bytes(), &WriteOptions::default())
                .expect("seed");
            plan.push(Planned {
                path: name.to_owned(),
                before: text.to_owned(),
                sha256: written.sha256,
                after: text.replace("#old", "#new"),
            });
        }
        let error = commit(&plan, &mut |path, bytes, options| {
            if path == "c.md" {
                return Err(VaultError::NotFound {
                    path: path.to_owned(),
                });
            }
            vault.write(path, bytes, options)
        })
        .expect_err("the third write fails");
        assert_eq!(error.code, ErrorCode::NotFound);
        for note in &plan {
            let bytes = std::fs::read(dir.path().join(&note.path)).expect("read");
            assert_eq!(bytes, note.before.as_bytes(), "{}", note.path);
        }
        assert_eq!(error.details["restored"], json!(["b.md", "a.md"]));
    }
}
