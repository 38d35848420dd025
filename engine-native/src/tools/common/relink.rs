//! Link-safe moves: which notes' links a set of moves breaks, their rewritten text (from
//! engine-core's [`rewrite_links`], so every wikilink, embed, markdown link and frontmatter
//! wikilink keeps its style, alias, display text and `#heading` / `#^block` subpath), and
//! the all-or-nothing commit of those rewrites together with the moves.
//!
//! # What the commit guarantees
//! Every file is written through the [`crate::vault::Vault`] with the SHA-256 it had when
//! it was planned (`expected_sha256`), each write atomic (temp file, then rename). When any
//! write or move fails, the steps already done are undone in reverse order: moved files go
//! back, rewritten notes get their original bytes (kept in memory) back, created files are
//! removed, each restore again
//! guarded by the SHA-256 just written, so a note someone changed in between is never
//! overwritten. Afterwards every file is byte-identical to before, or the error is
//! `indeterminate` and names the files that could not be restored. A crash of the process
//! in the middle leaves each file whole (old or new bytes, never a mix) but may leave some
//! notes rewritten and others not: there is no on-disk journal.

use std::collections::BTreeSet;

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use engine_core::links::{
    LinkResolver, LinkSpan, LinkSyntax, Moves, VaultChange, link_spans, rewrite_links,
};
use engine_core::markdown::extract;
use serde_json::{Value, json};

use crate::errors::{ErrorCode, ToolError};
use crate::index::links::LinkTable;
use crate::runtime::ToolContext;
use crate::tools::common::link_table::vault_files;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{NoteFile, TextFile, WriteOptions};

/// One note whose links change.
#[derive(Debug)]
pub(crate) struct NoteChange {
    /// The note's path before the moves.
    pub(crate) path: String,
    /// The note as read when planning (bytes kept to restore it).
    pub(crate) original: NoteFile,
    /// The rewritten bytes.
    pub(crate) new_bytes: Vec<u8>,
    /// How many links changed.
    pub(crate) links: usize,
}

/// The rewrites a set of moves needs.
#[derive(Debug, Default)]
pub(crate) struct RelinkPlan {
    /// The notes to rewrite, by path.
    pub(crate) changes: Vec<NoteChange>,
    /// Notes the caller may read but not write whose links to a moved note stay as they are.
    pub(crate) skipped_notes: Vec<String>,
    /// Links that needed a change but could not get one (left as they are).
    pub(crate) skipped_links: usize,
    /// New files to create with their bytes (written after the changes; a file there by
    /// then fails the commit): a page and the files a change generates beside it.
    pub(crate) created: Vec<(String, Vec<u8>)>,
}

impl RelinkPlan {
    /// How many links the plan changes.
    pub(crate) fn links(&self) -> usize {
        self.changes.iter().map(|change| change.links).sum()
    }

    /// The rewritten notes the caller may read (a hidden one is never named), by path.
    pub(crate) fn visible_notes(&self, ctx: &ToolContext<'_>) -> Vec<String> {
        self.changes
            .iter()
            .map(|change| change.path.clone())
            .filter(|path| ctx.may(path, AclOp::Read))
            .collect()
    }
}

/// The spans of every link of `text`: body links and embeds, and the wikilinks written in
/// frontmatter values (which the index counts as `frontmatter` links), in text order.
pub(crate) fn all_link_spans(text: &str) -> Vec<LinkSpan> {
    let meta = extract(text);
    let mut spans = link_spans(&meta);
    if let Some(frontmatter) = &meta.frontmatter {
        let range = frontmatter.yaml_range;
        let mut offset = range.start;
        for line in text[range.start..range.end].split_inclusive('\n') {
            let trimmed = line.trim_start();
            let start = offset + (line.len() - trimmed.len());
            spans.extend(
                extract(trimmed)
                    .links
                    .iter()
                    .filter(|link| link.syntax == LinkSyntax::Wikilink)
                    .map(|link| LinkSpan {
                        start: start + link.position.start.offset,
                        end: start + link.position.end.offset,
                        syntax: link.syntax,
                    }),
            );
            offset += line.len();
        }
    }
    spans.sort_by_key(|span| span.start);
    spans.dedup_by_key(|span| span.start);
    spans
}

