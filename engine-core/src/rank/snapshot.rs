//! A note index saved whole, so a host can start from it instead of reading every note again:
//! the [`LexicalIndex`] bytes ([`super::codec`]) behind a sealed header that lists each note
//! with the file stamp the host read it at and the heading breadcrumb of each of its chunks.
//! The host compares the stamps with the files it finds and re-reads only the notes whose
//! stamp changed. Chunk `i` of a note is the document [`chunk_key`]`(path, i)` of the index.
//!
//! A snapshot is trusted only when everything checks: both checksums, the format version, the
//! host's build id (a snapshot written by another build is stale: its chunking or analysis
//! may differ) and the notes against the index. Layout (the header's numbers as in
//! [`super::codec`]):
//!
//! ```text
//! magic        8 bytes  "OTCNOTES"
//! version      u16      1
//! total_len    u64      length of the header, its checksum included
//! build        string   the id of the host build that wrote it
//! note_count   varint   N, then N notes, strictly ascending by path bytes:
//!   path       string
//!   mtime      f64      the host's modification time of the note (compared, not interpreted)
//!   size       varint   its size in bytes
//!   chunks     varint   C, then for each chunk H (varint) heading strings, outermost first
//! index_sum    32 bytes the checksum that ends the index bytes below
//! checksum     32 bytes SHA-256 of every preceding byte of the header
//! index                 the LexicalIndex bytes, to the end
//! ```
//!
//! Each byte is hashed once on reading: the header's checksum covers the header, which
//! names the index's own checksum, which covers the index.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::chunk_key::chunk_key;
use super::codec::{
    CHECKSUM_LEN, DecodeError, PREAMBLE_LEN, announced_len, check_envelope, open_envelope,
    seal_envelope,
};
use super::lexical::{LexicalDecodeError, LexicalIndex};
use super::wire::{Reader, WireError, put_str, put_varint};

/// The first bytes of every snapshot.
pub const SNAPSHOT_MAGIC: [u8; 8] = *b"OTCNOTES";

/// The snapshot format version written by [`encode_snapshot`].
pub const SNAPSHOT_VERSION: u16 = 1;

/// One note of a snapshot: where it is, the stamp of the file it was read from, and its chunks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedNote {
    /// The note's path.
    pub path: String,
    /// The file's modification time when the note was read (the host's unit and clock).
    pub mtime: f64,
    /// The file's size in bytes when the note was read.
    pub size: u64,
    /// The heading breadcrumb of each chunk, in chunk order.
    pub chunks: Vec<Vec<String>>,
}

