//! Serialization of an [`InvertedIndex`] to bytes a host can persist, and back.
//!
//! The bytes are canonical: they depend only on the indexed content, the parameters and
//! the analyzer stamp — not on the order of upserts and removals that built the index —
//! so native and WebAssembly builds (and two hosts indexing the same notes) produce
//! identical bytes. Layout (all fixed-width numbers little-endian; "varint" is minimal
//! unsigned LEB128; "string" is a varint byte length then UTF-8):
//!
//! ```text
//! magic        8 bytes  "OTCBM25F"
//! version      u16      1
//! total_len    u64      length of the whole blob, checksum included
//! k1, b        f32, f32
//! weights      5 x f32  title, aliases, headings, tags, body
//! fingerprint  string   analyzer fingerprint
//! settings     string   analyzer settings (JSON text; empty for pre-analyzed input)
//! doc_count    varint   N, then N ids as strings, strictly ascending by bytes
//! term_count   varint   T, then T terms, strictly ascending by bytes, each:
//!   text       string
//!   df         varint   >= 1, then df postings, docs strictly ascending:
//!     doc      varint   index into the ids; the first absolute, the rest as the gap (>= 1)
//!     fields   u8       bit i set = field i of (title, aliases, headings, tags, body), 1..=31
//!     tf       varint   one per set bit, in field order, 1..=2^29-1
//! checksum     32 bytes SHA-256 of every preceding byte
//! ```
//!
//! Field lengths, document frequencies and averages are not stored: they are recomputed
//! from the postings (a field's length is the sum of its term frequencies), so they can
//! never disagree with them.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::field::{Field, FieldWeights};
use super::index::InvertedIndex;
use super::params::{Bm25Params, ParamsError};
use super::postings::{MAX_TF, Posting, doc_runs};
use super::wire::{Reader, WireError, put_str, put_varint};

/// The first bytes of every serialized index.
pub const MAGIC: [u8; 8] = *b"OTCBM25F";

/// The format version written by [`InvertedIndex::to_bytes`].
pub const FORMAT_VERSION: u16 = 1;

/// Magic, version and total length.
pub(crate) const PREAMBLE_LEN: usize = 8 + 2 + 8;
/// A SHA-256 checksum.
pub(crate) const CHECKSUM_LEN: usize = 32;

/// Which analyzer produced the terms of an index, stored with it so that a host never
/// queries an index with a different analyzer than the one that built it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalyzerStamp {
    /// The analyzer's fingerprint (changes whenever its output could change).
    pub fingerprint: String,
    /// The analyzer settings as JSON text, enough to rebuild it (empty if not applicable).
    pub settings: String,
}

/// Why bytes could not be read back as an index.
#[derive(Debug, Clone, PartialEq)]
pub enum DecodeError {
    /// The bytes do not start with [`MAGIC`]: not a serialized index.
    NotAnIndex,
    /// A format version this build does not read.
    UnsupportedVersion(u16),
    /// Fewer bytes than the header announces.
    Truncated {
        /// Bytes announced (or needed for the header).
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// More bytes than the header announces.
    TrailingBytes {
        /// Bytes announced.
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// The SHA-256 checksum does not match: the bytes were altered.
    ChecksumMismatch,
    /// The checksum matches but the content breaks a rule of the format.
    Malformed(&'static str),
    /// The stored parameters are out of range.
    InvalidParams(ParamsError),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::NotAnIndex => write!(f, "not a serialized index (bad magic)"),
            DecodeError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "unsupported index format version {v} (this build reads {FORMAT_VERSION})"
                )
            }
            DecodeError::Truncated { expected, actual } => {
                write!(f, "truncated: {actual} bytes of {expected}")
            }
            DecodeError::TrailingBytes { expected, actual } => {
                write!(f, "{actual} bytes where {expected} were expected")
            }
            DecodeError::ChecksumMismatch => write!(f, "checksum mismatch: the bytes are corrupt"),
            DecodeError::Malformed(why) => write!(f, "malformed index: {why}"),
            DecodeError::InvalidParams(e) => write!(f, "invalid stored parameters: {e}"),
        }
    }
}

impl From<WireError> for DecodeError {
    fn from(e: WireError) -> Self {
        match e {
            WireError::Eof => DecodeError::Malformed("a value runs past the end of the content"),
            WireError::Malformed(why) => DecodeError::Malformed(why),
        }
    }
}

