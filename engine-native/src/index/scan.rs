//! Bringing one vault's index in line with its files: the full scan (every note, skipping
//! the unchanged ones by modification time and size, then by content hash) and the refresh
//! of named paths (a write made by obsidian-tc, a change the watcher saw). New and changed
//! notes are read, parsed and stored in one transaction each, deleted ones removed, and the
//! lexical view follows each change at once. A note that cannot be read or parsed is recorded
//! with why, retried on the next scan, and reported; it is never silently skipped.

use std::collections::HashSet;
use std::sync::{Arc, RwLock};

use engine_core::markdown::ChunkOptions;
use serde_json::Value;

use super::lexical::LexicalView;
use super::parse::parse_note;
use super::semantic::SemanticIndex;
use crate::store::{ChunkRow, FileStamp, NoteFields, NoteMeta, Store, StoreError};
use crate::vault::{EntryKind, TextFile, Vault, VaultError};

/// What one scan or refresh did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct ScanReport {
    /// Notes looked at.
    pub scanned: usize,
    /// Notes indexed for the first time.
    pub added: usize,
    /// Notes whose content changed and were indexed again.
    pub updated: usize,
    /// Notes left as they were.
    pub unchanged: usize,
    /// Notes removed from the index (their file is gone).
    pub removed: usize,
    /// Notes that could not be indexed (`get_index_status` says why).
    pub failed: usize,
}

impl ScanReport {
    /// Adds `other`'s counts to this report.
    pub fn merge(&mut self, other: ScanReport) {
        self.scanned += other.scanned;
        self.added += other.added;
        self.updated += other.updated;
        self.unchanged += other.unchanged;
        self.removed += other.removed;
        self.failed += other.failed;
    }
}

/// Why a scan stopped.
#[derive(Debug)]
pub enum ScanError {
    /// The vault could not be listed.
    Vault(VaultError),
    /// The cache database failed.
    Store(StoreError),
}

impl std::fmt::Display for ScanError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScanError::Vault(error) => write!(f, "listing the vault failed: {error}"),
            ScanError::Store(error) => write!(f, "the cache database failed: {error}"),
        }
    }
}

impl std::error::Error for ScanError {}

impl From<StoreError> for ScanError {
    fn from(error: StoreError) -> Self {
        ScanError::Store(error)
    }
}

/// Whether a vault path is a note the index covers.
pub fn is_note(path: &str) -> bool {
    path.len() > 3 && path[path.len() - 3..].eq_ignore_ascii_case(".md")
}

/// One vault being scanned: where its rows go and the view to keep in step.
pub struct Scanner<'a> {
    /// The cache database.
    pub store: &'a Store,
    /// The vault's id.
    pub vault_id: &'a str,
    /// The vault's files.
    pub vault: &'a Vault,
    /// The lexical view to update with each change.
    pub view: &'a RwLock<LexicalView>,
    /// How notes are chunked.
    pub chunking: &'a ChunkOptions,
    /// Now, Unix seconds (failure times).
    pub now: i64,
    /// The vectors to keep in step, when embeddings are on.
    pub semantic: Option<Arc<SemanticIndex>>,
}

/// What happened to one path.
enum Outcome {
    Added,
    Updated,
    Unchanged,
    Removed,
    Failed,
}

