//! Matching a token list against a path by simulating it as an automaton.
//!
//! Each token is one state; the set of live states advances one path character at a time.
//! There is no backtracking, so matching costs at most `tokens × characters` steps whatever
//! the pattern: `*a*a*a*a*a*b` against a long run of `a` stays linear in the path length.

use alloc::vec;

use super::Token;

/// Whether `tokens` match the whole of `path` (characters already case-folded as needed).
pub(super) fn run(tokens: &[Token], path: impl Iterator<Item = char>) -> bool {
    let end = tokens.len();
    let mut live = vec![false; end + 1];
    let mut next = vec![false; end + 1];
    live[0] = true;
    close_over_empty(tokens, &mut live);
    for c in path {
        next.fill(false);
        for (i, token) in tokens.iter().enumerate() {
            if !live[i] {
                continue;
            }
            match token {
                Token::Literal(l) => next[i + 1] |= c == *l,
                Token::AnyChar => next[i + 1] |= c != '/',
                Token::Class(class) => next[i + 1] |= class.matches(c),
                Token::Star => next[i] |= c != '/',
                Token::AnyRun => next[i] = true,
                Token::ZeroDirs => {}
                Token::Dirs => {
                    next[i] = true;
                    next[i + 1] |= c == '/';
                }
                // The subtree token is always last: past its `/` everything matches.
                Token::Subtree if c == '/' => return true,
                Token::Subtree => {}
            }
        }
        close_over_empty(tokens, &mut next);
        if !next.contains(&true) {
            return false;
        }
        core::mem::swap(&mut live, &mut next);
    }
    live[end]
}

/// Adds every state reachable without consuming a character. Empty moves only go forward,
/// so one pass in order suffices.
fn close_over_empty(tokens: &[Token], states: &mut [bool]) {
    for (i, token) in tokens.iter().enumerate() {
        if states[i] && token.matches_empty() {
            states[i + 1] = true;
            if matches!(token, Token::ZeroDirs) {
                states[i + 2] = true;
            }
        }
    }
}
