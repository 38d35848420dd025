//! `index_vault` (scan the vault into the search index now: new and changed notes indexed,
//! deleted ones pruned, unchanged ones skipped) and `get_index_status` (how far the index is,
//! what the last scan did, which notes could not be indexed and why).

use std::sync::{Arc, PoisonError};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::index::semantic::{Coverage, SemanticError};
use crate::index::{EmbeddingStatus, ScanReport, VaultIndex, embedding_status, lexical_reason};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::index::{index_fault, readable_chunks, scan_notes};
use crate::tools::common::structured::{output_schema, structured};

/// No arguments beyond the vault.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

/// What `index_vault` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Indexed {
    /// The vault indexed.
    vault: String,
    /// What the scan did.
    #[serde(flatten)]
    report: ScanReport,
    /// How many chunks have embeddings now (absent without an embedding provider, or while
    /// its model is not loaded yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    embeddings: Option<Coverage>,
    /// Why no chunk was embedded by this call (embeddings off, the model still downloading
    /// or unavailable); absent when they were. A model that arrives later embeds them in the
    /// background.
    #[serde(skip_serializing_if = "Option::is_none")]
    lexical_only: Option<String>,
    /// How long the scan took, milliseconds.
    duration_ms: u64,
}

/// One note that could not be indexed.
#[derive(Debug, Serialize, JsonSchema)]
struct Failure {
    /// The note's path.
    path: String,
    /// What failed: `read` (unreadable or not UTF-8), `frontmatter` (invalid YAML; the
    /// body is indexed) or `embed` (the embedding provider failed; lexical search covers it).
    stage: String,
    /// Why.
    error: String,
    /// Scans that failed on it in a row.
    attempts: u32,
}

/// What `get_index_status` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Status {
    /// The vault.
    vault: String,
    /// Whether a scan is running now.
    scanning: bool,
    /// Notes the caller may read that are indexed now (a running scan adds to them).
    done: usize,
    /// The same count: the notes the caller may read that the index knows (a caller is
    /// never told how many notes it may not read, so a running scan's total is not shown).
    total: usize,
    /// Chunks searchable now, of the notes the caller may read.
    chunks: usize,
    /// Whether the vault has been scanned since the server started.
    scanned: bool,
    /// The notes that could not be indexed (retried on every scan).
    failures: Vec<Failure>,
    /// Where semantic search stands: the model's download, the chunks embedded, and why
    /// search is lexical when it is.
    embeddings: EmbeddingStatus,
}

/// The `index_vault` tool.
pub(super) fn index_tool() -> ToolDef {
    ToolDef::new(
        (
            "index_vault",
            "Index the vault",
            "Scan the vault into the search index now: new and changed notes are \
                      indexed (and embedded, when embeddings are configured), deleted ones \
                      pruned, unchanged ones skipped.",
        ),
        "find",
        (input_schema::<NoArgs>(), output_schema::<Indexed>()),
        index_vault,
    )
    .keywords(&[
        "synced",
        "pick up new notes",
        "picks them up",
        "index",
        "reindex",
        "rebuild",
        "refresh",
        "scan",
        "update",
        "rescan",
        "embed",
        "index now",
    ])
    .scopes(&["admin:vault"])
}

/// The `get_index_status` tool.
pub(super) fn status_tool() -> ToolDef {
    ToolDef::new(
        (
            "get_index_status",
            "Index status",
            "How far the search index of a vault is: chunks searchable, a running \
                      scan's progress, the notes that could not be indexed and why, and \
                      where semantic search stands (model download, chunks embedded, ETA, \
                      or why search is lexical).",
        ),
        "find",
        (input_schema::<NoArgs>(), output_schema::<Status>()),
        get_index_status,
    )
    .keywords(&[
        "catching up",
        "doesn't come up",
        "not showing up in search",
        "index",
        "index status",
        "progress",
        "coverage",
        "indexed",
        "ready",
        "how far",
        "embedding progress",
        "not indexed",
        "indexing",
    ])
    .scopes(&["read:notes"])
}

