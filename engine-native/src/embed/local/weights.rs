//! The weights file of a local model, for either engine: its SHA-256 checked against a pin,
//! and the fingerprint's model name made from that digest (other weights under the same name,
//! an int8 ONNX file beside safetensors, are another embedding space). Candle gets the bytes
//! ([`Weights::read`]); ONNX Runtime reads the file itself after it is hashed in blocks
//! ([`Weights::identify`]): holding the 118 MB of the default model while ONNX Runtime built
//! its own copies was the peak of the server's memory (376 MiB loading it with an empty
//! vault, 271 without the copy). The file is hashed, then opened again by the runtime:
//! whoever could swap it in between can write the model folder anyway. It is hashed by reads
//! rather than through the mapping the ONNX engine makes of it afterwards
//! (`onnx_initializers`), which would save one pass over a file the page cache holds but
//! would make every page of it resident in this process at once.

use std::path::Path;

use engine_core::hash::sha256_hex;

use crate::embed::error::EmbedError;
use crate::embed::hub::cache::sha256_of_file;

/// How many hex digits of the weights' SHA-256 go into the fingerprint.
const DIGEST_CHARS: usize = 12;

/// A weights file read into memory.
pub struct Weights {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// `model@` the first hex digits of the file's SHA-256: the fingerprint's model.
    pub model_id: String,
}

impl Weights {
    /// Reads `path`, the weights of the model named `model`, refusing a file whose SHA-256 is
    /// not `pinned` (a pinned model: a damaged or other file is never loaded).
    pub fn read(path: &Path, model: &str, pinned: Option<&str>) -> Result<Weights, EmbedError> {
        let bytes = std::fs::read(path).map_err(|e| unreadable(path, &e))?;
        let model_id = model_id(path, model, &sha256_hex(&bytes), pinned)?;
        Ok(Weights { bytes, model_id })
    }

    /// The fingerprint's model of the weights at `path` (hashed in blocks, never held whole),
    /// refusing a file whose SHA-256 is not `pinned`, as [`Weights::read`] does.
    pub fn identify(path: &Path, model: &str, pinned: Option<&str>) -> Result<String, EmbedError> {
        let digest = sha256_of_file(path).map_err(|e| unreadable(path, &e))?;
        model_id(path, model, &digest, pinned)
    }
}

/// `model@` the first hex digits of `digest`, or the refusal of a file that is not `pinned`.
fn model_id(
    path: &Path,
    model: &str,
    digest: &str,
    pinned: Option<&str>,
) -> Result<String, EmbedError> {
    if let Some(expected) = pinned
        && !digest.eq_ignore_ascii_case(expected)
    {
        return Err(EmbedError::setup(
            "local",
            format!(
                "{} has SHA-256 {digest}, not the pinned {expected}: it is damaged or \
                 another model, and was not loaded; delete it and run `obsidian-tc model \
                 pull`",
                path.display()
            ),
        ));
    }
    Ok(format!("{model}@{}", &digest[..DIGEST_CHARS]))
}

fn unreadable(path: &Path, error: &std::io::Error) -> EmbedError {
    EmbedError::setup("local", format!("cannot read {}: {error}", path.display()))
}
