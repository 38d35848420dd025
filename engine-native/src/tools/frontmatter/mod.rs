//! Frontmatter tools: `read_frontmatter`, `read_property`, `update_frontmatter`,
//! `list_properties`, `find_notes_by_property`, and `audit_provenance` (the original
//! obsidian-tc's sources audit, over the frontmatter the index keeps).
//!
//! Errors: a block that is not valid YAML, not a mapping, an unusable property name, a
//! value YAML cannot hold exactly, or a layout that cannot be edited line by line is
//! `invalid_input` with `details.frontmatter_code` (and `details.line` for invalid YAML).
//! The list tools never fail on such a note: they report it under `invalid`. They show
//! only notes the caller may read under the vault's folder ACL, checked note by note.

mod args;
mod errors;
mod page;
mod provenance;
mod read;
mod results;
mod survey;
mod update;

use crate::runtime::ToolDef;
use crate::tools::common::args::input_schema;
use crate::tools::common::args::{PATH_READ, PATH_READ_WRITE};
use crate::tools::common::structured::output_schema;

/// The frontmatter tools.
pub fn tools() -> Vec<ToolDef> {
    let read_tool = |name, title, description, (input, output), path_args, handler| {
        ToolDef::new(
            (name, title, description),
            "frontmatter",
            (input, output),
            handler,
        )
        .scopes(&["read:notes"])
        .paths(path_args)
    };
    vec![
        read_tool(
            "read_frontmatter",
            "Read frontmatter",
            "Read a note's frontmatter: its YAML properties (metadata, in the note's order, each with its type) without its body, and the note's SHA-256 for expected_sha256.",
            (
                input_schema::<args::NotePath>(),
                output_schema::<results::FrontmatterRead>(),
            ),
            PATH_READ,
            read::read_frontmatter,
        )
        .keywords(&["top of the note", "header block", "frontmatter", "front matter", "get frontmatter", "yaml", "header", "metadata", "all metadata", "properties", "properties of this note", "note properties", "properties block", "attributes"]),
        read_tool(
            "read_property",
            "Read property",
            "Read one property (frontmatter field) of a note: its value (null when absent), whether it exists, and its type.",
            (
                input_schema::<args::NoteProperty>(),
                output_schema::<results::PropertyRead>(),
            ),
            PATH_READ,
            read::read_property,
        )
        .keywords(&["property", "field", "value", "one property", "single field", "attribute", "key", "look up", "value of", "status", "get property"]),
        ToolDef::new(
("update_frontmatter", "Update frontmatter", "Change a note's properties (frontmatter metadata, tags). mode set (key, value) / remove (key) / merge (properties; lists are unioned) keep every other byte of the note; mode replace (properties) rewrites the whole block and needs the user's confirmation. dry_run shows the diff and changes nothing; expected_sha256 refuses a stale edit; create makes a missing note."),
"frontmatter",
(input_schema::<args::UpdateFrontmatter>(), output_schema::<results::FrontmatterUpdated>()),
update::update_frontmatter,
)
.keywords(&["set", "set tags", "change", "update", "edit", "metadata", "properties", "yaml", "mark as", "alias", "set status", "change value"])
.scopes(&["write:notes"])
.paths(PATH_READ_WRITE)
.idempotent(true),
        read_tool(
            "list_properties",
            "List properties",
            "Every property name (frontmatter key) used in the vault (or under a folder), with how many notes use it and the types seen. Notes whose frontmatter cannot be read are listed under invalid. Paged: limit (≤ 1000) and cursor.",
            (
                input_schema::<args::ListProperties>(),
                output_schema::<results::PropertyList>(),
            ),
            &[],
            survey::list_properties,
        )
        .keywords(&["property names", "keys", "fields", "schema", "all properties", "used across", "inventory", "types", "fields in use", "exist", "which properties"]),
        read_tool(
            "find_notes_by_property",
            "Find notes by property",
            "Search notes by property (frontmatter metadata): the notes (in the vault or under a folder) where it exists, equals a value, or contains it (a list holding it). Each item has the note's path and the property's value. Paged: limit (≤ 1000) and cursor.",
            (
                input_schema::<args::FindNotesByProperty>(),
                output_schema::<results::PropertyMatches>(),
            ),
            &[],
            survey::find_notes_by_property,
        )
        .keywords(&["which notes have", "filter", "query", "where", "whose", "matching", "with property", "dataview", "have set", "notes with", "notes whose", "notes where"]),
        provenance::tool(),
    ]
}
