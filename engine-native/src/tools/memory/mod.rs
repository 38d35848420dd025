//! Agent memory as notes (domain `memory`, issue 23): each entity is a note in the vault's
//! memory folder (`vaults[].memoryFolder`, default `Memory`) in the shape of
//! [`crate::memory::entity`].
//!
//! - `create_entity`: a new entity note (the name is the natural key: creating it again with
//!   the same type changes nothing).
//! - `get_entity`: what the note says, its relations resolved as Obsidian resolves links.
//! - `add_observation`: a dated fact added once.
//! - `link_entities`, `unlink_entities`: a typed relation in the frontmatter added or removed.
//! - `query_entity_graph`: the entities around one, breadth first over relations both ways.
//! - `rename_entity`: a new name (every link to it rewritten, as `move_note` does) and/or a
//!   lifecycle status (`active`, `retired`).
//! - `delete_entity`: the note to `.trash/`, always confirmed by a human.
//! - `search_entities` (in the search family, [`crate::tools::search`], whose ranking it runs):
//!   entities ranked for a query as `search_vault` ranks notes.
//!
//! Every tool reads and writes through the vault, under the folder ACL of the entity's path
//! and the scopes `read:memory` / `write:memory`.

mod create;
mod delete;
mod entity_note;
mod get;
mod graph;
mod observe;
mod relate;
mod rename;

use crate::runtime::ToolDef;

/// The memory tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        create::tool(),
        delete::tool(),
        get::tool(),
        graph::tool(),
        observe::tool(),
        relate::link_tool(),
        relate::unlink_tool(),
        rename::tool(),
    ]
}
