//! Why a configuration file cannot be edited, and where in it.

use std::fmt;

/// A configuration file `setup` refuses to edit: the place (1-based line and column, the
/// column in characters) and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Malformed {
    /// The line, from 1.
    pub line: usize,
    /// The column on that line, from 1, in characters.
    pub column: usize,
    /// What is wrong there.
    pub problem: Problem,
}

/// What is wrong with a configuration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The file is not valid in its format; the parser's message.
    Syntax(String),
    /// A value that must hold named entries (the whole file, or the servers) does not.
    NotATable {
        /// Which value: `the top level` or the key, e.g. `"mcpServers"`.
        what: String,
        /// What it must be: `an object` (JSON) or `a table` (TOML).
        expected: &'static str,
    },
    /// A key this command would edit appears twice in the same object.
    Duplicate {
        /// The key.
        key: String,
        /// The line of its first appearance.
        first_line: usize,
    },
    /// The bytes are not UTF-8 text.
    NotUtf8,
}

impl Malformed {
    /// The problem at byte `offset` of `text`.
    pub fn at(text: &str, offset: usize, problem: Problem) -> Malformed {
        let (line, column) = line_column(text, offset);
        Malformed {
            line,
            column,
            problem,
        }
    }
}

/// The 1-based line and character column of byte `offset` in `text` (clamped to its end).
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Syntax(message) => f.write_str(message),
            Problem::NotATable { what, expected } => write!(f, "{what} is not {expected}"),
            Problem::Duplicate { key, first_line } => write!(
                f,
                "\"{key}\" appears a second time (first on line {first_line}); clients keep \
                 only one of them"
            ),
            Problem::NotUtf8 => f.write_str("the file is not UTF-8 text"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::line_column;

    #[test]
    fn lines_and_columns_count_from_one_in_characters() {
        let text = "{\n  \"é\": 1,\n  x\n}";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 2), (2, 1));
        // After `  "é"` (the é is two bytes): column 6 in characters.
        assert_eq!(line_column(text, 8), (2, 6));
        assert_eq!(line_column(text, text.find('x').unwrap()), (3, 3));
        assert_eq!(line_column(text, 10_000), (4, 2));
    }
}
