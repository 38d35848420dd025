//! Text notes as editing code wants them: UTF-8 without a BOM, lines ended by `\n`; and back
//! to exactly the bytes the file had (BOM and line endings restored).

use super::error::VaultError;

const BOM: &str = "\u{feff}";

/// How the lines of a text file end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    /// Every line ends with `\n` (also a file without any line break).
    Lf,
    /// Every line ends with `\r\n`; the text is handed out with `\n` and restored on write.
    Crlf,
    /// Both kinds occur; the text is handed out as it is, so nothing is rewritten.
    Mixed,
}

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
        let (bom, text) = match text.strip_prefix(BOM) {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let breaks = text.matches('\n').count();
        let crlf = text.matches("\r\n").count();
        let (line_ending, text) = if crlf == 0 {
            (LineEnding::Lf, text.to_owned())
        } else if crlf == breaks {
            (LineEnding::Crlf, text.replace("\r\n", "\n"))
        } else {
            (LineEnding::Mixed, text.to_owned())
        };
        Ok(TextFile {
            bom,
            line_ending,
            text,
        })
    }

    /// The file bytes: the BOM if it had one, and its line endings. Decoding then encoding
    /// unchanged text gives back the original bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = String::with_capacity(self.text.len() + BOM.len());
        if self.bom {
            out.push_str(BOM);
        }
        match self.line_ending {
            LineEnding::Crlf => out.push_str(&self.text.replace('\n', "\r\n")),
            LineEnding::Lf | LineEnding::Mixed => out.push_str(&self.text),
        }
        out.into_bytes()
    }
}
