//! `frontmatter_validate`: the property problems of one note, a folder or the vault.
//!
//! A folder is read note by note, each checked against the caller's ACL before it is read
//! (the frontmatter tools' scan); a note whose frontmatter is not valid YAML is listed in
//! `invalid`. Only notes with issues are listed, by path, paged.

use std::collections::BTreeMap;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::check::{Issue, note_issues};
use super::declared::{DeclaredType, declared_types};
use crate::errors::{ErrorCode, ToolError};
use crate::frontmatter;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::frontmatter::InvalidNote;
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::frontmatter::scan;
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::paging::{Page, PageArgs, Paging, page};
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::tool_error_from_vault;

/// The arguments of `frontmatter_validate`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Validate {
    /// One note to check (not with `folder`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    pub path: Option<String>,
    /// Check every note under this folder (not with `path`; the whole vault without both).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    pub folder: Option<String>,
    /// Property names every checked note must have (e.g. `["id", "created"]`).
    #[serde(default)]
    #[schemars(length(max = 64))]
    pub required: Vec<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    pub page: PageArgs<ValidatePaging>,
}

/// `frontmatter_validate` pages by 100 notes (at most 1000); `limit` may be `null`.
pub(super) struct ValidatePaging;

impl Paging for ValidatePaging {
    const ITEMS: &'static str = "notes";
    const NULLABLE_LIMIT: bool = true;
}

/// One note with issues.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct NoteIssues {
    /// The note's path.
    pub path: String,
    /// Its issues: missing required keys, then type mismatches in property order.
    pub issues: Vec<Issue>,
}

/// What `frontmatter_validate` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Validation {
    /// Notes checked (readable, with readable frontmatter).
    pub checked: usize,
    /// Issues in all the checked notes.
    pub issue_count: usize,
    /// Notes with issues, by path, with `total_count` and `cursor`.
    #[serde(flatten)]
    pub page: Page<NoteIssues>,
    /// Notes whose frontmatter could not be read (the first 100).
    pub invalid: Vec<InvalidNote>,
    /// Notes whose frontmatter could not be read, in all.
    pub invalid_count: usize,
    /// The property types of `.obsidian/types.json` the check used.
    pub declared_types: BTreeMap<String, DeclaredType>,
}

/// Checks the properties of a note or folder (see the module docs).
pub(super) fn frontmatter_validate(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Validate = parse(args)?;
    let declared = declared_types(ctx)?;
    let (notes, (invalid, invalid_count)) = match (&args.path, &args.folder) {
        (Some(_), Some(_)) => {
            return Err(ToolError::new(
                ErrorCode::InvalidInput,
                "give 'path' (one note) or 'folder', not both",
            ));
        }
        (Some(path), None) => {
            let note = read_text(ctx.vault(), path)
                .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
            let fm = frontmatter::read(&note.text)
                .map_err(|error| tool_error_from_frontmatter(&error, &note.path))?;
            (vec![(note.path, fm)], (Vec::new(), 0))
        }
        (None, folder) => {
            let mut scanned = scan(ctx, folder.as_deref())?;
            let invalid = scanned.invalid_report();
            (scanned.notes, invalid)
        }
    };
    let checked = notes.len();
    let with_issues: Vec<NoteIssues> = notes
        .into_iter()
        .map(|(path, fm)| NoteIssues {
            issues: note_issues(&fm.keys, &fm.properties, &declared, &args.required),
            path,
        })
        .filter(|note| !note.issues.is_empty())
        .collect();
    let issue_count = with_issues.iter().map(|n| n.issues.len()).sum();
    structured(&Validation {
        checked,
        issue_count,
        page: page(with_issues, args.page.cursor(), args.page.limit())?,
        invalid,
        invalid_count,
        declared_types: declared,
    })
}
