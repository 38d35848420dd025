//! The fast path: tokenizing a whitespace-free piece of pure ASCII text.
//!
//! ASCII needs no normalization, and the UAX #29 rules that matter for it are few: words
//! are runs of letters and digits, a `.` `,` `;` or `'` between two digits stays inside a
//! number, and a lone `s` after a letter and an apostrophe is a possessive or clitic
//! (`cafe's`, `it's`) and is dropped. The general path gives the same tokens on ASCII
//! (tested in `analyzer`).

use alloc::string::String;

/// Whether `b` may stand between two digits of one number (UAX #29 MidNum, MidNumLet,
/// Single_Quote).
fn is_numeric_separator(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b'\'')
}

/// Emits the raw tokens of `piece` (ASCII, no whitespace) as `(term, start, end)`, with
/// byte offsets shifted by `base`. With `fold_case` the term is lowercased into `lower`.
pub(super) fn tokenize_ascii(
    piece: &str,
    base: usize,
    fold_case: bool,
    lower: &mut String,
    emit: &mut impl FnMut(&str, usize, usize),
) {
    let bytes = piece.as_bytes();
    let at = |i: usize| bytes.get(i).copied().unwrap_or(b' ');
    let mut i = 0;
    while i < bytes.len() {
        if !at(i).is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        loop {
            while at(i).is_ascii_alphanumeric() {
                i += 1;
            }
            if is_numeric_separator(at(i))
                && at(i.wrapping_sub(1)).is_ascii_digit()
                && at(i + 1).is_ascii_digit()
            {
                i += 1;
                continue;
            }
            break;
        }
        let possessive = i - start == 1
            && at(start).eq_ignore_ascii_case(&b's')
            && start >= 2
            && at(start - 1) == b'\''
            && at(start - 2).is_ascii_alphabetic();
        let Some(term) = piece.get(start..i) else {
            continue;
        };
        if possessive {
            continue;
        }
        if fold_case && term.bytes().any(|b| b.is_ascii_uppercase()) {
            lower.clear();
            lower.push_str(term);
            lower.make_ascii_lowercase();
            emit(lower, base + start, base + i);
        } else {
            emit(term, base + start, base + i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn tokens(piece: &str, fold_case: bool) -> Vec<(String, usize, usize)> {
        let mut out = Vec::new();
        tokenize_ascii(piece, 100, fold_case, &mut String::new(), &mut |t, s, e| {
            out.push((t.into(), s, e))
        });
        out
    }

    fn terms(piece: &str) -> Vec<String> {
        tokens(piece, true).into_iter().map(|t| t.0).collect()
    }

    #[test]
    fn words_numbers_and_offsets() {
        assert_eq!(
            tokens("Hello,World!", true),
            [("hello".into(), 100, 105), ("world".into(), 106, 111)]
        );
        assert_eq!(tokens("Hello", false), [("Hello".into(), 100, 105)]);
        assert_eq!(
            terms("3.14,1,000;v1.2.3"),
            ["3.14,1,000", "v1.2.3"].map(String::from)
        );
        assert_eq!(terms("1..2"), ["1", "2"]);
        assert_eq!(terms("1.a"), ["1", "a"]);
        assert_eq!(terms("x.1"), ["x", "1"]);
        assert_eq!(
            terms("e.g.,snake_case:tag"),
            ["e", "g", "snake", "case", "tag"]
        );
    }

    #[test]
    fn apostrophes_split_and_possessive_s_is_dropped() {
        assert_eq!(terms("cafe's"), ["cafe"]);
        assert_eq!(terms("CAFE'S"), ["cafe"]);
        assert_eq!(terms("don't"), ["don", "t"]);
        assert_eq!(terms("l'homme"), ["l", "homme"]);
        assert_eq!(terms("1's"), ["1", "s"]);
        assert_eq!(terms("'s"), ["s"]);
        assert_eq!(terms("1'000"), ["1'000"]);
        assert_eq!(terms("students'"), ["students"]);
    }

    #[test]
    fn punctuation_only_gives_nothing() {
        assert!(terms("!@#$%^&*()[]{}--").is_empty());
        assert!(terms("").is_empty());
    }
}