/// The notes whose links the moves `pairs` may break: the notes linking to a moved note,
/// the notes with a link naming a moved note's old or new file name (a move can take a name
/// over), and the moved notes themselves.
pub(crate) fn move_candidates(table: &LinkTable, pairs: &[(String, String)]) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = BTreeSet::new();
    let mut out: BTreeSet<String> = BTreeSet::new();
    for (from, to) in pairs {
        names.insert(stem_key(from));
        names.insert(stem_key(to));
        out.insert(from.clone());
        out.extend(table.incoming(from).map(|link| link.source.clone()));
    }
    out.extend(
        table
            .all()
            .filter(|link| names.contains(&stem_key(&link.target)))
            .map(|link| link.source.clone()),
    );
    out
}

/// The lowercase file name of `path` without a `.md` extension (a cheap, generous match key;
/// engine-core decides what really changes).
fn stem_key(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path).to_lowercase();
    name.strip_suffix(".md").map(str::to_owned).unwrap_or(name)
}

/// Plans the rewrites of `candidates` (paths before the moves) for `moves`, the vault being
/// `before` (every file now) and `after` (every file once moved). A candidate the caller
/// may not write is left alone (and named in `skipped_notes` only if readable); one that is
/// not a text note is passed over.
pub(crate) fn plan_relink(
    ctx: &ToolContext<'_>,
    before: &[String],
    after: &[String],
    moves: &Moves,
    candidates: &BTreeSet<String>,
) -> Result<RelinkPlan, ToolError> {
    let resolver = |paths: &[String]| {
        LinkResolver::new(paths).map_err(|error| {
            ToolError::internal(format!("a vault path could not be indexed: {error}"))
        })
    };
    let before_resolver = resolver(before)?;
    let after_resolver = resolver(after)?;
    let change = VaultChange {
        before: &before_resolver,
        after: &after_resolver,
        moves,
    };
    let mut plan = RelinkPlan::default();
    for path in candidates {
        if !is_note(path) || before_resolver.find(path) != Some(path.as_str()) {
            continue;
        }
        if !ctx.may(path, AclOp::Write) {
            if ctx.may(path, AclOp::Read) {
                plan.skipped_notes.push(path.clone());
            }
            continue;
        }
        let original = ctx
            .vault()
            .read(path)
            .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
        let Ok(decoded) = TextFile::decode(&original.bytes, &original.path) else {
            continue;
        };
        let spans = all_link_spans(&decoded.text);
        let rewrite = rewrite_links(&decoded.text, &spans, path, &change).map_err(|error| {
            ToolError::internal(format!("rewriting the links of {path} failed: {error}"))
        })?;
        plan.skipped_links += rewrite.skipped.len();
        if rewrite.edits.is_empty() {
            continue;
        }
        let new_bytes = TextFile {
            text: rewrite.text,
            ..decoded
        }
        .encode();
        plan.changes.push(NoteChange {
            path: path.clone(),
            links: rewrite.edits.len(),
            original,
            new_bytes,
        });
    }
    Ok(plan)
}

/// The rewrites the moves `pairs` (from, to) need, over the vault as it is now: candidates
/// from `table` (see [`move_candidates`]), planned by [`plan_relink`].
pub(crate) fn plan_moves(
    ctx: &ToolContext<'_>,
    table: &LinkTable,
    pairs: &[(String, String)],
) -> Result<RelinkPlan, ToolError> {
    let moves = Moves::new(pairs.iter().map(|(a, b)| (a.as_str(), b.as_str())))
        .map_err(|error| ToolError::new(ErrorCode::PathInvalid, error.to_string()))?;
    let before = vault_files(ctx)?;
    let after = moves.apply(&before);
    plan_relink(ctx, &before, &after, &moves, &move_candidates(table, pairs))
}

/// Whether `path` is a Markdown note.
fn is_note(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"))
}

/// One move of a commit: from, to, the SHA-256 the file at `from` had when planned, and the
/// file it replaces at `to`, if any (put back on a rollback).
#[derive(Debug, Clone)]
pub(crate) struct PlannedMove {
    /// The file's path now.
    pub(crate) from: String,
    /// Its new path.
    pub(crate) to: String,
    /// Its SHA-256 when planned.
    pub(crate) sha256: String,
    /// The file at `to` this move overwrites, as read when planned (`None`: `to` is free).
    pub(crate) replaces: Option<NoteFile>,
}

/// A step done, to undo on failure.
enum Done {
    Wrote {
        path: String,
        original: Vec<u8>,
        written_sha: String,
    },
    Moved {
        from: String,
        to: String,
        sha: String,
        replaced: Option<NoteFile>,
    },
    Created {
        path: String,
        written_sha: String,
    },
}