fn index_vault(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let _: NoArgs = parse(args)?;
    let started = ctx.clock().now_ms();
    let indexes = ctx.runtime().indexes();
    let embeddings = &ctx.served().config().config.embeddings;
    // The model loads before the scan opens the index (see `Indexes::load_model_first`); a
    // model that fails to load is reported after the scan, which runs regardless.
    let semantic = indexes.semantic(ctx.store(), embeddings);
    let (report, notes) = scan_notes(ctx)?;
    // Progress continues past the notes with the chunks still to embed, counting only the
    // chunks the caller may read (hidden notes change nothing it is told).
    let readable = |path: &str| ctx.may_list(path);
    let to_embed = match semantic.map_err(SemanticError::into_tool_error)? {
        Some(semantic) => readable_chunk_count(ctx, &*open_index(ctx)?)
            .saturating_sub(semantic.embedded_readable(ctx.vault_id(), &readable))
            as u64,
        None => 0,
    };
    let mut embedded = 0;
    let coverage = indexes
        .embed_pending(
            ctx.store(),
            ctx.vault_id(),
            embeddings,
            ctx.clock().now_seconds(),
            &mut |paths| {
                embedded += paths.iter().filter(|path| readable(path)).count() as u64;
                ctx.report_progress(
                    notes + embedded,
                    Some(notes + to_embed.max(embedded)),
                    "embedding chunks",
                );
            },
        )
        .map_err(SemanticError::into_tool_error)?;
    // The background embedder may have embedded some of them meanwhile: all are done now.
    if coverage.is_some() && embedded < to_embed {
        ctx.report_progress(notes + to_embed, Some(notes + to_embed), "embedding chunks");
    }
    let lexical_only = coverage
        .is_none()
        .then(|| lexical_reason(indexes, ctx.served().config()));
    // The caller is told about the chunks it may read only.
    let coverage = match (coverage, indexes.semantic_if_open()) {
        (Some(_), Some(semantic)) => Some(Coverage {
            embedded: semantic.embedded_readable(ctx.vault_id(), &readable),
            chunks: readable_chunk_count(ctx, &*open_index(ctx)?),
        }),
        _ => None,
    };
    structured(&Indexed {
        vault: ctx.vault_id().to_owned(),
        report,
        embeddings: coverage,
        lexical_only,
        duration_ms: ctx.clock().now_ms().saturating_sub(started),
    })
}

fn get_index_status(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let _: NoArgs = parse(args)?;
    let index = open_index(ctx)?;
    let status = index.status();
    let readable = |path: &str| ctx.may_list(path);
    let chunks = readable_chunk_count(ctx, &index);
    // Progress in notes the caller may read: those indexed now, of those known to the index.
    let indexed = ctx
        .store()
        .note_index()
        .stamps(ctx.vault_id())
        .map_err(index_fault)?
        .into_keys()
        .filter(|path| readable(path))
        .count();
    let failures = ctx
        .store()
        .note_index()
        .failures(ctx.vault_id())
        .map_err(index_fault)?
        .into_iter()
        .filter(|failure| readable(&failure.path))
        .map(|failure| Failure {
            path: failure.path,
            stage: failure.stage,
            error: failure.error,
            attempts: failure.attempts,
        })
        .collect();
    let embeddings = embedding_status(
        ctx.runtime().indexes(),
        ctx.store(),
        ctx.vault_id(),
        ctx.served().config(),
        (chunks, &readable),
    )
    .map_err(SemanticError::into_tool_error)?;
    structured(&Status {
        vault: ctx.vault_id().to_owned(),
        scanning: status.scanning,
        done: indexed,
        total: indexed,
        chunks,
        scanned: status.last_scan.is_some(),
        failures,
        embeddings,
    })
}

/// The live index of the call's vault.
fn open_index(ctx: &ToolContext<'_>) -> Result<Arc<VaultIndex>, ToolError> {
    ctx.runtime()
        .indexes()
        .vault(ctx.store(), ctx.vault_id())
        .map_err(index_fault)
}

/// How many chunks of `index` (the call's vault) the caller may read.
fn readable_chunk_count(ctx: &ToolContext<'_>, index: &VaultIndex) -> usize {
    let view = index.view.read().unwrap_or_else(PoisonError::into_inner);
    readable_chunks(ctx, &view).len()
}
