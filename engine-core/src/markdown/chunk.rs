//! Chunking a note by headings under a token budget, after the original's rules: split at
//! every heading (the top-level headings [`extract`](super::extract) reports, so never inside
//! code), each chunk carrying its heading breadcrumb (root first; text before the first
//! heading gets `[]`); a section over budget is split between its blocks (paragraphs, code
//! blocks, tables, top-level list items ...), and a block over budget is hard-split on
//! grapheme boundaries (on char boundaries inside a grapheme longer than the budget).
//! Chunks never overlap, never include the frontmatter, and are trimmed of whitespace.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation;

use super::frontmatter::bom_len;
use super::types::{ByteRange, NoteMetadata, SectionType};

/// Chunking parameters: the token budget and the token estimate (`ceil(chars / chars_per_token)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawChunkOptions")]
pub struct ChunkOptions {
    max_tokens: usize,
    chars_per_token: usize,
}

/// The unchecked form of [`ChunkOptions`], as it arrives from serde.
#[derive(Deserialize)]
struct RawChunkOptions {
    max_tokens: usize,
    chars_per_token: usize,
}

impl TryFrom<RawChunkOptions> for ChunkOptions {
    type Error = ChunkOptionsError;

    fn try_from(raw: RawChunkOptions) -> Result<Self, Self::Error> {
        Self::new(raw.max_tokens, raw.chars_per_token)
    }
}

/// Why chunking parameters were refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkOptionsError {
    /// `max_tokens` is 0: no chunk could hold anything.
    ZeroMaxTokens,
    /// `chars_per_token` is 0: the estimate would divide by zero.
    ZeroCharsPerToken,
}

impl fmt::Display for ChunkOptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::ZeroMaxTokens => "max_tokens must be at least 1",
            Self::ZeroCharsPerToken => "chars_per_token must be at least 1",
        })
    }
}

impl ChunkOptions {
    /// The original's default budget: 512 tokens.
    pub const DEFAULT_MAX_TOKENS: usize = 512;
    /// The original's default estimate: 4 chars per token.
    pub const DEFAULT_CHARS_PER_TOKEN: usize = 4;

    /// Checked options.
    pub fn new(max_tokens: usize, chars_per_token: usize) -> Result<Self, ChunkOptionsError> {
        match (max_tokens, chars_per_token) {
            (0, _) => Err(ChunkOptionsError::ZeroMaxTokens),
            (_, 0) => Err(ChunkOptionsError::ZeroCharsPerToken),
            _ => Ok(Self {
                max_tokens,
                chars_per_token,
            }),
        }
    }

    /// The token budget of a chunk.
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// Chars (Unicode scalar values) per estimated token.
    pub fn chars_per_token(&self) -> usize {
        self.chars_per_token
    }

    /// The estimated tokens of `text`: its chars divided by `chars_per_token`, rounded up.
    pub fn estimate_tokens(&self, text: &str) -> usize {
        text.chars().count().div_ceil(self.chars_per_token)
    }

    /// The most chars a chunk may hold.
    fn max_chars(&self) -> usize {
        self.max_tokens.saturating_mul(self.chars_per_token)
    }
}

impl Default for ChunkOptions {
    fn default() -> Self {
        Self {
            max_tokens: Self::DEFAULT_MAX_TOKENS,
            chars_per_token: Self::DEFAULT_CHARS_PER_TOKEN,
        }
    }
}

/// One chunk of a note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chunk {
    /// Position in the note's chunk list, from 0.
    pub index: usize,
    /// Which heading section it comes from, counting the sections that have chunks, from 0.
    pub section: usize,
    /// Which part of its section it is, from 0 (more than one when the section was split).
    pub part: usize,
    /// The heading texts leading to it, outermost first; `[]` before the first heading.
    pub headings: Vec<String>,
    /// Its bytes in the note.
    pub range: ByteRange,
    /// Its text (`range` of the note).
    pub text: String,
    /// Its estimated tokens.
    pub tokens: usize,
}

/// Chunks a note whose metadata was already extracted from `text`.
pub fn chunk_extracted(text: &str, meta: &NoteMetadata, options: &ChunkOptions) -> Vec<Chunk> {
    let body_start = meta
        .frontmatter
        .as_ref()
        .map_or_else(|| bom_len(text), |fm| fm.body_start);
    let mut builder = Builder {
        text,
        options,
        chunks: Vec::new(),
        section: 0,
    };
    let cuts = block_starts(meta, body_start);
    let mut breadcrumb: Vec<(u8, &str)> = Vec::new();
    let mut start = body_start;
    let mut headings = meta.headings.iter().peekable();
    loop {
        let end = headings
            .peek()
            .map_or(text.len(), |h| h.position.start.offset);
        let names: Vec<String> = breadcrumb
            .iter()
            .map(|(_, name)| name.to_string())
            .collect();
        builder.section(start, end, &cuts, &names);
        let Some(heading) = headings.next() else {
            break;
        };
        while breadcrumb
            .last()
            .is_some_and(|(level, _)| *level >= heading.level)
        {
            breadcrumb.pop();
        }
        breadcrumb.push((heading.level, heading.heading.as_str()));
        start = end;
    }
    builder.chunks
}