/// Why a snapshot could not be written or read.
#[derive(Debug, Clone, PartialEq)]
pub enum SnapshotError {
    /// The bytes do not start with [`SNAPSHOT_MAGIC`].
    NotASnapshot,
    /// A snapshot format version this build does not read.
    UnsupportedVersion(u16),
    /// Fewer bytes than the header announces.
    Truncated {
        /// Bytes announced (or needed for the preamble).
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// A checksum does not match: the bytes were altered.
    ChecksumMismatch,
    /// The checksums match but the content breaks a rule of the format.
    Malformed(&'static str),
    /// Another build wrote the snapshot: it is stale, rebuild the index.
    BuildChanged {
        /// The build id stored in the snapshot.
        stored: String,
        /// The build id of the reader.
        current: String,
    },
    /// The index bytes are invalid, or from another analyzer.
    Index(LexicalDecodeError),
    /// The notes given to [`encode_snapshot`] do not describe the index.
    InvalidNotes(&'static str),
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SnapshotError::NotASnapshot => write!(f, "not a note index snapshot (bad magic)"),
            SnapshotError::UnsupportedVersion(v) => write!(
                f,
                "unsupported snapshot format version {v} (this build reads {SNAPSHOT_VERSION})"
            ),
            SnapshotError::Truncated { expected, actual } => {
                write!(f, "truncated: {actual} bytes of {expected}")
            }
            SnapshotError::ChecksumMismatch => {
                write!(f, "checksum mismatch: the snapshot is corrupt")
            }
            SnapshotError::Malformed(why) => write!(f, "malformed snapshot: {why}"),
            SnapshotError::BuildChanged { stored, current } => write!(
                f,
                "snapshot written by build {stored}, this is build {current}: rebuild the index"
            ),
            SnapshotError::Index(e) => write!(f, "snapshot index: {e}"),
            SnapshotError::InvalidNotes(why) => write!(f, "notes do not match the index: {why}"),
        }
    }
}

impl From<WireError> for SnapshotError {
    fn from(e: WireError) -> Self {
        match e {
            WireError::Eof => SnapshotError::Malformed("a value runs past the end of the header"),
            WireError::Malformed(why) => SnapshotError::Malformed(why),
        }
    }
}

impl From<DecodeError> for SnapshotError {
    /// The header's envelope errors, reported as the snapshot's.
    fn from(e: DecodeError) -> Self {
        match e {
            DecodeError::NotAnIndex => SnapshotError::NotASnapshot,
            DecodeError::UnsupportedVersion(v) => SnapshotError::UnsupportedVersion(v),
            DecodeError::Truncated { expected, actual }
            | DecodeError::TrailingBytes { expected, actual } => {
                SnapshotError::Truncated { expected, actual }
            }
            DecodeError::ChecksumMismatch => SnapshotError::ChecksumMismatch,
            DecodeError::Malformed(why) => SnapshotError::Malformed(why),
            DecodeError::InvalidParams(_) => SnapshotError::Malformed("invalid parameters"),
        }
    }
}

/// Whether `notes` are exactly the documents of `index`: every chunk of every note is
/// indexed, and nothing else is.
fn notes_match(notes: &[&SavedNote], index: &LexicalIndex) -> bool {
    let mut chunks = 0usize;
    for note in notes {
        for ordinal in 0..note.chunks.len() {
            let Ok(ordinal) = u32::try_from(ordinal) else {
                return false;
            };
            if !index.contains(&chunk_key(&note.path, ordinal)) {
                return false;
            }
        }
        chunks = chunks.saturating_add(note.chunks.len());
    }
    chunks == index.len()
}

/// The snapshot of `index`, whose documents are the chunks of `notes`, written by `build`.
/// Refused with [`SnapshotError::InvalidNotes`] when a path repeats, a modification time is not
/// finite, or the notes' chunks are not exactly the index's documents.
pub fn encode_snapshot(
    build: &str,
    notes: &[SavedNote],
    index: &LexicalIndex,
) -> Result<Vec<u8>, SnapshotError> {
    let mut sorted: Vec<&SavedNote> = notes.iter().collect();
    sorted.sort_unstable_by(|a, b| a.path.cmp(&b.path));
    if sorted.windows(2).any(|pair| pair[0].path == pair[1].path) {
        return Err(SnapshotError::InvalidNotes("a path appears twice"));
    }
    if sorted.iter().any(|note| !note.mtime.is_finite()) {
        return Err(SnapshotError::InvalidNotes(
            "a modification time is not finite",
        ));
    }
    if !notes_match(&sorted, index) {
        return Err(SnapshotError::InvalidNotes(
            "the chunks are not the index's documents",
        ));
    }
    let index_bytes = index.to_bytes();
    let mut out = open_envelope(&SNAPSHOT_MAGIC, SNAPSHOT_VERSION);
    put_str(&mut out, build);
    put_varint(&mut out, sorted.len() as u64);
    for note in &sorted {
        put_str(&mut out, &note.path);
        out.extend_from_slice(&note.mtime.to_le_bytes());
        put_varint(&mut out, note.size);
        put_varint(&mut out, note.chunks.len() as u64);
        for headings in &note.chunks {
            put_varint(&mut out, headings.len() as u64);
            for heading in headings {
                put_str(&mut out, heading);
            }
        }
    }
    out.extend_from_slice(&index_bytes[index_bytes.len() - CHECKSUM_LEN..]);
    seal_envelope(&mut out);
    out.extend_from_slice(&index_bytes);
    Ok(out)
}

/// Reads a snapshot written by [`encode_snapshot`], for the reader `build`: its notes and
/// its index. Everything is checked before anything is returned; a snapshot of another build
/// is [`SnapshotError::BuildChanged`], found before the index is read.
pub fn decode_snapshot(
    bytes: &[u8],
    build: &str,
) -> Result<(Vec<SavedNote>, LexicalIndex), SnapshotError> {
    let header_len = match announced_len(bytes) {
        Some(len) if bytes.starts_with(&SNAPSHOT_MAGIC) => {
            usize::try_from(len).unwrap_or(usize::MAX).min(bytes.len())
        }
        _ => bytes.len(),
    };
    let (header, index_bytes) = bytes.split_at(header_len);
    let content = check_envelope(header, &SNAPSHOT_MAGIC, SNAPSHOT_VERSION)?;
    let mut r = Reader::new(content);
    r.take(PREAMBLE_LEN)?;
    let stored = r.string()?;
    if stored != build {
        return Err(SnapshotError::BuildChanged {
            stored,
            current: build.into(),
        });
    }
    let count = r.varint_u32()?;
    let mut notes: Vec<SavedNote> = Vec::with_capacity((count as usize).min(r.remaining()));
    for _ in 0..count {
        let path = r.string()?;
        if notes.last().is_some_and(|last| last.path >= path) {
            return Err(SnapshotError::Malformed("paths are not strictly ascending"));
        }
        let mtime = r.f64()?;
        let size = r.varint()?;
        let chunk_count = r.varint_u32()?;
        let mut chunks = Vec::with_capacity((chunk_count as usize).min(r.remaining()));
        for _ in 0..chunk_count {
            let heading_count = r.varint_u32()?;
            let mut headings = Vec::with_capacity((heading_count as usize).min(r.remaining()));
            for _ in 0..heading_count {
                headings.push(r.string()?);
            }
            chunks.push(headings);
        }
        notes.push(SavedNote {
            path,
            mtime,
            size,
            chunks,
        });
    }
    let index_sum = r.take(CHECKSUM_LEN)?;
    if r.remaining() != 0 {
        return Err(SnapshotError::Malformed("unread bytes before the checksum"));
    }
    if index_bytes.len() < CHECKSUM_LEN
        || index_bytes[index_bytes.len() - CHECKSUM_LEN..] != *index_sum
    {
        return Err(SnapshotError::ChecksumMismatch);
    }
    let index = LexicalIndex::from_bytes(index_bytes).map_err(SnapshotError::Index)?;
    let listed: Vec<&SavedNote> = notes.iter().collect();
    if !notes_match(&listed, &index) {
        return Err(SnapshotError::Malformed("the notes and the index disagree"));
    }
    Ok((notes, index))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rank::{Bm25Params, Document};
    use crate::text::AnalyzerSettings;
    use alloc::borrow::ToOwned;
    use alloc::vec;
    use sha2::{Digest, Sha256};

    fn doc(body: &str) -> Document {
        Document {
            body: body.to_owned(),
            ..Document::default()
        }
    }

    /// An index of `b.md` (two chunks) and `a.md` (one), the notes that describe it, and an
    /// empty note `c.md`.
    fn sample() -> (Vec<SavedNote>, LexicalIndex) {
        let mut index = LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default())
            .expect("default parameters");
        index
            .upsert(&chunk_key("b.md", 0), &doc("bread flour"))
            .unwrap();
        index
            .upsert(&chunk_key("b.md", 1), &doc("water salt"))
            .unwrap();
        index
            .upsert(&chunk_key("a.md", 0), &doc("flour mill"))
            .unwrap();
        let note = |path: &str, mtime: f64, chunks: Vec<Vec<String>>| SavedNote {
            path: path.to_owned(),
            mtime,
            size: 42,
            chunks,
        };
        let notes = vec![
            note(
                "b.md",
                1.5,
                vec![
                    vec!["Bread".to_owned()],
                    vec!["Bread".to_owned(), "Water".to_owned()],
                ],
            ),
            note("c.md", 3.0, vec![]),
            note("a.md", 1_732_630_000_123.456, vec![vec![]]),
        ];
        (notes, index)
    }

