//! [`OnnxProvider`]: a sentence-transformer exported to ONNX (f32 or int8), run in process by
//! ONNX Runtime ([`super::onnx_library`]): the same tokenizer, batches by word pieces,
//! pooling (in Rust, of the graph's token output) and L2 normalisation as the candle engine
//! ([`super::encoder`]). A sentence-transformer runs in lanes: one session per thread
//! (`embeddings.threads`, default one per core), each on one thread, taking a call's batches
//! in turn. On two cores ONNX Runtime ran one row 1.41x faster on two threads than on one
//! (its threads wait on each other within a run); two lanes embedded pf2e-srd's 21,162 chunks
//! in 7 min 20 s against 10 min 37 s (issue 35), with the same vectors as one lane. The lanes
//! share the model file's word-piece table ([`SharedInitializers`]: mapped, only the rows a
//! vault uses resident) and the layers' repacked weights, so a second lane costs its own
//! arena (about 40 MiB at a full 512-piece row). A cross-encoder keeps one session whose
//! intra-op threads spin between the kernels of a run and sleep as soon as it returns. ONNX
//! Runtime's fused `SkipLayerNormalization` is left out (`DISABLED_OPTIMIZERS`): its CPU kernel
//! was a quarter of a run.
//!
//! Memory (issue 19, `obsidian-tc index` of 2,200 pf2e-srd notes with int8 all-MiniLM-L6-v2,
//! peak RSS of the first minute): ONNX Runtime's CPU arena grows by doubling and never gives
//! memory back, so its size follows the largest run, not the typical one. Three things keep
//! it small, none slower per chunk: the memory pattern is off (it plans one block per input
//! shape, and every batch has another width: 612 → 424 MiB); one run gets at most
//! `RUN_TOKENS` word pieces, a batch of long texts running in slices of rows (attention's
//! working set grows with rows × width², so long batches size the arena: 424 → 364 MiB); and
//! the C heap freed while building the session goes back to the system
//! (`release_free_heap`: 364 → 324 MiB). The whole subset: 655 → 328 MiB at 27.6 and 27.3
//! chunks/s, the same vectors. Turning the arena off was worse (glibc then kept ~870 MiB),
//! and so was growing it by exactly what is asked (500 MiB). And the runtime reads the model
//! file itself ([`super::weights::Weights::identify`] hashes it first): with the server's own
//! copy of the 118 MB default model held while the runtime built its copies, loading it was
//! the server's peak (376 → 271 MiB loading it with an empty vault, issue 35; 295 MiB with
//! two lanes, each session built from the file in turn). With the
//! default model's 512-piece window, runs of 1,024 pieces (two full rows) sized the arena;
//! one full row a run: 1,982 pf2e-srd notes 314 → 280 MiB, 93.2 and 93.0 s (issue 35).

use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

use ort::session::Session;
use ort::session::builder::{GraphOptimizationLevel, PrepackedWeights};
use ort::value::TensorRef;

use crate::embed::error::EmbedError;

use super::encoder::{Network, TextEncoder, TokenBatch};
use super::model_files::ModelFiles;
use super::onnx_initializers::SharedInitializers;
use super::onnx_library::OnnxRuntime;
use super::weights::Weights;

/// The engine named in the fingerprint.
const ENGINE: &str = "onnxruntime";

/// The graph input of the word-piece ids (required).
const IDS_INPUT: &str = "input_ids";
/// The graph input of the attention mask (passed when the graph declares it).
const MASK_INPUT: &str = "attention_mask";
/// The graph input of the segment ids (passed when declared: XLM-RoBERTa graphs have none).
const TYPE_IDS_INPUT: &str = "token_type_ids";
/// The graph output of the token vectors; without it, the first output.
const TOKENS_OUTPUT: &str = "last_hidden_state";
/// The most word pieces (rows × padded width) one session run gets; a larger batch runs in
/// slices of rows. One row of 512 pieces, 2 of 256: texts of up to 64 pieces still run 8 at
/// once. The arena is sized by the widest run (512 pieces: one row, at least).
const RUN_TOKENS: usize = 512;
/// The graph optimisations left out (`;`-separated): ONNX Runtime's fused
/// `SkipLayerNormalization` CPU kernel took a quarter of an encoder run, five times the `Add`
/// and `LayerNormalization` it replaces (issue 35, profiled in PyPI onnxruntime 1.32 on the
/// default model's int8 stand-in, one thread: 24.5% of kernel time; unfused, the two take
/// 4.2% and part of `Add`'s 12.4%). Unfused, the encoder runs 15-30% faster, and its vectors
/// are as close to the f32 model's (median cosine over 64 pf2e-srd texts and queries 0.9847
/// against 0.9844 fused).
const DISABLED_OPTIMIZERS: &str = "SkipLayerNormFusion";
/// The session option that stops the intra-op threads' spinning as soon as a run returns.
/// Within a run they spin between kernels rather than sleep and wake for each (without the
/// fused layer norm, issue 35: 13,291 against 10,448 word pieces/s on two threads); after it
/// they sleep at once, so an idle server burns nothing (5 idle half-seconds after a run: 1 ms
/// of CPU, against 133 ms spinning on).
const SPINNING_STOP: &str = "session.force_spinning_stop";

