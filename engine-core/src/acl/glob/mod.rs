//! A glob matcher for vault-relative paths, compiled once into a token list.
//!
//! Syntax (paths and patterns use `/` as the only separator):
//!
//! - `*` matches any run of characters within one segment (never `/`), the empty run included.
//! - `**` as a whole segment is a globstar: `**/` matches zero or more whole directories
//!   (`**/b` matches `b` and `x/y/b`), a trailing `/**` matches the folder itself and
//!   everything under it (`a/**` matches `a`, `a/b`, `a/b/c` but not `ab`), and `**` alone
//!   matches every path. Elsewhere (`a**`, `**.md`) two or more stars match any run of
//!   characters, `/` included.
//! - `?` matches one character other than `/`.
//! - `[...]` matches one character (never `/`) from a set of characters and ranges (`[a-z0-9]`);
//!   `[!...]` or `[^...]` negates it; `]` first in the set and `-` first or last are literal.
//! - `\x` matches `x` literally (`\*`, `\[`, `\\`).
//!
//! Wildcards match names starting with a dot like any other name. Patterns and paths are
//! compared in Unicode NFC, so an NFD path matches an NFC pattern. In case-insensitive mode,
//! characters compare after [`fold_char`].
//!
//! A pattern that can never match a valid vault path is refused when compiled, so that a
//! typo in a config cannot silently match nothing: a leading `/`, an empty segment (`a//b`,
//! a trailing `/`), a `.` or `..` segment, control characters, and the syntax errors below.
//! Matching simulates the token list as an automaton over bit sets (`glob/matcher.rs`): its cost
//! is bounded by `path characters × tokens / 64` word operations, with no backtracking.

mod class;
mod matcher;

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;

use crate::acl::casefold::fold_char;
use crate::acl::path::to_nfc;
use class::CharClass;
use matcher::Automaton;

/// Longest pattern accepted, in bytes of its NFC form.
pub const MAX_GLOB_BYTES: usize = 1024;

/// Whether letters compare with or without regard to case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CaseMode {
    /// Exact comparison (case-sensitive filesystems such as Linux ext4).
    #[default]
    Sensitive,
    /// Comparison after case folding (case-insensitive filesystems: NTFS, APFS by default).
    Insensitive,
}

/// Why a pattern does not compile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GlobError {
    /// The pattern is empty.
    Empty,
    /// The pattern is longer than [`MAX_GLOB_BYTES`].
    TooLong,
    /// The pattern starts with `/`; vault paths are relative.
    LeadingSlash,
    /// The pattern has an empty segment (`a//b` or a trailing `/`).
    EmptySegment,
    /// The pattern has a `.` or `..` segment, which no valid vault path has.
    DotSegment,
    /// The pattern contains a control character (NUL included).
    ControlCharacter,
    /// A `[` has no closing `]` within its segment.
    UnclosedClass,
    /// A range in a class runs backwards (`[z-a]`).
    InvalidRange,
    /// A `\` is the last character of a segment, with nothing to escape.
    DanglingEscape,
}

impl GlobError {
    /// Stable snake_case name of the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            GlobError::Empty => "empty",
            GlobError::TooLong => "too_long",
            GlobError::LeadingSlash => "leading_slash",
            GlobError::EmptySegment => "empty_segment",
            GlobError::DotSegment => "dot_segment",
            GlobError::ControlCharacter => "control_character",
            GlobError::UnclosedClass => "unclosed_class",
            GlobError::InvalidRange => "invalid_range",
            GlobError::DanglingEscape => "dangling_escape",
        }
    }
}

impl fmt::Display for GlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One step of a compiled pattern; each token is one state of the matching automaton.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// Exactly this character (folded in case-insensitive mode).
    Literal(char),
    /// `?`: one character other than `/`.
    AnyChar,
    /// `[...]`: one character of the class.
    Class(CharClass),
    /// `*`: any run without `/`.
    Star,
    /// `**` inside a segment, or as the whole pattern: any run.
    AnyRun,
    /// Start of a `**/` segment: goes on to [`Token::Dirs`] or skips it (zero directories).
    ZeroDirs,
    /// The rest of a `**/` segment (always right after [`Token::ZeroDirs`]): any run that
    /// ends with `/`.
    Dirs,
    /// A trailing `/**` segment (always the last token): nothing, or `/` and then anything.
    Subtree,
}

