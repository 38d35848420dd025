//! The heading section a chunk's breadcrumb names, in a note's text: the heading's line
//! through the line before the next heading of the same or a higher level (as `read_note`'s
//! `heading` reads it), or, for the empty breadcrumb, the body before the first heading.

use engine_core::markdown::{Heading, NoteMetadata};

use crate::edits::heading_paths;

/// The text of the section `breadcrumb` (heading texts, outermost first) names in `text`,
/// whose metadata is `meta`: the first heading whose path is the breadcrumb. `None` when no
/// heading has that path (the note changed since it was indexed).
pub(super) fn section<'t>(
    text: &'t str,
    meta: &NoteMetadata,
    breadcrumb: &[String],
) -> Option<&'t str> {
    let headings = &meta.headings;
    let Some(last) = breadcrumb.last() else {
        let start = meta.frontmatter.as_ref().map_or(0, |fm| fm.body_start);
        let end = headings.first().map_or(text.len(), line_start);
        return text.get(start..end.max(start));
    };
    let wanted = breadcrumb.join("#");
    let paths = heading_paths(headings);
    let at = (0..headings.len()).find(|&i| headings[i].heading == *last && paths[i] == wanted)?;
    let level = headings[at].level;
    let end = headings[at + 1..]
        .iter()
        .find(|next| next.level <= level)
        .map_or(text.len(), line_start);
    text.get(line_start(&headings[at])..end)
}

/// Where the line of `heading` starts.
fn line_start(heading: &Heading) -> usize {
    heading.position.start.offset - heading.position.start.col
}
