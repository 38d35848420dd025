//! Line positions of a note: where each line starts and ends in bytes. Lines end at `\n`;
//! a final line without `\n` counts when it is not empty (engine-core's rule), so the empty
//! note has no lines.

/// The byte offsets of the lines of one text.
pub(crate) struct TextLines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> TextLines<'a> {
    /// Indexes the lines of `text`.
    pub(crate) fn new(text: &'a str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        if !text.is_empty() {
            starts.push(0);
        }
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(i, b)| b == b'\n' && i + 1 < text.len())
                .map(|(i, _)| i + 1),
        );
        Self { text, starts }
    }

    /// How many lines the text has.
    pub(crate) fn count(&self) -> usize {
        self.starts.len()
    }

    /// The byte offset where 0-based line `line` starts (the text's length past the last line).
    pub(crate) fn start(&self, line: usize) -> usize {
        self.starts.get(line).copied().unwrap_or(self.text.len())
    }

    /// The byte offset just after line `line`, its `\n` included.
    pub(crate) fn end(&self, line: usize) -> usize {
        self.start(line + 1)
    }

    /// The 0-based line holding byte `offset` (the last line for the text's length).
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// The offset just after the last line in `from..to` that is not blank, or `from` when
    /// every line there is blank. `from` must be a line start.
    pub(crate) fn end_of_content(&self, from: usize, to: usize) -> usize {
        let mut end = from;
        let mut line = self.line_of(from);
        while self.start(line) < to && line < self.count() {
            let next = self.end(line).min(to);
            if !self.text[self.start(line)..next].trim().is_empty() {
                end = next;
            }
            line += 1;
        }
        end
    }
}

/// How many lines `text` has (see the module rule).
pub(crate) fn line_count(text: &str) -> usize {
    TextLines::new(text).count()
}
