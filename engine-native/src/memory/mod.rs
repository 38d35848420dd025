//! Agent memory kept as notes (issue 23): an entity is one note in the vault's memory folder,
//! so a person sees it in Obsidian's graph, edits it and queries it with Dataview, and the
//! agent reads those edits.
//!
//! - [`entity`]: what an entity note says (type, aliases, typed relations, observations) and
//!   the text of a new one; adding an observation; retitling it after a rename.
//! - [`relations`]: adding and removing a typed relation in the frontmatter.
//! - [`goal`]: what a goal note says (status, target day, text), a new one, closing one.

pub mod entity;
pub mod goal;
pub mod relations;

pub use entity::{
    Entity, EntityType, OBSERVATIONS_HEADING, Observation, Relation, add_observation,
    new_entity_text, read_entity, retitle,
};
pub use goal::{Goal, GoalStatus, closed_goal_text, new_goal_text, read_goal};
pub use relations::{RelationEdit, link, unlink};
