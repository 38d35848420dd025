//! The extraction result, modelled on Obsidian's `CachedMetadata`.
//!
//! Field names follow Obsidian's API in snake_case (`displayText` → `display_text`). Positions
//! use byte offsets into the input (Obsidian counts UTF-16 units; a host that needs those
//! converts from the byte offset).

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A location in the input, like Obsidian's `Loc`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loc {
    /// 0-based line number (lines end at `\n`; a `\r` before it belongs to the line ending).
    pub line: usize,
    /// Byte column: `offset` minus the byte offset of the start of the line.
    pub col: usize,
    /// Byte offset from the start of the input.
    pub offset: usize,
}

/// A span of the input, like Obsidian's `Pos`: `end` is exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pos {
    /// First byte of the span.
    pub start: Loc,
    /// One past the last byte of the span.
    pub end: Loc,
}

/// A half-open byte range `start..end` of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByteRange {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// The YAML frontmatter block: `---` on the first line (after an optional BOM) up to the
/// next line that is `---`. The YAML is not parsed here; hosts parse `yaml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frontmatter {
    /// The raw YAML text between the two `---` lines, without the final line break.
    pub yaml: String,
    /// Byte range of `yaml` in the input.
    pub yaml_range: ByteRange,
    /// Byte offset where the note body starts (just after the closing `---` line).
    pub body_start: usize,
    /// From the opening `---` to the end of the closing `---` (Obsidian's `frontmatterPosition`).
    pub position: Pos,
}

/// A heading, like Obsidian's `HeadingCache`. Only top-level headings count (not inside
/// blockquotes, callouts or list items): ATX (`## Title`) and setext (`Title` over `===`/`---`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heading {
    /// The heading text, trimmed, without the `#` markers or a closing `#` sequence.
    pub heading: String,
    /// 1 to 6.
    pub level: u8,
    /// The heading's lines (a setext heading includes its underline).
    pub position: Pos,
}

/// Which syntax a link is written in. [`extract`](super::extract) finds only wikilinks and
/// markdown links; a lone destination is what [`crate::links`] rewrites elsewhere (a
/// reference definition's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkSyntax {
    /// `[[target]]` or `![[target]]`.
    Wikilink,
    /// `[text](target)` or `![alt](target)`.
    Markdown,
    /// A markdown destination on its own, e.g. the `dest` of a reference definition
    /// `[ref]: dest`.
    Destination,
}

/// The part of a link after the first `#`, like the `subpath` of Obsidian's `parseLinktext`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Subpath {
    /// `#Heading#Subheading`: the heading chain, each trimmed, empty parts dropped.
    Heading {
        /// Heading texts, outermost first.
        headings: Vec<String>,
    },
    /// `#^block-id`: a block reference.
    Block {
        /// The id after `^`.
        id: String,
    },
}

/// A link or embed to a vault file, like Obsidian's `LinkCache` / `EmbedCache`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// Wikilink or markdown syntax.
    pub syntax: LinkSyntax,
    /// The destination as Obsidian records it: the wikilink text before `|`, or the markdown
    /// destination without `<>`, with backslash escapes removed and `%XX` decoded.
    pub link: String,
    /// The text exactly as written, `[[` / `![` and all.
    pub original: String,
    /// The alias after `|` of a wikilink, or the bracket text of a markdown link.
    pub display_text: Option<String>,
    /// The file part of `link` (before the first `#`); empty for a same-note reference.
    pub path: String,
    /// The heading or block reference after the first `#`, if any.
    pub subpath: Option<Subpath>,
    /// Where it is written.
    pub position: Pos,
}

/// A markdown link, image or autolink whose destination has a URI scheme (`https:`,
/// `mailto:`, `obsidian:` ...): not a vault file, so not in `links` or `embeds`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalLink {
    /// The destination as written (escapes removed, not percent-decoded).
    pub url: String,
    /// The text exactly as written.
    pub original: String,
    /// The bracket text or image alt text; `None` for an `<autolink>`.
    pub display_text: Option<String>,
    /// `true` for `![alt](url)` (an external image).
    pub embed: bool,
    /// Where it is written.
    pub position: Pos,
}

