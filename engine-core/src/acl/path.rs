//! Lexical validation of vault-relative paths.
//!
//! A valid path is NFC, relative, uses `/` between non-empty segments and has no `.` or `..`
//! segment. Validation is purely lexical: it never touches a filesystem, never decodes
//! anything (`%2e%2e` is a literal file name, not `..`), and never rewrites a path except
//! to NFC — `./a` and `a/./b` are rejected rather than normalised, so that a path that passes
//! is already canonical and passes again unchanged. Hosts canonicalise (realpath) first.
//!
//! The checks run in this order and the first failure is the reason reported:
//! empty, too long, NUL, other control character, backslash, leading `/`, Windows drive
//! letter, then per segment from the left: empty segment, `.`, `..`, a segment that is `.`
//! or `..` under compatibility normalisation (NFKC: `．．`, `‥`), segment too long.
//!
//! Lengths are measured in UTF-8 bytes of the NFC form: at most [`MAX_PATH_BYTES`] in all and
//! [`MAX_SEGMENT_BYTES`] per segment (the `PATH_MAX` and `NAME_MAX` of Linux and macOS).
//!
//! [`windows_name_problem`] is a second, separate rule for one segment: the names Windows
//! cannot hold or reads as something else (devices such as `CON` and `nul.md`, a trailing dot
//! or space that Windows strips, `:` that opens an alternate data stream, and `<>"|?*`). Hosts
//! apply it to every requested segment on Windows and to the names they create elsewhere, so
//! a vault stays readable on every desktop (Obsidian refuses those characters everywhere).

use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;

use serde::{Deserialize, Serialize};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// Longest valid path, in UTF-8 bytes of its NFC form.
pub const MAX_PATH_BYTES: usize = 4096;

/// Longest valid segment, in UTF-8 bytes of its NFC form.
pub const MAX_SEGMENT_BYTES: usize = 255;

/// Why a path is not a valid vault-relative path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PathError {
    /// The path is empty.
    Empty,
    /// The path is longer than [`MAX_PATH_BYTES`].
    TooLong,
    /// The path contains NUL.
    Nul,
    /// The path contains another control character (C0, DEL or C1).
    ControlCharacter,
    /// The path contains `\`; the only separator is `/`.
    Backslash,
    /// The path starts with `/`.
    Absolute,
    /// The path starts with a Windows drive (`C:`).
    DriveLetter,
    /// A segment is empty (`a//b`, a trailing `/`).
    EmptySegment,
    /// A segment is `.`.
    DotSegment,
    /// A segment is `..`.
    DotDotSegment,
    /// A segment becomes `.` or `..` under compatibility normalisation (fullwidth dots,
    /// the two-dot leader), which some tools apply.
    ConfusableDotSegment,
    /// A segment is longer than [`MAX_SEGMENT_BYTES`].
    SegmentTooLong,
    /// A segment is a Windows device name (`CON`, `NUL`, `COM1`, `LPT1`, … with or without
    /// an extension: `nul.md`).
    ReservedName,
    /// A segment ends with `.` or a space, which Windows strips (`a.md.` names `a.md`).
    TrailingDotOrSpace,
    /// A segment holds a character Windows file names cannot: `<`, `>`, `:` (an alternate data
    /// stream), `"`, `|`, `?` or `*`.
    ReservedCharacter,
}

