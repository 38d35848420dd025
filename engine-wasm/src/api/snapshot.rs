//! Note index snapshots, engine-core's [`encode_snapshot`] / [`decode_snapshot`], for the
//! plugin's warm start: the `LexicalIndex` class saves itself with its notes
//! (`to_note_snapshot`) and reads itself back (`LexicalIndex.from_note_snapshot`);
//! [`note_snapshot_roundtrip`] and [`note_snapshot_decode`] run the same code from the export
//! table, for the golden vectors. A note crosses the boundary as `{path, mtime, size, chunks}`
//! with its chunks as `upsert_note` returned them, `[{key, headings}]`.

use engine_core::rank::{
    Bm25Params, LexicalIndex, SavedNote, SnapshotError, chunk_key, decode_snapshot, encode_snapshot,
};
use engine_core::text::AnalyzerSettings;
use serde::{Deserialize, Serialize};
use serde_json::Map;
use wasm_bindgen::prelude::*;

use super::ApiError;
use super::notes::{NoteChunk, note_chunks, rank_notes};
use super::rank::{LexicalIndexHandle, from_hex, index_error, lexical_decode_error, params_error};
use crate::js;

/// A note of a snapshot as the host sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotNote {
    /// The note's path.
    pub path: String,
    /// The file's modification time when the note was read.
    pub mtime: f64,
    /// The file's size in bytes when the note was read.
    pub size: u64,
    /// Its chunks in order, as `upsert_note` returned them.
    pub chunks: Vec<NoteChunk>,
}

/// Maps a snapshot error to its code (an index error keeps the index's code).
fn snapshot_error(e: SnapshotError) -> ApiError {
    let code = match &e {
        SnapshotError::NotASnapshot => "not_a_snapshot",
        SnapshotError::UnsupportedVersion(_) => "unsupported_version",
        SnapshotError::Truncated { .. } => "truncated",
        SnapshotError::ChecksumMismatch => "checksum_mismatch",
        SnapshotError::Malformed(_) => "malformed",
        SnapshotError::BuildChanged { .. } => "build_changed",
        SnapshotError::Index(inner) => {
            return ApiError::new(&lexical_decode_error(inner.clone()).code, e.to_string());
        }
        SnapshotError::InvalidNotes(_) => "invalid_notes",
    };
    ApiError::new(code, e.to_string())
}

/// The engine-core form of `notes`; `invalid_notes` when a chunk's key is not the key of its
/// place in its note.
fn saved_notes(notes: Vec<SnapshotNote>) -> Result<Vec<SavedNote>, ApiError> {
    notes
        .into_iter()
        .map(|note| {
            for (ordinal, chunk) in note.chunks.iter().enumerate() {
                let expected = chunk_key(&note.path, u32::try_from(ordinal).unwrap_or(u32::MAX));
                if chunk.key != expected {
                    return Err(ApiError::new(
                        "invalid_notes",
                        format!(
                            "chunk {ordinal} of {:?} is not keyed {expected:?}",
                            note.path
                        ),
                    ));
                }
            }
            Ok(SavedNote {
                chunks: note
                    .chunks
                    .into_iter()
                    .map(|chunk| chunk.headings)
                    .collect(),
                path: note.path,
                mtime: note.mtime,
                size: note.size,
            })
        })
        .collect()
}

/// The host's form of `notes`, each chunk with its key.
fn snapshot_notes(notes: Vec<SavedNote>) -> Vec<SnapshotNote> {
    notes
        .into_iter()
        .map(|note| SnapshotNote {
            chunks: note
                .chunks
                .into_iter()
                .enumerate()
                .map(|(ordinal, headings)| NoteChunk {
                    key: chunk_key(&note.path, u32::try_from(ordinal).unwrap_or(u32::MAX)),
                    headings,
                    document: Default::default(),
                })
                .collect(),
            path: note.path,
            mtime: note.mtime,
            size: note.size,
        })
        .collect()
}

