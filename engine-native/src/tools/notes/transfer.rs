//! `move_note` and `copy_note`. Moving across folders, or replacing an existing destination,
//! needs the user's confirmation, and so does copying over an existing note (v1 §2.4). A
//! replaced destination is moved to `.trash/` first, never lost.
//!
//! Moving rewrites every link the move would break (wikilinks, embeds, markdown and
//! frontmatter links to the note, `#heading` / `#^block` subpaths and aliases kept, and the
//! moved note's own relative links), all or nothing with the move itself
//! ([`crate::tools::links::relink`]). Copying rewrites the copy's own links so they still
//! reach the same files from its new folder. `dry_run` shows what would change.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use std::collections::BTreeSet;

use engine_core::links::Moves;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::{complete_link_table, vault_files};
use crate::tools::common::note_text::{mutation_failed, read_if_exists};
use crate::tools::common::relink::{PlannedMove, RelinkPlan, commit, plan_moves, plan_relink};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::check_expected;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{NoteFile, VaultError, WriteOptions};

/// The arguments of `move_note` and `copy_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Transfer {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    from: String,
    /// The new vault-relative path; missing folders are created.
    #[schemars(length(min = 1, max = 1024))]
    to: String,
    /// Replace an existing note at `to` (it goes to `.trash/`); needs confirmation.
    #[serde(default)]
    overwrite: bool,
    /// Refuse (`concurrent_modification`) unless the note at `from` still has this SHA-256.
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
    /// Only show what would change (the links to rewrite); change nothing.
    #[serde(default)]
    dry_run: bool,
}

/// What `move_note` and `copy_note` return.
#[derive(Debug, Serialize, JsonSchema)]
struct TransferResult {
    /// The source's canonical vault-relative path.
    from: String,
    /// The destination's canonical vault-relative path.
    to: String,
    /// The SHA-256 of the note at `to`.
    sha256: String,
    /// Whether `to` is in another folder than `from`.
    crossed_folder: bool,
    /// Where the replaced destination went, when one was replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    trashed_to: Option<String>,
    /// Whether this was a dry run (nothing changed).
    dry_run: bool,
    /// How many links were (or, in a dry run, would be) rewritten.
    links_rewritten: usize,
    /// The notes whose links were rewritten, by path (the moved note by its old path).
    notes_rewritten: Vec<String>,
    /// Notes linking to the moved note that the caller may not write: left as they are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    skipped_notes: Vec<String>,
    /// Links that needed a change but could not be rewritten (left as they are).
    skipped_links: usize,
}

const MOVE_PATHS: &[PathArg] = &[
    PathArg {
        name: "from",
        op: AclOp::Read,
    },
    PathArg {
        name: "from",
        op: AclOp::Delete,
    },
    PathArg {
        name: "to",
        op: AclOp::Write,
    },
];

const COPY_PATHS: &[PathArg] = &[
    PathArg {
        name: "from",
        op: AclOp::Read,
    },
    PathArg {
        name: "to",
        op: AclOp::Write,
    },
];

/// Whether a transfer moves or copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Move,
    Copy,
}

/// The `move_note` and `copy_note` tools.
pub(super) fn tools() -> Vec<ToolDef> {
    vec![
        ToolDef::new(
("move_note", "Move note", "Move or rename a note. Moving it to another place, or replacing an existing note (overwrite; it goes to .trash/), needs the user's confirmation. Links to it are updated too (all or nothing)."),
"notes",
(input_schema::<Transfer>(), output_schema::<TransferResult>()),
move_note,
)
.keywords(&["filed under", "into the folder", "rename", "rename note", "relocate", "retitle", "reorganize", "file away", "archive", "new name", "filename", "file name", "change the name", "another folder", "directory"])
.scopes(&["write:notes", "delete:notes"])
.paths(MOVE_PATHS)
.idempotent(true),
        ToolDef::new(
("copy_note", "Copy note", "Copy (duplicate) a note to a new path. Replacing an existing note (overwrite; it goes to .trash/) needs the user's confirmation. The copy's own links are kept working."),
"notes",
(input_schema::<Transfer>(), output_schema::<TransferResult>()),
copy_note,
)
.keywords(&["duplicate", "copy under a new name", "clone", "replicate", "copy", "template", "save as", "backup", "second copy", "make a copy"])
.scopes(&["write:notes"])
.paths(COPY_PATHS)
.idempotent(true),
    ]
}

fn move_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    transfer(ctx, parse(args)?, Kind::Move)
}

fn copy_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    transfer(ctx, parse(args)?, Kind::Copy)
}

