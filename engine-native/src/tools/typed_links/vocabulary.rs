//! Which frontmatter properties are typed relations.
//!
//! A property is a relation when one of its values is a wikilink (`part_of: "[[Project]]"`,
//! which Obsidian itself treats as a link), or when its key is one of the relation keys of
//! the typed-link vocabulary (AILSS's vault rules): then a plain note name counts too
//! (`depends_on: Parser`). The properties Obsidian gives another meaning (tags, aliases,
//! CSS classes) never are.

/// The relation keys of the vocabulary; `see_also` is the generic one.
pub(super) const RELATION_KEYS: &[&str] = &[
    "instance_of",
    "part_of",
    "depends_on",
    "uses",
    "implements",
    "extends",
    "derived_from",
    "cites",
    "summarizes",
    "explains",
    "supports",
    "contradicts",
    "verifies",
    "blocks",
    "mitigates",
    "measures",
    "produces",
    "authored_by",
    "owned_by",
    "supersedes",
    "same_as",
    "see_also",
];

/// The generic relation proposed when nothing more specific is known.
pub(super) const GENERIC_RELATION: &str = "see_also";

/// The relation meaning "this note belongs to that one".
pub(super) const PART_OF: &str = "part_of";

/// Properties whose values are never note references.
const NOT_RELATIONS: &[&str] = &["tags", "tag", "aliases", "alias", "cssclasses", "cssclass"];

/// Whether a plain string under `key` names a note (a vocabulary key).
pub(super) fn is_relation_key(key: &str) -> bool {
    RELATION_KEYS.contains(&key)
}

/// Whether `key` can hold relations at all.
pub(super) fn may_hold_relations(key: &str) -> bool {
    !NOT_RELATIONS.contains(&key.to_lowercase().as_str())
}
