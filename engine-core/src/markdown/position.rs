//! Byte offsets to `{line, col, offset}` locations.

use alloc::vec::Vec;

use super::types::{Loc, Pos};

/// The start offset of every line, for turning offsets into [`Loc`]s.
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes `text`: a new line starts after every `\n`.
    pub(crate) fn new(text: &str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Self { starts }
    }

    /// The location of byte `offset`.
    pub(crate) fn loc(&self, offset: usize) -> Loc {
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        Loc {
            line,
            col: offset - start,
            offset,
        }
    }

    /// The span `start..end`.
    pub(crate) fn pos(&self, start: usize, end: usize) -> Pos {
        Pos {
            start: self.loc(start),
            end: self.loc(end),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_to_lines_and_byte_columns() {
        let index = LineIndex::new("ab\r\ncé\nx");
        assert_eq!(
            index.loc(0),
            Loc {
                line: 0,
                col: 0,
                offset: 0
            }
        );
        assert_eq!(
            index.loc(3),
            Loc {
                line: 0,
                col: 3,
                offset: 3
            }
        );
        assert_eq!(
            index.loc(4),
            Loc {
                line: 1,
                col: 0,
                offset: 4
            }
        );
        assert_eq!(
            index.loc(7),
            Loc {
                line: 1,
                col: 3,
                offset: 7
            }
        );
        assert_eq!(
            index.loc(8),
            Loc {
                line: 2,
                col: 0,
                offset: 8
            }
        );
        assert_eq!(
            index.loc(9),
            Loc {
                line: 2,
                col: 1,
                offset: 9
            }
        );
    }
}
