//! Exports for [`engine_core::markdown`]: a note's Obsidian metadata and its chunks.

use engine_core::markdown::{self, Chunk, ChunkOptions, NoteMetadata};
use serde::{Deserialize, Serialize};

use super::ApiError;

/// Input of [`extract_markdown`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractMarkdownInput {
    /// The note's full text, frontmatter included.
    pub text: String,
}

/// Extracts a note's frontmatter span, headings, links, embeds, external links, tags,
/// block ids, list items, callouts and sections (see [`markdown::extract`]). An unknown
/// field is an `invalid_input` error.
pub fn extract_markdown(input: ExtractMarkdownInput) -> Result<NoteMetadata, ApiError> {
    Ok(markdown::extract(&input.text))
}

/// Input of [`chunk_markdown`].
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChunkMarkdownInput {
    /// The note's full text, frontmatter included (it is left out of every chunk).
    pub text: String,
    /// Token budget of a chunk (default 512).
    #[serde(default = "default_max_tokens")]
    pub max_tokens: usize,
    /// Chars per estimated token (default 4).
    #[serde(default = "default_chars_per_token")]
    pub chars_per_token: usize,
}

fn default_max_tokens() -> usize {
    ChunkOptions::DEFAULT_MAX_TOKENS
}

fn default_chars_per_token() -> usize {
    ChunkOptions::DEFAULT_CHARS_PER_TOKEN
}

/// Output of [`chunk_markdown`].
#[derive(Debug, Clone, Serialize)]
pub struct ChunkMarkdownOutput {
    /// The chunks in document order.
    pub chunks: Vec<Chunk>,
}

/// Cuts a note into chunks by headings under a token budget (see [`markdown::chunk`]).
/// A zero `max_tokens` or `chars_per_token`, or an unknown field, is an `invalid_input` error.
pub fn chunk_markdown(input: ChunkMarkdownInput) -> Result<ChunkMarkdownOutput, ApiError> {
    let options = ChunkOptions::new(input.max_tokens, input.chars_per_token)
        .map_err(|e| ApiError::invalid_input(e.to_string()))?;
    Ok(ChunkMarkdownOutput {
        chunks: markdown::chunk(&input.text, &options),
    })
}
