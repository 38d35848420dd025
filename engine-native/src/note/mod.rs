//! One note file to what the index keeps of it: chunks with their heading breadcrumb,
//! typed links, tags (inline and frontmatter), tasks, aliases and the frontmatter, all from
//! engine-core's markdown extraction and chunking, so the plugin sees the same structure.

use engine_core::markdown::{
    Chunk, ChunkOptions, LinkSyntax, NoteMetadata, Subpath, extract, index_chunks, note_fields,
};
use serde_json::{Map, Value};

use crate::frontmatter;

/// How a link is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkKind {
    /// `[[target]]`.
    Wikilink,
    /// `![[target]]` or `![alt](target)`.
    Embed,
    /// `[text](target)` to a vault file.
    Markdown,
    /// A wikilink inside a frontmatter property value (`related: "[[Other]]"`).
    Frontmatter,
}

impl LinkKind {
    /// The stored name (`wikilink`, `embed`, `markdown`, `frontmatter`).
    pub fn as_str(self) -> &'static str {
        match self {
            LinkKind::Wikilink => "wikilink",
            LinkKind::Embed => "embed",
            LinkKind::Markdown => "markdown",
            LinkKind::Frontmatter => "frontmatter",
        }
    }
}

/// One outgoing link of a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteLink {
    /// How it is written.
    pub kind: LinkKind,
    /// The file part as written (`Folder/Other`, `Other.md`); empty for a same-note reference.
    pub target: String,
    /// `#Heading#Sub` or `#^block`, when the link points inside the note.
    pub subpath: Option<String>,
    /// The 1-based line it is on (0 for a frontmatter link).
    pub line: usize,
}

/// One task (a list item with a checkbox).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteTask {
    /// The 1-based line of the item.
    pub line: usize,
    /// The status character (`' '` open, `x` done, any other).
    pub status: char,
    /// The item's first line of text.
    pub text: String,
}

/// What the index keeps of one note.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedNote {
    /// The title: the file name without `.md`.
    pub title: String,
    /// The frontmatter properties (`{}` without frontmatter, or when it does not parse).
    pub frontmatter: Map<String, Value>,
    /// Why the frontmatter did not parse, when it did not (the body is still indexed).
    pub frontmatter_error: Option<String>,
    /// `aliases` / `alias` of the frontmatter.
    pub aliases: Vec<String>,
    /// Tag keys (lowercase, no `#`), inline and frontmatter, sorted and unique.
    pub tags: Vec<String>,
    /// Outgoing links in document order, frontmatter links last.
    pub links: Vec<NoteLink>,
    /// Tasks in document order.
    pub tasks: Vec<NoteTask>,
    /// Chunks in document order.
    pub chunks: Vec<Chunk>,
}

/// Parses the note at `path` whose text is `text`. Never fails: a frontmatter that is not
/// valid YAML is reported in [`ParsedNote::frontmatter_error`] and the body still indexed.
pub fn parse_note(path: &str, text: &str, options: &ChunkOptions) -> ParsedNote {
    let meta = extract(text);
    let (frontmatter, frontmatter_error) = match frontmatter::read(text) {
        Ok(read) => (read.properties, None),
        Err(error) => (Map::new(), Some(error.to_string())),
    };
    // Title, aliases and tags as engine-core derives them for the plugin too.
    let fields = note_fields(path, &meta, &frontmatter);
    let mut links = body_links(&meta);
    links.extend(frontmatter_links(&frontmatter));
    ParsedNote {
        title: fields.title,
        aliases: fields.aliases,
        tags: fields.tags,
        links,
        tasks: tasks(&meta),
        chunks: index_chunks(text, &meta, options),
        frontmatter,
        frontmatter_error,
    }
}

/// The file name without its `.md` extension.
pub use engine_core::markdown::title_of;

/// Links and embeds of the body, in document order.
fn body_links(meta: &NoteMetadata) -> Vec<NoteLink> {
    let links = meta.links.iter().map(|link| {
        let kind = match link.syntax {
            LinkSyntax::Wikilink => LinkKind::Wikilink,
            LinkSyntax::Markdown | LinkSyntax::Destination => LinkKind::Markdown,
        };
        (kind, link)
    });
    let embeds = meta.embeds.iter().map(|link| (LinkKind::Embed, link));
    let mut all: Vec<NoteLink> = links
        .chain(embeds)
        .map(|(kind, link)| NoteLink {
            kind,
            target: link.path.clone(),
            subpath: link.subpath.as_ref().map(subpath_text),
            line: link.position.start.line + 1,
        })
        .collect();
    all.sort_by_key(|link| link.line);
    all
}

/// `#A#B` or `#^id`.
pub(crate) fn subpath_text(subpath: &Subpath) -> String {
    match subpath {
        Subpath::Heading { headings } => headings.iter().map(|h| format!("#{h}")).collect(),
        Subpath::Block { id } => format!("#^{id}"),
    }
}

/// Wikilinks written in frontmatter string values (`up: "[[Index]]"`, lists of them).
fn frontmatter_links(properties: &Map<String, Value>) -> Vec<NoteLink> {
    let mut out = Vec::new();
    for value in properties.values() {
        for text in strings_in(value) {
            for link in extract(text).links {
                if link.syntax == LinkSyntax::Wikilink {
                    out.push(NoteLink {
                        kind: LinkKind::Frontmatter,
                        target: link.path,
                        subpath: link.subpath.as_ref().map(subpath_text),
                        line: 0,
                    });
                }
            }
        }
    }
    out
}

/// Every string in a property value (the value itself, or the strings of a list).
pub(crate) fn strings_in(value: &Value) -> Vec<&str> {
    match value {
        Value::String(text) => vec![text.as_str()],
        Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The tasks among the list items.
fn tasks(meta: &NoteMetadata) -> Vec<NoteTask> {
    meta.list_items
        .iter()
        .filter_map(|item| {
            Some(NoteTask {
                line: item.position.start.line + 1,
                status: item.task?,
                text: item.text.clone(),
            })
        })
        .collect()
}
