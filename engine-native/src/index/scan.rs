//! Bringing one vault's index in line with its files: the full scan (every note, skipping
//! the unchanged ones by modification time and size, then by content hash) and the refresh
//! of named paths (a write made by obsidian-tc, a change the watcher saw). New and changed
//! notes are read, parsed and stored, deleted ones removed, and the lexical view follows each
//! change as soon as its rows are committed. A note that cannot be read or parsed is recorded
//! with why, retried on the next scan, and reported; it is never silently skipped.
//!
//! The full scan reads, parses and analyzes notes on a second thread while this one stores
//! them and adds them to the lexical view, in batches of up to `BATCH_NOTES` (256) notes or
//! `BATCH_TIME` (100 ms) of reading, one transaction each:
//! a batch's rows are all committed or none are, so a note is never half-written, and a note
//! that fails is recorded in its batch without affecting the others.

use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use engine_core::markdown::ChunkOptions;
use engine_core::rank::AnalyzedDocument;
use engine_core::text::Analyzer;
use serde_json::Value;

use super::lexical::{ChunkPlace, LexicalView};
use super::links::{LinkTables, RowsChanged};
use super::semantic::SemanticIndex;
use crate::note::{ParsedNote, parse_note};
use crate::store::{Applied, ChunkChange, FileStamp, NoteMeta, RowChange, Store, StoreError};
use crate::vault::{Entry, EntryKind, TextFile, Vault, VaultError, racy_since};

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
    /// The resolved link tables to keep in step.
    pub links: &'a LinkTables,
    /// Which notes the report counts (every note is scanned): a caller is told only about
    /// the notes it may read.
    pub counted: &'a dyn Fn(&str) -> bool,
}

/// What reading a note needs: its files, how to chunk it, and the lexical view's analyzer
/// (a copy, so chunks are analyzed on the reading thread, not under the view's lock).
struct NoteReader<'a> {
    vault: &'a Vault,
    chunking: &'a ChunkOptions,
    analyzer: Analyzer,
}

/// The most notes stored in one transaction.
const BATCH_NOTES: usize = 256;
/// The longest a batch collects notes before it is stored, so a slow disk still shows
/// progress in search.
const BATCH_TIME: Duration = Duration::from_millis(100);
/// Notes read ahead of the writer: two batches, so the reader goes on while the writer
/// stores a batch (with less, the two threads took turns and a full scan of pf2e-srd took
/// 2.8 s instead of 1.8 s).
const READ_AHEAD: usize = 2 * BATCH_NOTES;
/// Notes the reader hands over at a time (one wake-up of the writer each).
const SEND_BATCH: usize = 16;

/// What happened to one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Added,
    Updated,
    Unchanged,
    Removed,
    Failed,
}

/// What reading one path found, before anything is stored.
enum Found {
    /// Nothing to store.
    Unchanged,
    /// The file is gone; the note was indexed.
    Gone,
    /// Same content, new modification time or size.
    Touched(FileStamp),
    /// It could not be read or decoded.
    Unreadable(String),
    /// New or changed content, parsed and analyzed.
    Parsed(Box<Parsed>),
}

/// A new or changed note, ready to store and index.
struct Parsed {
    meta: NoteMeta,
    note: ParsedNote,
    /// Its chunks analyzed for the lexical view, in order.
    analyzed: Vec<AnalyzedDocument>,
}

/// One path read and parsed, waiting to be stored.
struct Read {
    path: String,
    known: bool,
    found: Found,
}

