//! Exports for [`engine_core::rank`]: BM25F search over pre-analyzed terms and over text,
//! index serialization, cosine/dot, rank fusion, and the `LexicalIndex` class the plugin
//! keeps in memory.
//!
//! Float inputs accept plain numbers and, because JSON has no literal for them, the strings
//! `"NaN"`, `"Infinity"` and `"-Infinity"` (so that the typed errors for non-finite input
//! can be exercised from JSON).

use engine_core::rank::{
    self, AnalyzerStamp, Bm25Params, DecodeError, Document, Field, FusionError, IndexError,
    InvertedIndex, LexicalDecodeError, LexicalIndex, Normalization, ParamsError, RankedList,
    ScoredDoc, ScoredList, VectorError, Visible,
};
use engine_core::text::AnalyzerSettings;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

use super::ApiError;
use crate::js;

/// A float given as a number or as `"NaN"`, `"Infinity"`, `"-Infinity"`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(try_from = "NumRepr")]
pub struct Num(pub f64);

#[derive(Deserialize)]
#[serde(untagged)]
enum NumRepr {
    Number(f64),
    Named(String),
}

impl TryFrom<NumRepr> for Num {
    type Error = String;

    fn try_from(repr: NumRepr) -> Result<Self, String> {
        match repr {
            NumRepr::Number(v) => Ok(Num(v)),
            NumRepr::Named(s) => match s.as_str() {
                "NaN" => Ok(Num(f64::NAN)),
                "Infinity" => Ok(Num(f64::INFINITY)),
                "-Infinity" => Ok(Num(f64::NEG_INFINITY)),
                _ => Err(format!(
                    "expected a number, \"NaN\", \"Infinity\" or \"-Infinity\", got {s:?}"
                )),
            },
        }
    }
}

/// The terms of each field of one document (missing fields are empty).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FieldTerms {
    /// Title terms.
    pub title: Vec<String>,
    /// Alias terms.
    pub aliases: Vec<String>,
    /// Heading terms.
    pub headings: Vec<String>,
    /// Tag terms.
    pub tags: Vec<String>,
    /// Body terms.
    pub body: Vec<String>,
}

impl FieldTerms {
    /// The fields as the index takes them.
    fn as_fields(&self) -> [(Field, &[String]); Field::COUNT] {
        [
            (Field::Title, &self.title),
            (Field::Aliases, &self.aliases),
            (Field::Headings, &self.headings),
            (Field::Tags, &self.tags),
            (Field::Body, &self.body),
        ]
    }
}

/// A document given as pre-analyzed field terms.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TermDoc {
    /// Document id.
    pub id: String,
    /// Its terms.
    #[serde(default)]
    pub fields: FieldTerms,
}

/// A change applied after the initial documents.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum IndexOp {
    /// Insert or replace a document.
    Upsert {
        /// Document id.
        id: String,
        /// Its terms.
        #[serde(default)]
        fields: FieldTerms,
    },
    /// Remove a document (a missing id is a no-op).
    Remove {
        /// Document id.
        id: String,
    },
}

/// Input of [`bm25_search`] and [`bm25_roundtrip`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bm25SearchInput {
    /// Scoring parameters (engine defaults when absent).
    #[serde(default)]
    pub params: Bm25Params,
    /// Documents upserted first, in order.
    #[serde(default)]
    pub docs: Vec<TermDoc>,
    /// Changes applied next, in order.
    #[serde(default)]
    pub ops: Vec<IndexOp>,
    /// Query terms.
    pub query: Vec<String>,
    /// Number of results wanted.
    pub k: usize,
    /// Analyzer stamp stored in the bytes ([`bm25_roundtrip`] only; empty by default).
    #[serde(default)]
    pub analyzer: AnalyzerStamp,
}

/// One ranked result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScoredHit {
    /// Document id.
    pub id: String,
    /// Score, widened from `f32`.
    pub score: f64,
}

impl From<ScoredDoc> for ScoredHit {
    fn from(d: ScoredDoc) -> Self {
        ScoredHit {
            id: d.id,
            score: f64::from(d.score),
        }
    }
}

/// Output of [`bm25_roundtrip`].
#[derive(Debug, Clone, Serialize)]
pub struct RoundtripOutput {
    /// Search results of the index read back from its bytes.
    pub results: Vec<ScoredHit>,
    /// Length of the serialized index.
    pub byte_len: usize,
    /// The serialized index, lowercase hex.
    pub bytes_hex: String,
}

