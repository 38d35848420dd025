//! Reading a note's properties.

use engine_core::markdown::{ByteRange, Frontmatter as Span, frontmatter_of};
use serde_json::{Map, Value};

use super::error::FrontmatterError;
use super::yaml_value::{OrderedProperties, parse_properties};

/// The note line of the first YAML line: the opening `---` is line 1.
const FIRST_YAML_LINE: usize = 2;

/// A note's properties.
#[derive(Debug, Clone, PartialEq)]
pub struct Frontmatter {
    /// Property name to value (JSON form of the YAML, see the module docs for the types).
    pub properties: Map<String, Value>,
    /// The property names in the order the note lists them.
    pub keys: Vec<String>,
    /// Byte range of the YAML text in the note; `None` when the note has no frontmatter.
    pub yaml_range: Option<ByteRange>,
}

/// Reads the frontmatter of a note. A note without frontmatter has no properties; a block
/// that is not valid YAML, or not a mapping, is an error naming the note line.
pub fn read(text: &str) -> Result<Frontmatter, FrontmatterError> {
    let (span, ordered) = parse_note(text)?;
    Ok(Frontmatter {
        keys: ordered.iter().map(|(k, _)| k.clone()).collect(),
        properties: ordered.into_iter().collect(),
        yaml_range: span.map(|s| s.yaml_range),
    })
}

/// The value of one property, `None` when the note does not have it.
pub fn property(text: &str, key: &str) -> Result<Option<Value>, FrontmatterError> {
    Ok(read(text)?.properties.remove(key))
}

/// The frontmatter span of a note (if any) and its properties in document order.
pub(crate) fn parse_note(
    text: &str,
) -> Result<(Option<Span>, OrderedProperties), FrontmatterError> {
    match frontmatter_of(text) {
        Some(span) => {
            let ordered = parse_properties(&span.yaml, FIRST_YAML_LINE)?;
            Ok((Some(span), ordered))
        }
        None => Ok((None, Vec::new())),
    }
}
