//! `move_attachment`: moves an attachment and rewrites every embed, wikilink and markdown
//! link to it (engine-core [`rewrite_links_in_note`], Obsidian's resolution before and after
//! the move). Crossing a folder or replacing a file needs a human's confirmation. All or
//! nothing: when a step fails, every rewritten note gets its original bytes back, the file
//! goes back, and a replaced destination is restored.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use engine_core::links::{LinkResolver, Moves, VaultChange, rewrite_links_in_note};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::get::not_an_attachment;
use super::references::{VaultFiles, is_attachment, read_note_text};
use crate::dispatch::{PathArg, ToolContext, ToolDef};
use crate::errors::{ErrorCode, ToolError};
use crate::tools::args::{input_schema, parse};
use crate::tools::structured::{output_schema, structured};
use crate::tools::vault_error::tool_error_from_vault;
use crate::vault::{NoteFile, VaultError, WriteOptions};

/// The arguments of `move_attachment`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct MoveAttachment {
    /// The attachment's vault-relative path.
    #[schemars(length(min = 1, max = 1024))]
    from: String,
    /// Its new vault-relative path (missing folders are created).
    #[schemars(length(min = 1, max = 1024))]
    to: String,
    /// Replace a file already at `to` (needs the user's confirmation).
    #[serde(default)]
    overwrite: bool,
}

/// What `move_attachment` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Moved {
    /// The former path.
    from: String,
    /// The new path.
    to: String,
    /// The notes whose links were rewritten, sorted.
    rewritten_notes: Vec<String>,
    /// How many links were rewritten in all.
    links_rewritten: usize,
}

const MOVE_PATHS: &[PathArg] = &[
    PathArg {
        name: "from",
        op: AclOp::Delete,
    },
    PathArg {
        name: "to",
        op: AclOp::Write,
    },
];

/// The `move_attachment` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef {
        name: "move_attachment",
        title: "Move attachment",
        description: "Move or rename an attachment and rewrite every reference to it in the notes (embeds ![[x.png]], wikilinks, markdown links). Moving to another folder or over an existing file (overwrite) needs the user's confirmation. All or nothing: if any note cannot be rewritten, nothing changes.",
        domain: "attachments",
        keywords: &["relocate", "image", "reorganize"],
        input_schema: input_schema::<MoveAttachment>(),
        output_schema: output_schema::<Moved>(),
        scopes: &["write:attachments", "delete:attachments"],
        destructive: false,
        idempotency: true,
        vault_arg: true,
        path_args: MOVE_PATHS,
        precheck: None,
        handler: move_attachment,
    }
}

/// One note to rewrite: as read, and its new text.
struct Rewrite {
    original: NoteFile,
    text: String,
    links: usize,
}

fn move_attachment(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: MoveAttachment = parse(args)?;
    let source = ctx
        .vault()
        .read(&args.from)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Delete))?;
    if !is_attachment(&source.path) {
        return Err(not_an_attachment(&source.path));
    }
    if !is_attachment(&args.to) {
        return Err(not_an_attachment(&args.to));
    }
    let replaced = match ctx.vault().read(&args.to) {
        Ok(file) if file.path == source.path => None,
        Ok(file) if !args.overwrite => {
            let exists = VaultError::AlreadyExists { path: file.path };
            return Err(tool_error_from_vault(&exists, AclOp::Write));
        }
        Ok(file) => Some(file),
        Err(VaultError::NotFound { .. }) => None,
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Write)),
    };
    let rewrites = plan(ctx, &source.path, &args.to)?;
    let crossing = parent(&source.path) != parent(&args.to);
    if crossing || replaced.is_some() {
        ctx.confirm(json!({
            "tool": "move_attachment",
            "vault": ctx.vault_id(),
            "from": source.path,
            "to": args.to,
            "reason": if replaced.is_some() { "replaces an existing file" } else { "moves to another folder" },
            "notes_rewritten": rewrites.iter().map(|r| r.original.path.as_str()).collect::<Vec<_>>(),
        }))?;
    }
    ctx.mark_effect_started();
    let options = WriteOptions {
        overwrite: replaced.is_some(),
        expected_sha256: Some(source.sha256.clone()),
    };
    let to = ctx
        .vault()
        .move_file(&source.path, &args.to, &options)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
    let mut written: Vec<&Rewrite> = Vec::new();
    for rewrite in &rewrites {
        let options = WriteOptions {
            overwrite: true,
            expected_sha256: Some(rewrite.original.sha256.clone()),
        };
        if let Err(error) =
            ctx.vault()
                .write(&rewrite.original.path, rewrite.text.as_bytes(), &options)
        {
            roll_back(ctx, &written, (&source.path, &to), replaced.as_ref());
            return Err(tool_error_from_vault(&error, AclOp::Write));
        }
        written.push(rewrite);
    }
    let rewritten_notes: Vec<String> = rewrites.iter().map(|r| r.original.path.clone()).collect();
    structured(&Moved {
        from: source.path,
        to,
        links_rewritten: rewrites.iter().map(|r| r.links).sum(),
        rewritten_notes,
    })
}