/// An inline tag, like Obsidian's `TagCache`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    /// The tag as written, with its `#` (`#Project/Alpha`).
    pub tag: String,
    /// The comparison key: lowercase, without `#` (`project/alpha`); Obsidian compares tags
    /// case-insensitively.
    pub key: String,
    /// Where it is written.
    pub position: Pos,
}

/// A block id (`^id` at the end of a block), like Obsidian's `BlockCache`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockId {
    /// The id without `^`: Latin letters, digits and `-`.
    pub id: String,
    /// The `^id` marker itself (Obsidian's `BlockCache` spans the whole block: find it in
    /// `sections` or `list_items`).
    pub position: Pos,
}

/// A list item, like Obsidian's `ListItemCache`; tasks are the items with a `task`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListItem {
    /// The list marker as written: `-`, `*`, `+`, or digits followed by `.` or `)`.
    pub marker: String,
    /// The status character of a task (`' '` open, `x` done, or any other single
    /// character such as `/`, `-`, `>`); `None` for a plain item.
    pub task: Option<char>,
    /// The first line of the item after the marker (and checkbox), trimmed.
    pub text: String,
    /// Index in `list_items` of the parent item (Obsidian records its line instead).
    pub parent: Option<usize>,
    /// The block id ending the item, if any.
    pub id: Option<String>,
    /// From the marker line to the end of the item's own content (children excluded).
    pub position: Pos,
}

/// How a callout is folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CalloutFold {
    /// `[!type]+`: foldable, open by default.
    Expanded,
    /// `[!type]-`: foldable, closed by default.
    Collapsed,
}

/// A callout: a blockquote whose first line starts with `[!type]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Callout {
    /// The type identifier, lowercased (Obsidian matches types case-insensitively).
    pub callout_type: String,
    /// What follows a `|` inside the brackets (`[!note|wide]` → `wide`), if any.
    pub metadata: Option<String>,
    /// `+` or `-` right after the brackets.
    pub fold: Option<CalloutFold>,
    /// The title text after the brackets, trimmed; `None` when absent (Obsidian then shows
    /// the type in title case).
    pub title: Option<String>,
    /// Blockquote nesting level: 1 for `> [!x]`, 2 for `> > [!x]`.
    pub depth: usize,
    /// From the first line of the callout to the end of its last line.
    pub position: Pos,
}

/// The kind of a top-level block, named as Obsidian's `SectionCache.type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SectionType {
    /// The frontmatter.
    Yaml,
    /// An ATX or setext heading.
    Heading,
    /// A paragraph.
    Paragraph,
    /// A list (all its items and their content).
    List,
    /// A blockquote that is not a callout.
    Blockquote,
    /// A callout.
    Callout,
    /// A fenced or indented code block.
    Code,
    /// A paragraph that opens with `$$`.
    Math,
    /// A paragraph that opens with `%%`.
    Comment,
    /// An HTML block, or a paragraph that opens with `<!--`.
    Html,
    /// A table.
    Table,
    /// A thematic break (`---`, `***`, `___`).
    ThematicBreak,
}

/// A top-level block, like Obsidian's `SectionCache`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// The block kind (serialized as `type`, like Obsidian).
    #[serde(rename = "type")]
    pub section_type: SectionType,
    /// From the first line to the end of the last non-blank line of the block.
    pub position: Pos,
}

/// Everything [`extract`](super::extract) finds in one note. Every list is in document order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NoteMetadata {
    /// The frontmatter block, if the note starts with one.
    pub frontmatter: Option<Frontmatter>,
    /// Top-level headings.
    pub headings: Vec<Heading>,
    /// Links to vault files (`[[...]]`, `[...](...)` without a URI scheme).
    pub links: Vec<Link>,
    /// Embeds of vault files (`![[...]]`, `![...](...)` without a URI scheme).
    pub embeds: Vec<Link>,
    /// Markdown links, images and autolinks with a URI scheme.
    pub external_links: Vec<ExternalLink>,
    /// Inline tags (frontmatter `tags` are the host's to read from the YAML).
    pub tags: Vec<Tag>,
    /// Block ids.
    pub blocks: Vec<BlockId>,
    /// List items, tasks included.
    pub list_items: Vec<ListItem>,
    /// Callouts, nested ones included.
    pub callouts: Vec<Callout>,
    /// Top-level blocks.
    pub sections: Vec<Section>,
}
