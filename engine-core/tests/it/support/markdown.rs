//! Invariants every `extract` and `chunk` result must hold, checked independently of the
//! implementation (line/col recomputed from the text, slices compared with the fields).

use engine_core::markdown::{Chunk, ChunkOptions, NoteMetadata, Pos};

/// The offsets just after each `\n`, to recompute line and column of any offset.
struct Newlines(Vec<usize>);

impl Newlines {
    fn of(text: &str) -> Self {
        Self(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1)
                .collect(),
        )
    }

    fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.0.partition_point(|&start| start <= offset);
        (line, offset - if line == 0 { 0 } else { self.0[line - 1] })
    }
}

fn check_pos(text: &str, lines: &Newlines, pos: &Pos, what: &str) -> Result<(), String> {
    let (start, end) = (pos.start.offset, pos.end.offset);
    if start > end || end > text.len() {
        return Err(format!(
            "{what}: span {start}..{end} out of bounds ({})",
            text.len()
        ));
    }
    if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
        return Err(format!(
            "{what}: span {start}..{end} not on char boundaries"
        ));
    }
    for loc in [pos.start, pos.end] {
        if lines.line_col(loc.offset) != (loc.line, loc.col) {
            return Err(format!("{what}: {loc:?} disagrees with the text"));
        }
    }
    Ok(())
}

fn check_ordered<'a>(starts: impl Iterator<Item = &'a Pos>, what: &str) -> Result<(), String> {
    let mut last = 0;
    for pos in starts {
        if pos.start.offset < last {
            return Err(format!(
                "{what}: not in document order at {}",
                pos.start.offset
            ));
        }
        last = pos.start.offset;
    }
    Ok(())
}

/// Checks one `extract` result against `text`.
pub fn check_metadata(text: &str, meta: &NoteMetadata) -> Result<(), String> {
    let lines = &Newlines::of(text);
    let slice = |pos: &Pos| &text[pos.start.offset..pos.end.offset];
    if let Some(fm) = &meta.frontmatter {
        check_pos(text, lines, &fm.position, "frontmatter")?;
        if text.get(fm.yaml_range.start..fm.yaml_range.end) != Some(fm.yaml.as_str()) {
            return Err("frontmatter: yaml is not its range".into());
        }
    }
    for (name, links) in [("links", &meta.links), ("embeds", &meta.embeds)] {
        check_ordered(links.iter().map(|l| &l.position), name)?;
        for link in links {
            check_pos(text, lines, &link.position, name)?;
            if slice(&link.position) != link.original {
                return Err(format!(
                    "{name}: original {:?} is not its span",
                    link.original
                ));
            }
        }
    }
    check_ordered(
        meta.external_links.iter().map(|l| &l.position),
        "external_links",
    )?;
    for link in &meta.external_links {
        check_pos(text, lines, &link.position, "external link")?;
        if slice(&link.position) != link.original {
            return Err(format!(
                "external link: original {:?} is not its span",
                link.original
            ));
        }
    }
    check_ordered(meta.tags.iter().map(|t| &t.position), "tags")?;
    for tag in &meta.tags {
        check_pos(text, lines, &tag.position, "tag")?;
        let body = tag.tag.strip_prefix('#').ok_or("tag without #")?;
        if slice(&tag.position) != tag.tag
            || tag.key != body.to_lowercase()
            || body.chars().all(|c| c.is_ascii_digit())
        {
            return Err(format!("tag {:?} inconsistent", tag.tag));
        }
    }
    check_ordered(meta.blocks.iter().map(|b| &b.position), "blocks")?;
    for block in &meta.blocks {
        check_pos(text, lines, &block.position, "block")?;
        if slice(&block.position) != format!("^{}", block.id) {
            return Err(format!("block {:?} is not its span", block.id));
        }
    }
    for (name, positions) in [
        (
            "headings",
            meta.headings
                .iter()
                .map(|h| &h.position)
                .collect::<Vec<_>>(),
        ),
        (
            "list_items",
            meta.list_items.iter().map(|i| &i.position).collect(),
        ),
        (
            "callouts",
            meta.callouts.iter().map(|c| &c.position).collect(),
        ),
        (
            "sections",
            meta.sections.iter().map(|s| &s.position).collect(),
        ),
    ] {
        check_ordered(positions.iter().copied(), name)?;
        for pos in positions {
            check_pos(text, lines, pos, name)?;
        }
    }
    for pair in meta.sections.windows(2) {
        if pair[0].position.end.offset > pair[1].position.start.offset {
            return Err("sections overlap".into());
        }
    }
    for (i, item) in meta.list_items.iter().enumerate() {
        if item.parent.is_some_and(|p| p >= i) {
            return Err(format!("list item {i}: parent after it"));
        }
    }
    if meta.callouts.iter().any(|c| c.depth == 0) {
        return Err("callout at depth 0".into());
    }
    Ok(())
}

/// Checks one `chunk` result against `text`: in order, disjoint, trimmed, within budget,
/// outside the frontmatter, and together holding every non-whitespace character of the body.
pub fn check_chunks(
    text: &str,
    meta: &NoteMetadata,
    chunks: &[Chunk],
    options: &ChunkOptions,
) -> Result<(), String> {
    let body_start = meta.frontmatter.as_ref().map_or(0, |fm| fm.body_start);
    let mut covered = body_start;
    for (i, chunk) in chunks.iter().enumerate() {
        let (start, end) = (chunk.range.start, chunk.range.end);
        if chunk.index != i || start < covered || start >= end || end > text.len() {
            return Err(format!(
                "chunk {i}: bad range {start}..{end} after {covered}"
            ));
        }
        if !text.is_char_boundary(start)
            || !text.is_char_boundary(end)
            || text[start..end] != chunk.text
        {
            return Err(format!("chunk {i}: text is not its range"));
        }
        let is_space = |c: char| c.is_whitespace() || c == '\u{feff}';
        if chunk.text.starts_with(is_space) || chunk.text.ends_with(is_space) {
            return Err(format!("chunk {i}: not trimmed"));
        }
        if text[covered..start].chars().any(|c| !is_space(c)) {
            return Err(format!(
                "chunk {i}: text before it ({covered}..{start}) is in no chunk"
            ));
        }
        if chunk.tokens != options.estimate_tokens(&chunk.text)
            || chunk.tokens > options.max_tokens()
        {
            return Err(format!(
                "chunk {i}: {} tokens over budget or miscounted",
                chunk.tokens
            ));
        }
        covered = end;
    }
    if text[covered..]
        .chars()
        .any(|c| !c.is_whitespace() && c != '\u{feff}')
    {
        return Err(format!("text after {covered} is in no chunk"));
    }
    Ok(())
}