/// Checks, confirms when needed, trashes a replaced destination, then moves or copies.
fn transfer(ctx: &ToolContext<'_>, args: Transfer, kind: Kind) -> Result<Value, ToolError> {
    let op = match kind {
        Kind::Move => AclOp::Delete,
        Kind::Copy => AclOp::Read,
    };
    let source = ctx
        .vault()
        .read(&args.from)
        .map_err(|error| tool_error_from_vault(&error, op))?;
    check_expected(
        &source.path,
        Some(&source.sha256),
        args.expected_sha256.as_deref(),
    )?;
    let destination = read_if_exists(ctx, &args.to, AclOp::Write)?;
    let to_rel = match &destination {
        Some(file) => file.path.clone(),
        None => args.to.clone(),
    };
    let crossed_folder = parent(&source.path) != parent(&to_rel);
    if destination
        .as_ref()
        .is_some_and(|file| file.path == source.path)
    {
        return structured(&TransferResult {
            from: source.path.clone(),
            to: source.path,
            sha256: source.sha256,
            crossed_folder: false,
            trashed_to: None,
            dry_run: args.dry_run,
            links_rewritten: 0,
            notes_rewritten: Vec::new(),
            skipped_notes: Vec::new(),
            skipped_links: 0,
        });
    }
    let replaced = match destination {
        Some(file) if args.overwrite => {
            ctx.check_path(&file.path, AclOp::Delete)?;
            Some(file)
        }
        Some(file) => {
            let exists = VaultError::AlreadyExists { path: file.path };
            return Err(tool_error_from_vault(&exists, AclOp::Write));
        }
        None => None,
    };
    let plan = relink_plan(ctx, &source.path, &to_rel, kind)?;
    let summary = |to: String, trashed_to: Option<String>, dry_run: bool| TransferResult {
        from: source.path.clone(),
        to,
        sha256: source.sha256.clone(),
        crossed_folder,
        trashed_to,
        dry_run,
        links_rewritten: plan.links(),
        notes_rewritten: plan.visible_notes(ctx),
        skipped_notes: plan.skipped_notes.clone(),
        skipped_links: plan.skipped_links,
    };
    if args.dry_run {
        return structured(&summary(to_rel, None, true));
    }
    if replaced.is_some() || (kind == Kind::Move && crossed_folder) {
        ctx.confirm(json!({
            "tool": ctx.tool().name(),
            "vault": ctx.vault_id(),
            "from": source.path,
            "to": to_rel,
            "crossed_folder": crossed_folder,
            "replaces": replaced.as_ref().map(|file| &file.path),
            "rewrites_links_in": plan.changes.len(),
            "reason": reason(kind, crossed_folder, replaced.is_some()),
        }))?;
    }
    let trashed_to = replaced
        .map(|file| trash_destination(ctx, &file))
        .transpose()?;
    let to = match kind {
        Kind::Move => {
            let mv = PlannedMove {
                from: source.path.clone(),
                to: args.to.clone(),
                sha256: source.sha256.clone(),
                replaces: None,
            };
            let moved = commit(ctx, &plan, &[mv])?;
            moved.into_iter().next().unwrap_or(to_rel)
        }
        Kind::Copy => copy(ctx, &source, &args.to, &plan)?,
    };
    structured(&summary(to, trashed_to, false))
}

/// The link rewrites moving (or copying) `from` to `to` needs.
fn relink_plan(
    ctx: &ToolContext<'_>,
    from: &str,
    to: &str,
    kind: Kind,
) -> Result<RelinkPlan, ToolError> {
    let pairs = vec![(from.to_owned(), to.to_owned())];
    match kind {
        Kind::Move => plan_moves(ctx, &*complete_link_table(ctx)?, &pairs),
        Kind::Copy => {
            let invalid = |error: engine_core::links::PathError| {
                ToolError::new(ErrorCode::PathInvalid, error.to_string())
            };
            let moves =
                Moves::new(pairs.iter().map(|(a, b)| (a.as_str(), b.as_str()))).map_err(invalid)?;
            let before = vault_files(ctx)?;
            let mut after = before.clone();
            after.push(to.to_owned());
            let only_the_copy = BTreeSet::from([from.to_owned()]);
            plan_relink(ctx, &before, &after, &moves, &only_the_copy)
        }
    }
}

/// Copies `source` to `to`: the file as it is, or its text with the rewritten links.
fn copy(
    ctx: &ToolContext<'_>,
    source: &NoteFile,
    to: &str,
    plan: &RelinkPlan,
) -> Result<String, ToolError> {
    let options = WriteOptions {
        overwrite: false,
        expected_sha256: Some(source.sha256.clone()),
    };
    let vault = ctx.vault();
    let written = match plan.changes.first() {
        None => vault.copy_file(&source.path, to, &options),
        Some(change) => vault.write(
            to,
            &change.new_bytes,
            &WriteOptions {
                overwrite: false,
                expected_sha256: None,
            },
        ),
    };
    written
        .map(|outcome| outcome.path)
        .map_err(|error| mutation_failed(ctx, &error, AclOp::Write))
}

/// Moves the note being replaced to `.trash/` (only if it is still what was read).
fn trash_destination(ctx: &ToolContext<'_>, file: &NoteFile) -> Result<String, ToolError> {
    // From here on a failure may leave the destination in the trash.
    ctx.mark_effect_started();
    ctx.vault()
        .trash(&file.path, Some(&file.sha256))
        .map_err(|error| tool_error_from_vault(&error, AclOp::Delete))
}

/// Why the transfer needs confirmation.
fn reason(kind: Kind, crossed_folder: bool, replaces: bool) -> &'static str {
    match (kind, crossed_folder, replaces) {
        (Kind::Move, true, true) => {
            "moves the note into another folder and replaces the note there"
        }
        (Kind::Move, true, false) => "moves the note into another folder",
        (_, _, true) => "replaces an existing note",
        (_, _, false) => "changes the vault",
    }
}

/// The folder part of a vault-relative path (`""` at the root).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(folder, _)| folder)
}
