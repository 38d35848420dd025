//! The data-loss guard of the original `patch_note` (reference §2.4, §9.6: a replace once
//! truncated a 912-line note to 30 lines): an edit that discards more than
//! [`CONFIRM_LINES`] lines AND more than half of the note's body needs a human's confirmation.

/// An edit may discard this many lines without confirmation, whatever the note's size.
pub const CONFIRM_LINES: usize = 20;

/// `true` when discarding `lines_removed` lines of a body of `body_lines_before` lines needs
/// confirmation: more than [`CONFIRM_LINES`] lines and more than 50 % of the body.
pub fn needs_confirmation(lines_removed: usize, body_lines_before: usize) -> bool {
    // `removed > body / 2` is `2 * removed > body` on integers, without overflow.
    lines_removed > CONFIRM_LINES && lines_removed > body_lines_before / 2
}