impl PathError {
    /// Stable snake_case name of the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            PathError::Empty => "empty",
            PathError::TooLong => "too_long",
            PathError::Nul => "nul",
            PathError::ControlCharacter => "control_character",
            PathError::Backslash => "backslash",
            PathError::Absolute => "absolute",
            PathError::DriveLetter => "drive_letter",
            PathError::EmptySegment => "empty_segment",
            PathError::DotSegment => "dot_segment",
            PathError::DotDotSegment => "dot_dot_segment",
            PathError::ConfusableDotSegment => "confusable_dot_segment",
            PathError::SegmentTooLong => "segment_too_long",
            PathError::ReservedName => "reserved_name",
            PathError::TrailingDotOrSpace => "trailing_dot_or_space",
            PathError::ReservedCharacter => "reserved_character",
        }
    }
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Validates a vault-relative path and returns its NFC form.
pub fn validate_path(path: &str) -> Result<String, PathError> {
    if path.is_empty() {
        return Err(PathError::Empty);
    }
    // NFC shrinks text at most threefold (Hangul jamo: 9 bytes compose into 3), so an input
    // over four times the limit stays too long; refuse it before normalising.
    if path.len() > 4 * MAX_PATH_BYTES {
        return Err(PathError::TooLong);
    }
    let nfc = to_nfc(path).into_owned();
    if nfc.len() > MAX_PATH_BYTES {
        return Err(PathError::TooLong);
    }
    if nfc.contains('\0') {
        return Err(PathError::Nul);
    }
    if nfc.chars().any(char::is_control) {
        return Err(PathError::ControlCharacter);
    }
    if nfc.contains('\\') {
        return Err(PathError::Backslash);
    }
    if nfc.starts_with('/') {
        return Err(PathError::Absolute);
    }
    if starts_with_drive(&nfc) {
        return Err(PathError::DriveLetter);
    }
    for segment in nfc.split('/') {
        check_segment(segment)?;
    }
    Ok(nfc)
}

/// `text` in NFC, borrowed when it already is (the common case, decided without allocating).
pub(crate) fn to_nfc(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    match is_nfc_quick(text.chars()) {
        IsNormalized::Yes => Cow::Borrowed(text),
        _ => Cow::Owned(text.nfc().collect()),
    }
}

