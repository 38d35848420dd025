//! `bundle_folder` and `bundle_files`: whole notes concatenated into one text, each under a
//! `==> path <==` header line, packed to a token budget (and to what the byte governor lets
//! the response carry). A note that does not fit is cut whole, never halfway, and listed;
//! later, smaller notes may still fit. `bundle_folder` takes every note under a folder the
//! caller may read (others are not mentioned); `bundle_files` takes the named paths and
//! reports each one it cannot read with the error `read_note` would give.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::note::read;
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::budget::Budget;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::EntryKind;

/// The most cut paths listed by name (the rest are only counted).
const MAX_CUT_LISTED: usize = 200;

/// The arguments of `bundle_folder`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BundleFolder {
    /// The vault-relative folder (empty or absent: the whole vault); notes in its subfolders
    /// are included.
    #[serde(default)]
    #[schemars(length(max = 1024))]
    folder: Option<String>,
    /// The most estimated tokens (characters / 4) the bundle may take (default 8000).
    #[serde(default = "default_tokens")]
    #[schemars(range(min = 50, max = 250_000))]
    max_tokens: usize,
}

/// The arguments of `bundle_files`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BundleFiles {
    /// The vault-relative paths of the notes, in the order the bundle should have.
    #[schemars(length(min = 1, max = 100), inner(length(min = 1, max = 1024)))]
    paths: Vec<String>,
    /// The most estimated tokens (characters / 4) the bundle may take (default 8000).
    #[serde(default = "default_tokens")]
    #[schemars(range(min = 50, max = 250_000))]
    max_tokens: usize,
}

fn default_tokens() -> usize {
    8000
}

/// A note in the bundle.
#[derive(Debug, Serialize, JsonSchema)]
struct Included {
    /// Its vault-relative path.
    path: String,
    /// The estimated tokens it took, header included.
    tokens: usize,
}

/// A path that could not be read.
#[derive(Debug, Serialize, JsonSchema)]
struct Failed {
    /// The path as given.
    path: String,
    /// Why, as `read_note` would say.
    error: ToolError,
}

/// What `bundle_folder` and `bundle_files` return.
#[derive(Debug, Serialize, JsonSchema)]
struct Bundle {
    /// The notes, each as a `==> path <==` line, its text and a blank line.
    text: String,
    /// The notes in `text`, in order.
    included: Vec<Included>,
    /// Notes left out because they did not fit the budget (the first 200 by name).
    cut: Vec<String>,
    /// How many notes were left out because they did not fit.
    cut_count: usize,
    /// Paths that could not be read (`bundle_files` only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    errors: Vec<Failed>,
    /// The token budget asked for.
    max_tokens: usize,
    /// The estimated tokens of `text` (never more than `max_tokens`).
    tokens_used: usize,
}

fn definition(
    name: &'static str,
    title: &'static str,
    description: &'static str,
    keywords: &'static [&'static str],
    input_schema: Value,
    handler: fn(&ToolContext<'_>, Value) -> Result<Value, ToolError>,
) -> ToolDef {
    ToolDef::new(
        (name, title, description),
        "context",
        (input_schema, output_schema::<Bundle>()),
        handler,
    )
    .keywords(keywords)
    .scopes(&["read:notes"])
}

/// The `bundle_folder` tool.
pub(super) fn folder_tool() -> ToolDef {
    definition(
        "bundle_folder",
        "Bundle a folder",
        "Concatenate a whole directory tree of markdown into one bundle with path headers, \
         whole files only, to a token budget (max_tokens); lists what was cut.",
        &[
            "one big chunk",
            "paste",
            "everything in the folder",
            "as one text",
            "bundle",
            "concatenate",
            "combine",
            "export folder",
            "dump",
            "whole folder",
            "folder into one",
            "context",
            "budget",
        ],
        input_schema::<BundleFolder>(),
        bundle_folder,
    )
}

/// The `bundle_files` tool.
pub(super) fn files_tool() -> ToolDef {
    definition(
        "bundle_files",
        "Bundle notes",
        "The named notes concatenated with path headers, whole notes only, to a token \
         budget (max_tokens); lists the notes cut and each path that cannot be read.",
        &[
            "glue",
            "together",
            "single document",
            "bundle",
            "concatenate",
            "combine",
            "export",
            "dump",
            "these notes",
            "single bundle",
            "context",
            "budget",
        ],
        input_schema::<BundleFiles>(),
        bundle_files,
    )
}

fn bundle_folder(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: BundleFolder = parse(args)?;
    let folder = args
        .folder
        .as_deref()
        .map(|f| f.trim_matches('/'))
        .filter(|f| !f.is_empty());
    let paths: Vec<String> = ctx
        .vault()
        .list(folder)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?
        .into_iter()
        .filter(|entry| entry.kind == EntryKind::File && is_note(&entry.path))
        .filter(|entry| ctx.may_list(&entry.path))
        .map(|entry| entry.path)
        .collect();
    // A listed note that vanished or became unreadable since the listing is skipped: the
    // folder bundle names only notes it could read.
    pack(ctx, &paths, args.max_tokens, false)
}

fn bundle_files(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: BundleFiles = parse(args)?;
    pack(ctx, &args.paths, args.max_tokens, true)
}

/// Packs the notes at `paths` in order; `report_errors`: list the paths that fail (else
/// they are skipped).
fn pack(
    ctx: &ToolContext<'_>,
    paths: &[String],
    max_tokens: usize,
    report_errors: bool,
) -> Result<Value, ToolError> {
    let mut budget = Budget::new(ctx, max_tokens);
    let mut bundle = Bundle {
        text: String::new(),
        included: Vec::new(),
        cut: Vec::new(),
        cut_count: 0,
        errors: Vec::new(),
        max_tokens,
        tokens_used: 0,
    };
    for path in paths {
        let (path, text) = match read(ctx, path) {
            Ok((file, text)) => (file.path, text),
            Err(error) => {
                if report_errors {
                    bundle.errors.push(Failed {
                        path: path.clone(),
                        error,
                    });
                }
                continue;
            }
        };
        let header = format!("==> {path} <==\n");
        let body = format!("{}\n\n", text.trim_end_matches('\n'));
        match budget.take(&[&header, &body]) {
            Some(tokens) => {
                bundle.text.push_str(&header);
                bundle.text.push_str(&body);
                bundle.included.push(Included { path, tokens });
            }
            None => {
                bundle.cut_count += 1;
                if bundle.cut.len() < MAX_CUT_LISTED {
                    bundle.cut.push(path);
                }
            }
        }
    }
    bundle.tokens_used = budget.used_tokens;
    structured(&bundle)
}

/// Whether `path` is a Markdown note.
fn is_note(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"))
}
