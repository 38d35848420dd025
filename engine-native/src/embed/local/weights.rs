//! The weights file of a local model, for either engine: read whole, its SHA-256 checked
//! against a pin, and the fingerprint's model name made from that digest (other weights under
//! the same name, an int8 ONNX file beside safetensors, are another embedding space).

use std::path::Path;

use engine_core::hash::sha256_hex;

use crate::embed::error::EmbedError;

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
        let bytes = std::fs::read(path).map_err(|e| {
            EmbedError::setup("local", format!("cannot read {}: {e}", path.display()))
        })?;
        let digest = sha256_hex(&bytes);
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
        Ok(Weights {
            bytes,
            model_id: format!("{model}@{}", &digest[..DIGEST_CHARS]),
        })
    }
}