impl InvertedIndex {
    /// The canonical bytes of the index, stamped with the analyzer that produced its terms.
    pub fn to_bytes(&self, analyzer: &AnalyzerStamp) -> Vec<u8> {
        let mut out = open_envelope(&MAGIC, FORMAT_VERSION);
        let params = self.params();
        out.extend_from_slice(&params.k1.to_le_bytes());
        out.extend_from_slice(&params.b.to_le_bytes());
        for w in params.weights.to_array() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        put_str(&mut out, &analyzer.fingerprint);
        put_str(&mut out, &analyzer.settings);

        // Documents in id order; `rank[ordinal]` is the position written.
        let mut docs: Vec<(&str, usize)> = self
            .docs
            .iter()
            .enumerate()
            .filter_map(|(ord, d)| d.as_ref().map(|d| (d.id.as_str(), ord)))
            .collect();
        docs.sort_unstable();
        let mut rank = vec![0u32; self.docs.len()];
        put_varint(&mut out, docs.len() as u64);
        for (position, (id, ord)) in docs.iter().enumerate() {
            rank[*ord] = position as u32;
            put_str(&mut out, id);
        }

        let mut terms: Vec<(&str, u32)> = self
            .term_ids
            .iter()
            .map(|(t, &id)| (t.as_str(), id))
            .collect();
        terms.sort_unstable();
        put_varint(&mut out, terms.len() as u64);
        let mut runs: Vec<(u32, &[Posting])> = Vec::new();
        for (text, id) in terms {
            put_str(&mut out, text);
            runs.clear();
            let entry = &self.terms[id as usize];
            runs.extend(
                doc_runs(entry.postings.entries()).map(|run| (rank[run[0].doc() as usize], run)),
            );
            runs.sort_unstable_by_key(|(position, _)| *position);
            put_varint(&mut out, runs.len() as u64);
            let mut previous = None;
            for (position, run) in &runs {
                put_varint(&mut out, u64::from(position - previous.map_or(0, |p| p)));
                previous = Some(*position);
                let mask = run.iter().fold(0u8, |m, p| m | (1 << p.field_index()));
                out.push(mask);
                for p in *run {
                    put_varint(&mut out, u64::from(p.tf()));
                }
            }
        }

        seal_envelope(&mut out);
        out
    }

    /// Reads bytes written by [`InvertedIndex::to_bytes`], validating everything, and
    /// returns the index with its analyzer stamp.
    pub fn from_bytes(bytes: &[u8]) -> Result<(InvertedIndex, AnalyzerStamp), DecodeError> {
        let content = check_envelope(bytes, &MAGIC, FORMAT_VERSION)?;
        let mut r = Reader::new(content);
        r.take(PREAMBLE_LEN)?;
        let k1 = r.f32()?;
        let b = r.f32()?;
        let mut weights = [0.0f32; Field::COUNT];
        for w in &mut weights {
            *w = r.f32()?;
        }
        let params = Bm25Params {
            k1,
            b,
            weights: FieldWeights::from_array(weights),
        };
        params.validate().map_err(DecodeError::InvalidParams)?;
        let analyzer = AnalyzerStamp {
            fingerprint: r.string()?,
            settings: r.string()?,
        };

        let doc_count = r.varint_u32()?;
        let mut ids: Vec<String> = Vec::with_capacity((doc_count as usize).min(r.remaining()));
        for _ in 0..doc_count {
            let id = r.string()?;
            if ids.last().is_some_and(|last| *last >= id) {
                return Err(DecodeError::Malformed(
                    "document ids are not strictly ascending",
                ));
            }
            ids.push(id);
        }
        let mut lens = vec![[0u32; Field::COUNT]; ids.len()];
        let term_count = r.varint_u32()?;
        let mut terms: Vec<(String, Vec<Posting>)> =
            Vec::with_capacity((term_count as usize).min(r.remaining()));
        for _ in 0..term_count {
            let text = r.string()?;
            if terms.last().is_some_and(|(last, _)| *last >= text) {
                return Err(DecodeError::Malformed("terms are not strictly ascending"));
            }
            let postings = read_postings(&mut r, &mut lens)?;
            terms.push((text, postings));
        }
        if r.remaining() != 0 {
            return Err(DecodeError::Malformed("unread bytes before the checksum"));
        }
        let index = InvertedIndex::from_canonical_parts(params, ids, terms)
            .map_err(DecodeError::InvalidParams)?;
        Ok((index, analyzer))
    }
}

/// The start of a sealed blob: `magic`, `version` and a total length for
/// [`seal_envelope`] to fill in.
pub(crate) fn open_envelope(magic: &[u8; 8], version: u16) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(magic);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes()); // total length, patched by seal_envelope
    out
}

/// Ends a blob begun by [`open_envelope`]: patches in its total length and appends the
/// SHA-256 of every byte before the checksum.
pub(crate) fn seal_envelope(out: &mut Vec<u8>) {
    let total = (out.len() + CHECKSUM_LEN) as u64;
    out[10..18].copy_from_slice(&total.to_le_bytes());
    let checksum = Sha256::digest(&out);
    out.extend_from_slice(&checksum);
}

