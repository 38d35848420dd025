//! Bracket expressions: `[abc]`, `[a-z]`, `[!a-z]` / `[^a-z]`, with `\` escapes.

use alloc::vec::Vec;

use super::GlobError;
use crate::acl::casefold::fold_char;

/// A compiled bracket expression. It matches one character other than `/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CharClass {
    negated: bool,
    /// Inclusive ranges; a single character is a range of one.
    ranges: Vec<(char, char)>,
    /// Whether membership also tests the uppercase form of the (folded) path character.
    case_insensitive: bool,
}

impl CharClass {
    /// Parses the class whose `[` is at `chars[0]`; returns it and the number of characters
    /// it spans, `]` included. In case-insensitive mode single characters are folded.
    pub(super) fn parse(
        chars: &[char],
        case_insensitive: bool,
    ) -> Result<(CharClass, usize), GlobError> {
        let mut i = 1;
        let negated = matches!(chars.get(i), Some('!' | '^'));
        if negated {
            i += 1;
        }
        let mut ranges = Vec::new();
        let mut first = true;
        loop {
            let (lo, after_lo) = match chars.get(i) {
                None => return Err(GlobError::UnclosedClass),
                Some(']') if !first => {
                    return Ok((
                        CharClass {
                            negated,
                            ranges,
                            case_insensitive,
                        },
                        i + 1,
                    ));
                }
                _ => class_char(chars, i)?,
            };
            first = false;
            let is_range = chars.get(after_lo) == Some(&'-')
                && !matches!(chars.get(after_lo + 1), None | Some(']'));
            if is_range {
                let (hi, after_hi) = class_char(chars, after_lo + 1)?;
                if hi < lo {
                    return Err(GlobError::InvalidRange);
                }
                ranges.push((lo, hi));
                i = after_hi;
            } else {
                let single = if case_insensitive { fold_char(lo) } else { lo };
                ranges.push((single, single));
                i = after_lo;
            }
        }
    }

    /// Whether the class matches `c` (already folded in case-insensitive mode).
    pub(super) fn matches(&self, c: char) -> bool {
        if c == '/' {
            return false;
        }
        let contains = |x: char| self.ranges.iter().any(|&(lo, hi)| lo <= x && x <= hi);
        let mut hit = contains(c);
        if !hit && self.case_insensitive {
            let mut upper = c.to_uppercase();
            if let (Some(u), None) = (upper.next(), upper.next()) {
                hit = contains(u);
            }
        }
        hit != self.negated
    }
}

/// One class member at `chars[i]`, unescaping `\x`; returns it and the index after it.
fn class_char(chars: &[char], i: usize) -> Result<(char, usize), GlobError> {
    match chars.get(i) {
        Some('\\') => chars
            .get(i + 1)
            .map(|&c| (c, i + 2))
            .ok_or(GlobError::DanglingEscape),
        Some(&c) => Ok((c, i + 1)),
        None => Err(GlobError::UnclosedClass),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn class(text: &str, ci: bool) -> Result<(CharClass, usize), GlobError> {
        let chars: Vec<char> = text.chars().collect();
        CharClass::parse(&chars, ci)
    }

    #[test]
    fn parses_members_ranges_and_negation() {
        let (c, len) = class("[a-cx]rest", false).unwrap();
        assert_eq!(len, 6);
        assert!(c.matches('b') && c.matches('x') && !c.matches('d'));
        let (n, _) = class("[!a-c]", false).unwrap();
        assert!(!n.matches('a') && n.matches('z'));
        let (caret, _) = class("[^a]", false).unwrap();
        assert!(!caret.matches('a') && caret.matches('b'));
    }

    #[test]
    fn bracket_and_dash_literals() {
        let (c, len) = class("[]a]", false).unwrap();
        assert_eq!(len, 4);
        assert!(c.matches(']') && c.matches('a'));
        let (d, _) = class("[a-]", false).unwrap();
        assert!(d.matches('-') && d.matches('a') && !d.matches('b'));
        let (e, _) = class("[\\]\\-]", false).unwrap();
        assert!(e.matches(']') && e.matches('-'));
        let (f, _) = class("[!]]", false).unwrap();
        assert!(!f.matches(']') && f.matches('x'));
    }

    #[test]
    fn never_matches_a_slash() {
        let (n, _) = class("[!a]", false).unwrap();
        assert!(!n.matches('/'));
        let (r, _) = class("[!-0]", false).unwrap();
        assert!(!r.matches('/'));
    }

    #[test]
    fn reports_malformed_classes() {
        assert_eq!(class("[abc", false), Err(GlobError::UnclosedClass));
        assert_eq!(class("[]", false), Err(GlobError::UnclosedClass));
        assert_eq!(class("[!]", false), Err(GlobError::UnclosedClass));
        assert_eq!(class("[z-a]", false), Err(GlobError::InvalidRange));
        assert_eq!(class("[a\\", false), Err(GlobError::DanglingEscape));
    }

    #[test]
    fn case_insensitive_membership() {
        let (upper_range, _) = class("[A-Z]", true).unwrap();
        assert!(upper_range.matches('q'));
        let (single, _) = class("[Q]", true).unwrap();
        assert!(single.matches('q'));
        let (sensitive, _) = class("[A-Z]", false).unwrap();
        assert!(!sensitive.matches('q'));
    }
}
