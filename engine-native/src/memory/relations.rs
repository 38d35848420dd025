//! Typed relations of an entity note: a frontmatter property holding a wikilink, or a list of
//! them (`works_at: "[[Acme]]"`, `knows: ["[[Ann]]", "[[Bob]]"]`). Adding and removing one
//! edits only that property's lines ([`crate::frontmatter::apply`]).

use serde_json::Value;

use super::entity::{link_target, wikilink};
use crate::frontmatter::{self, Edit, FrontmatterError};

/// What a relation edit did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RelationEdit {
    /// The note's new text.
    Changed(String),
    /// The relation was already there (adding) or not there (removing).
    Unchanged,
}

/// `text` with the relation `relation` to `target` added: the property becomes a link, or a
/// list of links when it already holds another; a value there that is not a link is kept.
pub fn link(text: &str, relation: &str, target: &str) -> Result<RelationEdit, FrontmatterError> {
    let current = frontmatter::read(text)?.properties.remove(relation);
    let link = Value::from(wikilink(target));
    let value = match current {
        None | Some(Value::Null) => link,
        Some(Value::Array(mut items)) => {
            if items.iter().any(|item| names(item, target)) {
                return Ok(RelationEdit::Unchanged);
            }
            items.push(link);
            Value::Array(items)
        }
        Some(single) if names(&single, target) => return Ok(RelationEdit::Unchanged),
        Some(single) => Value::Array(vec![single, link]),
    };
    set(text, relation, value)
}

/// `text` without the relation `relation` to `target`: the link leaves the property's list,
/// and the property goes when nothing is left in it.
pub fn unlink(text: &str, relation: &str, target: &str) -> Result<RelationEdit, FrontmatterError> {
    let Some(current) = frontmatter::read(text)?.properties.remove(relation) else {
        return Ok(RelationEdit::Unchanged);
    };
    let kept: Vec<Value> = match current {
        Value::Array(items) => items,
        single => vec![single],
    };
    let before = kept.len();
    let kept: Vec<Value> = kept
        .into_iter()
        .filter(|item| !names(item, target))
        .collect();
    if kept.len() == before {
        return Ok(RelationEdit::Unchanged);
    }
    match kept.len() {
        0 => {
            let edit = Edit::Remove {
                key: relation.to_owned(),
            };
            Ok(RelationEdit::Changed(frontmatter::apply(text, &edit)?.text))
        }
        1 => set(
            text,
            relation,
            kept.into_iter().next().unwrap_or(Value::Null),
        ),
        _ => set(text, relation, Value::Array(kept)),
    }
}

/// Whether `value` is a link to `target` (names compare as Obsidian compares them: without
/// regard to case).
fn names(value: &Value, target: &str) -> bool {
    value
        .as_str()
        .and_then(link_target)
        .is_some_and(|linked| linked.to_lowercase() == target.to_lowercase())
}

fn set(text: &str, relation: &str, value: Value) -> Result<RelationEdit, FrontmatterError> {
    let edit = Edit::Set {
        key: relation.to_owned(),
        value,
    };
    Ok(RelationEdit::Changed(frontmatter::apply(text, &edit)?.text))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTE: &str = "---\ntype: person\nworks_at: \"[[Acme]]\"\n---\n# Jo\n";

    fn changed(edit: RelationEdit) -> String {
        match edit {
            RelationEdit::Changed(text) => text,
            RelationEdit::Unchanged => panic!("unchanged"),
        }
    }

    #[test]
    fn linking_adds_a_link_or_grows_a_list_once() {
        let one = changed(link(NOTE, "knows", "Ann").expect("link"));
        assert_eq!(
            one,
            "---\ntype: person\nworks_at: \"[[Acme]]\"\nknows: \"[[Ann]]\"\n---\n# Jo\n"
        );
        let two = changed(link(&one, "knows", "Bob").expect("link"));
        assert!(
            two.contains("knows:\n  - \"[[Ann]]\"\n  - \"[[Bob]]\"\n"),
            "{two}"
        );
        assert_eq!(link(&two, "knows", "bob"), Ok(RelationEdit::Unchanged));
        assert_eq!(link(NOTE, "works_at", "Acme"), Ok(RelationEdit::Unchanged));
    }

    #[test]
    fn unlinking_shrinks_the_list_then_removes_the_property() {
        let two = changed(link(NOTE, "works_at", "Beta").expect("link"));
        let one = changed(unlink(&two, "works_at", "Acme").expect("unlink"));
        assert_eq!(
            one,
            "---\ntype: person\nworks_at: \"[[Beta]]\"\n---\n# Jo\n"
        );
        let none = changed(unlink(&one, "works_at", "beta").expect("unlink"));
        assert_eq!(none, "---\ntype: person\n---\n# Jo\n");
        assert_eq!(
            unlink(&none, "works_at", "Beta"),
            Ok(RelationEdit::Unchanged)
        );
        assert_eq!(unlink(NOTE, "works_at", "Zed"), Ok(RelationEdit::Unchanged));
    }
}
