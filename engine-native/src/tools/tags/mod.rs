//! Tag tools (domain `metadata`). Tags are read like Obsidian reads them: the frontmatter
//! `tags` / `tag` property and inline `#tags` of the body (engine-core's extraction),
//! compared case-insensitively; `a/b` is nested under `a`.
//!
//! - `list_tags`: every tag with note and occurrence counts, frontmatter vs inline, and a
//!   hierarchical rollup.
//! - `get_note_tags`: one note's tags, frontmatter and inline (with lines) apart.
//! - `find_notes_by_tag`: notes carrying a tag or (by default) a tag nested under it.
//! - `add_tag`, `remove_tag`: one note's tags edited; every other byte kept.
//! - `rename_tag`: a tag and its nested tags renamed vault-wide, dry run by default, all or
//!   nothing.
//!
//! The vault-wide tools read only notes the caller may read (checked before reading);
//! `list_tags` and `find_notes_by_tag` keep each note's parsed tags in memory, checked
//! against the file's stamp on every call (see `cache`).

mod args;
mod cache;
mod edit;
mod parse;
mod read;
mod rename;
mod scan;
mod write;

use crate::runtime::{Handler, Naming, PathArg, Schemas, ToolDef};
use crate::tools::common::args::{PATH_READ, PATH_READ_WRITE, input_schema};
use crate::tools::common::structured::output_schema;

/// A tag tool of domain `metadata`.
fn tool(
    naming: Naming,
    keywords: &'static [&'static str],
    schemas: Schemas,
    scopes: &'static [&'static str],
    idempotency: bool,
    path_args: &'static [PathArg],
    handler: Handler,
) -> ToolDef {
    ToolDef::new(naming, "metadata", schemas, handler)
        .keywords(keywords)
        .scopes(scopes)
        .idempotent(idempotency)
        .paths(path_args)
}

/// The tag tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            (
                "list_tags",
                "List tags",
                "Every tag of the vault (frontmatter and inline) with how many notes carry it, how often it is written, frontmatter vs inline, and rollup_notes counting nested tags (#a counts #a/b).",
            ),
            &[
                "tags",
                "hashtags",
                "labels",
                "categories",
                "tag counts",
                "all tags",
                "tags used",
                "tags in use",
            ],
            (
                input_schema::<args::ListTags>(),
                output_schema::<read::TagList>(),
            ),
            &["read:notes"],
            false,
            &[],
            read::list_tags,
        ),
        tool(
            (
                "get_note_tags",
                "Get note tags",
                "All #tags of one file: the frontmatter tags and the inline #tags (with their lines) apart, and every tag key once.",
            ),
            &[
                "tags on",
                "tags of a note",
                "which tags does",
                "tags of note",
                "tags on this note",
                "hashtags",
                "labels",
                "note's tags",
            ],
            (
                input_schema::<args::NoteTagsArgs>(),
                output_schema::<read::NoteTagList>(),
            ),
            &["read:notes"],
            false,
            PATH_READ,
            read::get_note_tags,
        ),
        tool(
            (
                "find_notes_by_tag",
                "Find notes by tag",
                "Find all notes carrying a tag, case-insensitively; by default hierarchical (#parent matches #parent/child), exact for the tag alone.",
            ),
            &[
                "everything tagged",
                "with the tag",
                "tagged",
                "with tag",
                "hashtag",
                "label",
                "category",
                "notes tagged",
                "notes with tag",
            ],
            (
                input_schema::<args::FindByTag>(),
                output_schema::<read::TagMatches>(),
            ),
            &["read:notes"],
            false,
            &[],
            read::find_notes_by_tag,
        ),
        tool(
            (
                "add_tag",
                "Add tag",
                "Add a #tag to one file: to the frontmatter tags list (default) or inline as #tag at the end of the body. Keeps every other byte; dry_run previews the diff; expected_sha256 refuses a stale edit.",
            ),
            &[
                "tag with",
                "tag a note",
                "tag note",
                "label",
                "hashtag",
                "categorize",
                "add tag",
                "tag as",
                "apply tag",
            ],
            (
                input_schema::<args::AddTag>(),
                output_schema::<write::TagEdit>(),
            ),
            &["write:notes"],
            true,
            PATH_READ_WRITE,
            write::add_tag,
        ),
        tool(
            (
                "remove_tag",
                "Remove tag",
                "Remove a #tag from one file: from the frontmatter, the body (every #tag occurrence) or both (default); nested tags are kept. dry_run previews the diff.",
            ),
            &[
                "untag",
                "delete tag",
                "hashtag",
                "label",
                "strip tag",
                "take off tag",
            ],
            (
                input_schema::<args::RemoveTag>(),
                output_schema::<write::TagEdit>(),
            ),
            &["write:notes"],
            true,
            PATH_READ_WRITE,
            write::remove_tag,
        ),
        tool(
            (
                "rename_tag",
                "Rename tag",
                "Rename a tag across the vault, nested tags included (#a/b becomes #new/b), in frontmatter and inline. dry_run (default true) lists the files that would change; dry_run false applies it (the user confirms the list first), all or nothing.",
            ),
            &[
                "rename tag",
                "merge tags",
                "retag",
                "hashtag",
                "refactor tags",
                "change tag",
                "everywhere",
            ],
            (
                input_schema::<args::RenameTag>(),
                output_schema::<rename::TagRenamed>(),
            ),
            &["write:notes"],
            true,
            &[],
            rename::rename_tag,
        ),
    ]
}
