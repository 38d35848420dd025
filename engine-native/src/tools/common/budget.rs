//! The budget a context tool packs to: estimated tokens (engine-core's chunker estimate,
//! characters per token rounded up) and the bytes the response may still take under the
//! byte governor, so a packed answer is never refused with `overflow`; and a text cut to a
//! number of JSON bytes.

use engine_core::markdown::ChunkOptions;

use crate::runtime::ToolContext;

/// Bytes of every response kept for what is not packed text (field names, lists, numbers).
const RESERVED_BYTES: usize = 64 * 1024;

/// The estimated tokens of `text`.
pub(crate) fn tokens(text: &str) -> usize {
    ChunkOptions::default().estimate_tokens(text)
}

/// The bytes `text` takes inside a JSON string (escapes included).
pub(crate) fn json_bytes(text: &str) -> usize {
    serde_json::to_string(text).map_or(text.len() * 6, |json| json.len())
}

/// The bytes of packed text a response may carry under the byte governor (its limit less
/// [`RESERVED_BYTES`]).
pub(crate) fn response_bytes(ctx: &ToolContext<'_>) -> usize {
    ctx.runtime()
        .governor
        .limit()
        .saturating_sub(RESERVED_BYTES)
}

/// The bytes `c` takes inside a JSON string, as serde_json writes it.
fn json_char_bytes(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        c if c < ' ' => 6,
        c => c.len_utf8(),
    }
}

/// The longest start of `text` that takes at most `room` bytes inside a JSON string (quotes
/// left out), ended at a line break when one falls in its second half, else at a character
/// boundary.
pub(crate) fn clip_json(text: &str, room: usize) -> &str {
    let mut used = 0;
    let mut end = text.len();
    for (at, c) in text.char_indices() {
        used += json_char_bytes(c);
        if used > room {
            end = at;
            break;
        }
    }
    let clipped = &text[..end];
    match clipped.rfind('\n') {
        Some(line) if end < text.len() && line + 1 > end / 2 => &clipped[..=line],
        _ => clipped,
    }
}

/// What is left to pack.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    /// The token budget asked for.
    pub(crate) max_tokens: usize,
    /// Tokens packed so far.
    pub(crate) used_tokens: usize,
    bytes_left: usize,
}

impl Budget {
    /// `max_tokens` tokens, within what the byte governor lets this call return.
    pub(crate) fn new(ctx: &ToolContext<'_>, max_tokens: usize) -> Budget {
        Budget {
            max_tokens,
            used_tokens: 0,
            bytes_left: response_bytes(ctx),
        }
    }

    /// Takes `texts` (one packed piece: e.g. a header and a body) if all of them fit,
    /// returning their tokens; `None` (and nothing taken) when they do not.
    pub(crate) fn take(&mut self, texts: &[&str]) -> Option<usize> {
        let cost: usize = texts.iter().map(|text| tokens(text)).sum();
        let bytes: usize = texts.iter().map(|text| json_bytes(text)).sum();
        if self.used_tokens + cost > self.max_tokens || bytes > self.bytes_left {
            return None;
        }
        self.used_tokens += cost;
        self.bytes_left -= bytes;
        Some(cost)
    }

    /// Takes the longest start of `text` that fits what is left (all of it when it fits;
    /// else cut as [`clip_json`] cuts, at most the characters of the tokens left) and
    /// returns it.
    pub(crate) fn take_start<'t>(&mut self, text: &'t str) -> &'t str {
        let options = ChunkOptions::default();
        let tokens_left = self.max_tokens.saturating_sub(self.used_tokens);
        let chars = tokens_left.saturating_mul(options.chars_per_token());
        let by_chars = text
            .char_indices()
            .nth(chars)
            .map_or(text, |(at, _)| &text[..at]);
        let start = clip_json(by_chars, self.bytes_left.saturating_sub(2));
        self.used_tokens += tokens(start);
        self.bytes_left = self.bytes_left.saturating_sub(json_bytes(start));
        start
    }
}
