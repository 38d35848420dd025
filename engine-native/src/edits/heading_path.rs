//! Finding a heading by its text or by a heading path `Parent#Child`.
//!
//! Texts compare trimmed and case-insensitively. A path's parts are the headings' ancestors
//! in order, outermost first, levels may be skipped (`Guide#Install` finds `### Install`
//! under `# Guide`). A heading whose text contains `#` (`## C#`) matches when its `#`-parts
//! do, so `C#` and `Languages#C#` both find it.

use engine_core::markdown::Heading;

use super::error::{Candidate, EditError};

/// The lowercased, trimmed, non-empty `#`-separated parts of `text`.
fn parts(text: &str) -> Vec<String> {
    text.split('#')
        .map(|p| p.trim().to_lowercase())
        .filter(|p| !p.is_empty())
        .collect()
}

/// Index of each heading's parent: the nearest earlier heading of a lower level.
fn parents(headings: &[Heading]) -> Vec<Option<usize>> {
    let mut open: Vec<usize> = Vec::new();
    headings
        .iter()
        .enumerate()
        .map(|(i, h)| {
            while open.last().is_some_and(|&o| headings[o].level >= h.level) {
                open.pop();
            }
            let parent = open.last().copied();
            open.push(i);
            parent
        })
        .collect()
}

/// `true` when `query` (parts) ends with the parts of `heading`, and what comes before is
/// matched by the ancestors of `heading` in order.
fn matches(
    query: &[String],
    heading: usize,
    parts_of: &[Vec<String>],
    up: &[Option<usize>],
) -> bool {
    let own = &parts_of[heading];
    if own.is_empty() || !query.ends_with(own) {
        return false;
    }
    let rest = &query[..query.len() - own.len()];
    if rest.is_empty() {
        return true;
    }
    let mut ancestor = up[heading];
    while let Some(a) = ancestor {
        if matches(rest, a, parts_of, up) {
            return true;
        }
        ancestor = up[a];
    }
    false
}

/// The full path of heading `i`: its ancestors' texts and its own, joined by `#`.
pub(crate) fn full_path(headings: &[Heading], up: &[Option<usize>], i: usize) -> String {
    let mut chain = vec![headings[i].heading.as_str()];
    let mut ancestor = up[i];
    while let Some(a) = ancestor {
        chain.push(headings[a].heading.as_str());
        ancestor = up[a];
    }
    chain.reverse();
    chain.join("#")
}

/// The index in `headings` of the one heading `path` names.
pub(crate) fn find_heading(headings: &[Heading], path: &str) -> Result<usize, EditError> {
    let query = parts(path);
    if query.is_empty() {
        return Err(EditError::invalid(
            "the heading is empty; give a heading's text, or a path such as 'Parent#Child'",
        ));
    }
    let up = parents(headings);
    let parts_of: Vec<Vec<String>> = headings.iter().map(|h| parts(&h.heading)).collect();
    let found: Vec<usize> = (0..headings.len())
        .filter(|&i| matches(&query, i, &parts_of, &up))
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(EditError::NotFound {
            target: format!("heading {path:?}"),
            hint: "list the note's headings (read it) and give one of their texts, or a path such as 'Parent#Child'".into(),
        }),
        many => Err(EditError::Ambiguous {
            target: format!("heading {path:?}"),
            count: many.len(),
            candidates: many
                .iter()
                .map(|&i| Candidate {
                    line: headings[i].position.start.line + 1,
                    label: full_path(headings, &up, i),
                })
                .collect(),
            hint: "give a heading path that names the parent too, such as 'Parent#Child'".into(),
        }),
    }
}

/// Every heading's full path, in note order (see `full_path`).
pub fn heading_paths(headings: &[Heading]) -> Vec<String> {
    let up = parents(headings);
    (0..headings.len())
        .map(|i| full_path(headings, &up, i))
        .collect()
}