    fn sorted(mut notes: Vec<SavedNote>) -> Vec<SavedNote> {
        notes.sort_by(|a, b| a.path.cmp(&b.path));
        notes
    }

    /// Re-seals an altered header (valid length and checksum) in front of `rest`.
    fn reseal(mut header: Vec<u8>, rest: &[u8]) -> Vec<u8> {
        let total = (header.len() + CHECKSUM_LEN) as u64;
        header[10..18].copy_from_slice(&total.to_le_bytes());
        let sum = Sha256::digest(&header);
        header.extend_from_slice(&sum);
        header.extend_from_slice(rest);
        header
    }

    fn split(bytes: &[u8]) -> (Vec<u8>, &[u8]) {
        let len = announced_len(bytes).unwrap() as usize;
        (bytes[..len - CHECKSUM_LEN].to_vec(), &bytes[len..])
    }

    #[test]
    fn round_trip_keeps_notes_index_and_bytes() {
        let (notes, index) = sample();
        let bytes = encode_snapshot("build-1", &notes, &index).unwrap();
        let (back, restored) = decode_snapshot(&bytes, "build-1").unwrap();
        assert_eq!(back, sorted(notes.clone()));
        assert_eq!(restored.to_bytes(), index.to_bytes());
        assert_eq!(restored.search("flour", 10), index.search("flour", 10));
        assert_eq!(encode_snapshot("build-1", &back, &restored).unwrap(), bytes);
        let mut shuffled = notes;
        shuffled.reverse();
        assert_eq!(
            encode_snapshot("build-1", &shuffled, &index).unwrap(),
            bytes
        );
    }

