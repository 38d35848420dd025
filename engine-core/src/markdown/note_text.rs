//! A note file's text as every index reads it: without a leading byte order mark, and with
//! `\r\n` line breaks turned into `\n` when every line break is `\r\n`. A file mixing both
//! is kept as it is, so nothing that writes it back can change its bytes by accident.

use alloc::borrow::Cow;
use alloc::string::String;

/// The UTF-8 byte order mark.
const BOM: &str = "\u{feff}";

/// How the lines of a text file end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    /// Every line ends with `\n` (also a file without any line break).
    Lf,
    /// Every line ends with `\r\n`; the text is handed out with `\n`.
    Crlf,
    /// Both kinds occur; the text is handed out as it is.
    Mixed,
}

/// A note's text and how its file wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteText<'a> {
    /// Whether the file starts with a byte order mark (left out of `text`).
    pub bom: bool,
    /// The file's line endings.
    pub line_ending: LineEnding,
    /// The text: no BOM and, unless `line_ending` is `Mixed`, `\n` breaks.
    pub text: Cow<'a, str>,
}

/// Reads a note file's text (see the module doc).
pub fn note_text(raw: &str) -> NoteText<'_> {
    let (bom, text) = match raw.strip_prefix(BOM) {
        Some(rest) => (true, rest),
        None => (false, raw),
    };
    let crlf = text.matches("\r\n").count();
    let (line_ending, text) = if crlf == 0 {
        (LineEnding::Lf, Cow::Borrowed(text))
    } else if crlf == text.matches('\n').count() {
        (LineEnding::Crlf, Cow::Owned(text.replace("\r\n", "\n")))
    } else {
        (LineEnding::Mixed, Cow::Borrowed(text))
    };
    NoteText {
        bom,
        line_ending,
        text,
    }
}

/// `text` as a file with `line_ending` and, when `bom`, a byte order mark writes it: the
/// inverse of [`note_text`].
pub fn file_text(text: &str, bom: bool, line_ending: LineEnding) -> String {
    let mut out = String::with_capacity(text.len() + BOM.len());
    if bom {
        out.push_str(BOM);
    }
    match line_ending {
        LineEnding::Crlf => out.push_str(&text.replace('\n', "\r\n")),
        LineEnding::Lf | LineEnding::Mixed => out.push_str(text),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_and_crlf_are_read_away_and_written_back() {
        for raw in [
            "a\nb\n",
            "\u{feff}a\r\nb\r\n",
            "a\r\nb\n",
            "",
            "\u{feff}",
            "x\r\n",
        ] {
            let read = note_text(raw);
            assert_eq!(file_text(&read.text, read.bom, read.line_ending), raw);
        }
        let read = note_text("\u{feff}# T\r\nbody\r\n");
        assert_eq!((read.bom, read.line_ending), (true, LineEnding::Crlf));
        assert_eq!(read.text, "# T\nbody\n");
        let mixed = note_text("a\r\nb\nc");
        assert_eq!(mixed.line_ending, LineEnding::Mixed);
        assert_eq!(mixed.text, "a\r\nb\nc");
    }
}
