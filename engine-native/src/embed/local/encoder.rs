//! [`TextEncoder`]: what both local engines (candle and ONNX Runtime) do around the model's
//! forward pass: the tokenizer of the model folder, a batch of texts as padded rows of
//! word-piece ids ([`TokenBatch`]), the model's prefix of queries or documents ([`Prompts`]),
//! the order (fewest word pieces first) in which texts are encoded, the pooling of the token
//! vectors and the fingerprint of the vectors.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokenizers::parallelism::MaybeParallelIterator;
use tokenizers::{
    EncodeInput, Encoding, PaddingParams, PaddingStrategy, TruncationParams, pad_encodings,
};

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::{EmbeddingFingerprint, Pooling};
use crate::embed::provider::{EmbedKind, EmbeddingProvider, checked_batch};
use crate::workers::on_threads;

use super::model_files::ModelFiles;
use super::pool;
use super::prompts::Prompts;
use super::tokenizer::TextTokenizer;

/// A model's text side: its tokenizer, prefixes, pooling and batch size, and the fingerprint
/// of its vectors; [`TextEncoder::embed`] runs an engine's forward pass between them.
pub struct TextEncoder {
    tokenizer: TextTokenizer,
    prompts: Prompts,
    pooling: Pooling,
    max_tokens: usize,
    max_batch: usize,
    fingerprint: EmbeddingFingerprint,
}

impl TextEncoder {
    /// The text side of the model in `folder` (whose settings are `files`) run by `engine`
    /// (named in the fingerprint), encoding at most `batch` texts at once; `model_id` is the
    /// fingerprint's model (see [`super::weights::Weights`]).
    pub fn new(
        folder: &Path,
        files: &ModelFiles,
        engine: &str,
        model_id: String,
        batch: usize,
    ) -> Result<TextEncoder, EmbedError> {
        Ok(TextEncoder {
            tokenizer: load_tokenizer(&folder.join("tokenizer.json"), files.max_tokens)?,
            prompts: files.prompts.clone(),
            pooling: files.pooling,
            max_tokens: files.max_tokens,
            max_batch: batch.max(1),
            fingerprint: EmbeddingFingerprint {
                provider: "local".to_owned(),
                engine: engine.to_owned(),
                model: model_id,
                dimensions: files.dimensions,
                pooling: files.pooling,
                normalized: true,
                prompts: files.prompts.digest(),
            },
        })
    }

    /// The embedding space of the vectors.
    pub fn fingerprint(&self) -> &EmbeddingFingerprint {
        &self.fingerprint
    }

    /// The most texts encoded at once.
    pub fn max_batch(&self) -> usize {
        self.max_batch
    }

    /// The most word pieces (special tokens included) of one input; the rest is cut.
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// The unit vectors of `texts` embedded as `kind`, in order: each given the model's
    /// prefix of `kind`, tokenized, put in batches fewest word pieces first (so that each
    /// pads to similar lengths, see [`length_sorted_batches`]), each batch's token vectors
    /// computed by `forward` (`rows × width × dims` values, flat), pooled and L2-normalised.
    pub fn embed(
        &self,
        texts: &[&str],
        kind: EmbedKind,
        lanes: usize,
        forward: impl Fn(&TokenBatch) -> Result<Vec<f32>, EmbedError> + Sync,
    ) -> Result<Vec<Vec<f32>>, EmbedError> {
        let inputs = self.prompts.apply(texts, kind);
        let inputs: Vec<&str> = inputs.iter().map(AsRef::as_ref).collect();
        let (order, batches) = length_sorted_batches(&self.tokenizer, &inputs, self.max_batch)?;
        let vectors = in_lanes(&batches, lanes, |batch| {
            let hidden = forward(batch)?;
            let pooled = pool::pool(&hidden, &batch.mask, batch.width, self.pooling)?;
            checked_batch(&self.fingerprint, "local", batch.rows, pooled)
        })?;
        let mut out = vec![Vec::new(); inputs.len()];
        for (vector, index) in vectors.into_iter().flatten().zip(order) {
            out[index] = vector;
        }
        Ok(out)
    }
}

/// A local engine's network: its forward pass between the batches and the pooling of its
/// [`TextEncoder`]. Every network is an [`EmbeddingProvider`].
pub trait Network: Send + Sync {
    /// The model's text side.
    fn text(&self) -> &TextEncoder;

    /// How many batches [`Network::forward`] can run at once (one unless it says more).
    fn lanes(&self) -> usize {
        1
    }

    /// The token vectors of one batch, `rows × width × dims` values, flat.
    fn forward(&self, batch: &TokenBatch) -> Result<Vec<f32>, EmbedError>;
}