impl Token {
    /// Whether the state can be left without consuming a character (to the next state;
    /// [`Token::ZeroDirs`] also to the one after).
    fn matches_empty(&self) -> bool {
        matches!(
            self,
            Token::Star | Token::AnyRun | Token::ZeroDirs | Token::Subtree
        )
    }
}

/// A compiled glob pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    source: String,
    tokens: Vec<Token>,
    automaton: Automaton,
    /// The literal characters every match ends with (a quick test before the automaton).
    literal_suffix: Vec<char>,
    case: CaseMode,
}

impl Glob {
    /// Compiles `pattern` (after NFC normalisation) for the given case mode.
    pub fn compile(pattern: &str, case: CaseMode) -> Result<Glob, GlobError> {
        if pattern.is_empty() {
            return Err(GlobError::Empty);
        }
        // As for paths: NFC shrinks at most threefold, so this is too long after it too.
        if pattern.len() > 4 * MAX_GLOB_BYTES {
            return Err(GlobError::TooLong);
        }
        let source: String = pattern.nfc().collect();
        if source.len() > MAX_GLOB_BYTES {
            return Err(GlobError::TooLong);
        }
        if source.chars().any(char::is_control) {
            return Err(GlobError::ControlCharacter);
        }
        if source.starts_with('/') {
            return Err(GlobError::LeadingSlash);
        }
        let segments: Vec<&str> = source.split('/').collect();
        if segments.iter().any(|s| s.is_empty()) {
            return Err(GlobError::EmptySegment);
        }
        if segments.iter().any(|s| *s == "." || *s == "..") {
            return Err(GlobError::DotSegment);
        }
        let tokens = tokenize(&segments, case == CaseMode::Insensitive)?;
        let automaton = Automaton::new(&tokens);
        let literal_suffix = literal_suffix(&tokens);
        Ok(Glob {
            source,
            tokens,
            automaton,
            literal_suffix,
            case,
        })
    }

    /// The pattern as compiled (NFC).
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The case mode the pattern was compiled for.
    pub fn case_mode(&self) -> CaseMode {
        self.case
    }

    /// Whether the pattern matches the whole of `path` (compared in NFC).
    pub fn matches(&self, path: &str) -> bool {
        let path = to_nfc(path);
        match self.case {
            CaseMode::Sensitive => {
                self.ends_with_suffix(path.chars().rev())
                    && self.automaton.run(&self.tokens, path.chars())
            }
            CaseMode::Insensitive => {
                self.ends_with_suffix(path.chars().rev().map(fold_char))
                    && self
                        .automaton
                        .run(&self.tokens, path.chars().map(fold_char))
            }
        }
    }

    /// Whether the characters `reversed` (the path from its end) end with the literal suffix.
    fn ends_with_suffix(&self, mut reversed: impl Iterator<Item = char>) -> bool {
        self.literal_suffix
            .iter()
            .rev()
            .all(|&c| reversed.next() == Some(c))
    }
}

/// The characters of the literal tokens that end the list.
fn literal_suffix(tokens: &[Token]) -> Vec<char> {
    let literals = tokens
        .iter()
        .rev()
        .take_while(|t| matches!(t, Token::Literal(_)))
        .count();
    tokens[tokens.len() - literals..]
        .iter()
        .filter_map(|t| match t {
            Token::Literal(c) => Some(*c),
            _ => None,
        })
        .collect()
}

/// Whether a segment is a globstar: two or more stars and nothing else.
fn is_globstar(segment: &str) -> bool {
    segment.len() >= 2 && segment.bytes().all(|b| b == b'*')
}