impl Scanner<'_> {
    /// Scans every note of the vault; `progress(done, total)` after each one.
    pub fn scan_all(
        &self,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<ScanReport, ScanError> {
        let entries = self.vault.list(None).map_err(ScanError::Vault)?;
        let mut stamps = self.store.note_index().stamps(self.vault_id)?;
        let notes: Vec<_> = entries
            .into_iter()
            .filter(|entry| entry.kind == EntryKind::File && is_note(&entry.path))
            .collect();
        let failed_before: HashSet<String> = self
            .store
            .note_index()
            .failures(self.vault_id)?
            .into_iter()
            .map(|failure| failure.path)
            .collect();
        let mut report = ScanReport::default();
        let total = notes.len();
        for (done, entry) in notes.iter().enumerate() {
            let known = stamps.remove(&entry.path);
            let same_stamp = known
                .as_ref()
                .is_some_and(|stamp| stamp.mtime == entry.modified_ms && stamp.size == entry.size);
            let outcome = if same_stamp && !failed_before.contains(&entry.path) {
                Outcome::Unchanged
            } else {
                self.index_path(&entry.path, known.as_ref())?
            };
            count(&mut report, outcome);
            progress(done + 1, total);
        }
        // What is left in `stamps` was indexed but is no longer in the vault.
        for path in stamps.into_keys() {
            count(&mut report, self.forget(&path)?);
        }
        Ok(report)
    }

    /// Re-reads the notes at `paths` (created, changed or deleted since the last look),
    /// each once, by its canonical vault path; paths that are not notes or not valid vault
    /// paths are left out.
    pub fn refresh(&self, paths: &[String]) -> Result<ScanReport, ScanError> {
        let stamps = self.store.note_index().stamps(self.vault_id)?;
        let mut canonical: Vec<String> = paths
            .iter()
            .filter_map(|path| self.vault.resolve(path).ok())
            .map(|resolved| resolved.rel)
            .filter(|path| is_note(path))
            .collect();
        canonical.sort();
        canonical.dedup();
        let mut report = ScanReport::default();
        for path in &canonical {
            let outcome = self.index_path(path, stamps.get(path))?;
            count(&mut report, outcome);
        }
        Ok(report)
    }

    /// Indexes the note at `path` if its content changed since `known`.
    fn index_path(&self, path: &str, known: Option<&FileStamp>) -> Result<Outcome, ScanError> {
        let file = match self.vault.read(path) {
            Ok(file) => file,
            Err(VaultError::NotFound { .. }) => {
                return match known {
                    Some(_) => self.forget(path),
                    None => Ok(Outcome::Unchanged),
                };
            }
            Err(error) => return self.fail(path, "read", &error.to_string()),
        };
        let size = file.bytes.len() as u64;
        let stamp = FileStamp {
            mtime: file.modified_ms,
            size,
            sha256: file.sha256.clone(),
        };
        if let Some(known) = known
            && known.sha256 == file.sha256
        {
            if known != &stamp {
                self.store
                    .note_index()
                    .restamp(self.vault_id, path, &stamp)?;
            }
            return Ok(Outcome::Unchanged);
        }
        let text = match TextFile::decode(&file.bytes, path) {
            Ok(text) => text.text,
            Err(error) => return self.fail(path, "read", &error.to_string()),
        };
        let parsed = parse_note(path, &text, self.chunking);
        let meta = NoteMeta {
            path: path.to_owned(),
            sha256: file.sha256,
            mtime: file.modified_ms,
            size,
            frontmatter: Value::Object(parsed.frontmatter.clone()),
        };
        let (old_ids, new_ids) = self
            .store
            .note_index()
            .replace(self.vault_id, &meta, &parsed)?;
        let fields = NoteFields {
            title: parsed.title.clone(),
            aliases: parsed.aliases.clone(),
            tags: parsed.tags.clone(),
        };
        {
            self.drop_vectors(&old_ids);
            let mut view = self.view.write().unwrap_or_else(|e| e.into_inner());
            view.remove(&old_ids);
            for (chunk, chunk_id) in parsed.chunks.iter().zip(new_ids) {
                let row = ChunkRow {
                    chunk_id,
                    path: path.to_owned(),
                    ordinal: u32::try_from(chunk.index).unwrap_or(u32::MAX),
                    headings: chunk.headings.clone(),
                    text: chunk.text.clone(),
                };
                view.insert(row, &fields);
            }
        }
        if let Some(error) = &parsed.frontmatter_error {
            // The body is indexed; the frontmatter is reported until the note is fixed.
            self.store.note_index().record_failure(
                self.vault_id,
                path,
                "frontmatter",
                error,
                self.now,
            )?;
        }
        Ok(if known.is_some() {
            Outcome::Updated
        } else {
            Outcome::Added
        })
    }

    /// Removes a note whose file is gone.
    fn forget(&self, path: &str) -> Result<Outcome, ScanError> {
        let old_ids = self.store.note_index().remove(self.vault_id, path)?;
        self.drop_vectors(&old_ids);
        self.view
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&old_ids);
        Ok(Outcome::Removed)
    }

    /// Drops the vectors of chunks that no longer exist. A failure is logged: the vectors'
    /// rows already went with the chunks (a database trigger); only memory is left behind.
    fn drop_vectors(&self, chunk_ids: &[i64]) {
        if let Some(semantic) = &self.semantic
            && let Err(error) = semantic.forget(self.store, chunk_ids)
        {
            tracing::warn!(
                vault = self.vault_id,
                "dropping old vectors failed: {error}"
            );
        }
    }

    /// Records a note that could not be indexed.
    fn fail(&self, path: &str, stage: &str, error: &str) -> Result<Outcome, ScanError> {
        tracing::warn!(vault = self.vault_id, path, stage, "not indexed: {error}");
        self.store
            .note_index()
            .record_failure(self.vault_id, path, stage, error, self.now)?;
        Ok(Outcome::Failed)
    }
}

fn count(report: &mut ScanReport, outcome: Outcome) {
    report.scanned += usize::from(!matches!(outcome, Outcome::Removed));
    match outcome {
        Outcome::Added => report.added += 1,
        Outcome::Updated => report.updated += 1,
        Outcome::Unchanged => report.unchanged += 1,
        Outcome::Removed => report.removed += 1,
        Outcome::Failed => report.failed += 1,
    }
}