/// How an ONNX model is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnnxSettings {
    /// The most texts encoded at once.
    pub batch: usize,
    /// Intra-op threads (`None`: one per available core).
    pub threads: Option<usize>,
}

/// A sentence-transformer's ONNX graph loaded in ONNX Runtime.
pub struct OnnxProvider {
    graph: OnnxGraph,
    /// The name of the token-vector output.
    output: String,
    text: TextEncoder,
}

/// An ONNX graph in an ONNX Runtime session, with the inputs it declares: what a
/// sentence-transformer ([`OnnxProvider`]) and a cross-encoder
/// ([`super::cross_encoder::CrossEncoder`]) share.
pub struct OnnxGraph {
    /// One session per lane: runs on different lanes go at once. Dropped before `_weights`.
    sessions: Vec<Mutex<Session>>,
    /// The large initializers the sessions view.
    _weights: SharedInitializers,
    /// The graph's inputs, in its order.
    inputs: Vec<GraphInput>,
}

/// A graph input this engine feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GraphInput {
    Ids,
    Mask,
    TypeIds,
}

impl OnnxGraph {
    /// The ONNX file `model_file` (its digest checked by [`Weights::identify`]) in `lanes`
    /// sessions of `runtime` (at least one), each with `threads` intra-op threads (`None`: one
    /// per core); the graph must take `input_ids` and may take the mask and segment ids,
    /// nothing else. Several lanes share the file's large initializers
    /// ([`SharedInitializers`]) and the repacked layer weights (one prepacked-weights
    /// container); each has its own arena.
    pub fn open(
        runtime: &OnnxRuntime,
        model_file: &Path,
        threads: Option<usize>,
        lanes: usize,
    ) -> Result<OnnxGraph, EmbedError> {
        let threads = threads.unwrap_or_else(available_cores);
        let lanes = lanes.max(1);
        let weights = SharedInitializers::read(model_file)?;
        let prepacked = PrepackedWeights::new();
        let build = || -> ort::Result<Session> {
            let builder = Session::builder(&runtime.environment)?
                .with_optimization_level(GraphOptimizationLevel::All)?
                .with_disabled_optimizers(DISABLED_OPTIMIZERS)?
                .with_intra_threads(threads.max(1))?
                .with_inter_threads(1)?
                .with_intra_op_spinning(true)?
                .with_config_entry(SPINNING_STOP, "1")?
                .with_inter_op_spinning(false)?
                .with_memory_pattern(false)?;
            weights
                .give(builder.with_prepacked_weights(&prepacked)?)?
                .commit_from_file(model_file)
        };
        let sessions = (0..lanes)
            .map(|_| {
                let session = build().map_err(|e| onnx_error(model_file, &e.to_string()));
                release_free_heap();
                session
            })
            .collect::<Result<Vec<Session>, _>>()?;
        weights.release_cached_pages(model_file);
        let inputs = sessions[0]
            .inputs()
            .iter()
            .map(|input| match input.name() {
                IDS_INPUT => Ok(GraphInput::Ids),
                MASK_INPUT => Ok(GraphInput::Mask),
                TYPE_IDS_INPUT => Ok(GraphInput::TypeIds),
                other => Err(onnx_error(
                    model_file,
                    &format!("the graph wants an input {other:?}; this server feeds only {IDS_INPUT}, {MASK_INPUT} and {TYPE_IDS_INPUT}"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if !inputs.contains(&GraphInput::Ids) {
            return Err(onnx_error(
                model_file,
                &format!("the graph has no input {IDS_INPUT}"),
            ));
        }
        Ok(OnnxGraph {
            sessions: sessions.into_iter().map(Mutex::new).collect(),
            _weights: weights,
            inputs,
        })
    }

    /// How many runs can go at once.
    pub fn lanes(&self) -> usize {
        self.sessions.len()
    }

    /// A free session, else the first (waiting for it).
    fn session(&self) -> MutexGuard<'_, Session> {
        for session in &self.sessions {
            match session.try_lock() {
                Ok(free) => return free,
                Err(TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => {}
            }
        }
        self.sessions[0]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The name of the output called `preferred`, else of the first output.
    pub fn output(&self, preferred: &str, model_file: &Path) -> Result<String, EmbedError> {
        let session = self.session();
        let outputs = session.outputs();
        outputs
            .iter()
            .find(|o| o.name() == preferred)
            .or_else(|| outputs.first())
            .map(|o| o.name().to_owned())
            .ok_or_else(|| onnx_error(model_file, "the graph has no output"))
    }

    /// One session run over `batch`: the shape and values of the f32 output `output`.
    pub fn run(
        &self,
        batch: &TokenBatch,
        output: &str,
    ) -> Result<(Vec<usize>, Vec<f32>), EmbedError> {
        let wide = |part: &[u32]| part.iter().map(|&v| i64::from(v)).collect::<Vec<i64>>();
        let (ids, mask, type_ids) = (wide(&batch.ids), wide(&batch.mask), wide(&batch.type_ids));
        let shape = [batch.rows, batch.width];
        let feeds = self
            .inputs
            .iter()
            .map(|input| {
                let (name, data) = match input {
                    GraphInput::Ids => (IDS_INPUT, &ids),
                    GraphInput::Mask => (MASK_INPUT, &mask),
                    GraphInput::TypeIds => (TYPE_IDS_INPUT, &type_ids),
                };
                TensorRef::from_array_view((shape, data.as_slice())).map(|t| (name, t.into()))
            })
            .collect::<Result<Vec<(&str, ort::session::SessionInputValue<'_>)>, _>>()
            .map_err(run_error)?;
        let mut session = self.session();
        let outputs = session.run(feeds).map_err(run_error)?;
        let (out_shape, values) = outputs[output]
            .try_extract_tensor::<f32>()
            .map_err(run_error)?;
        let out_shape = out_shape
            .iter()
            .map(|&d| usize::try_from(d).unwrap_or(0))
            .collect();
        Ok((out_shape, values.to_vec()))
    }
}

impl OnnxProvider {
    /// Loads `model_file` (an ONNX file of the model folder `folder`, whose tokenizer and
    /// settings it uses) under the name `model` in `runtime`. The fingerprint's model is
    /// `model@` the start of the ONNX file's SHA-256 (refused when it is not `pinned`).
    pub fn load(
        runtime: &OnnxRuntime,
        folder: &Path,
        model_file: &Path,
        model: &str,
        settings: OnnxSettings,
        pinned: Option<&str>,
    ) -> Result<OnnxProvider, EmbedError> {
        let files = ModelFiles::read(folder, model)?;
        let model_id = Weights::identify(model_file, model, pinned)?;
        let lanes = settings.threads.unwrap_or_else(available_cores);
        let graph = OnnxGraph::open(runtime, model_file, Some(1), lanes)?;
        let output = graph.output(TOKENS_OUTPUT, model_file)?;
        Ok(OnnxProvider {
            graph,
            output,
            text: TextEncoder::new(folder, &files, ENGINE, model_id, settings.batch)?,
        })
    }

    /// The most word pieces (special tokens included) of one input; the rest is cut.
    pub fn max_tokens(&self) -> usize {
        self.text.max_tokens()
    }
}

impl Network for OnnxProvider {
    fn text(&self) -> &TextEncoder {
        &self.text
    }

    fn lanes(&self) -> usize {
        self.graph.lanes()
    }

    fn forward(&self, batch: &TokenBatch) -> Result<Vec<f32>, EmbedError> {
        let rows = (RUN_TOKENS / batch.width.max(1)).max(1);
        if batch.rows <= rows {
            return self.run(batch);
        }
        let mut hidden = Vec::new();
        for slice in batch.slices(rows) {
            hidden.extend(self.run(&slice)?);
        }
        Ok(hidden)
    }
}

impl OnnxProvider {
    /// The token vectors of `batch` from one session run.
    fn run(&self, batch: &TokenBatch) -> Result<Vec<f32>, EmbedError> {
        let (out_shape, hidden) = self.graph.run(batch, &self.output)?;
        let expected = [batch.rows, batch.width, self.text.fingerprint().dimensions];
        if out_shape != expected {
            return Err(EmbedError::Model {
                message: format!(
                    "the ONNX output {} has shape {:?}, not the token vectors {expected:?}",
                    self.output,
                    &out_shape[..]
                ),
            });
        }
        Ok(hidden)
    }
}

/// The cores this process may run on (at least one).
pub fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Hands the C heap's free pages back to the system (glibc's `malloc_trim`): building a
/// session frees tens of MiB of temporaries that glibc would otherwise keep resident while
/// the arena grows elsewhere. ONNX Runtime allocates through the C heap, not this program's
/// allocator.
fn release_free_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of glibc's heap; it takes no pointers.
    unsafe {
        libc::malloc_trim(0);
    }
}

fn onnx_error(path: &Path, message: &str) -> EmbedError {
    EmbedError::setup(
        "local",
        format!(
            "{} is not an ONNX model this server can run: {message}",
            path.display()
        ),
    )
}

fn run_error(error: ort::Error) -> EmbedError {
    EmbedError::Model {
        message: format!("ONNX Runtime: {error}"),
    }
}