fn tokenize(segments: &[&str], case_insensitive: bool) -> Result<Vec<Token>, GlobError> {
    // A run of globstar segments means the same as one (`a/**/**/b` is `a/**/b`).
    let mut kept: Vec<&str> = Vec::with_capacity(segments.len());
    for segment in segments {
        if !(is_globstar(segment) && kept.last().is_some_and(|s| is_globstar(s))) {
            kept.push(segment);
        }
    }
    let mut tokens = Vec::new();
    let last = kept.len() - 1;
    for (index, segment) in kept.iter().enumerate() {
        if is_globstar(segment) {
            match (index, index == last) {
                (0, true) => tokens.push(Token::AnyRun),
                (_, true) => tokens.push(Token::Subtree),
                (_, false) => tokens.extend([Token::ZeroDirs, Token::Dirs]),
            }
            continue;
        }
        tokenize_segment(segment, case_insensitive, &mut tokens)?;
        let next_is_trailing_globstar = index + 1 == last && is_globstar(kept[last]);
        if index != last && !next_is_trailing_globstar {
            tokens.push(Token::Literal('/'));
        }
    }
    Ok(tokens)
}

/// Tokens of one non-globstar segment; the separator after it is the caller's.
fn tokenize_segment(
    segment: &str,
    case_insensitive: bool,
    tokens: &mut Vec<Token>,
) -> Result<(), GlobError> {
    let chars: Vec<char> = segment.chars().collect();
    let literal = |c: char| Token::Literal(if case_insensitive { fold_char(c) } else { c });
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '*' => {
                let run = chars[i..].iter().take_while(|&&s| s == '*').count();
                tokens.push(if run == 1 { Token::Star } else { Token::AnyRun });
                i += run;
            }
            '?' => {
                tokens.push(Token::AnyChar);
                i += 1;
            }
            '[' => {
                let (class, len) = CharClass::parse(&chars[i..], case_insensitive)?;
                tokens.push(Token::Class(class));
                i += len;
            }
            '\\' => {
                let escaped = *chars.get(i + 1).ok_or(GlobError::DanglingEscape)?;
                tokens.push(literal(escaped));
                i += 2;
            }
            _ => {
                tokens.push(literal(c));
                i += 1;
            }
        }
    }
    Ok(())
}

