//! `list_tags`, `get_note_tags` and `find_notes_by_tag`.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::{FindByTag, ListTags, NoteTagsArgs};
use super::cache::readable_note_tags;
use super::parse::{WrittenTag, is_under, key_of, read_tags};
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::tool_error_from_vault;
use engine_core::acl::AclOp;

/// One tag of the vault.
#[derive(Debug, Default, Serialize, JsonSchema)]
pub(super) struct TagUsage {
    /// The key: lowercase, no `#` (`project/alpha`).
    pub tag: String,
    /// The spelling first met, in path order.
    pub display: String,
    /// Notes carrying exactly this tag.
    pub notes: usize,
    /// Times it is written (frontmatter items plus inline occurrences).
    pub occurrences: usize,
    /// Notes carrying it in the frontmatter.
    pub frontmatter_notes: usize,
    /// Notes carrying it inline.
    pub inline_notes: usize,
    /// Notes carrying it or a tag nested under it (`project` counts `project/alpha`).
    pub rollup_notes: usize,
}

/// The result of `list_tags`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct TagList {
    /// Tags by key; a parent used only through nested tags is listed with `notes: 0`.
    pub tags: Vec<TagUsage>,
    /// Tags in all (more than listed when `limit` cut the list).
    pub total_count: usize,
    /// Readable notes read.
    pub notes_scanned: usize,
    /// Notes whose frontmatter is not valid YAML (their inline tags are counted).
    pub invalid_frontmatter: Vec<String>,
}

/// The result of `get_note_tags`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct NoteTagList {
    /// The note's path.
    pub path: String,
    /// Every tag key of the note, sorted.
    pub tags: Vec<String>,
    /// The tags of the frontmatter `tags` / `tag` property, in order.
    pub frontmatter: Vec<WrittenTag>,
    /// The inline tags of the body, in order, with their lines.
    pub inline: Vec<WrittenTag>,
    /// The note's SHA-256, for `expected_sha256`.
    pub sha256: String,
}

/// One note of `find_notes_by_tag`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct TaggedMatch {
    /// The note's path.
    pub path: String,
    /// Its tag keys that matched.
    pub matched: Vec<String>,
}

/// The result of `find_notes_by_tag`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct TagMatches {
    /// The tag searched, as a key.
    pub tag: String,
    /// Matching notes by path.
    pub notes: Vec<TaggedMatch>,
    /// Matching notes in all.
    pub total_count: usize,
}

/// The tag key and its parents (`a/b/c` gives `a`, `a/b`, `a/b/c`).
fn with_parents(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut at = String::new();
    for segment in key.split('/') {
        if !at.is_empty() {
            at.push('/');
        }
        at.push_str(segment);
        out.push(at.clone());
    }
    out
}

/// Every tag of the readable notes with its counts (see [`TagUsage`]).
pub(super) fn list_tags(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListTags = parse(args)?;
    let notes = readable_note_tags(ctx, args.folder.as_deref())?;
    let mut usage: BTreeMap<String, TagUsage> = BTreeMap::new();
    let mut invalid_frontmatter = Vec::new();
    for note in &notes {
        if note.parsed.frontmatter_error.is_some() {
            invalid_frontmatter.push(note.path.clone());
        }
        let mut carried = BTreeSet::new();
        let mut frontmatter = BTreeSet::new();
        let mut inline = BTreeSet::new();
        let tags = &note.parsed.tags;
        let written = tags
            .frontmatter
            .iter()
            .map(|t| (t, true))
            .chain(tags.inline.iter().map(|t| (&t.written, false)));
        for (tag, in_frontmatter) in written {
            let entry = usage.entry(tag.key.clone()).or_default();
            if entry.display.is_empty() {
                entry.display.clone_from(&tag.tag);
            }
            entry.occurrences += 1;
            carried.insert(tag.key.clone());
            if in_frontmatter {
                frontmatter.insert(tag.key.clone());
            } else {
                inline.insert(tag.key.clone());
            }
        }
        let mut rolled = BTreeSet::new();
        for key in &carried {
            usage.entry(key.clone()).or_default().notes += 1;
            rolled.extend(with_parents(key));
        }
        for key in &frontmatter {
            usage.entry(key.clone()).or_default().frontmatter_notes += 1;
        }
        for key in &inline {
            usage.entry(key.clone()).or_default().inline_notes += 1;
        }
        for key in rolled {
            let entry = usage.entry(key.clone()).or_default();
            if entry.display.is_empty() {
                entry.display.clone_from(&key);
            }
            entry.rollup_notes += 1;
        }
    }
    let total_count = usage.len();
    let tags = usage
        .into_iter()
        .take(args.limit)
        .map(|(tag, usage)| TagUsage { tag, ..usage })
        .collect();
    structured(&TagList {
        tags,
        total_count,
        notes_scanned: notes.len(),
        invalid_frontmatter,
    })
}

/// The tags of one note, frontmatter and inline apart.
pub(super) fn get_note_tags(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: NoteTagsArgs = parse(args)?;
    let note = read_text(ctx.vault(), &args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let tags =
        read_tags(&note.text).map_err(|error| tool_error_from_frontmatter(&error, &note.path))?;
    structured(&NoteTagList {
        tags: tags.keys(),
        inline: tags.inline.into_iter().map(|t| t.written).collect(),
        frontmatter: tags.frontmatter,
        path: note.path,
        sha256: note.sha256,
    })
}

/// The readable notes carrying a tag (or, unless `exact`, a tag nested under it).
pub(super) fn find_notes_by_tag(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: FindByTag = parse(args)?;
    let tag = key_of(&args.tag);
    let notes = readable_note_tags(ctx, args.folder.as_deref())?;
    let matches: Vec<TaggedMatch> = notes
        .iter()
        .filter_map(|note| {
            let matched: Vec<String> = note
                .parsed
                .tags
                .keys()
                .into_iter()
                .filter(|key| {
                    if args.exact {
                        *key == tag
                    } else {
                        is_under(key, &tag)
                    }
                })
                .collect();
            (!matched.is_empty()).then(|| TaggedMatch {
                path: note.path.clone(),
                matched,
            })
        })
        .collect();
    let total_count = matches.len();
    structured(&TagMatches {
        tag,
        notes: matches.into_iter().take(args.limit).collect(),
        total_count,
    })
}