    #[test]
    fn notes_that_do_not_describe_the_index_are_refused() {
        let (notes, index) = sample();
        let mut twice = notes.clone();
        twice.push(notes[1].clone());
        let mut missing = notes.clone();
        missing.remove(0);
        let mut extra = notes.clone();
        extra[1].chunks.push(vec![]);
        let mut nan = notes.clone();
        nan[0].mtime = f64::NAN;
        for bad in [twice, missing, extra, nan] {
            assert!(matches!(
                encode_snapshot("b", &bad, &index),
                Err(SnapshotError::InvalidNotes(_))
            ));
        }
    }

    #[test]
    fn another_build_is_stale() {
        let (notes, index) = sample();
        let bytes = encode_snapshot("old build", &notes, &index).unwrap();
        assert_eq!(
            decode_snapshot(&bytes, "new build").unwrap_err(),
            SnapshotError::BuildChanged {
                stored: "old build".to_owned(),
                current: "new build".to_owned()
            }
        );
    }

    #[test]
    fn foreign_truncated_and_corrupt_bytes_are_refused() {
        let (notes, index) = sample();
        let bytes = encode_snapshot("b", &notes, &index).unwrap();
        assert_eq!(
            decode_snapshot(b"", "b").unwrap_err(),
            SnapshotError::NotASnapshot
        );
        assert_eq!(
            decode_snapshot(&index.to_bytes(), "b").unwrap_err(),
            SnapshotError::NotASnapshot
        );
        assert!(matches!(
            decode_snapshot(&bytes[..12], "b"),
            Err(SnapshotError::Truncated { .. })
        ));
        assert!(matches!(
            decode_snapshot(&bytes[..40], "b"),
            Err(SnapshotError::Truncated { .. })
        ));
        let header_len = announced_len(&bytes).unwrap() as usize;
        for at in [
            PREAMBLE_LEN + 1,
            header_len - 1,
            header_len + 30,
            bytes.len() - 1,
        ] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x01;
            let err = decode_snapshot(&bad, "b").unwrap_err();
            assert!(
                matches!(
                    err,
                    SnapshotError::ChecksumMismatch
                        | SnapshotError::Index(LexicalDecodeError::Index(
                            DecodeError::ChecksumMismatch
                        ))
                ),
                "byte {at}: {err:?}"
            );
        }
        let cut = &bytes[..bytes.len() - 1];
        assert!(decode_snapshot(cut, "b").is_err());
        let mut future = bytes.clone();
        future[8] = 2;
        assert_eq!(
            decode_snapshot(&future, "b").unwrap_err(),
            SnapshotError::UnsupportedVersion(2)
        );
    }

    #[test]
    fn a_header_is_checked_against_the_index_behind_it() {
        let (notes, index) = sample();
        let bytes = encode_snapshot("b", &notes, &index).unwrap();
        let (header, index_part) = split(&bytes);
        let header_len = header.len() + CHECKSUM_LEN;

        // Another index behind an intact header: not the checksum the header names.
        let empty = LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default()).unwrap();
        let mut swapped = bytes[..header_len].to_vec();
        swapped.extend_from_slice(&empty.to_bytes());
        assert_eq!(
            decode_snapshot(&swapped, "b").unwrap_err(),
            SnapshotError::ChecksumMismatch
        );

        // A crafted header (valid checksum, naming this index) that lists one chunk fewer.
        let mut fewer = sorted(notes);
        fewer[1].chunks.pop();
        let mut smaller =
            LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default()).unwrap();
        smaller.upsert(&chunk_key("a.md", 0), &doc("x")).unwrap();
        smaller.upsert(&chunk_key("b.md", 0), &doc("x")).unwrap();
        let (mut lying, _) = split(&encode_snapshot("b", &fewer, &smaller).unwrap());
        lying.truncate(lying.len() - CHECKSUM_LEN);
        lying.extend_from_slice(&index_part[index_part.len() - CHECKSUM_LEN..]);
        assert_eq!(
            decode_snapshot(&reseal(lying, index_part), "b").unwrap_err(),
            SnapshotError::Malformed("the notes and the index disagree")
        );
    }
}
