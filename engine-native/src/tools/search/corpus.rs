//! The text of every indexed note of a vault, held in memory for literal and regex search.
//!
//! Scanning text in memory takes milliseconds where re-reading every file takes a hundred or
//! more (pf2e-srd: 11,181 notes, 19 MB). The notes are those of the index (so these searches
//! see what `search_vault` sees), their text is read from the vault files (so line numbers
//! are the file's, frontmatter included). The copy is refreshed when the index's generation
//! moves: only notes whose indexed SHA-256 changed are read again.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::index::index_fault;
use crate::vault::TextFile;

/// One note's text.
#[derive(Debug)]
pub(super) struct NoteText {
    /// The note's vault-relative path.
    pub path: String,
    /// Its text: UTF-8 without a BOM, `\n` line breaks (as `read_note` hands it out).
    pub text: String,
    /// The SHA-256 the index has for it (what the copy is kept fresh by).
    sha256: String,
}

/// The notes of one vault, sorted by path, at one index generation.
#[derive(Debug, Default)]
struct Snapshot {
    generation: i64,
    notes: Arc<Vec<Arc<NoteText>>>,
}

/// The in-memory copies, by cache database and vault id.
type Copies = Mutex<HashMap<(PathBuf, String), Arc<Mutex<Option<Snapshot>>>>>;

fn copies() -> &'static Copies {
    static COPIES: OnceLock<Copies> = OnceLock::new();
    COPIES.get_or_init(Copies::default)
}

/// The text of every indexed note of the call's vault, sorted by path. Notes that cannot be
/// read as text right now (deleted since indexing, not UTF-8) are left out.
pub(super) fn notes(ctx: &ToolContext<'_>) -> Result<Arc<Vec<Arc<NoteText>>>, ToolError> {
    let key = (ctx.store().path().to_path_buf(), ctx.vault_id().to_owned());
    let slot = Arc::clone(
        copies()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key)
            .or_default(),
    );
    // One refresh at a time per vault; readers of an older snapshot keep their `Arc`.
    let mut slot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    let index = ctx.store().note_index();
    let generation = index.generation(ctx.vault_id()).map_err(index_fault)?;
    if let Some(snapshot) = slot.as_ref().filter(|s| s.generation == generation) {
        return Ok(Arc::clone(&snapshot.notes));
    }
    let old: HashMap<&str, &Arc<NoteText>> = slot
        .as_ref()
        .map(|s| s.notes.iter().map(|n| (n.path.as_str(), n)).collect())
        .unwrap_or_default();
    let mut stamps: Vec<_> = index
        .stamps(ctx.vault_id())
        .map_err(index_fault)?
        .into_iter()
        .collect();
    stamps.sort_by(|a, b| a.0.cmp(&b.0));
    let mut notes = Vec::with_capacity(stamps.len());
    for (path, stamp) in stamps {
        match old.get(path.as_str()) {
            Some(kept) if kept.sha256 == stamp.sha256 => notes.push(Arc::clone(kept)),
            _ => {
                if let Some(text) = read_text(ctx, &path) {
                    notes.push(Arc::new(NoteText {
                        path,
                        text,
                        sha256: stamp.sha256,
                    }));
                }
            }
        }
    }
    let notes = Arc::new(notes);
    *slot = Some(Snapshot {
        generation,
        notes: Arc::clone(&notes),
    });
    Ok(notes)
}

/// The decoded text of the note at `path`, `None` when it cannot be read as text.
fn read_text(ctx: &ToolContext<'_>, path: &str) -> Option<String> {
    let file = ctx.vault().read(path).ok()?;
    TextFile::decode(&file.bytes, path).ok().map(|t| t.text)
}
