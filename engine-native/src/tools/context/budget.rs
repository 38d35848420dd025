//! The budget a context tool packs to: estimated tokens (engine-core's chunker estimate,
//! characters per token rounded up) and the bytes the response may still take under the
//! byte governor, so a packed answer is never refused with `overflow`.

use engine_core::markdown::ChunkOptions;

use crate::runtime::ToolContext;

/// Bytes of every response kept for what is not packed text (field names, lists, numbers).
const RESERVED_BYTES: usize = 64 * 1024;

/// The estimated tokens of `text`.
pub(super) fn tokens(text: &str) -> usize {
    ChunkOptions::default().estimate_tokens(text)
}

/// The bytes `text` takes inside a JSON string (escapes included).
fn json_bytes(text: &str) -> usize {
    serde_json::to_string(text).map_or(text.len() * 6, |json| json.len())
}

/// What is left to pack.
#[derive(Debug, Clone, Copy)]
pub(super) struct Budget {
    /// The token budget asked for.
    pub(super) max_tokens: usize,
    /// Tokens packed so far.
    pub(super) used_tokens: usize,
    bytes_left: usize,
}

impl Budget {
    /// `max_tokens` tokens, within what the byte governor lets this call return.
    pub(super) fn new(ctx: &ToolContext<'_>, max_tokens: usize) -> Budget {
        Budget {
            max_tokens,
            used_tokens: 0,
            bytes_left: ctx
                .runtime()
                .governor
                .limit()
                .saturating_sub(RESERVED_BYTES),
        }
    }

    /// Takes `texts` (one packed piece: e.g. a header and a body) if all of them fit,
    /// returning their tokens; `None` (and nothing taken) when they do not.
    pub(super) fn take(&mut self, texts: &[&str]) -> Option<usize> {
        let cost: usize = texts.iter().map(|text| tokens(text)).sum();
        let bytes: usize = texts.iter().map(|text| json_bytes(text)).sum();
        if self.used_tokens + cost > self.max_tokens || bytes > self.bytes_left {
            return None;
        }
        self.used_tokens += cost;
        self.bytes_left -= bytes;
        Some(cost)
    }
}