impl Read {
    /// The row change that stores what was found, if any.
    fn change(&self, now: i64) -> Option<RowChange<'_>> {
        match &self.found {
            Found::Unchanged => None,
            Found::Gone => Some(RowChange::Remove { path: &self.path }),
            Found::Touched(stamp) => Some(RowChange::Restamp {
                path: &self.path,
                stamp,
            }),
            Found::Unreadable(error) => Some(RowChange::Fail {
                path: &self.path,
                stage: "read",
                error,
                now,
            }),
            Found::Parsed(parsed) => Some(RowChange::Replace {
                meta: &parsed.meta,
                parsed: &parsed.note,
            }),
        }
    }

    /// The frontmatter error to record with a parsed note (its body is still indexed).
    fn frontmatter_failure(&self, now: i64) -> Option<RowChange<'_>> {
        match &self.found {
            Found::Parsed(parsed) => {
                parsed
                    .note
                    .frontmatter_error
                    .as_deref()
                    .map(|error| RowChange::Fail {
                        path: &self.path,
                        stage: "frontmatter",
                        error,
                        now,
                    })
            }
            _ => None,
        }
    }

    fn outcome(&self) -> Outcome {
        match (&self.found, self.known) {
            (Found::Unchanged | Found::Touched(_), _) => Outcome::Unchanged,
            (Found::Gone, _) => Outcome::Removed,
            (Found::Unreadable(_), _) => Outcome::Failed,
            (Found::Parsed(_), true) => Outcome::Updated,
            (Found::Parsed(_), false) => Outcome::Added,
        }
    }
}

/// Reads the note at `path`, and parses and analyzes it if its content changed since
/// `known`; touches nothing but the file.
fn read_note(reader: &NoteReader<'_>, path: String, known: Option<&FileStamp>) -> Read {
    let NoteReader {
        vault,
        chunking,
        analyzer,
    } = reader;
    let found = match vault.read(&path) {
        Err(VaultError::NotFound { .. }) if known.is_some() => Found::Gone,
        Err(VaultError::NotFound { .. }) => Found::Unchanged,
        Err(error) => Found::Unreadable(error.to_string()),
        Ok(file) => {
            let stamp = FileStamp {
                mtime: file.modified_ms,
                size: file.bytes.len() as u64,
                sha256: file.sha256.clone(),
            };
            match known {
                Some(known) if known.sha256 == stamp.sha256 && known == &stamp => Found::Unchanged,
                Some(known) if known.sha256 == stamp.sha256 => Found::Touched(stamp),
                _ => match TextFile::decode(&file.bytes, &path) {
                    Err(error) => Found::Unreadable(error.to_string()),
                    Ok(text) => {
                        let note = parse_note(&path, &text.text, chunking);
                        let meta = NoteMeta {
                            path: path.clone(),
                            sha256: stamp.sha256,
                            mtime: stamp.mtime,
                            size: stamp.size,
                            frontmatter: Value::Object(note.frontmatter.clone()),
                        };
                        let analyzed = analyze_chunks(&note, analyzer);
                        Found::Parsed(Box::new(Parsed {
                            meta,
                            note,
                            analyzed,
                        }))
                    }
                },
            }
        }
    };
    Read {
        path,
        known: known.is_some(),
        found,
    }
}

