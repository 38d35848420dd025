//! One-to-one Unicode case folding of single characters, for case-insensitive matching.
//!
//! A character folds to the lowercase of its uppercase when both mappings are single
//! characters: `A` → `a`, `ſ` (long s) → `s`, `K` (Kelvin sign) → `k`, `ς` → `σ`, `ı`
//! (dotless i) → `i`, `ẞ` → `ß`. Characters whose mappings expand (`ß` → `SS`, `İ` → `i̇`)
//! fold to themselves, as in Unicode's simple case folding. Folding `ı` to `i` goes one step
//! beyond Unicode's default folding; it matches the uppercase tables of case-insensitive
//! filesystems (NTFS), where `.gıt` and `.git` name the same directory.

/// The case-folded form of `c` (see the module documentation).
pub fn fold_char(c: char) -> char {
    if c.is_ascii() {
        return c.to_ascii_lowercase();
    }
    let upper = single(c.to_uppercase()).unwrap_or(c);
    single(upper.to_lowercase()).unwrap_or(upper)
}

/// Whether `a` and `b` are equal after case folding.
pub fn eq_folded(a: &str, b: &str) -> bool {
    a.chars().map(fold_char).eq(b.chars().map(fold_char))
}

fn single(mut chars: impl Iterator<Item = char>) -> Option<char> {
    let first = chars.next()?;
    chars.next().is_none().then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_ascii_and_the_known_special_letters() {
        assert_eq!(fold_char('A'), 'a');
        assert_eq!(fold_char('a'), 'a');
        assert_eq!(fold_char('/'), '/');
        assert_eq!(fold_char('\u{17F}'), 's');
        assert_eq!(fold_char('\u{212A}'), 'k');
        assert_eq!(fold_char('\u{3C2}'), '\u{3C3}');
        assert_eq!(fold_char('\u{131}'), 'i');
        assert_eq!(fold_char('\u{1E9E}'), '\u{DF}');
        assert_eq!(fold_char('\u{DF}'), '\u{DF}');
        assert_eq!(fold_char('\u{130}'), '\u{130}');
        assert_eq!(fold_char('Ä'), 'ä');
        assert_eq!(fold_char('Ж'), 'ж');
    }

    #[test]
    fn folding_is_idempotent_on_every_char() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let once = fold_char(c);
            assert_eq!(fold_char(once), once, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn compares_strings_folded() {
        assert!(eq_folded(".OBSIDIAN", ".obsidian"));
        assert!(eq_folded(".traſh", ".TRASH"));
        assert!(!eq_folded(".git", ".gi"));
    }
}
