//! The typed errors of frontmatter reading and editing. Every error leaves the note unchanged.

use std::fmt;

/// Why frontmatter could not be read or an edit was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrontmatterError {
    /// The frontmatter block is not valid YAML.
    InvalidYaml {
        /// 1-based line of the note (the opening `---` is line 1) where the parser stopped.
        line: usize,
        /// The parser's description of the problem.
        message: String,
    },
    /// The frontmatter is valid YAML but not a mapping of property names to values.
    NotAMapping {
        /// What the block holds instead (`"list"`, `"text"`, …).
        found: &'static str,
    },
    /// The property name cannot be written as a frontmatter key.
    InvalidKey {
        /// The key as given.
        key: String,
        /// The rule it breaks.
        reason: &'static str,
    },
    /// The value would not read back as given (an integer beyond 64-bit signed range, …).
    ValueNotRepresentable {
        /// The property whose value cannot be written exactly.
        key: String,
    },
    /// The frontmatter's line layout is one the line-level editor does not understand
    /// (multi-document, flow mapping, keys it cannot line up with the parsed ones), so a
    /// byte-preserving edit is impossible.
    UnsupportedLayout {
        /// What was not understood.
        reason: String,
    },
}

impl fmt::Display for FrontmatterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrontmatterError::InvalidYaml { line, message } => write!(
                f,
                "the frontmatter is not valid YAML (line {line} of the note: {message}); fix that line, or rewrite the whole block with mode 'replace'"
            ),
            FrontmatterError::NotAMapping { found } => write!(
                f,
                "the frontmatter holds a {found}, not property names with values; rewrite the whole block with mode 'replace'"
            ),
            FrontmatterError::InvalidKey { key, reason } => {
                write!(f, "property name {key:?} is not usable: {reason}")
            }
            FrontmatterError::ValueNotRepresentable { key } => write!(
                f,
                "the value for {key:?} would not read back as given from YAML; write it as text or as a smaller number"
            ),
            FrontmatterError::UnsupportedLayout { reason } => write!(
                f,
                "the frontmatter cannot be edited line by line ({reason}); rewrite the whole block with mode 'replace'"
            ),
        }
    }
}

impl std::error::Error for FrontmatterError {}