fn starts_with_drive(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

fn check_segment(segment: &str) -> Result<(), PathError> {
    match segment {
        "" => return Err(PathError::EmptySegment),
        "." => return Err(PathError::DotSegment),
        ".." => return Err(PathError::DotDotSegment),
        _ => {}
    }
    if !segment.is_ascii() && is_dot_under_nfkc(segment) {
        return Err(PathError::ConfusableDotSegment);
    }
    if segment.len() > MAX_SEGMENT_BYTES {
        return Err(PathError::SegmentTooLong);
    }
    Ok(())
}

/// Why Windows cannot hold `segment` (one segment of a valid path) as a file or folder name,
/// or `None` when it can. See the module documentation.
pub fn windows_name_problem(segment: &str) -> Option<PathError> {
    if segment.contains(['<', '>', ':', '"', '|', '?', '*']) {
        return Some(PathError::ReservedCharacter);
    }
    if segment.ends_with(['.', ' ']) {
        return Some(PathError::TrailingDotOrSpace);
    }
    // A device name is reserved with any extension, and with spaces before it (`nul .md`).
    let stem = segment
        .split('.')
        .next()
        .unwrap_or(segment)
        .trim_end_matches(' ');
    is_device_name(stem).then_some(PathError::ReservedName)
}

/// Whether `stem` names a Windows device, compared without regard to ASCII case.
fn is_device_name(stem: &str) -> bool {
    const DEVICES: [&str; 6] = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"];
    if DEVICES
        .iter()
        .any(|device| stem.eq_ignore_ascii_case(device))
    {
        return true;
    }
    // COM0-9 and LPT0-9, and the superscript digits ¹ ² ³ Windows also accepts there.
    let (Some(port), Some(number)) = (stem.get(..3), stem.get(3..)) else {
        return false;
    };
    let mut digits = number.chars();
    (port.eq_ignore_ascii_case("COM") || port.eq_ignore_ascii_case("LPT"))
        && matches!(
            (digits.next(), digits.next()),
            (Some('0'..='9' | '\u{b9}' | '\u{b2}' | '\u{b3}'), None)
        )
}

/// Whether the NFKC form of `segment` is `.` or `..` (checked without building it in full).
fn is_dot_under_nfkc(segment: &str) -> bool {
    let mut dots = 0;
    for c in segment.nfkc() {
        if c != '.' || dots == 2 {
            return false;
        }
        dots += 1;
    }
    dots > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    fn reason(path: &str) -> PathError {
        validate_path(path).unwrap_err()
    }

    #[test]
    fn accepts_ordinary_vault_paths() {
        for path in [
            "a.md",
            "Daily/2024-01-01.md",
            ".obsidian/app.json",
            "RedShift: OLED Blue Light Filter.md",
            "%2e%2e/x",
            "...",
            "a/.../b",
            "emoji 🧠/note.md",
            "\u{ff0e}obsidian/x",
            "日本語／メモ.md",
        ] {
            assert_eq!(validate_path(path).as_deref(), Ok(path), "{path}");
        }
    }

    #[test]
    fn returns_nfc() {
        assert_eq!(validate_path("Cafe\u{301}/x.md").unwrap(), "Caf\u{e9}/x.md");
    }

    #[test]
    fn rejects_each_reason() {
        assert_eq!(reason(""), PathError::Empty);
        assert_eq!(reason("a\0b"), PathError::Nul);
        assert_eq!(reason("a\u{1}b"), PathError::ControlCharacter);
        assert_eq!(reason("a\u{7f}"), PathError::ControlCharacter);
        assert_eq!(reason("a\u{85}"), PathError::ControlCharacter);
        assert_eq!(reason("a\\..\\b"), PathError::Backslash);
        assert_eq!(reason("C:\\x"), PathError::Backslash);
        assert_eq!(reason("/etc/passwd"), PathError::Absolute);
        assert_eq!(reason("//server/share"), PathError::Absolute);
        assert_eq!(reason("C:/x"), PathError::DriveLetter);
        assert_eq!(reason("c:x"), PathError::DriveLetter);
        assert_eq!(reason("a//b"), PathError::EmptySegment);
        assert_eq!(reason("a/"), PathError::EmptySegment);
        assert_eq!(reason("./a"), PathError::DotSegment);
        assert_eq!(reason("a/./b"), PathError::DotSegment);
        assert_eq!(reason("../etc/passwd"), PathError::DotDotSegment);
        assert_eq!(reason("a/../../b"), PathError::DotDotSegment);
        assert_eq!(reason("a/.."), PathError::DotDotSegment);
        assert_eq!(
            reason("\u{ff0e}\u{ff0e}/etc"),
            PathError::ConfusableDotSegment
        );
        assert_eq!(reason("a/\u{2025}/b"), PathError::ConfusableDotSegment);
        assert_eq!(reason("a/\u{ff0e}"), PathError::ConfusableDotSegment);
        assert_eq!(reason(&"x".repeat(256)), PathError::SegmentTooLong);
        assert_eq!(reason(&("a/".repeat(2048) + "a")), PathError::TooLong);
        assert_eq!(reason(&"a".repeat(20_000)), PathError::TooLong);
    }

    #[test]
    fn limits_are_inclusive() {
        assert!(validate_path(&"x".repeat(MAX_SEGMENT_BYTES)).is_ok());
        let mut segments: Vec<String> = (0..15).map(|_| "y".repeat(255)).collect();
        segments.push("y".repeat(254));
        segments.push("y".to_string());
        let path = segments.join("/");
        assert_eq!(path.len(), MAX_PATH_BYTES);
        assert!(validate_path(&path).is_ok());
        assert_eq!(validate_path(&(path + "y")), Err(PathError::TooLong));
    }

    #[test]
    fn windows_names() {
        for (segment, problem) in [
            ("CON", PathError::ReservedName),
            ("con.md", PathError::ReservedName),
            ("Nul.tar.gz", PathError::ReservedName),
            ("nul .md", PathError::ReservedName),
            ("COM1.md", PathError::ReservedName),
            ("lpt9", PathError::ReservedName),
            ("COM\u{b9}.md", PathError::ReservedName),
            ("CONIN$.md", PathError::ReservedName),
            ("a.md.", PathError::TrailingDotOrSpace),
            ("a.md ", PathError::TrailingDotOrSpace),
            ("a.md:stream", PathError::ReservedCharacter),
            ("a.md::$DATA", PathError::ReservedCharacter),
            ("what?.md", PathError::ReservedCharacter),
            ("a*b", PathError::ReservedCharacter),
            ("a<b>", PathError::ReservedCharacter),
            ("a|b", PathError::ReservedCharacter),
            ("say \"hi\"", PathError::ReservedCharacter),
        ] {
            assert_eq!(windows_name_problem(segment), Some(problem), "{segment}");
        }
        for segment in [
            "CONSOLE.md",
            "icon.md",
            "COM10.md",
            "COM.md",
            "LPT",
            "nul-notes.md",
            "a.md",
            ".obsidian",
            "...x",
            "Ö.md",
            "COMé.md",
        ] {
            assert_eq!(windows_name_problem(segment), None, "{segment}");
        }
    }
}