/// The total length a sealed blob's preamble announces, when `bytes` hold a preamble.
pub(crate) fn announced_len(bytes: &[u8]) -> Option<u64> {
    let mut r = Reader::new(bytes.get(10..PREAMBLE_LEN)?);
    r.u64().ok()
}

/// Checks `magic`, `version`, length and checksum of a sealed blob; returns the bytes before
/// the checksum, preamble included.
pub(crate) fn check_envelope<'b>(
    bytes: &'b [u8],
    magic: &[u8; 8],
    version: u16,
) -> Result<&'b [u8], DecodeError> {
    let actual = bytes.len() as u64;
    let magic_len = bytes.len().min(magic.len());
    if bytes[..magic_len] != magic[..magic_len] || bytes.is_empty() {
        return Err(DecodeError::NotAnIndex);
    }
    if bytes.len() < PREAMBLE_LEN {
        return Err(DecodeError::Truncated {
            expected: PREAMBLE_LEN as u64,
            actual,
        });
    }
    let mut r = Reader::new(&bytes[magic.len()..PREAMBLE_LEN]);
    let stored = r.u16()?;
    if stored != version {
        return Err(DecodeError::UnsupportedVersion(stored));
    }
    let expected = r.u64()?;
    if actual < expected {
        return Err(DecodeError::Truncated { expected, actual });
    }
    if actual > expected {
        return Err(DecodeError::TrailingBytes { expected, actual });
    }
    if bytes.len() < PREAMBLE_LEN + CHECKSUM_LEN {
        return Err(DecodeError::Malformed(
            "announced length leaves no room for the checksum",
        ));
    }
    let (content, checksum) = bytes.split_at(bytes.len() - CHECKSUM_LEN);
    if Sha256::digest(content).as_slice() != checksum {
        return Err(DecodeError::ChecksumMismatch);
    }
    Ok(content)
}