/// Writes every change of `plan`, creates its new files, then makes every move, all or nothing: on a failure the
/// steps done are undone (see the module doc) and the error says whether every file is back.
/// Returns the new path of each move, in order.
pub(crate) fn commit(
    ctx: &ToolContext<'_>,
    plan: &RelinkPlan,
    moves: &[PlannedMove],
) -> Result<Vec<String>, ToolError> {
    ctx.mark_effect_started();
    let mut done: Vec<Done> = Vec::new();
    match run_steps(ctx, plan, moves, &mut done) {
        Ok(paths) => Ok(paths),
        Err(error) => {
            let not_restored = rollback(ctx, done);
            let named: Vec<String> = not_restored
                .iter()
                .filter(|path| ctx.may(path, AclOp::Read))
                .cloned()
                .collect();
            Err(rolled_back(error, not_restored.len(), &named))
        }
    }
}

fn run_steps(
    ctx: &ToolContext<'_>,
    plan: &RelinkPlan,
    moves: &[PlannedMove],
    done: &mut Vec<Done>,
) -> Result<Vec<String>, ToolError> {
    let vault = ctx.vault();
    for change in &plan.changes {
        let options = WriteOptions {
            overwrite: true,
            expected_sha256: Some(change.original.sha256.clone()),
        };
        let outcome = vault
            .write(&change.path, &change.new_bytes, &options)
            .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
        done.push(Done::Wrote {
            path: change.path.clone(),
            original: change.original.bytes.clone(),
            written_sha: outcome.sha256,
        });
    }
    for (path, bytes) in &plan.created {
        let outcome = vault
            .write(path, bytes, &WriteOptions::default())
            .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
        done.push(Done::Created {
            path: outcome.path,
            written_sha: outcome.sha256,
        });
    }
    let mut paths = Vec::with_capacity(moves.len());
    for mv in moves {
        let sha = plan
            .changes
            .iter()
            .find(|change| change.path == mv.from)
            .map_or_else(|| mv.sha256.clone(), |change| sha256_hex(&change.new_bytes));
        let options = WriteOptions {
            overwrite: mv.replaces.is_some(),
            expected_sha256: Some(sha.clone()),
        };
        let to = vault
            .move_file(&mv.from, &mv.to, &options)
            .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
        done.push(Done::Moved {
            from: mv.from.clone(),
            to: to.clone(),
            sha,
            replaced: mv.replaces.clone(),
        });
        paths.push(to);
    }
    Ok(paths)
}

/// Undoes `done` in reverse order; returns the paths that could not be restored.
fn rollback(ctx: &ToolContext<'_>, done: Vec<Done>) -> Vec<String> {
    let vault = ctx.vault();
    let mut not_restored = Vec::new();
    for step in done.into_iter().rev() {
        match step {
            Done::Moved {
                from,
                to,
                sha,
                replaced,
            } => {
                let options = WriteOptions {
                    overwrite: false,
                    expected_sha256: Some(sha),
                };
                if vault.move_file(&to, &from, &options).is_err() {
                    not_restored.push(from);
                } else if let Some(file) = replaced {
                    let fresh = WriteOptions {
                        overwrite: false,
                        expected_sha256: None,
                    };
                    if vault.write(&file.path, &file.bytes, &fresh).is_err() {
                        not_restored.push(file.path);
                    }
                }
            }
            Done::Wrote {
                path,
                original,
                written_sha,
            } => {
                let options = WriteOptions {
                    overwrite: true,
                    expected_sha256: Some(written_sha),
                };
                if vault.write(&path, &original, &options).is_err() {
                    not_restored.push(path);
                }
            }
            Done::Created { path, written_sha } => {
                if vault.remove(&path, Some(&written_sha)).is_err() {
                    not_restored.push(path);
                }
            }
        }
    }
    not_restored
}

/// The error of a failed commit after its rollback: the original error, saying every file
/// is back, or `indeterminate` counting the files that are not (naming the readable ones).
fn rolled_back(error: ToolError, count: usize, named: &[String]) -> ToolError {
    if count == 0 {
        let mut error = error;
        if let Value::Object(details) = &mut error.details {
            details.insert("rolled_back".to_owned(), Value::Bool(true));
        }
        error.message = format!(
            "{} Nothing was changed: every note rewritten so far was put back byte for byte.",
            error.message
        );
        return error;
    }
    ToolError::new(
        ErrorCode::Indeterminate,
        format!(
            "the move failed ({}) and {count} file(s) could not be put back because they changed meanwhile: {}",
            error.message,
            named.join(", ")
        ),
    )
    .with_details(json!({"not_restored": named, "not_restored_count": count, "cause": error.code.as_str()}))
}