impl Scanner<'_> {
    /// Scans every note of the vault; `progress(done, total)` after each note `counted` admits.
    pub fn scan_all(
        &self,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<ScanReport, ScanError> {
        let entries = self.vault.list(None).map_err(ScanError::Vault)?;
        let files: Vec<&str> = entries
            .iter()
            .filter(|entry| entry.kind == EntryKind::File)
            .map(|entry| entry.path.as_str())
            .collect();
        // Files other than notes may have come or gone since the link table was built.
        self.links.listed(self.vault_id, &files);
        let stamps = self.store.note_index().stamps(self.vault_id)?;
        let notes: Vec<Entry> = entries
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
        // Progress counts the notes the report counts.
        let total = notes
            .iter()
            .filter(|entry| (self.counted)(&entry.path))
            .count();
        let (sender, receiver) = sync_channel(READ_AHEAD / SEND_BATCH);
        let reader = self.note_reader();
        let (stored, gone) = std::thread::scope(|scope| {
            let reader =
                scope.spawn(move || read_all(&reader, notes, stamps, &failed_before, &sender));
            // `receiver` is dropped when storing stops, early on an error, so the reader
            // stops too.
            let stored = self.store_all(receiver, total, progress);
            let gone = reader
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (stored, gone)
        });
        let mut report = stored?;
        // The notes indexed but no longer in the vault.
        let gone: Vec<Read> = gone
            .into_iter()
            .map(|path| Read {
                path,
                known: true,
                found: Found::Gone,
            })
            .collect();
        for outcome in self.store_batch(gone)? {
            count(&mut report, outcome);
        }
        Ok(report)
    }

    /// What reading this vault's notes needs.
    fn note_reader(&self) -> NoteReader<'_> {
        let analyzer = self
            .view
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .analyzer();
        NoteReader {
            vault: self.vault,
            chunking: self.chunking,
            analyzer,
        }
    }

    /// Stores what the reader sends, batch by batch, calling `progress` after each note.
    fn store_all(
        &self,
        receiver: Receiver<Vec<Read>>,
        total: usize,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<ScanReport, ScanError> {
        let mut report = ScanReport::default();
        let mut done = 0;
        while let Ok(mut batch) = receiver.recv() {
            let started = Instant::now();
            while batch.len() < BATCH_NOTES && started.elapsed() < BATCH_TIME {
                match receiver.recv_timeout(BATCH_TIME.saturating_sub(started.elapsed())) {
                    Ok(reads) => batch.extend(reads),
                    Err(_) => break,
                }
            }
            for outcome in self.store_batch(batch)? {
                count(&mut report, outcome);
                done += 1;
                progress(done, total);
            }
        }
        Ok(report)
    }

    /// Re-reads the notes at `paths` (created, changed or deleted since the last look),
    /// each once, by its canonical vault path; paths that are not notes or not valid vault
    /// paths are left out. They are stored in one transaction before this returns.
    pub fn refresh(&self, paths: &[String]) -> Result<ScanReport, ScanError> {
        let stamps = self.store.note_index().stamps(self.vault_id)?;
        let mut canonical = Vec::with_capacity(paths.len());
        for resolved in paths
            .iter()
            .filter_map(|path| self.vault.resolve(path).ok())
        {
            if is_note(&resolved.rel) {
                canonical.push(resolved.rel);
            } else {
                // An attachment came or went: the files links resolve among with it.
                let exists = resolved.missing.is_empty() && resolved.abs.is_file();
                self.links.touched(self.vault_id, &resolved.rel, exists);
            }
        }
        canonical.sort();
        canonical.dedup();
        let reader = self.note_reader();
        let reads: Vec<Read> = canonical
            .into_iter()
            .map(|path| {
                let known = stamps.get(&path);
                read_note(&reader, path, known)
            })
            .collect();
        let mut report = ScanReport::default();
        for outcome in self.store_batch(reads)? {
            count(&mut report, outcome);
        }
        Ok(report)
    }

    /// Stores `batch` in one transaction, then brings the vectors and the lexical view in
    /// line with it; returns the outcome of each note the report counts, in order.
    fn store_batch(&self, batch: Vec<Read>) -> Result<Vec<Outcome>, ScanError> {
        let mut changes = Vec::with_capacity(batch.len());
        // Which change of `changes` stores each note's rows.
        let mut slots = Vec::with_capacity(batch.len());
        for read in &batch {
            slots.push(read.change(self.now).map(|change| {
                changes.push(change);
                changes.len() - 1
            }));
            changes.extend(read.frontmatter_failure(self.now));
        }
        let outcomes = batch
            .iter()
            .filter(|read| (self.counted)(&read.path))
            .map(Read::outcome)
            .collect();
        if changes.is_empty() {
            return Ok(outcomes);
        }
        let Applied {
            chunks: mut applied,
            generation,
        } = self.store.note_index().apply(self.vault_id, &changes)?;
        self.advance_links(generation, &batch);
        for (read, slot) in batch.into_iter().zip(slots) {
            if let Found::Unreadable(error) = &read.found {
                tracing::warn!(
                    vault = self.vault_id,
                    path = read.path,
                    "not indexed: {error}"
                );
            }
            let Some(slot) = slot else { continue };
            let ChunkChange { removed, added } = std::mem::take(&mut applied[slot]);
            self.drop_vectors(&removed);
            let mut view = self.view.write().unwrap_or_else(|e| e.into_inner());
            view.remove(&removed);
            if let Found::Parsed(parsed) = read.found {
                insert_chunks(&mut view, &read.path, *parsed, added);
            }
        }
        Ok(outcomes)
    }

    /// Brings the kept link table on to `generation`, the one storing `batch` made.
    fn advance_links(&self, generation: i64, batch: &[Read]) {
        let mut applied = RowsChanged::default();
        for read in batch {
            match (&read.found, read.known) {
                (Found::Parsed(_), true) => applied.rewritten.push(&read.path),
                (Found::Parsed(_), false) | (Found::Gone, _) => applied.files_changed = true,
                (Found::Unchanged | Found::Touched(_) | Found::Unreadable(_), _) => {}
            }
        }
        self.links.advance(self.vault_id, generation, &applied);
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
}

/// Reads every note of `notes` that may have changed (its stamp differs from `stamps`, or
/// it failed before, or was modified too recently for its stamp to tell: [`racy_since`])
/// and sends it to the writer, in order, `SEND_BATCH` notes at a time;
/// returns the indexed paths that are no longer in the vault. Stops early when the writer
/// is gone.
fn read_all(
    reader: &NoteReader<'_>,
    notes: Vec<Entry>,
    mut stamps: HashMap<String, FileStamp>,
    failed_before: &HashSet<String>,
    sender: &SyncSender<Vec<Read>>,
) -> Vec<String> {
    let mut pending = Vec::with_capacity(SEND_BATCH);
    let racy_since = racy_since();
    for entry in notes {
        let path = entry.path;
        let known = stamps.remove(&path);
        let listed_same = known.as_ref().is_some_and(|stamp| {
            stamp.mtime == entry.modified_ms
                && stamp.size == entry.size
                && entry.modified_ms < racy_since
        });
        let read = if listed_same && !failed_before.contains(&path) {
            Read {
                path,
                known: true,
                found: Found::Unchanged,
            }
        } else {
            read_note(reader, path, known.as_ref())
        };
        pending.push(read);
        if pending.len() == SEND_BATCH && sender.send(std::mem::take(&mut pending)).is_err() {
            return Vec::new();
        }
    }
    if !pending.is_empty() && sender.send(pending).is_err() {
        return Vec::new();
    }
    stamps.into_keys().collect()
}

/// The chunks of `note` as the lexical view indexes them.
fn analyze_chunks(note: &ParsedNote, analyzer: &Analyzer) -> Vec<AnalyzedDocument> {
    note.chunks
        .iter()
        .map(|chunk| {
            AnalyzedDocument::from_fields(
                analyzer,
                &note.title,
                &note.aliases,
                &chunk.headings,
                &note.tags,
                &chunk.text,
            )
        })
        .collect()
}

/// Adds the chunks of a parsed note to the view, under the ids its rows got.
fn insert_chunks(view: &mut LexicalView, path: &str, parsed: Parsed, ids: Vec<i64>) {
    let chunks = parsed.note.chunks.into_iter().zip(&parsed.analyzed);
    for ((chunk, analyzed), chunk_id) in chunks.zip(ids) {
        let place = ChunkPlace {
            path: path.to_owned(),
            ordinal: u32::try_from(chunk.index).unwrap_or(u32::MAX),
            headings: chunk.headings,
        };
        view.insert_analyzed(chunk_id, place, analyzed);
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
