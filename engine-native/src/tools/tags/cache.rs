//! The parsed tags of each note, kept in memory per vault so `list_tags` and
//! `find_notes_by_tag` do not read and parse every note on every call.
//!
//! Every call still lists the folder and checks the ACL on each note first: a note the caller
//! may not read is neither read nor has its kept tags used. A readable note's kept tags are
//! used without reading it only when the listing shows the stamp they were read under (the
//! same size, modification time and change time: `ctime`, which every write, rename or
//! `touch` moves and no program can set back, so an edit that keeps the size and restores
//! the modification time is still seen) and that stamp was already older than 3 s
//! ([`racy_since`]) when they were read: a second write within one tick of the file system's
//! clock leaves the stamp unchanged (git's "racily clean" files), so a note changed more
//! recently is read on every call. A note that is read is parsed again only when its
//! SHA-256 differs from the kept one (a freshly copied vault, or a note being appended to,
//! costs reads, not parses). The stamp kept is the one listed before the read, so a change
//! between the listing and the read leaves newer tags under an older stamp, which the next
//! listing no longer shows: they are read again. Writes of this server need no separate
//! invalidation, they move the stamp like any other writer. A whole-vault call drops the
//! notes no longer listed.
//!
//! Why not the search index's `tags` table: the index can be off, still scanning or behind
//! the files (a watcher's delay, an edit from another process), and these tools must give
//! the answer a fresh read gives in every case; the index also keeps no inline-tag spellings
//! or frontmatter errors. The copy is held like the in-memory note text of the search tools
//! (`tools/search/corpus.rs`): one per vault folder for the process, since what it holds
//! depends only on the files.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use super::parse::{ParsedTags, parse_tags};
use super::scan::{markdown_files, read_note};
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::vault::{ChangeStamp, Entry, racy_since};

/// One note's tags as read.
#[derive(Debug)]
pub(super) struct NoteTagsRead {
    /// The note's path.
    pub path: String,
    /// Its tags.
    pub parsed: ParsedTags,
}

/// Tags kept with the stamp and SHA-256 they were read under.
#[derive(Debug)]
struct Kept {
    stamp: ChangeStamp,
    /// Whether `stamp` was settled when the note was read: only then does it vouch for them.
    vouches: bool,
    sha256: String,
    note: Arc<NoteTagsRead>,
}

/// The kept tags of one vault, by note path.
type VaultTags = RwLock<BTreeMap<String, Kept>>;

/// The kept tags of every vault, by vault folder.
fn vaults() -> &'static Mutex<HashMap<PathBuf, Arc<VaultTags>>> {
    static VAULTS: OnceLock<Mutex<HashMap<PathBuf, Arc<VaultTags>>>> = OnceLock::new();
    VAULTS.get_or_init(Mutex::default)
}

/// The kept tags of the call's vault.
fn vault_tags(ctx: &ToolContext<'_>) -> Arc<VaultTags> {
    let mut vaults = vaults().lock().unwrap_or_else(PoisonError::into_inner);
    Arc::clone(vaults.entry(ctx.vault().root().to_path_buf()).or_default())
}

/// What the kept tags give for one readable listed note.
enum Lookup {
    /// Kept under the listed stamp, which vouches for them.
    Kept(Arc<NoteTagsRead>),
    /// To read: the listed stamp, and the SHA-256 and tags kept for the note if any.
    Read(ChangeStamp, Option<(String, Arc<NoteTagsRead>)>),
}