/// The notes whose links to `from` change when it moves to `to`, with their new text; a
/// note the caller may not edit refuses the whole move.
fn plan(ctx: &ToolContext<'_>, from: &str, to: &str) -> Result<Vec<Rewrite>, ToolError> {
    let vault = VaultFiles::load(ctx)?;
    let notes = vault
        .referencing_notes(ctx, false)
        .remove(from)
        .unwrap_or_default();
    let moves = Moves::new([(from, to)])
        .map_err(|error| ToolError::new(ErrorCode::PathInvalid, error.to_string()))?;
    let mut after_paths = moves.apply(vault.files.iter().map(|entry| entry.path.as_str()));
    after_paths.sort();
    after_paths.dedup();
    let after = LinkResolver::new(after_paths)
        .map_err(|error| ToolError::new(ErrorCode::PathInvalid, error.to_string()))?;
    let change = VaultChange {
        before: &vault.resolver,
        after: &after,
        moves: &moves,
    };
    let mut rewrites = Vec::new();
    for note in notes {
        if !ctx.may(&note, AclOp::Write) || !ctx.may(&note, AclOp::Read) {
            return Err(ToolError::new(
                ErrorCode::AclDenied,
                format!("a note you may not edit references '{from}', so its links could not be rewritten; ask the user to move it"),
            )
            .with_details(json!({ "path": from, "op": "write" })));
        }
        let Some(text) = read_note_text(ctx, &note) else {
            continue;
        };
        let original = ctx
            .vault()
            .read(&note)
            .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
        if sha256_hex(text.as_bytes()) != original.sha256 {
            return Err(tool_error_from_vault(
                &VaultError::ConcurrentModification {
                    path: note,
                    expected: sha256_hex(text.as_bytes()),
                    actual: Some(original.sha256),
                },
                AclOp::Write,
            ));
        }
        let rewritten = rewrite_links_in_note(&text, &note, &change).map_err(|error| {
            ToolError::new(
                ErrorCode::InvalidInput,
                format!("the links of '{note}' cannot be rewritten ({error}); nothing was moved"),
            )
        })?;
        if !rewritten.edits.is_empty() {
            rewrites.push(Rewrite {
                links: rewritten.edits.len(),
                text: rewritten.text,
                original,
            });
        }
    }
    Ok(rewrites)
}

/// Puts everything back after a failed step: the written notes get their original bytes,
/// the file moves back, a replaced destination is rewritten. Best effort: each step is
/// guarded by the SHA-256 this call wrote, so nothing written meanwhile by others is lost.
fn roll_back(
    ctx: &ToolContext<'_>,
    written: &[&Rewrite],
    (from, to): (&str, &str),
    replaced: Option<&NoteFile>,
) {
    for rewrite in written {
        let options = WriteOptions {
            overwrite: true,
            expected_sha256: Some(sha256_hex(rewrite.text.as_bytes())),
        };
        let _ = ctx
            .vault()
            .write(&rewrite.original.path, &rewrite.original.bytes, &options);
    }
    let _ = ctx.vault().move_file(to, from, &WriteOptions::default());
    if let Some(file) = replaced {
        let _ = ctx
            .vault()
            .write(&file.path, &file.bytes, &WriteOptions::default());
    }
}

/// The folder part of `path` (empty at the root).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(folder, _)| folder)
}
