//! `audit_provenance` (the original obsidian-tc's name): which of the notes the caller may
//! read lack a sources property (`field`, default `sources`), with the coverage of it, of
//! `confidence` and of `verified`, per top-level folder. Answered from the frontmatter the
//! index keeps (`notes` rows), so it reads no file; daily notes, templates, index notes and
//! drawings are left out by default, as in the original, and `include` / `exclude` globs
//! narrow the scope further.

use std::collections::BTreeMap;

use engine_core::acl::{CaseMode, Glob};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{MAX_PAGE, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// What the original leaves out before the caller's `exclude`: daily notes, templates,
/// index notes and Excalidraw drawings.
const DEFAULT_EXCLUDE: &[&str] = &[
    "01-daily/**",
    "_templates/**",
    "**/00-INDEX.md",
    "**/_*-Index.md",
    "**/*.excalidraw.md",
];

/// The key `by_folder` files a note at the vault's root under.
const ROOT_FOLDER: &str = "/";

/// The arguments of `audit_provenance`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AuditProvenance {
    /// The property that names a note's sources (default `sources`).
    #[serde(default = "sources")]
    #[schemars(length(min = 1, max = 256))]
    field: String,
    /// Only notes matching one of these globs (vault-relative; `*` within a folder, `**`
    /// across folders).
    #[serde(default)]
    #[schemars(length(max = 64), inner(length(min = 1, max = 1024)))]
    include: Vec<String>,
    /// Notes matching one of these globs are left out, besides daily notes (`01-daily/**`),
    /// templates (`_templates/**`), index notes (`**/00-INDEX.md`, `**/_*-Index.md`) and
    /// drawings (`**/*.excalidraw.md`).
    #[serde(default)]
    #[schemars(length(max = 64), inner(length(min = 1, max = 1024)))]
    exclude: Vec<String>,
    /// The most paths `missing` lists (1-2000, default 100).
    #[serde(default = "hundred")]
    #[schemars(range(min = 1, max = 2000))]
    limit: usize,
}

fn sources() -> String {
    "sources".to_owned()
}

fn hundred() -> usize {
    100
}

/// One top-level folder's counts.
#[derive(Debug, Default, Serialize, JsonSchema)]
struct FolderCounts {
    /// Notes scanned in it.
    scanned: usize,
    /// Of those, the notes without the property.
    missing: usize,
}

/// What `audit_provenance` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Provenance {
    /// The property looked for.
    field: String,
    /// Notes scanned: the readable notes in scope.
    scanned: usize,
    /// Of those, the notes whose property has a value (a non-blank text, a non-empty list,
    /// any other non-null value).
    with_provenance: usize,
    /// The notes without it.
    missing_provenance: usize,
    /// `with_provenance / scanned`, to 3 decimals (1 when nothing was scanned).
    coverage: f64,
    /// The share of scanned notes with a `confidence` value, to 3 decimals (0 when none).
    confidence_coverage: f64,
    /// The share of scanned notes with a `verified` property (any value), to 3 decimals.
    verified_coverage: f64,
    /// Counts per top-level folder (`/` for notes at the vault's root).
    by_folder: BTreeMap<String, FolderCounts>,
    /// The first `limit` notes without the property, by path.
    missing: Vec<String>,
    /// Whether more notes lack it than `missing` lists.
    truncated: bool,
}

/// The `audit_provenance` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "audit_provenance",
            "Audit provenance",
            "Which notes lack a sources property (field, default sources): the coverage of it, \
             of confidence and of verified over the notes you may read, per top-level \
             folder, and the notes missing it (limit, up to 2000). Daily notes, templates, \
             index notes and drawings are left out; include / exclude globs narrow it.",
        ),
        "frontmatter",
        (
            input_schema::<AuditProvenance>(),
            output_schema::<Provenance>(),
        ),
        audit_provenance,
    )
    .keywords(&[
        "provenance",
        "sources",
        "citations",
        "unsourced",
        "missing sources",
    ])
    .scopes(&["read:notes"])
}

fn audit_provenance(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: AuditProvenance = parse(args)?;
    let include = compile(&args.include)?;
    let mut exclude = compile(DEFAULT_EXCLUDE)?;
    exclude.extend(compile(&args.exclude)?);
    let in_scope = |path: &str| {
        (include.is_empty() || include.iter().any(|glob| glob.matches(path)))
            && !exclude.iter().any(|glob| glob.matches(path))
            && ctx.may_list(path)
    };
    let mut audit = Provenance {
        field: args.field,
        scanned: 0,
        with_provenance: 0,
        missing_provenance: 0,
        coverage: 1.0,
        confidence_coverage: 0.0,
        verified_coverage: 0.0,
        by_folder: BTreeMap::new(),
        missing: Vec::new(),
        truncated: false,
    };
    let (mut confident, mut verified) = (0, 0);
    let mut cursor: Option<String> = None;
    loop {
        let page = ctx
            .store()
            .notes()
            .list(ctx.vault_id(), None, cursor.as_deref(), MAX_PAGE)
            .map_err(store_fault)?;
        for note in page.items.iter().filter(|note| in_scope(&note.path)) {
            let properties = note.frontmatter.as_object();
            let folder = audit.by_folder.entry(top_folder(&note.path)).or_default();
            folder.scanned += 1;
            audit.scanned += 1;
            if has_value(properties, &audit.field) {
                audit.with_provenance += 1;
            } else {
                folder.missing += 1;
                audit.missing_provenance += 1;
                if audit.missing.len() < args.limit {
                    audit.missing.push(note.path.clone());
                }
            }
            confident += usize::from(has_value(properties, "confidence"));
            verified += usize::from(properties.is_some_and(|map| map.contains_key("verified")));
        }
        cursor = page.cursor;
        if cursor.is_none() {
            break;
        }
    }
    if audit.scanned > 0 {
        let share = |count: usize| (count as f64 / audit.scanned as f64 * 1000.0).round() / 1000.0;
        audit.coverage = share(audit.with_provenance);
        audit.confidence_coverage = share(confident);
        audit.verified_coverage = share(verified);
    }
    audit.truncated = audit.missing_provenance > audit.missing.len();
    structured(&audit)
}

/// The globs `patterns`, compiled; one that cannot match a vault path is `invalid_input`.
fn compile<S: AsRef<str>>(patterns: &[S]) -> Result<Vec<Glob>, ToolError> {
    patterns
        .iter()
        .map(|pattern| {
            let pattern = pattern.as_ref();
            Glob::compile(pattern, CaseMode::Sensitive).map_err(|error| {
                ToolError::new(
                    ErrorCode::InvalidInput,
                    format!("the glob '{pattern}' is not valid: {error}"),
                )
                .with_details(json!({ "glob": pattern }))
            })
        })
        .collect()
}

/// The top-level folder of `path` ([`ROOT_FOLDER`] for a note at the root).
fn top_folder(path: &str) -> String {
    path.split_once('/')
        .map_or(ROOT_FOLDER, |(top, _)| top)
        .to_owned()
}

/// Whether `properties` give `key` a value: a non-blank text, a non-empty list, or any
/// other non-null value.
fn has_value(properties: Option<&Map<String, Value>>, key: &str) -> bool {
    match properties.and_then(|map| map.get(key)) {
        None | Some(Value::Null) => false,
        Some(Value::String(text)) => !text.trim().is_empty(),
        Some(Value::Array(items)) => !items.is_empty(),
        Some(_) => true,
    }
}
