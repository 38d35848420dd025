//! The confirmation guard's boundaries: more than 20 lines AND more than 50 % of the body.

use obsidian_tc::edits::{CONFIRM_LINES, needs_confirmation};

#[test]
fn twenty_lines_never_need_confirmation() {
    assert_eq!(CONFIRM_LINES, 20);
    assert!(!needs_confirmation(20, 20));
    assert!(!needs_confirmation(20, 0));
    assert!(needs_confirmation(21, 21));
    assert!(needs_confirmation(21, 0));
}

#[test]
fn exactly_half_does_not_need_confirmation_more_than_half_does() {
    assert!(!needs_confirmation(50, 100));
    assert!(needs_confirmation(51, 100));
    assert!(!needs_confirmation(21, 42));
    assert!(needs_confirmation(21, 41));
    assert!(!needs_confirmation(500, 1000));
    assert!(needs_confirmation(501, 1000));
    // No overflow at the top of the range: exactly half of an even body, just over half of
    // an odd one.
    assert!(!needs_confirmation(usize::MAX / 2, usize::MAX - 1));
    assert!(needs_confirmation(usize::MAX / 2 + 1, usize::MAX));
    assert!(needs_confirmation(usize::MAX, usize::MAX));
}