/// Grows a smaller heap in one step to about what decoding `len` snapshot bytes will take. V8
/// is slow to grow a WebAssembly memory in the thousands of small steps that decoding makes on
/// its own (300 of the 800 ms it took to read obsidian-help-all's snapshot into a fresh
/// engine); the block is freed at once, and the allocator serves the index's allocations from
/// it. A heap already that large is left as it is. Nothing to do outside WebAssembly.
fn reserve_heap(len: usize) {
    #[cfg(target_arch = "wasm32")]
    {
        const PAGE: usize = 65_536;
        // Heap bytes a decoded snapshot takes per snapshot byte: about 6, measured on
        // obsidian-help-all's 17 MB snapshot, whose index and notes take 100 MB once read.
        const HEAP_PER_SNAPSHOT_BYTE: usize = 6;
        let wanted = len.saturating_mul(HEAP_PER_SNAPSHOT_BYTE);
        if core::arch::wasm32::memory_size(0).saturating_mul(PAGE) < wanted {
            let block = Vec::<u8>::with_capacity(wanted);
            // An allocation nothing reads may be optimised away: this one must happen.
            core::hint::black_box(&block);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = len;
}

#[wasm_bindgen(js_class = LexicalIndex)]
impl LexicalIndexHandle {
    /// The snapshot of this index, whose documents are the chunks of `notes`
    /// (`[{path, mtime, size, chunks: [{key, headings}]}]`), written by the host build `build`.
    /// `invalid_notes` when they are not exactly the index's documents.
    pub fn to_note_snapshot(&self, build: &str, notes: JsValue) -> Result<Vec<u8>, JsError> {
        let notes = saved_notes(js::from_js(notes)?).map_err(js::error)?;
        encode_snapshot(build, &notes, &self.inner).map_err(|e| js::error(snapshot_error(e)))
    }

    /// Reads a snapshot for the host build `build`: `{index, notes}`, a new `LexicalIndex` and
    /// its notes as `to_note_snapshot` took them (by path). Typed `code: message` errors when
    /// the bytes are foreign, truncated, corrupt, of another format version, of another build
    /// (`build_changed`) or of another analyzer.
    #[wasm_bindgen(unchecked_return_type = "{ index: LexicalIndex; notes: unknown[] }")]
    pub fn from_note_snapshot(bytes: &[u8], build: &str) -> Result<JsValue, JsError> {
        reserve_heap(bytes.len());
        let (notes, inner) =
            decode_snapshot(bytes, build).map_err(|e| js::error(snapshot_error(e)))?;
        let out = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| {
            js_sys::Reflect::set(&out, &JsValue::from_str(key), value)
                .map_err(|_| js::error(ApiError::new("internal", "could not build the result")))
        };
        set("notes", &js::to_js(&snapshot_notes(notes))?)?;
        set("index", &JsValue::from(LexicalIndexHandle::from(inner)))?;
        Ok(out.into())
    }
}

/// A note given as text, for [`note_snapshot_roundtrip`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextNote {
    /// The note's path.
    pub path: String,
    /// Its full text (frontmatter properties are not read).
    pub text: String,
    /// Its modification time.
    pub mtime: f64,
    /// Its size.
    pub size: u64,
}

/// Input of [`note_snapshot_roundtrip`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotRoundtripInput {
    /// The build id written and expected.
    pub build: String,
    /// The notes indexed, in order.
    pub notes: Vec<TextNote>,
    /// A query run before and after.
    pub query: String,
    /// Notes wanted.
    pub k: usize,
}

/// Output of [`note_snapshot_roundtrip`].
#[derive(Debug, Clone, Serialize)]
pub struct SnapshotRoundtripOutput {
    /// The notes read back.
    pub notes: Vec<SnapshotNote>,
    /// The note ranking of the index read back.
    pub ranked: Vec<String>,
    /// Whether that ranking, scores included, is the original index's.
    pub same_results: bool,
    /// Whether the snapshot of what was read back is byte for byte the snapshot read.
    pub stable_bytes: bool,
}

/// Indexes the notes as the plugin does, writes the snapshot, reads it back and compares.
pub fn note_snapshot_roundtrip(
    input: SnapshotRoundtripInput,
) -> Result<SnapshotRoundtripOutput, ApiError> {
    let mut index = LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default())
        .map_err(params_error)?;
    let mut notes = Vec::with_capacity(input.notes.len());
    for note in input.notes {
        let chunks = note_chunks(&note.path, &note.text, &Map::new());
        for chunk in &chunks {
            index
                .upsert(&chunk.key, &chunk.document)
                .map_err(index_error)?;
        }
        notes.push(SavedNote {
            path: note.path,
            mtime: note.mtime,
            size: note.size,
            chunks: chunks.into_iter().map(|chunk| chunk.headings).collect(),
        });
    }
    let bytes = encode_snapshot(&input.build, &notes, &index).map_err(snapshot_error)?;
    let (back, inner) = decode_snapshot(&bytes, &input.build).map_err(snapshot_error)?;
    let stable_bytes =
        encode_snapshot(&input.build, &back, &inner).map_err(snapshot_error)? == bytes;
    let original = LexicalIndexHandle::from(index);
    let restored = LexicalIndexHandle::from(inner);
    let before = rank_notes(&original, &input.query, input.k, None, &mut |_| true);
    let after = rank_notes(&restored, &input.query, input.k, None, &mut |_| true);
    Ok(SnapshotRoundtripOutput {
        notes: snapshot_notes(back),
        ranked: after.iter().map(|hit| hit.path.clone()).collect(),
        same_results: before == after,
        stable_bytes,
    })
}

/// Input of [`note_snapshot_decode`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SnapshotDecodeInput {
    /// The snapshot, hex (either case).
    pub bytes_hex: String,
    /// The reader's build id.
    pub build: String,
}

/// Output of [`note_snapshot_decode`].
#[derive(Debug, Clone, Serialize)]
pub struct SnapshotDecodeOutput {
    /// The notes.
    pub notes: Vec<SnapshotNote>,
    /// Documents (chunks) in the index.
    pub documents: usize,
}

/// Reads a snapshot (typed errors for every way it can be refused).
pub fn note_snapshot_decode(input: SnapshotDecodeInput) -> Result<SnapshotDecodeOutput, ApiError> {
    let bytes = from_hex(&input.bytes_hex)?;
    let (notes, index) = decode_snapshot(&bytes, &input.build).map_err(snapshot_error)?;
    Ok(SnapshotDecodeOutput {
        notes: snapshot_notes(notes),
        documents: index.len(),
    })
}
