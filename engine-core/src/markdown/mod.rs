//! Obsidian-flavoured markdown: what a note contains ([`extract`]) and how it is cut into
//! chunks for search ([`chunk`]).
//!
//! [`extract`] is modelled on Obsidian's `CachedMetadata`: frontmatter span, headings,
//! links and embeds (wikilinks and markdown links, with heading and block references),
//! external links, tags, block ids, list items and tasks, callouts and top-level sections,
//! each with a `{line, col, offset}` position in bytes.
//!
//! Nothing is extracted from code (fenced with backticks or tildes, unclosed fences running
//! to the end; indented; inline code spans of any backtick count), comments (`%%...%%`,
//! `<!--...-->`, inline or multi-line; an unclosed `%%` runs to the end), math
//! (`$$...$$` blocks and inline `$...$`) and HTML blocks. Lines end at `\n` (a `\r` before
//! it belongs to the line ending); a leading byte order mark is skipped. Both functions are
//! total: any input gives a result, in time linear in its length (up to a log factor).

mod block_ids;
mod callouts;
mod chunk;
mod code;
mod frontmatter;
mod headings;
mod inline;
mod lines;
mod links;
mod lists;
mod mask;
mod note_fields;
mod note_text;
mod parser;
mod position;
mod reading;
mod sections;
pub(crate) mod syntax;
mod tags;
mod types;

pub use chunk::{Chunk, ChunkOptions, ChunkOptionsError, chunk_extracted, index_chunks};
pub use note_fields::{NoteFields, note_fields, title_of};
pub use note_text::{LineEnding, NoteText, file_text, note_text};
pub use reading::reading_text;
pub use types::{
    BlockId, ByteRange, Callout, CalloutFold, ExternalLink, Frontmatter, Heading, Link, LinkSyntax,
    ListItem, Loc, NoteMetadata, Pos, Section, SectionType, Subpath, Tag,
};

use position::LineIndex;
use sections::Sections;

/// Extracts the metadata of one note. Never fails and never panics.
pub fn extract(text: &str) -> NoteMetadata {
    let index = LineIndex::new(text);
    let lines = lines::split_lines(text, frontmatter::bom_len(text));
    let frontmatter = frontmatter::find(text, &lines, &index);
    let mut sections = Sections::default();
    let body = match &frontmatter {
        Some(fm) => {
            let start = fm.position.start.offset;
            sections.open(SectionType::Yaml, start, fm.position.end.offset, &index);
            lines.partition_point(|line| line.start < fm.body_start)
        }
        None => 0,
    };
    let meta = NoteMetadata {
        frontmatter,
        ..NoteMetadata::default()
    };
    parser::parse(text, &index, &lines[body..], meta, sections)
}

/// The frontmatter block of one note, found exactly as [`extract`] finds it, without
/// parsing the body (for callers that need only the properties).
pub fn frontmatter_of(text: &str) -> Option<Frontmatter> {
    let index = LineIndex::new(text);
    let lines = lines::split_lines(text, frontmatter::bom_len(text));
    frontmatter::find(text, &lines, &index)
}

/// Cuts one note into chunks by headings under the token budget of `options` (see
/// [`chunk_extracted`] when the metadata is already at hand).
pub fn chunk(text: &str, options: &ChunkOptions) -> alloc::vec::Vec<Chunk> {
    chunk_extracted(text, &extract(text), options)
}
