//! `improve_frontmatter`: the safe fixes of one note's property problems, previewed by
//! default, written on request.
//!
//! The note is read once; each fix is a line-level `set` of the frontmatter module (every
//! other byte kept); the dry run shows the diff and the SHA-256 the note would then have,
//! and the write carries the SHA-256 of the read, so a note changed in between is
//! `concurrent_modification` and never overwritten. Problems without a safe fix are
//! listed in `remaining` and left alone.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::check::{Issue, note_issues};
use super::declared::declared_types;
use crate::edits::preview;
use crate::errors::ToolError;
use crate::frontmatter::{self, Edit, apply};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::{check_expected, tool_error_from_vault};
use crate::tools::common::write_back::write_back;

/// The arguments of `improve_frontmatter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Improve {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// Property names the note must have; missing ones are added empty.
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub required: Vec<String>,
    /// Only show what would change (default); `false` writes it.
    #[serde(default = "default_dry_run")]
    pub dry_run: bool,
    /// Refuse (`concurrent_modification`) unless the note still has this SHA-256.
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    pub expected_sha256: Option<String>,
}

fn default_dry_run() -> bool {
    true
}

/// What `improve_frontmatter` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Improved {
    /// The note's canonical path.
    pub path: String,
    /// Whether this was only a preview.
    pub dry_run: bool,
    /// Whether the fixes change the note.
    pub changed: bool,
    /// The problems fixed (or to be fixed), each with the value written.
    pub fixes: Vec<Issue>,
    /// The problems without a safe fix, left alone.
    pub remaining: Vec<Issue>,
    /// The change as a line diff (empty when nothing changes).
    pub diff: String,
    /// The note's SHA-256 before the fixes.
    pub previous_sha256: String,
    /// The SHA-256 of the fixed note: what a write produces (and, after one, the note's).
    pub sha256: String,
}

/// Fixes a note's property problems (see the module docs).
pub(super) fn improve_frontmatter(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Improve = parse(args)?;
    let note = read_text(ctx.vault(), &args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    check_expected(
        &note.path,
        Some(&note.sha256),
        args.expected_sha256.as_deref(),
    )?;
    let fm = frontmatter::read(&note.text)
        .map_err(|error| tool_error_from_frontmatter(&error, &note.path))?;
    let declared = declared_types(ctx)?;
    let (fixes, remaining): (Vec<Issue>, Vec<Issue>) =
        note_issues(&fm.keys, &fm.properties, &declared, &args.required)
            .into_iter()
            .partition(|issue| issue.fix.is_some());
    let mut text = note.text.clone();
    for issue in &fixes {
        let edit = Edit::Set {
            key: issue.key.clone(),
            value: issue.fix.clone().unwrap_or(Value::Null),
        };
        text = apply(&text, &edit)
            .map_err(|error| tool_error_from_frontmatter(&error, &note.path))?
            .text;
    }
    let changed = text != note.text;
    let mut result = Improved {
        dry_run: args.dry_run,
        changed,
        diff: if changed {
            preview(&note.text, &text)
        } else {
            String::new()
        },
        sha256: sha256_hex(text.as_bytes()),
        previous_sha256: note.sha256.clone(),
        path: note.path.clone(),
        fixes,
        remaining,
    };
    if args.dry_run || !changed {
        return structured(&result);
    }
    let written = write_back(ctx, &note.path, text.as_bytes(), Some(note.sha256))?;
    result.path = written.path;
    result.sha256 = written.sha256;
    structured(&result)
}