impl<N: Network> EmbeddingProvider for N {
    fn fingerprint(&self) -> &EmbeddingFingerprint {
        self.text().fingerprint()
    }

    fn max_batch(&self) -> usize {
        self.text().max_batch()
    }

    fn embed(&self, texts: &[&str], kind: EmbedKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.text()
            .embed(texts, kind, self.lanes(), |batch| self.forward(batch))
    }
}

/// `work` done on each of `items` by `lanes` threads at once (the caller's among them), each
/// taking the next item not yet taken; the results in the items' order, or the error of the
/// first item that failed (a lane stops at its first error).
fn in_lanes<T: Sync, R: Send>(
    items: &[T],
    lanes: usize,
    work: impl Fn(&T) -> Result<R, EmbedError> + Sync,
) -> Result<Vec<R>, EmbedError> {
    let lanes = lanes.clamp(1, items.len().max(1));
    if lanes == 1 {
        return items.iter().map(work).collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, Result<R, EmbedError>)> = on_threads(lanes, |_| {
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(item) = items.get(index) else {
                return done;
            };
            let result = work(item);
            let failed = result.is_err();
            done.push((index, result));
            if failed {
                return done;
            }
        }
    })
    .into_iter()
    .flatten()
    .collect();
    results.sort_unstable_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

/// The tokenizer of `path`, cutting inputs at `max_tokens` and padding each batch to its
/// longest input (the file's own fixed padding and truncation, if any, are replaced).
pub fn load_tokenizer(path: &Path, max_tokens: usize) -> Result<TextTokenizer, EmbedError> {
    let mut tokenizer = TextTokenizer::from_file(path)
        .map_err(|e| EmbedError::setup("local", format!("cannot load {}: {e}", path.display())))?;
    let padding = PaddingParams {
        strategy: PaddingStrategy::BatchLongest,
        ..tokenizer.get_padding().cloned().unwrap_or_default()
    };
    tokenizer.with_padding(Some(padding));
    tokenizer
        .with_truncation(Some(TruncationParams {
            max_length: max_tokens,
            ..TruncationParams::default()
        }))
        .map_err(|e| EmbedError::setup("local", format!("cannot truncate at {max_tokens}: {e}")))?;
    Ok(tokenizer)
}

/// A batch of texts as `rows` rows of `width` word pieces (padded to the longest), each part
/// flat, row after row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenBatch {
    /// How many texts.
    pub rows: usize,
    /// The word pieces of every row (the longest text's, after truncation).
    pub width: usize,
    /// The word-piece ids.
    pub ids: Vec<u32>,
    /// 1 for a real word piece, 0 for padding.
    pub mask: Vec<u32>,
    /// The segment ids (all 0 for one text).
    pub type_ids: Vec<u32>,
}

impl TokenBatch {
    /// `texts` tokenized by `tokenizer` (from [`load_tokenizer`]).
    pub fn encode(tokenizer: &TextTokenizer, texts: &[&str]) -> Result<TokenBatch, EmbedError> {
        TokenBatch::encode_inputs(tokenizer, texts.to_vec())
    }

    /// `query` paired with each of `passages` (`[CLS] query [SEP] passage [SEP]` for BERT, as
    /// the tokenizer's post-processor says; segment ids 0 then 1), the longer of the two cut
    /// first when a pair is too long: a cross-encoder's input.
    pub fn encode_pairs(
        tokenizer: &TextTokenizer,
        query: &str,
        passages: &[&str],
    ) -> Result<TokenBatch, EmbedError> {
        let pairs: Vec<EncodeInput<'_>> = passages
            .iter()
            .map(|&passage| EncodeInput::Dual(query.into(), passage.into()))
            .collect();
        TokenBatch::encode_inputs(tokenizer, pairs)
    }

    fn encode_inputs<'s>(
        tokenizer: &TextTokenizer,
        inputs: Vec<impl Into<EncodeInput<'s>> + Send>,
    ) -> Result<TokenBatch, EmbedError> {
        let encodings = tokenizer
            .encode_batch(inputs, true)
            .map_err(tokenizing_failed)?;
        Ok(TokenBatch::of(&encodings))
    }

    /// Encodings of one length, row after row.
    fn of(encodings: &[Encoding]) -> TokenBatch {
        let flat = |part: fn(&Encoding) -> &[u32]| -> Vec<u32> {
            encodings
                .iter()
                .flat_map(|e| part(e).iter().copied())
                .collect()
        };
        TokenBatch {
            rows: encodings.len(),
            width: encodings.first().map_or(0, |e| e.get_ids().len()),
            ids: flat(Encoding::get_ids),
            mask: flat(Encoding::get_attention_mask),
            type_ids: flat(Encoding::get_type_ids),
        }
    }

    /// The word pieces that are not padding.
    pub fn real_tokens(&self) -> usize {
        self.mask.iter().filter(|&&m| m != 0).count()
    }

    /// The batch cut into batches of at most `rows` rows (at least one), in order, each with
    /// the same width.
    pub fn slices(&self, rows: usize) -> impl Iterator<Item = TokenBatch> + '_ {
        let step = rows.max(1);
        (0..self.rows).step_by(step).map(move |first| {
            let last = (first + step).min(self.rows);
            let part = |values: &[u32]| values[first * self.width..last * self.width].to_vec();
            TokenBatch {
                rows: last - first,
                width: self.width,
                ids: part(&self.ids),
                mask: part(&self.mask),
                type_ids: part(&self.type_ids),
            }
        })
    }
}