/// The chunks a note is searched by: [`chunk_extracted`]'s, or, for a note with no text past
/// its frontmatter, one chunk holding the frontmatter's YAML (empty without one), so that every
/// note can be found by its title, aliases, tags and properties. The server and TC Bridge
/// both index these.
pub fn index_chunks(text: &str, meta: &NoteMetadata, options: &ChunkOptions) -> Vec<Chunk> {
    let chunks = chunk_extracted(text, meta, options);
    if !chunks.is_empty() {
        return chunks;
    }
    let range = meta.frontmatter.as_ref().map_or_else(
        || {
            let at = bom_len(text);
            ByteRange { start: at, end: at }
        },
        |fm| fm.yaml_range,
    );
    let yaml = text[range.start..range.end].to_string();
    alloc::vec![Chunk {
        index: 0,
        section: 0,
        part: 0,
        headings: Vec::new(),
        range,
        tokens: options.estimate_tokens(&yaml),
        text: yaml,
    }]
}

/// Where blocks start: every section after the frontmatter and every top-level list item
/// (at the start of its line).
fn block_starts(meta: &NoteMetadata, body_start: usize) -> Vec<usize> {
    let lists: Vec<(usize, usize)> = meta
        .sections
        .iter()
        .filter(|s| s.section_type == SectionType::List)
        .map(|s| (s.position.start.offset, s.position.end.offset))
        .collect();
    let in_list = |at: usize| {
        let i = lists.partition_point(|&(start, _)| start <= at);
        i > 0 && at <= lists[i - 1].1
    };
    let mut cuts: Vec<usize> = meta
        .sections
        .iter()
        .filter(|s| s.section_type != SectionType::Yaml)
        .map(|s| s.position.start.offset)
        .chain(
            meta.list_items
                .iter()
                .filter(|item| item.parent.is_none())
                .map(|item| item.position.start.offset - item.position.start.col)
                .filter(|&line_start| in_list(line_start)),
        )
        .filter(|&at| at >= body_start)
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

struct Builder<'t, 'o> {
    text: &'t str,
    options: &'o ChunkOptions,
    chunks: Vec<Chunk>,
    section: usize,
}

impl Builder<'_, '_> {
    /// Chunks the heading section `start..end`, cutting it at block starts when over budget.
    fn section(&mut self, start: usize, end: usize, cuts: &[usize], headings: &[String]) {
        let (first, last) = self.trim(start, end);
        if first == last {
            return;
        }
        let before = self.chunks.len();
        let max = self.options.max_chars();
        if self.text[first..last].chars().count() <= max {
            self.emit(first, last, headings);
        } else {
            let inner =
                &cuts[cuts.partition_point(|&c| c <= start)..cuts.partition_point(|&c| c < end)];
            let bounds = core::iter::once(start)
                .chain(inner.iter().copied())
                .chain(core::iter::once(end));
            let mut open: Option<(usize, usize, usize)> = None;
            let mut unit_start = start;
            for unit_end in bounds.skip(1) {
                let (us, ue) = self.trim(unit_start, unit_end);
                unit_start = unit_end;
                if us == ue {
                    continue;
                }
                let unit_chars = self.text[us..ue].chars().count();
                if let Some((os, oe, chars)) = open {
                    let joined = chars + self.text[oe..us].chars().count() + unit_chars;
                    if joined <= max {
                        open = Some((os, ue, joined));
                        continue;
                    }
                    self.emit(os, oe, headings);
                    open = None;
                }
                if unit_chars <= max {
                    open = Some((us, ue, unit_chars));
                } else {
                    self.hard_split(us, ue, headings);
                }
            }
            if let Some((os, oe, _)) = open {
                self.emit(os, oe, headings);
            }
        }
        if self.chunks.len() > before {
            self.section += 1;
        }
    }

    /// Splits `start..end` into pieces of at most the budget, on grapheme boundaries.
    fn hard_split(&mut self, start: usize, end: usize, headings: &[String]) {
        let max = self.options.max_chars();
        let mut piece = start;
        let mut chars = 0;
        for (offset, grapheme) in self.text[start..end].grapheme_indices(true) {
            let at = start + offset;
            let count = grapheme.chars().count();
            if chars + count > max && chars > 0 {
                self.emit_trimmed(piece, at, headings);
                piece = at;
                chars = 0;
            }
            if count <= max {
                chars += count;
                continue;
            }
            for (char_offset, _) in grapheme.char_indices() {
                if chars == max {
                    self.emit_trimmed(piece, at + char_offset, headings);
                    piece = at + char_offset;
                    chars = 0;
                }
                chars += 1;
            }
        }
        self.emit_trimmed(piece, end, headings);
    }

    fn emit_trimmed(&mut self, start: usize, end: usize, headings: &[String]) {
        let (start, end) = self.trim(start, end);
        if start < end {
            self.emit(start, end, headings);
        }
    }

    fn emit(&mut self, start: usize, end: usize, headings: &[String]) {
        let text = self.text[start..end].to_string();
        let part = self
            .chunks
            .last()
            .filter(|c| c.section == self.section)
            .map_or(0, |c| c.part + 1);
        self.chunks.push(Chunk {
            index: self.chunks.len(),
            section: self.section,
            part,
            headings: headings.to_vec(),
            range: ByteRange { start, end },
            tokens: self.options.estimate_tokens(&text),
            text,
        });
    }

    /// `start..end` without leading and trailing whitespace (and byte order marks).
    fn trim(&self, start: usize, end: usize) -> (usize, usize) {
        let slice = &self.text[start..end];
        let is_space = |c: char| c.is_whitespace() || c == '\u{feff}';
        let first = start + (slice.len() - slice.trim_start_matches(is_space).len());
        let last = start + slice.trim_end_matches(is_space).len();
        (first, last.max(first))
    }
}

#[cfg(test)]
mod tests {
    use super::super::extract;
    use super::*;
    use alloc::vec;

    fn chunks(text: &str, max_tokens: usize) -> Vec<(Vec<String>, String)> {
        let options = ChunkOptions::new(max_tokens, 4).unwrap();
        chunk_extracted(text, &extract(text), &options)
            .into_iter()
            .map(|c| (c.headings, c.text))
            .collect()
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn options_refuse_zero() {
        assert_eq!(
            ChunkOptions::new(0, 4),
            Err(ChunkOptionsError::ZeroMaxTokens)
        );
        assert_eq!(
            ChunkOptions::new(1, 0),
            Err(ChunkOptionsError::ZeroCharsPerToken)
        );
        assert_eq!(ChunkOptions::default().estimate_tokens("abcde"), 2);
        assert_eq!(
            ChunkOptions::new(usize::MAX, usize::MAX)
                .unwrap()
                .max_chars(),
            usize::MAX
        );
    }

    #[test]
    fn splits_at_headings_with_breadcrumbs() {
        let text = "---\nk: v\n---\nintro\n# A\na\n## B\nb\n```\n# not\n```\n# C\n";
        assert_eq!(
            chunks(text, 512),
            vec![
                (names(&[]), "intro".into()),
                (names(&["A"]), "# A\na".into()),
                (names(&["A", "B"]), "## B\nb\n```\n# not\n```".into()),
                (names(&["C"]), "# C".into()),
            ]
        );
    }

    #[test]
    fn over_budget_sections_split_between_blocks_then_hard() {
        let text = "aaaa\n\nbbbb\n\ncccccccccccc";
        assert_eq!(
            chunks(text, 3),
            vec![
                (names(&[]), "aaaa\n\nbbbb".into()),
                (names(&[]), "cccccccccccc".into())
            ]
        );
        let split = chunks("abcdefghij", 1);
        assert_eq!(
            split.iter().map(|c| c.1.as_str()).collect::<Vec<_>>(),
            ["abcd", "efgh", "ij"]
        );
    }

    #[test]
    fn hard_splits_keep_graphemes_together() {
        let text = "e\u{301}e\u{301}e\u{301}";
        let options = ChunkOptions::new(1, 2).unwrap();
        let pieces: Vec<String> = chunk_extracted(text, &extract(text), &options)
            .into_iter()
            .map(|c| c.text)
            .collect();
        assert_eq!(pieces, ["e\u{301}", "e\u{301}", "e\u{301}"]);
        let long = "e\u{301}\u{301}\u{301}";
        let pieces: Vec<String> = chunk_extracted(long, &extract(long), &options)
            .into_iter()
            .map(|c| c.text)
            .collect();
        assert_eq!(pieces, ["e\u{301}", "\u{301}\u{301}"]);
    }
}
