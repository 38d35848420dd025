//! The texts a commit writes: a page from its frontmatter and body, and a note with a link
//! bullet added under a heading (once).

use engine_core::markdown::extract;
use serde_json::{Map, Value};

use super::catalog::wikilink;
use super::identity::fold;
use crate::frontmatter::property_lines;

/// A page's text: `frontmatter` as a YAML block (none when empty), then `body`.
pub fn page_text(frontmatter: &Map<String, Value>, body: &str) -> String {
    let mut text = String::new();
    if !frontmatter.is_empty() {
        text.push_str("---\n");
        for (key, value) in frontmatter {
            text.push_str(&property_lines(key, value, "\n"));
        }
        text.push_str("---\n");
    }
    text.push_str(body);
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// Whether `text` already links to the page at `page` (by path or file name).
pub fn links_to(text: &str, page: &str) -> bool {
    let target = page.strip_suffix(".md").unwrap_or(page);
    let name = target.rsplit('/').next().unwrap_or(target);
    let names = [fold(target), fold(name), fold(page)];
    extract(text).links.iter().any(|link| {
        let written = link.path.strip_suffix(".md").unwrap_or(&link.path);
        names.contains(&fold(written))
    })
}

/// `text` with a bullet linking to `page` at the end of the section under `heading` (any
/// level, compared case-insensitively), or under a new `## heading` at the end.
pub fn add_link_bullet(text: &str, heading: &str, page: &str) -> String {
    let bullet = format!("- {}\n", wikilink(page));
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let wanted = heading.trim().to_lowercase();
    let level_of = |line: &str| {
        let hashes = line.bytes().take_while(|byte| *byte == b'#').count();
        (hashes > 0 && hashes <= 6 && line[hashes..].starts_with(' ')).then_some(hashes)
    };
    let start = lines.iter().position(|line| {
        level_of(line).is_some_and(|level| line[level..].trim().to_lowercase() == wanted)
    });
    let Some(start) = start else {
        let mut out = text.to_owned();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&format!("## {}\n\n{bullet}", heading.trim()));
        return out;
    };
    let level = level_of(lines[start]).unwrap_or(1);
    let end = lines[start + 1..]
        .iter()
        .position(|line| level_of(line).is_some_and(|other| other <= level))
        .map_or(lines.len(), |offset| start + 1 + offset);
    let last = (start + 1..end)
        .rev()
        .find(|&at| !lines[at].trim().is_empty())
        .unwrap_or(start);
    let mut out = String::with_capacity(text.len() + bullet.len() + 1);
    for (at, line) in lines.iter().enumerate() {
        out.push_str(line);
        if at == last {
            if !line.ends_with('\n') {
                out.push('\n');
            }
            if at == start {
                out.push('\n');
            }
            out.push_str(&bullet);
        }
    }
    out
}