/// `texts` as the local engines encode them: each tokenized by `tokenizer` (from
/// [`load_tokenizer`]) on its own, in parallel; ordered by word pieces, fewest first (ties in
/// input order); in batches of at most `batch` rows (at least one), each padded to its
/// longest. Returns the input index of each row, batch after batch, and the batches.
///
/// Sorting by word pieces rather than by bytes matters: over pf2e-srd's chunks, a byte order
/// left 8-10% of the computed pieces padding, word pieces 1% in rounds of 512.
pub fn length_sorted_batches(
    tokenizer: &TextTokenizer,
    texts: &[&str],
    batch: usize,
) -> Result<(Vec<usize>, Vec<TokenBatch>), EmbedError> {
    let encodings = texts
        .into_maybe_par_iter()
        .map(|text| tokenizer.encode(*text, true))
        .collect::<tokenizers::Result<Vec<Encoding>>>()
        .map_err(tokenizing_failed)?;
    let mut numbered: Vec<(usize, Encoding)> = encodings.into_iter().enumerate().collect();
    numbered.sort_by_key(|(_, encoding)| encoding.len());
    let order = numbered.iter().map(|(index, _)| *index).collect();
    let padding = tokenizer.get_padding().cloned().unwrap_or_default();
    let mut sorted = numbered.into_iter().map(|(_, encoding)| encoding);
    let mut batches = Vec::new();
    loop {
        let mut rows: Vec<Encoding> = sorted.by_ref().take(batch.max(1)).collect();
        if rows.is_empty() {
            return Ok((order, batches));
        }
        pad_encodings(&mut rows, &padding).map_err(tokenizing_failed)?;
        batches.push(TokenBatch::of(&rows));
    }
}

fn tokenizing_failed(error: tokenizers::Error) -> EmbedError {
    EmbedError::Model {
        message: format!("tokenizing failed: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{TokenBatch, in_lanes};
    use crate::embed::error::EmbedError;

    #[test]
    fn lanes_keep_the_items_order_and_answer_the_first_failure() {
        let items: Vec<usize> = (0..50).collect();
        for lanes in [0, 1, 2, 3, 64] {
            let doubled = in_lanes(&items, lanes, |&i| Ok(i * 2)).expect("no failure");
            assert_eq!(doubled, items.iter().map(|i| i * 2).collect::<Vec<_>>());
        }
        let failing = |&i: &usize| -> Result<usize, EmbedError> {
            if i == 7 || i == 30 {
                Err(EmbedError::Model {
                    message: format!("item {i}"),
                })
            } else {
                Ok(i)
            }
        };
        for lanes in [1, 2, 3] {
            let error = in_lanes(&items, lanes, failing).expect_err("two items fail");
            assert!(error.to_string().contains("item 7"), "{error}");
        }
        let none: Vec<usize> = Vec::new();
        assert!(in_lanes(&none, 2, |&i| Ok(i)).expect("empty").is_empty());
    }

    #[test]
    fn slices_keep_rows_in_order_and_the_last_one_short() {
        let batch = TokenBatch {
            rows: 3,
            width: 2,
            ids: vec![1, 2, 3, 4, 5, 6],
            mask: vec![1, 1, 1, 0, 1, 1],
            type_ids: vec![0; 6],
        };
        let slices: Vec<TokenBatch> = batch.slices(2).collect();
        assert_eq!(slices.len(), 2);
        assert_eq!((slices[0].rows, slices[0].width), (2, 2));
        assert_eq!(slices[0].ids, vec![1, 2, 3, 4]);
        assert_eq!(slices[0].mask, vec![1, 1, 1, 0]);
        assert_eq!((slices[1].rows, slices[1].ids.clone()), (1, vec![5, 6]));
        assert_eq!(
            batch.slices(0).count(),
            3,
            "zero rows means one row per slice"
        );
    }
}