/// Reads one term's postings, checking doc order and bounds and adding each tf to the
/// field lengths in `lens` (which must stay within [`MAX_TF`]).
fn read_postings(
    r: &mut Reader<'_>,
    lens: &mut [[u32; Field::COUNT]],
) -> Result<Vec<Posting>, DecodeError> {
    let df = r.varint_u32()?;
    if df == 0 {
        return Err(DecodeError::Malformed("a term has no posting"));
    }
    let mut postings = Vec::with_capacity((df as usize).min(r.remaining()));
    let mut doc: Option<u64> = None;
    for _ in 0..df {
        let gap = r.varint()?;
        let next = match doc {
            None => gap,
            Some(_) if gap == 0 => {
                return Err(DecodeError::Malformed(
                    "postings are not strictly ascending",
                ));
            }
            Some(d) => d.saturating_add(gap),
        };
        let doc_lens = usize::try_from(next)
            .ok()
            .and_then(|d| lens.get_mut(d))
            .ok_or(DecodeError::Malformed(
                "a posting names a document that does not exist",
            ))?;
        doc = Some(next);
        let mask = r.u8()?;
        if mask == 0 || mask >= 1 << Field::COUNT {
            return Err(DecodeError::Malformed("invalid field mask"));
        }
        for field in Field::ALL {
            if mask & (1 << field.index()) == 0 {
                continue;
            }
            let tf = r.varint_u32()?;
            if tf == 0 || tf > MAX_TF {
                return Err(DecodeError::Malformed("term frequency out of range"));
            }
            let len = &mut doc_lens[field.index()];
            *len = len
                .checked_add(tf)
                .filter(|&l| l <= MAX_TF)
                .ok_or(DecodeError::Malformed("field too long"))?;
            postings.push(Posting::new(next as u32, field, tf));
        }
    }
    // A term in several fields of a document has more entries than `df`: give back what the
    // list grew past them.
    postings.shrink_to_fit();
    Ok(postings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::borrow::ToOwned;

    fn stamp() -> AnalyzerStamp {
        AnalyzerStamp {
            fingerprint: "fp-1".to_owned(),
            settings: "{\"stem\":true}".to_owned(),
        }
    }

    fn build(ops: &[(&str, Option<&str>)]) -> InvertedIndex {
        let mut index = InvertedIndex::new(Bm25Params::default()).unwrap();
        for (id, body) in ops {
            match body {
                Some(body) => {
                    let terms: Vec<&str> = body.split_whitespace().collect();
                    let (title, rest) = terms.split_at(terms.len().min(1));
                    index
                        .upsert(id, &[(Field::Title, title), (Field::Body, rest)])
                        .unwrap();
                }
                None => {
                    index.remove(id);
                }
            }
        }
        index
    }

    #[test]
    fn round_trip_preserves_search_and_stamp() {
        let index = build(&[
            ("n1", Some("alpha beta beta")),
            ("n2", Some("gamma alpha")),
            ("é", Some("ünï 💡")),
        ]);
        let bytes = index.to_bytes(&stamp());
        let (back, got_stamp) = InvertedIndex::from_bytes(&bytes).unwrap();
        assert_eq!(got_stamp, stamp());
        assert_eq!(back.params(), index.params());
        for q in [&["alpha"][..], &["beta", "gamma"], &["💡"]] {
            assert_eq!(back.search_terms(q, 10), index.search_terms(q, 10));
        }
        assert_eq!(back.to_bytes(&stamp()), bytes);
    }

    #[test]
    fn bytes_do_not_depend_on_history() {
        let direct = build(&[("a", Some("x y")), ("b", Some("y z"))]);
        let churned = build(&[
            ("b", Some("old words")),
            ("c", Some("x x x")),
            ("a", Some("x y")),
            ("c", None),
            ("b", Some("y z")),
        ]);
        assert_eq!(direct.to_bytes(&stamp()), churned.to_bytes(&stamp()));
    }

    #[test]
    fn empty_index_round_trips() {
        let index = InvertedIndex::new(Bm25Params::default()).unwrap();
        let bytes = index.to_bytes(&AnalyzerStamp::default());
        let (back, _) = InvertedIndex::from_bytes(&bytes).unwrap();
        assert!(back.is_empty());
    }

    #[test]
    fn foreign_truncated_and_corrupt_bytes_are_refused() {
        let bytes = build(&[("a", Some("x y"))]).to_bytes(&stamp());
        assert_eq!(
            InvertedIndex::from_bytes(b"").unwrap_err(),
            DecodeError::NotAnIndex
        );
        assert_eq!(
            InvertedIndex::from_bytes(b"{\"json\":1}").unwrap_err(),
            DecodeError::NotAnIndex
        );
        assert!(matches!(
            InvertedIndex::from_bytes(&bytes[..5]),
            Err(DecodeError::Truncated { .. })
        ));
        for cut in [20, bytes.len() - 1] {
            assert!(matches!(
                InvertedIndex::from_bytes(&bytes[..cut]),
                Err(DecodeError::Truncated { .. })
            ));
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            InvertedIndex::from_bytes(&longer),
            Err(DecodeError::TrailingBytes { .. })
        ));
        for at in [PREAMBLE_LEN, 30, bytes.len() - 40, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x01;
            assert_eq!(
                InvertedIndex::from_bytes(&bad).unwrap_err(),
                DecodeError::ChecksumMismatch,
                "byte {at}"
            );
        }
        let mut future = bytes.clone();
        future[8] = 2;
        assert_eq!(
            InvertedIndex::from_bytes(&future).unwrap_err(),
            DecodeError::UnsupportedVersion(2)
        );
    }

    /// Re-seals altered content with a valid length and checksum, as a crafted file would.
    fn reseal(mut content: Vec<u8>) -> Vec<u8> {
        let total = (content.len() + CHECKSUM_LEN) as u64;
        content[10..18].copy_from_slice(&total.to_le_bytes());
        let sum = Sha256::digest(&content);
        content.extend_from_slice(&sum);
        content
    }

    #[test]
    fn crafted_content_with_a_valid_checksum_is_validated() {
        let bytes =
            build(&[("a", Some("x y")), ("b", Some("y"))]).to_bytes(&AnalyzerStamp::default());
        let content = &bytes[..bytes.len() - CHECKSUM_LEN];
        // k1 = NaN
        let mut bad = content.to_vec();
        bad[PREAMBLE_LEN..PREAMBLE_LEN + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(
            InvertedIndex::from_bytes(&reseal(bad)),
            Err(DecodeError::InvalidParams(_))
        ));
        // swap the two ids so they are no longer ascending: after params (28 bytes) come
        // two empty strings, the count 2, then "a" and "b" as (1, byte)
        let ids_at = PREAMBLE_LEN + 28 + 2 + 1;
        let mut bad = content.to_vec();
        assert_eq!(&bad[ids_at..ids_at + 4], &[1, b'a', 1, b'b']);
        bad[ids_at + 1] = b'b';
        bad[ids_at + 3] = b'a';
        assert!(matches!(
            InvertedIndex::from_bytes(&reseal(bad)),
            Err(DecodeError::Malformed(_))
        ));
        // cut the content short: values run past the end
        let bad = content[..content.len() - 2].to_vec();
        assert!(matches!(
            InvertedIndex::from_bytes(&reseal(bad)),
            Err(DecodeError::Malformed(_))
        ));
        // extra byte before the checksum
        let mut bad = content.to_vec();
        bad.push(0);
        assert!(matches!(
            InvertedIndex::from_bytes(&reseal(bad)),
            Err(DecodeError::Malformed(_))
        ));
    }
}