/// Escapes `text` so that it matches itself literally as a glob (`*`, `?`, `[`, `]`, `\` and
/// `!` get a `\`); `/` stays a separator.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\' | '!') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Compiles `pattern` and matches it against `path` once; for repeated matching compile a
/// [`Glob`] and keep it.
pub fn glob_match(pattern: &str, path: &str, case: CaseMode) -> Result<bool, GlobError> {
    Ok(Glob::compile(pattern, case)?.matches(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::ToString;

    fn m(pattern: &str, path: &str) -> bool {
        glob_match(pattern, path, CaseMode::Sensitive).unwrap()
    }

    fn mi(pattern: &str, path: &str) -> bool {
        glob_match(pattern, path, CaseMode::Insensitive).unwrap()
    }

    #[test]
    fn star_stays_within_a_segment() {
        assert!(m("*.md", "note.md"));
        assert!(m("*.md", ".md"));
        assert!(!m("*.md", "a/note.md"));
        assert!(m("a/*/c", "a/b/c"));
        assert!(!m("a/*/c", "a/b/x/c"));
        assert!(m("a*", "a"));
    }

    #[test]
    fn globstar_segments() {
        assert!(m("**", "a"));
        assert!(m("**", "a/b/c"));
        assert!(m("**/b", "b"));
        assert!(m("**/b", "x/y/b"));
        assert!(!m("**/b", "xb"));
        assert!(m("a/**/b", "a/b"));
        assert!(m("a/**/b", "a/x/y/b"));
        assert!(!m("a/**/b", "a/xb"));
        assert!(m("a/**", "a"));
        assert!(m("a/**", "a/b/c"));
        assert!(!m("a/**", "ab"));
        assert!(!m("a/**", "b/a"));
        assert!(m("**/**", "a"));
        assert!(m("**/**", "a/b"));
        assert!(m("a/**/**", "a"));
        assert!(m("***", "a/b"));
    }

    #[test]
    fn double_star_inside_a_segment_crosses_slashes() {
        assert!(m("a**", "a/b/c"));
        assert!(m("**.md", "x/y/z.md"));
        assert!(m("a/**b", "a/x/yb"));
        assert!(!m("a/**b", "a/x/yc"));
    }

    #[test]
    fn question_mark_class_and_escape() {
        assert!(m("?.md", "a.md"));
        assert!(!m("?.md", "/.md"));
        assert!(m("[a-c]x", "bx"));
        assert!(!m("[!a-c]x", "bx"));
        assert!(m("\\*", "*"));
        assert!(!m("\\*", "a"));
        assert!(m("\\[x]", "[x]"));
    }

    #[test]
    fn refuses_patterns_that_match_no_vault_path() {
        let err = |p: &str| Glob::compile(p, CaseMode::Sensitive).unwrap_err();
        assert_eq!(err(""), GlobError::Empty);
        assert_eq!(err("/a"), GlobError::LeadingSlash);
        assert_eq!(err("a//b"), GlobError::EmptySegment);
        assert_eq!(err("a/"), GlobError::EmptySegment);
        assert_eq!(err("../a"), GlobError::DotSegment);
        assert_eq!(err("a/./b"), GlobError::DotSegment);
        assert_eq!(err("a\u{0}"), GlobError::ControlCharacter);
        assert_eq!(err("a\\"), GlobError::DanglingEscape);
        assert_eq!(err("a\\/b"), GlobError::DanglingEscape);
        assert_eq!(err("[a/b]"), GlobError::UnclosedClass);
        assert_eq!(err(&"a".repeat(MAX_GLOB_BYTES + 1)), GlobError::TooLong);
        assert!(Glob::compile(&"a".repeat(MAX_GLOB_BYTES), CaseMode::Sensitive).is_ok());
    }

    #[test]
    fn case_modes() {
        assert!(!m("Notes/*.md", "notes/a.MD"));
        assert!(mi("Notes/*.md", "notes/a.MD"));
        assert!(mi(".traſh/**", ".TRASH/x"));
        assert!(mi("[A-Z]*", "q"));
    }

    #[test]
    fn nfc_insensitive() {
        assert!(m("Caf\u{e9}/**", "Cafe\u{301}/x.md"));
        assert!(m("Cafe\u{301}/**", "Caf\u{e9}/x.md"));
        assert_eq!(
            Glob::compile("Cafe\u{301}", CaseMode::Sensitive)
                .unwrap()
                .as_str(),
            "Caf\u{e9}"
        );
    }

    #[test]
    fn pathological_patterns_stay_fast() {
        let path = "a".repeat(100_000);
        assert!(!m("*a*a*a*a*a*b", &path));
        assert!(m("*a*a*a*a*a*", &path));
        let deep = "a/".repeat(2_000) + "b";
        assert!(!m("**/a/**/a/**/a/**/a/**/c", &deep));
        assert!(m("**/a/**/a/**/a/**/a/**/b", &deep));
    }

    #[test]
    fn every_token_kind_works_across_the_64_state_words() {
        for n in (52..=70).chain(116..=134) {
            let head = "a".repeat(n);
            let at = |tail: &str| format!("{head}{tail}");
            assert!(m(&at("/**/b"), &at("/b")), "{n}");
            assert!(m(&at("/**/b"), &at("/x/y/b")), "{n}");
            assert!(!m(&at("/**/b"), &at("/xb")), "{n}");
            assert!(m(&at("/**"), &head), "{n}");
            assert!(m(&at("/**"), &at("/x/y")), "{n}");
            assert!(m(&at("*b"), &at("xxb")), "{n}");
            assert!(!m(&at("*b"), &at("x/b")), "{n}");
            assert!(m(&at("**b"), &at("x/b")), "{n}");
            assert!(m(&at("?[!a]c"), &at("xbc")), "{n}");
            assert!(!m(&at("?[!a]c"), &at("xac")), "{n}");
            assert!(m(&at("**"), &at("/anything/at/all")), "{n}");
        }
    }

    #[test]
    fn escape_round_trips() {
        for text in [
            "a*b",
            "[x]",
            "!bang",
            "back\\slash",
            "q?",
            "dir/sub [1]/n.md",
        ] {
            let glob = Glob::compile(&escape(text), CaseMode::Sensitive).unwrap();
            assert!(glob.matches(text), "{text}");
            assert!(!glob.matches(&(text.to_string() + "x")));
        }
    }
}