/// The tags of every Markdown note under `folder` (the vault with `None`) that the caller
/// may read, in path order; a note that vanished or is not text since the listing is left
/// out (what a fresh read of each note gives, see the module docs).
pub(super) fn readable_note_tags(
    ctx: &ToolContext<'_>,
    folder: Option<&str>,
) -> Result<Vec<Arc<NoteTagsRead>>, ToolError> {
    let listed = markdown_files(ctx, folder)?;
    let readable: Vec<&Entry> = listed
        .iter()
        .filter(|entry| ctx.may_list(&entry.path))
        .collect();
    let racy_since = racy_since();
    let kept = vault_tags(ctx);
    let (lookups, unlisted) = {
        let kept = kept.read().unwrap_or_else(PoisonError::into_inner);
        let lookups: Vec<Lookup> = readable
            .iter()
            .map(|entry| {
                let stamp = ChangeStamp::of(entry);
                match kept.get(&entry.path) {
                    Some(found) if found.vouches && found.stamp == stamp => {
                        Lookup::Kept(Arc::clone(&found.note))
                    }
                    found => Lookup::Read(
                        stamp,
                        found.map(|found| (found.sha256.clone(), Arc::clone(&found.note))),
                    ),
                }
            })
            .collect();
        let unlisted = if folder.is_none() {
            not_listed(&kept, &listed)
        } else {
            Vec::new()
        };
        (lookups, unlisted)
    };
    let mut notes = Vec::with_capacity(readable.len());
    let mut fresh = Vec::new();
    for (entry, lookup) in readable.into_iter().zip(lookups) {
        let (stamp, known) = match lookup {
            Lookup::Kept(note) => {
                notes.push(note);
                continue;
            }
            Lookup::Read(stamp, known) => (stamp, known),
        };
        let Some(text) = read_note(ctx, &entry.path)? else {
            continue;
        };
        let note = match known {
            Some((sha256, note)) if sha256 == text.sha256 && note.path == text.path => note,
            _ => Arc::new(NoteTagsRead {
                parsed: parse_tags(&text.text),
                path: text.path,
            }),
        };
        fresh.push((
            entry.path.clone(),
            Kept {
                stamp,
                vouches: stamp.settled(racy_since),
                sha256: text.sha256,
                note: Arc::clone(&note),
            },
        ));
        notes.push(note);
    }
    if !fresh.is_empty() || !unlisted.is_empty() {
        let mut kept = kept.write().unwrap_or_else(PoisonError::into_inner);
        for path in unlisted {
            kept.remove(&path);
        }
        kept.extend(fresh);
    }
    notes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(notes)
}

/// The kept paths that `listed` (sorted by path, the whole vault) does not hold.
fn not_listed(kept: &BTreeMap<String, Kept>, listed: &[Entry]) -> Vec<String> {
    let mut listed = listed.iter().map(|entry| entry.path.as_str()).peekable();
    kept.keys()
        .filter(|path| {
            while listed.next_if(|listed| *listed < path.as_str()).is_some() {}
            listed.peek() != Some(&path.as_str())
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: ChangeStamp = ChangeStamp {
        size: 10,
        modified_ms: 5_000,
        changed_ns: 5_000_000_000,
    };

    #[test]
    fn a_stamp_changed_within_the_racy_window_is_not_settled() {
        assert!(AT.settled(5_001));
        assert!(!AT.settled(5_000));
        let touched_later = ChangeStamp {
            changed_ns: 9_000_000_000,
            ..AT
        };
        assert!(!touched_later.settled(6_000));
    }

    #[test]
    fn kept_paths_missing_from_the_listing_are_found() {
        let entry = |path: &str| Entry {
            path: path.to_owned(),
            kind: crate::vault::EntryKind::File,
            size: 1,
            modified_ms: 0,
            changed_ns: 0,
        };
        let note = Arc::new(NoteTagsRead {
            path: String::new(),
            parsed: parse_tags(""),
        });
        let kept: BTreeMap<String, Kept> = ["a.md", "b.md", "c/d.md", "e.md"]
            .into_iter()
            .map(|path| {
                let note = Arc::clone(&note);
                let kept = Kept {
                    stamp: AT,
                    vouches: true,
                    sha256: String::new(),
                    note,
                };
                (path.to_owned(), kept)
            })
            .collect();
        let listed = [
            entry("a.md"),
            entry("c/d.md"),
            entry("c/x.md"),
            entry("z.md"),
        ];
        assert_eq!(not_listed(&kept, &listed), ["b.md", "e.md"]);
        assert!(not_listed(&BTreeMap::new(), &listed).is_empty());
    }
}
