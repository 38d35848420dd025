//! `bulk_create_notes`: many notes in one call. An existing note is never replaced unless
//! `overwrite` is asked; one whose bytes already are the requested content is `unchanged`,
//! so repeating a call (or resuming a partial one) is harmless. Duplicate paths in one
//! request are refused before anything is written.

use std::collections::HashSet;

use engine_core::acl::{AclOp, validate_path};
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::outcome::{BulkResult, ItemResult, ItemStatus, finish};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::output_schema;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{VaultError, WriteOptions};

/// The most notes one call creates.
const MAX_NOTES: usize = 500;

/// The arguments of `bulk_create_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BulkCreateNotes {
    /// The notes to create, each a path and its content.
    #[schemars(length(min = 1, max = 500))]
    notes: Vec<NewNote>,
    /// Replace notes that already exist with other content (default: such an item fails
    /// with `already_exists` and the note is kept).
    #[serde(default)]
    overwrite: bool,
}

/// One note to create.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NewNote {
    /// The vault-relative path of the note; missing folders are created.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The note's whole content.
    content: String,
}

/// The `bulk_create_notes` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("bulk_create_notes", "Create many notes", "Create up to 500 notes in one call, with one result per note (created, overwritten, unchanged or failed). An existing note is never replaced unless overwrite is true; a note that already has the requested content is unchanged, so repeating the call is safe. Always needs the user's confirmation. When some notes fail the call returns bulk_partial with the per-note results in details."),
"notes",
(input_schema::<BulkCreateNotes>(), output_schema::<BulkResult>()),
bulk_create_notes,
)
.keywords(&["for each of these", "separate note for each", "one note each", 
            "batch",
            "many notes",
            "import",
            "mass create",
            "several notes",
        ])
.scopes(&["write:notes", "bulk:notes"])
.idempotent(true)
.precheck(precheck)
}

/// Refuses a request that no vault could satisfy (a bad or repeated path) before the
/// confirmation is asked for.
fn precheck(_ctx: &ToolContext<'_>, args: &Value) -> Result<(), ToolError> {
    let args: BulkCreateNotes = parse(args.clone())?;
    check_request(&args)
}

/// Every path valid and named once, at most [`MAX_NOTES`] notes.
fn check_request(args: &BulkCreateNotes) -> Result<(), ToolError> {
    if args.notes.len() > MAX_NOTES {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("at most {MAX_NOTES} notes per call; split the request"),
        ));
    }
    let mut seen = HashSet::new();
    for note in &args.notes {
        let nfc = validate_path(&note.path)
            .map_err(|reason| ToolError::path_invalid(&note.path, reason))?;
        if !seen.insert(nfc.to_lowercase()) {
            return Err(ToolError::new(
                ErrorCode::InvalidInput,
                format!(
                    "'{}' is named more than once; give each note once",
                    note.path
                ),
            )
            .with_details(json!({ "path": note.path })));
        }
    }
    Ok(())
}

fn bulk_create_notes(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: BulkCreateNotes = parse(args)?;
    check_request(&args)?;
    let results = args
        .notes
        .iter()
        .map(|note| {
            create_one(ctx, note, args.overwrite)
                .unwrap_or_else(|error| ItemResult::failed(&note.path, &error))
        })
        .collect();
    finish(results)
}

/// Creates (or, with `overwrite`, replaces) one note.
fn create_one(
    ctx: &ToolContext<'_>,
    note: &NewNote,
    overwrite: bool,
) -> Result<ItemResult, ToolError> {
    ctx.check_path(&note.path, AclOp::Write)?;
    let bytes = note.content.as_bytes();
    let sha256 = sha256_hex(bytes);
    let existing = match ctx.vault().read(&note.path) {
        Ok(file) => Some(file),
        Err(VaultError::NotFound { .. }) => None,
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Write)),
    };
    let options = match &existing {
        Some(file) if file.sha256 == sha256 => {
            return Ok(ItemResult::done(
                file.path.clone(),
                ItemStatus::Unchanged,
                sha256,
            ));
        }
        Some(file) if !overwrite => {
            let exists = VaultError::AlreadyExists {
                path: file.path.clone(),
            };
            return Err(tool_error_from_vault(&exists, AclOp::Write));
        }
        Some(file) => WriteOptions {
            overwrite: true,
            expected_sha256: Some(file.sha256.clone()),
        },
        None => WriteOptions::default(),
    };
    ctx.mark_effect_started();
    let outcome = ctx
        .vault()
        .write(&note.path, bytes, &options)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
    let status = if existing.is_some() {
        ItemStatus::Overwritten
    } else {
        ItemStatus::Created
    };
    Ok(ItemResult::done(outcome.path, status, sha256))
}