/// Input of [`bm25_decode`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecodeInput {
    /// Serialized index, hex (either case).
    pub bytes_hex: String,
    /// Query terms.
    #[serde(default)]
    pub query: Vec<String>,
    /// Number of results wanted.
    #[serde(default)]
    pub k: usize,
}

/// Output of [`bm25_decode`].
#[derive(Debug, Clone, Serialize)]
pub struct DecodeOutput {
    /// Number of documents.
    pub doc_count: usize,
    /// The stored analyzer stamp.
    pub analyzer: AnalyzerStamp,
    /// The stored parameters.
    pub params: ParamsOutput,
    /// Search results for the query.
    pub results: Vec<ScoredHit>,
}

/// BM25F parameters widened to `f64` for output.
#[derive(Debug, Clone, Serialize)]
pub struct ParamsOutput {
    /// `k1`.
    pub k1: f64,
    /// `b`.
    pub b: f64,
    /// Field weights by field name.
    pub weights: WeightsOutput,
}

/// Field weights widened to `f64` for output.
#[derive(Debug, Clone, Serialize)]
pub struct WeightsOutput {
    /// Title weight.
    pub title: f64,
    /// Aliases weight.
    pub aliases: f64,
    /// Headings weight.
    pub headings: f64,
    /// Tags weight.
    pub tags: f64,
    /// Body weight.
    pub body: f64,
}

impl From<Bm25Params> for ParamsOutput {
    fn from(p: Bm25Params) -> Self {
        let w = p.weights;
        ParamsOutput {
            k1: f64::from(p.k1),
            b: f64::from(p.b),
            weights: WeightsOutput {
                title: f64::from(w.title),
                aliases: f64::from(w.aliases),
                headings: f64::from(w.headings),
                tags: f64::from(w.tags),
                body: f64::from(w.body),
            },
        }
    }
}

/// Input of [`cosine`] and [`dot`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VectorPairInput {
    /// First vector (rounded to `f32`).
    pub a: Vec<Num>,
    /// Second vector (rounded to `f32`).
    pub b: Vec<Num>,
}

/// A ranked list of ids for [`rrf`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RrfList {
    /// Weight (default 1).
    #[serde(default = "one")]
    pub weight: Num,
    /// Ids, best first.
    pub ids: Vec<String>,
}

/// Input of [`rrf`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RrfInput {
    /// The lists.
    pub lists: Vec<RrfList>,
    /// The RRF constant (default 60).
    #[serde(default = "sixty")]
    pub k: Num,
}

/// A scored hit given to [`fuse_scores`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HitInput {
    /// Document id.
    pub id: String,
    /// Score.
    pub score: Num,
}

/// A scored list for [`fuse_scores`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuseList {
    /// Weight (default 1).
    #[serde(default = "one")]
    pub weight: Num,
    /// Hits.
    pub hits: Vec<HitInput>,
}

/// Input of [`fuse_scores`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuseScoresInput {
    /// The lists.
    pub lists: Vec<FuseList>,
    /// `"min_max"` or `"z_score"`.
    pub normalization: Normalization,
}

/// A fused result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FusedHit {
    /// Document id.
    pub id: String,
    /// Fused score.
    pub score: f64,
}

fn one() -> Num {
    Num(1.0)
}

fn sixty() -> Num {
    Num(60.0)
}

/// Maps a parameter error to `invalid_params`.
pub(crate) fn params_error(e: ParamsError) -> ApiError {
    ApiError::new("invalid_params", e.to_string())
}

/// Maps an indexing error to its code.
pub(crate) fn index_error(e: IndexError) -> ApiError {
    let code = match e {
        IndexError::TooManyDocuments => "too_many_documents",
        IndexError::FieldTooLong { .. } => "field_too_long",
        IndexError::AnalyzerMismatch => "analyzer_mismatch",
    };
    ApiError::new(code, e.to_string())
}

/// Maps a decoding error to its code.
pub(crate) fn decode_error(e: DecodeError) -> ApiError {
    let code = match e {
        DecodeError::NotAnIndex => "not_an_index",
        DecodeError::UnsupportedVersion(_) => "unsupported_version",
        DecodeError::Truncated { .. } => "truncated",
        DecodeError::TrailingBytes { .. } => "trailing_bytes",
        DecodeError::ChecksumMismatch => "checksum_mismatch",
        DecodeError::Malformed(_) => "malformed",
        DecodeError::InvalidParams(_) => "invalid_params",
    };
    ApiError::new(code, e.to_string())
}

fn vector_error(e: VectorError) -> ApiError {
    let code = match e {
        VectorError::LengthMismatch { .. } => "length_mismatch",
        VectorError::NonFiniteInput { .. } => "non_finite_input",
        VectorError::Overflow => "overflow",
    };
    ApiError::new(code, e.to_string())
}

