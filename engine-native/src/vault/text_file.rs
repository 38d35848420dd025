//! Text notes as editing code wants them: UTF-8 without a BOM, lines ended by `\n`; and back
//! to exactly the bytes the file had (BOM and line endings restored). The rule is engine-core's
//! [`note_text`], which the plugin's index applies too.

pub use engine_core::markdown::LineEnding;
use engine_core::markdown::{file_text, note_text};

use super::error::VaultError;

/// A decoded text file: `text` has no BOM and, unless `line_ending` is `Mixed`, `\n` breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFile {
    /// Whether the file starts with a UTF-8 byte order mark.
    pub bom: bool,
    /// The file's line endings.
    pub line_ending: LineEnding,
    /// The normalized text.
    pub text: String,
}

impl TextFile {
    /// Decodes file bytes; `path` only names the file in the error when they are not UTF-8.
    pub fn decode(bytes: &[u8], path: &str) -> Result<TextFile, VaultError> {
        let text = std::str::from_utf8(bytes).map_err(|_| VaultError::NotText {
            path: path.to_owned(),
        })?;
        let read = note_text(text);
        Ok(TextFile {
            bom: read.bom,
            line_ending: read.line_ending,
            text: read.text.into_owned(),
        })
    }

    /// The file bytes: the BOM if it had one, and its line endings. Decoding then encoding
    /// unchanged text gives back the original bytes.
    pub fn encode(&self) -> Vec<u8> {
        file_text(&self.text, self.bom, self.line_ending).into_bytes()
    }
}
