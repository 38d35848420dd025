//! Which property names can be written.

use super::error::FrontmatterError;

/// Checks that `key` can be a frontmatter property name: not empty, no surrounding spaces,
/// no line breaks or other control characters, no `: ` inside and no `:` at the end (YAML
/// would split the key there).
pub(crate) fn validate_key(key: &str) -> Result<(), FrontmatterError> {
    let reason = if key.is_empty() {
        Some("it is empty")
    } else if key.trim() != key {
        Some("it starts or ends with whitespace")
    } else if key.chars().any(char::is_control) {
        Some("it contains a line break or another control character")
    } else if key.contains(": ") || key.ends_with(':') {
        Some("it contains ': ' or ends with ':'")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(FrontmatterError::InvalidKey {
            key: key.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}