fn fusion_error(e: FusionError) -> ApiError {
    let code = match e {
        FusionError::InvalidK(_) => "invalid_k",
        FusionError::InvalidWeight { .. } => "invalid_weight",
        FusionError::NonFiniteScore { .. } => "non_finite_score",
        FusionError::ScoreRangeOverflow { .. } => "score_range_overflow",
    };
    ApiError::new(code, e.to_string())
}

/// Builds the index described by `input` (documents, then operations).
fn build_index(input: &Bm25SearchInput) -> Result<InvertedIndex, ApiError> {
    let mut index = InvertedIndex::new(input.params).map_err(params_error)?;
    for doc in &input.docs {
        index
            .upsert(&doc.id, &doc.fields.as_fields())
            .map_err(index_error)?;
    }
    for op in &input.ops {
        match op {
            IndexOp::Upsert { id, fields } => {
                index.upsert(id, &fields.as_fields()).map_err(index_error)?
            }
            IndexOp::Remove { id } => {
                index.remove(id);
            }
        }
    }
    Ok(index)
}

fn hits(docs: Vec<ScoredDoc>) -> Vec<ScoredHit> {
    docs.into_iter().map(ScoredHit::from).collect()
}

/// BM25F top-k over documents given as pre-analyzed terms.
pub fn bm25_search(input: Bm25SearchInput) -> Result<Vec<ScoredHit>, ApiError> {
    let index = build_index(&input)?;
    Ok(hits(index.search_terms(&input.query, input.k)))
}

/// Builds the index, serializes it, reads it back and searches the copy.
pub fn bm25_roundtrip(input: Bm25SearchInput) -> Result<RoundtripOutput, ApiError> {
    let bytes = build_index(&input)?.to_bytes(&input.analyzer);
    let (index, _) = InvertedIndex::from_bytes(&bytes).map_err(decode_error)?;
    Ok(RoundtripOutput {
        results: hits(index.search_terms(&input.query, input.k)),
        byte_len: bytes.len(),
        bytes_hex: to_hex(&bytes),
    })
}

/// Reads a serialized index (typed errors for foreign, truncated or corrupt bytes) and
/// searches it.
pub fn bm25_decode(input: DecodeInput) -> Result<DecodeOutput, ApiError> {
    let bytes = from_hex(&input.bytes_hex)?;
    let (index, analyzer) = InvertedIndex::from_bytes(&bytes).map_err(decode_error)?;
    Ok(DecodeOutput {
        doc_count: index.len(),
        analyzer,
        params: ParamsOutput::from(*index.params()),
        results: hits(index.search_terms(&input.query, input.k)),
    })
}

/// Rounds each element to `f32`.
fn to_f32(v: &[Num]) -> Vec<f32> {
    v.iter().map(|n| n.0 as f32).collect()
}

/// Cosine similarity of two vectors (0 when either is all zeros).
pub fn cosine(input: VectorPairInput) -> Result<f64, ApiError> {
    rank::cosine(&to_f32(&input.a), &to_f32(&input.b))
        .map(f64::from)
        .map_err(vector_error)
}

/// Dot product of two vectors.
pub fn dot(input: VectorPairInput) -> Result<f64, ApiError> {
    rank::dot(&to_f32(&input.a), &to_f32(&input.b))
        .map(f64::from)
        .map_err(vector_error)
}

fn fused(hits: Vec<rank::Hit>) -> Vec<FusedHit> {
    hits.into_iter()
        .map(|h| FusedHit {
            id: h.id,
            score: h.score,
        })
        .collect()
}

/// Weighted Reciprocal Rank Fusion.
pub fn rrf(input: RrfInput) -> Result<Vec<FusedHit>, ApiError> {
    let lists: Vec<RankedList> = input
        .lists
        .into_iter()
        .map(|l| RankedList {
            weight: l.weight.0,
            ids: l.ids,
        })
        .collect();
    rank::rrf(&lists, input.k.0)
        .map(fused)
        .map_err(fusion_error)
}

/// Normalised (min-max or z-score) weighted score fusion.
pub fn fuse_scores(input: FuseScoresInput) -> Result<Vec<FusedHit>, ApiError> {
    let lists: Vec<ScoredList> = input
        .lists
        .into_iter()
        .map(|l| ScoredList {
            weight: l.weight.0,
            hits: l
                .hits
                .into_iter()
                .map(|h| rank::Hit {
                    id: h.id,
                    score: h.score.0,
                })
                .collect(),
        })
        .collect();
    rank::fuse_scores(&lists, input.normalization)
        .map(fused)
        .map_err(fusion_error)
}

