//! A note's typed relations read from its properties, and each one resolved the way
//! Obsidian resolves a link (engine-core's [`LinkResolver`] over every file of the vault).
//!
//! A target the caller may not read is reported as unresolved, so the answer never reveals
//! a hidden note; an ambiguous link lists only the readable candidates.

use engine_core::acl::AclOp;
use engine_core::links::{LinkResolver, Resolution};
use engine_core::markdown::{LinkSyntax, extract};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::vocabulary::{is_relation_key, may_hold_relations};
use crate::note::{strings_in, subpath_text};
use crate::runtime::ToolContext;

/// One relation as written: a property and one note reference in its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Relation {
    /// The property name (`part_of`).
    pub key: String,
    /// The value (or list item) exactly as the property holds it (`[[Project|P]]`).
    pub value: String,
    /// The target's file part as written (`Project`).
    pub target: String,
    /// `#Heading` or `#^block`, when it points inside its target.
    pub subpath: Option<String>,
}

/// The relations of a note's properties, in the order `properties` gives them: every
/// wikilink in a string value or list item, and for a vocabulary key a plain note name too.
pub(super) fn relations<'a>(
    properties: impl IntoIterator<Item = (&'a String, &'a Value)>,
) -> Vec<Relation> {
    let mut out = Vec::new();
    for (key, value) in properties {
        if !may_hold_relations(key) {
            continue;
        }
        for item in strings_in(value) {
            let mut links = wikilinks(item);
            let name = item.trim();
            if links.is_empty() && is_relation_key(key) && !name.is_empty() {
                // A plain note name reads like the same name written as a wikilink.
                links = wikilinks(&format!("[[{name}]]"));
            }
            out.extend(links.into_iter().map(|(target, subpath)| Relation {
                key: key.clone(),
                value: item.to_owned(),
                target,
                subpath,
            }));
        }
    }
    out
}

/// The wikilinks of one string: target and subpath of each.
fn wikilinks(text: &str) -> Vec<(String, Option<String>)> {
    extract(text)
        .links
        .into_iter()
        .filter(|link| link.syntax == LinkSyntax::Wikilink)
        .map(|link| (link.path, link.subpath.as_ref().map(subpath_text)))
        .collect()
}

/// Whether and how a relation resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum Status {
    /// Exactly one readable file matches.
    Resolved,
    /// Several readable files match; `resolved_path` is the one Obsidian opens.
    Ambiguous,
    /// No readable file matches (not created yet, or hidden from the caller).
    Unresolved,
}

/// One relation, resolved.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct TypedLink {
    /// The property name.
    pub key: String,
    /// The value (or list item) as written.
    pub value: String,
    /// The target's file part as written.
    pub target: String,
    /// `#Heading` or `#^block`, when it points inside its target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subpath: Option<String>,
    /// `resolved`, `ambiguous` or `unresolved`.
    pub status: Status,
    /// The file the relation opens, unless it is unresolved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved_path: Option<String>,
    /// Every readable match in Obsidian's order, when the relation is ambiguous.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<String>,
}

/// `relation`, written in the note at `source`, resolved for the caller of `ctx`.
pub(super) fn resolve(
    ctx: &ToolContext<'_>,
    resolver: &LinkResolver,
    source: &str,
    relation: Relation,
) -> TypedLink {
    let all: Vec<&str> = match resolver.resolve(&relation.target, source) {
        Resolution::Resolved(path) => vec![path],
        Resolution::Ambiguous(paths) => paths,
        Resolution::Unresolved => Vec::new(),
    };
    let opened = all
        .first()
        .filter(|path| ctx.may(path, AclOp::Read))
        .map(|path| (*path).to_owned());
    let visible: Vec<String> = all
        .iter()
        .filter(|path| ctx.may(path, AclOp::Read))
        .map(|path| (*path).to_owned())
        .collect();
    let status = match (&opened, visible.len()) {
        (None, _) => Status::Unresolved,
        (Some(_), 2..) => Status::Ambiguous,
        (Some(_), _) => Status::Resolved,
    };
    TypedLink {
        key: relation.key,
        value: relation.value,
        target: relation.target,
        subpath: relation.subpath,
        status,
        resolved_path: opened,
        candidates: if status == Status::Ambiguous {
            visible
        } else {
            Vec::new()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, json};

    #[test]
    fn wikilinks_anywhere_and_plain_names_under_vocabulary_keys() {
        let Value::Object(properties) = json!({
            "part_of": "Project Alpha",
            "related": ["[[One]]", "plain text", "[[Two#Intro|the intro]]"],
            "status": "draft",
            "tags": ["[[Not]]"],
            "depends_on": ["[[Parser]]", ""]
        }) else {
            unreachable!()
        };
        let properties: Map<String, Value> = properties;
        let found: Vec<(String, String, Option<String>)> = relations(&properties)
            .into_iter()
            .map(|r| (r.key, r.target, r.subpath))
            .collect();
        let mut expected = vec![
            ("depends_on".to_owned(), "Parser".to_owned(), None),
            ("part_of".to_owned(), "Project Alpha".to_owned(), None),
            ("related".to_owned(), "One".to_owned(), None),
            (
                "related".to_owned(),
                "Two".to_owned(),
                Some("#Intro".to_owned()),
            ),
        ];
        let mut sorted = found.clone();
        sorted.sort();
        expected.sort();
        assert_eq!(sorted, expected, "{found:?}");
    }
}
