//! `update_frontmatter`: one property edit, previewed or written atomically.
//!
//! The note is read once; the edit is computed on its text; the write carries the SHA-256
//! of that read, so a note changed in between is `concurrent_modification` and never
//! overwritten. `set`, `remove` and `merge` keep every byte they do not edit; `replace`
//! rewrites the block and, when it would change the note, needs the user's confirmation
//! (the request carries the diff). A missing note is `not_found`, unless `create` is given:
//! then the note is created holding only the frontmatter (nothing is created when the edit
//! changes nothing, e.g. `remove`).

use engine_core::acl::AclOp;
use serde_json::{Value, json};

use super::args::{Mode, UpdateFrontmatter};
use super::errors::argument_error;
use super::results::FrontmatterUpdated;
use crate::edits::preview;
use crate::errors::ToolError;
use crate::frontmatter::{Edit, apply};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::{check_expected, tool_error_from_vault};
use crate::vault::{VaultError, WriteOptions};

/// The note as read before the edit.
struct Before {
    path: String,
    text: String,
    /// `None` when the note does not exist (and `create` was given).
    sha256: Option<String>,
}

/// Applies one frontmatter edit to a note (see the module docs).
pub(super) fn update_frontmatter(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: UpdateFrontmatter = parse(args)?;
    let edit = edit_of(&args)?;
    let before = read_before(ctx, &args)?;
    check_expected(
        &before.path,
        before.sha256.as_deref(),
        args.expected_sha256.as_deref(),
    )?;
    let result = apply(&before.text, &edit)
        .map_err(|error| tool_error_from_frontmatter(&error, &before.path))?;
    let unwritten = FrontmatterUpdated {
        path: before.path.clone(),
        mode_used: args.mode,
        dry_run: args.dry_run,
        changed: result.changed,
        created: false,
        would_create: None,
        diff: None,
        properties: result.after,
        sha256: before.sha256.clone(),
        previous_sha256: None,
    };
    if args.dry_run {
        return structured(&FrontmatterUpdated {
            would_create: Some(result.changed && before.sha256.is_none()),
            diff: Some(preview(&before.text, &result.text)),
            ..unwritten
        });
    }
    if !result.changed {
        return structured(&unwritten);
    }
    if args.mode == Mode::Replace {
        ctx.confirm(json!({
            "tool": ctx.tool().name(),
            "vault": ctx.vault_id(),
            "path": before.path,
            "mode": args.mode,
            "diff": preview(&before.text, &result.text),
        }))?;
    }
    let options = WriteOptions {
        overwrite: before.sha256.is_some(),
        expected_sha256: before.sha256.clone(),
    };
    let written = ctx
        .vault()
        .write(&before.path, result.text.as_bytes(), &options)
        .map_err(|error| {
            if matches!(error, VaultError::Io { .. }) {
                // A filesystem fault may strike after the rename: the note may have changed.
                ctx.mark_effect_started();
            }
            tool_error_from_vault(&error, AclOp::Write)
        })?;
    structured(&FrontmatterUpdated {
        path: written.path,
        created: written.created,
        sha256: Some(written.sha256),
        previous_sha256: before.sha256,
        ..unwritten
    })
}

/// The note's text, or an empty one when it is missing and `create` was given.
fn read_before(ctx: &ToolContext<'_>, args: &UpdateFrontmatter) -> Result<Before, ToolError> {
    match read_text(ctx.vault(), &args.path) {
        Ok(note) => Ok(Before {
            path: note.path,
            text: note.text,
            sha256: Some(note.sha256),
        }),
        Err(VaultError::NotFound { path }) if args.create => Ok(Before {
            path,
            text: String::new(),
            sha256: None,
        }),
        Err(error) => Err(tool_error_from_vault(&error, AclOp::Read)),
    }
}

/// The edit the arguments describe; each mode takes exactly its own fields.
fn edit_of(args: &UpdateFrontmatter) -> Result<Edit, ToolError> {
    let fields = (
        args.key.clone(),
        args.value.clone(),
        args.properties.clone(),
    );
    match (args.mode, fields) {
        (Mode::Set, (Some(key), Some(value), None)) => Ok(Edit::Set { key, value }),
        (Mode::Remove, (Some(key), None, None)) => Ok(Edit::Remove { key }),
        (Mode::Merge, (None, None, Some(properties))) => Ok(Edit::Merge { properties }),
        (Mode::Replace, (None, None, Some(properties))) => Ok(Edit::Replace { properties }),
        (Mode::Set, _) => Err(argument_error(
            "mode 'set' takes 'key' and 'value' (and no 'properties')",
        )),
        (Mode::Remove, _) => Err(argument_error(
            "mode 'remove' takes 'key' (and no 'value' or 'properties')",
        )),
        (Mode::Merge | Mode::Replace, _) => Err(argument_error(
            "modes 'merge' and 'replace' take 'properties' (and no 'key' or 'value')",
        )),
    }
}