/// Lowercase hex of `bytes`.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[(b >> 4) as usize] as char);
        out.push(DIGITS[(b & 15) as usize] as char);
    }
    out
}

/// Bytes of a hex string (either case); `invalid_input` otherwise.
pub(crate) fn from_hex(hex: &str) -> Result<Vec<u8>, ApiError> {
    fn digit(c: u8) -> Option<u8> {
        (c as char).to_digit(16).map(|d| d as u8)
    }
    let bytes = hex.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return Err(ApiError::invalid_input("hex string has an odd length"));
    }
    bytes
        .chunks_exact(2)
        .map(|pair| match (digit(pair[0]), digit(pair[1])) {
            (Some(hi), Some(lo)) => Ok((hi << 4) | lo),
            _ => Err(ApiError::invalid_input(
                "hex string has a non-hex character",
            )),
        })
        .collect()
}

/// A document given as text, for [`lexical_search`] and [`lexical_roundtrip`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextDoc {
    /// Document id.
    pub id: String,
    /// Its text per field.
    #[serde(default)]
    pub doc: Document,
}

/// A change applied after the initial text documents.
#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum TextOp {
    /// Insert or replace a document.
    Upsert {
        /// Document id.
        id: String,
        /// Its text per field.
        #[serde(default)]
        doc: Document,
    },
    /// Remove a document (a missing id is a no-op).
    Remove {
        /// Document id.
        id: String,
    },
}

/// Input of [`lexical_search`] and [`lexical_roundtrip`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LexicalSearchInput {
    /// Analyzer settings (defaults when absent).
    #[serde(default)]
    pub analyzer: AnalyzerSettings,
    /// Scoring parameters (defaults when absent).
    #[serde(default)]
    pub params: Bm25Params,
    /// Documents upserted first, in order.
    #[serde(default)]
    pub docs: Vec<TextDoc>,
    /// Changes applied next, in order.
    #[serde(default)]
    pub ops: Vec<TextOp>,
    /// The free-text query.
    pub query: String,
    /// Number of results wanted.
    pub k: usize,
    /// The ids of the documents the caller may see, when not all: the search ranks those
    /// only, with their statistics (document count, document frequencies, field lengths).
    #[serde(default)]
    pub visible: Option<Vec<String>>,
}

/// Output of [`lexical_roundtrip`].
#[derive(Debug, Clone, Serialize)]
pub struct LexicalRoundtripOutput {
    /// Search results of the index read back from its bytes.
    pub results: Vec<ScoredHit>,
    /// Whether serializing the read-back index gives the very same bytes.
    pub stable_bytes: bool,
}

/// Input of [`lexical_decode`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LexicalDecodeInput {
    /// Serialized index, hex (either case).
    pub bytes_hex: String,
    /// The free-text query.
    #[serde(default)]
    pub query: String,
    /// Number of results wanted.
    #[serde(default)]
    pub k: usize,
}

/// Maps a text-level decoding error to its code.
pub(crate) fn lexical_decode_error(e: LexicalDecodeError) -> ApiError {
    match e {
        LexicalDecodeError::Index(e) => decode_error(e),
        LexicalDecodeError::Settings(_) => ApiError::new("invalid_settings", e.to_string()),
        LexicalDecodeError::AnalyzerMismatch { .. } => {
            ApiError::new("analyzer_mismatch", e.to_string())
        }
    }
}

/// Builds the text-level index described by `input`.
fn build_lexical(input: &LexicalSearchInput) -> Result<LexicalIndex, ApiError> {
    let mut index =
        LexicalIndex::new(input.analyzer.clone(), input.params).map_err(params_error)?;
    for d in &input.docs {
        index.upsert(&d.id, &d.doc).map_err(index_error)?;
    }
    for op in &input.ops {
        match op {
            TextOp::Upsert { id, doc } => index.upsert(id, doc).map_err(index_error)?,
            TextOp::Remove { id } => {
                index.remove(id);
            }
        }
    }
    Ok(index)
}

/// BM25F top-k over documents given as text, analyzed with the given settings.
pub fn lexical_search(input: LexicalSearchInput) -> Result<Vec<ScoredHit>, ApiError> {
    let index = build_lexical(&input)?;
    let Some(visible) = &input.visible else {
        return Ok(hits(index.search(&input.query, input.k)));
    };
    let view = index.visible(&mut |id| visible.iter().any(|seen| seen == id));
    let found = index
        .search_visible(&view, &input.query, input.k)
        .map_err(|stale| ApiError::new("stale_view", stale.to_string()))?;
    Ok(hits(found))
}

