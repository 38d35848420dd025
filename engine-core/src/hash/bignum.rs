//! A small fixed-width unsigned big integer, just enough for exact shortest-digit generation
//! of `f64` values (see [`super::shortest`]).
//!
//! The width is fixed at 1,280 bits. The largest quantity the digit generator ever holds is
//! below 2^1,090 (the scale `2^1,076` of the smallest subnormal times 10 during a digit step,
//! or `4 * 10^309` for the largest normal), so no operation here can carry out of the top word.

use core::cmp::Ordering;

/// Number of 32-bit words: 40 * 32 = 1,280 bits.
const WORDS: usize = 40;

/// An unsigned integer of [`WORDS`] little-endian 32-bit words, of which the first `len` are
/// in use (all words from `len` on are zero), so small values cost little.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Big {
    words: [u32; WORDS],
    len: usize,
}

impl Big {
    /// The value `n`.
    pub(crate) fn from_u64(n: u64) -> Self {
        let mut words = [0u32; WORDS];
        words[0] = n as u32;
        words[1] = (n >> 32) as u32;
        let mut big = Self { words, len: 2 };
        big.trim();
        big
    }

    /// Lowers `len` past leading zero words.
    fn trim(&mut self) {
        while self.len > 0 && self.words.get(self.len - 1) == Some(&0) {
            self.len -= 1;
        }
    }

    /// Stores `carry` in the word just above the used ones.
    fn push_carry(&mut self, carry: u32) {
        if carry != 0
            && let Some(word) = self.words.get_mut(self.len)
        {
            *word = carry;
            self.len += 1;
        }
    }

    /// `self *= m`.
    pub(crate) fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for word in self.words.iter_mut().take(self.len) {
            let product = u64::from(*word) * u64::from(m) + carry;
            *word = product as u32;
            carry = product >> 32;
        }
        self.push_carry(carry as u32);
        self.trim();
    }

    /// `self *= 2^bits`.
    pub(crate) fn mul_pow2(&mut self, bits: u32) {
        let word_shift = ((bits / 32) as usize).min(WORDS);
        let bit_shift = bits % 32;
        if word_shift > 0 {
            self.words.copy_within(..WORDS - word_shift, word_shift);
            for word in self.words.iter_mut().take(word_shift) {
                *word = 0;
            }
            self.len = (self.len + word_shift).min(WORDS);
        }
        if bit_shift > 0 {
            let mut carry = 0u32;
            for word in self.words.iter_mut().take(self.len).skip(word_shift) {
                let next_carry = *word >> (32 - bit_shift);
                *word = (*word << bit_shift) | carry;
                carry = next_carry;
            }
            self.push_carry(carry);
        }
        self.trim();
    }

    /// `self *= 10^exponent`.
    pub(crate) fn mul_pow10(&mut self, exponent: u32) {
        const TEN_TO_THE_NINE: u32 = 1_000_000_000;
        let mut left = exponent;
        while left >= 9 {
            self.mul_small(TEN_TO_THE_NINE);
            left -= 9;
        }
        if left > 0 {
            self.mul_small(10u32.pow(left));
        }
    }

    /// `self += other`.
    pub(crate) fn add(&mut self, other: &Self) {
        let used = self.len.max(other.len);
        let mut carry = false;
        for (word, &addend) in self.words.iter_mut().zip(&other.words).take(used) {
            let (sum, c1) = word.overflowing_add(addend);
            let (sum, c2) = sum.overflowing_add(u32::from(carry));
            *word = sum;
            carry = c1 || c2;
        }
        self.len = used;
        self.push_carry(u32::from(carry));
    }

    /// `self -= other`; the caller guarantees `self >= other`.
    pub(crate) fn sub(&mut self, other: &Self) {
        let mut borrow = false;
        for (word, &subtrahend) in self.words.iter_mut().zip(&other.words).take(self.len) {
            let (difference, b1) = word.overflowing_sub(subtrahend);
            let (difference, b2) = difference.overflowing_sub(u32::from(borrow));
            *word = difference;
            borrow = b1 || b2;
        }
        self.trim();
    }

    /// `self + other`, leaving both untouched.
    pub(crate) fn plus(&self, other: &Self) -> Self {
        let mut sum = self.clone();
        sum.add(other);
        sum
    }
}

impl PartialOrd for Big {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Big {
    fn cmp(&self, other: &Self) -> Ordering {
        self.len.cmp(&other.len).then_with(|| {
            let used = self.len;
            self.words
                .iter()
                .take(used)
                .rev()
                .cmp(other.words.iter().take(used).rev())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn low_u128(big: &Big) -> u128 {
        big.words
            .iter()
            .take(4)
            .rev()
            .fold(0u128, |acc, &w| (acc << 32) | u128::from(w))
    }

    #[test]
    fn arithmetic_matches_u128_for_small_values() {
        let mut a = Big::from_u64(0xDEAD_BEEF_1234_5678);
        a.mul_pow2(17);
        assert_eq!(low_u128(&a), 0xDEAD_BEEF_1234_5678u128 << 17);
        a.mul_pow10(3);
        assert_eq!(low_u128(&a), (0xDEAD_BEEF_1234_5678u128 << 17) * 1000);
        let b = Big::from_u64(u64::MAX);
        let sum = a.plus(&b);
        assert_eq!(
            low_u128(&sum),
            (0xDEAD_BEEF_1234_5678u128 << 17) * 1000 + u128::from(u64::MAX)
        );
        let mut back = sum.clone();
        back.sub(&b);
        assert!(back == a);
        assert!(sum > a);
        assert!(a < sum);
    }

    #[test]
    fn shifts_across_word_boundaries() {
        let mut a = Big::from_u64(1);
        a.mul_pow2(1_075);
        let mut b = Big::from_u64(1);
        for _ in 0..1_075 {
            b.mul_small(2);
        }
        assert!(a == b);
        assert_eq!(a.words[1_075 / 32], 1 << (1_075 % 32));
    }

    #[test]
    fn large_powers_of_ten_compare_correctly() {
        let mut big = Big::from_u64(4);
        big.mul_pow10(309);
        let mut smaller = Big::from_u64(39);
        smaller.mul_pow10(308);
        assert!(smaller < big);
        smaller.add(&Big::from_u64(1));
        assert!(smaller < big);
    }
}
