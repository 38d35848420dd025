//! Matching a token list against a path by simulating it as an automaton over bit sets.
//!
//! Each token is one state (plus a final accepting state); the set of live states is a bit
//! set that advances one path character at a time, shift-and style: a state whose token
//! consumes the character moves to the next state (a shift by one), a looping token (`*`,
//! `**`) stays, and states that can be left without consuming anything are added until
//! nothing changes. There is no backtracking: a match costs `O(characters × tokens / 64)`
//! word operations whatever the pattern, so `*a*a*a*a*a*b` against a long run of `a` stays
//! linear in the path length. The masks of every ASCII character are computed once when
//! the glob is compiled; other characters test the tokens as they come.

use alloc::vec;
use alloc::vec::Vec;

use super::Token;

/// The precomputed masks of a token list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Automaton {
    /// Words per bit set: states `0..=tokens.len()`, 64 per word.
    words: usize,
    /// States that can be left without consuming, to the next state.
    nullable: Vec<u64>,
    /// [`Token::ZeroDirs`] states, which can also skip to the state after next.
    zero_dirs: Vec<u64>,
    /// The [`Token::Subtree`] state, after whose `/` everything matches.
    subtree: Vec<u64>,
    /// The last state, when it is [`Token::AnyRun`]: once live, everything matches.
    any_tail: Vec<u64>,
    /// For each ASCII character, its advance mask then its stay mask (`2 × words` words).
    ascii: Vec<u64>,
}

impl Token {
    /// Whether the token consumes `c` and moves on to the next state.
    fn advances(&self, c: char) -> bool {
        match self {
            Token::Literal(l) => c == *l,
            Token::AnyChar => c != '/',
            Token::Class(class) => class.matches(c),
            Token::Dirs => c == '/',
            _ => false,
        }
    }

    /// Whether the token consumes `c` and stays in its state.
    fn stays(&self, c: char) -> bool {
        match self {
            Token::Star => c != '/',
            Token::AnyRun | Token::Dirs => true,
            _ => false,
        }
    }
}

impl Automaton {
    /// Builds the masks of `tokens`.
    pub(super) fn new(tokens: &[Token]) -> Automaton {
        let words = tokens.len() / 64 + 1;
        let mask_of = |keep: &dyn Fn(&Token) -> bool| {
            let mut mask = vec![0u64; words];
            for (i, token) in tokens.iter().enumerate() {
                if keep(token) {
                    set(&mut mask, i);
                }
            }
            mask
        };
        let nullable = mask_of(&|t| t.matches_empty());
        let zero_dirs = mask_of(&|t| matches!(t, Token::ZeroDirs));
        let subtree = mask_of(&|t| matches!(t, Token::Subtree));
        let mut any_tail = vec![0u64; words];
        if let Some(Token::AnyRun) = tokens.last() {
            set(&mut any_tail, tokens.len() - 1);
        }
        let mut ascii = vec![0u64; 128 * 2 * words];
        for (c, masks) in (0u8..128).zip(ascii.chunks_exact_mut(2 * words)) {
            let (advance, stay) = masks.split_at_mut(words);
            fill_masks(tokens, char::from(c), advance, stay);
        }
        Automaton {
            words,
            nullable,
            zero_dirs,
            subtree,
            any_tail,
            ascii,
        }
    }

    /// Whether the automaton of `tokens` accepts the whole of `path` (characters already
    /// case-folded as needed).
    pub(super) fn run(&self, tokens: &[Token], path: impl Iterator<Item = char>) -> bool {
        let w = self.words;
        let mut scratch = vec![0u64; 4 * w];
        let (live, rest) = scratch.split_at_mut(w);
        let (next, rest) = rest.split_at_mut(w);
        let (other_advance, other_stay) = rest.split_at_mut(w);
        set(live, 0);
        self.close_over_empty(live);
        if intersects(live, &self.any_tail) {
            return true;
        }
        for c in path {
            if c == '/' && intersects(live, &self.subtree) {
                return true;
            }
            let (advance, stay): (&[u64], &[u64]) = match u8::try_from(c) {
                Ok(b) if b < 128 => {
                    let at = usize::from(b) * 2 * w;
                    (&self.ascii[at..at + w], &self.ascii[at + w..at + 2 * w])
                }
                _ => {
                    fill_masks(tokens, c, other_advance, other_stay);
                    (&*other_advance, &*other_stay)
                }
            };
            // next = ((live & advance) << 1) | (live & stay)
            let mut carry = 0u64;
            for (out, ((&now, &adv), &stays)) in
                next.iter_mut().zip(live.iter().zip(advance).zip(stay))
            {
                let moved = now & adv;
                *out = (moved << 1) | carry | (now & stays);
                carry = moved >> 63;
            }
            if next.iter().all(|&word| word == 0) {
                return false;
            }
            self.close_over_empty(next);
            if intersects(next, &self.any_tail) {
                return true;
            }
            live.copy_from_slice(next);
        }
        is_set(live, tokens.len())
    }

    /// Adds every state reachable without consuming a character.
    fn close_over_empty(&self, states: &mut [u64]) {
        loop {
            let mut changed = false;
            let (mut carry1, mut carry2) = (0u64, 0u64);
            let masks = self.nullable.iter().zip(&self.zero_dirs);
            for (word, (nullable, zero_dirs)) in states.iter_mut().zip(masks) {
                let one = *word & nullable;
                let two = *word & zero_dirs;
                let add = (one << 1) | carry1 | (two << 2) | carry2;
                carry1 = one >> 63;
                carry2 = two >> 62;
                changed |= add & !*word != 0;
                *word |= add;
            }
            if !changed {
                return;
            }
        }
    }
}

/// Writes the advance and stay masks of `c` over `tokens`.
fn fill_masks(tokens: &[Token], c: char, advance: &mut [u64], stay: &mut [u64]) {
    advance.fill(0);
    stay.fill(0);
    for (i, token) in tokens.iter().enumerate() {
        if token.advances(c) {
            set(advance, i);
        }
        if token.stays(c) {
            set(stay, i);
        }
    }
}

fn set(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1 << (i % 64);
}

fn is_set(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1 << (i % 64)) != 0
}

fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}