/// Builds the text-level index, serializes it, reads it back (rebuilding the analyzer
/// from the stored settings) and searches the copy.
pub fn lexical_roundtrip(input: LexicalSearchInput) -> Result<LexicalRoundtripOutput, ApiError> {
    let bytes = build_lexical(&input)?.to_bytes();
    let index = LexicalIndex::from_bytes(&bytes).map_err(lexical_decode_error)?;
    Ok(LexicalRoundtripOutput {
        results: hits(index.search(&input.query, input.k)),
        stable_bytes: index.to_bytes() == bytes,
    })
}

/// Reads a serialized text-level index and searches it; typed errors for invalid bytes,
/// unreadable analyzer settings, or an analyzer whose fingerprint changed.
pub fn lexical_decode(input: LexicalDecodeInput) -> Result<Vec<ScoredHit>, ApiError> {
    let bytes = from_hex(&input.bytes_hex)?;
    let index = LexicalIndex::from_bytes(&bytes).map_err(lexical_decode_error)?;
    Ok(hits(index.search(&input.query, input.k)))
}

/// Options of the `LexicalIndex` constructor.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct LexicalOptions {
    analyzer: AnalyzerSettings,
    params: Bm25Params,
}

/// The lexical index as a JS class, kept in memory by the plugin: documents are upserted
/// and removed as notes change, searched with free text, and persisted with
/// `to_bytes` / `LexicalIndex.from_bytes`.
#[wasm_bindgen(js_name = LexicalIndex)]
pub struct LexicalIndexHandle {
    pub(crate) inner: LexicalIndex,
    /// The last caller view built and the key it was built under, reused while the index is
    /// unchanged (see `LexicalIndex.search_notes`).
    pub(crate) view: RefCell<Option<(String, Rc<Visible>)>>,
}

impl From<LexicalIndex> for LexicalIndexHandle {
    fn from(inner: LexicalIndex) -> LexicalIndexHandle {
        LexicalIndexHandle {
            inner,
            view: RefCell::default(),
        }
    }
}

#[wasm_bindgen(js_class = LexicalIndex)]
impl LexicalIndexHandle {
    /// `new LexicalIndex({analyzer?, params?})`: an empty index (defaults when omitted).
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<LexicalIndexHandle, JsError> {
        let options: LexicalOptions = js::from_js_or_default(options)?;
        let inner = LexicalIndex::new(options.analyzer, options.params)
            .map_err(|e| js::error(params_error(e)))?;
        Ok(LexicalIndexHandle::from(inner))
    }

    /// Inserts or replaces a document `{title?, aliases?, headings?, tags?, body?}`.
    pub fn upsert(&mut self, id: &str, doc: JsValue) -> Result<(), JsError> {
        let doc: Document = js::from_js_or_default(doc)?;
        self.inner
            .upsert(id, &doc)
            .map_err(|e| js::error(index_error(e)))
    }

    /// Removes a document; returns whether it was indexed.
    pub fn remove(&mut self, id: &str) -> bool {
        self.inner.remove(id)
    }

    /// The `k` best documents for a free-text query: `[{id, score}]`.
    pub fn search(&self, query: &str, k: usize) -> Result<JsValue, JsError> {
        js::to_js(&hits(self.inner.search(query, k)))
    }

    /// Replaces the scoring parameters `{k1?, b?, weights?}` (no re-indexing needed).
    pub fn set_params(&mut self, params: JsValue) -> Result<(), JsError> {
        let params: Bm25Params = js::from_js_or_default(params)?;
        self.inner
            .set_params(params)
            .map_err(|e| js::error(params_error(e)))
    }

    /// The canonical bytes of the index, for the host to persist.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// Reads bytes written by `to_bytes` (typed `code: message` errors when they are
    /// foreign, truncated, corrupt, or from a different analyzer).
    pub fn from_bytes(bytes: &[u8]) -> Result<LexicalIndexHandle, JsError> {
        let inner =
            LexicalIndex::from_bytes(bytes).map_err(|e| js::error(lexical_decode_error(e)))?;
        Ok(LexicalIndexHandle::from(inner))
    }

    /// Number of documents.
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// Whether a document with this id is indexed.
    pub fn contains(&self, id: &str) -> bool {
        self.inner.contains(id)
    }

    /// The analyzer fingerprint stored with the index.
    pub fn fingerprint(&self) -> String {
        self.inner.analyzer().fingerprint().to_owned()
    }
}
