//! Shortest round-trip decimal digits of a positive finite `f64`, as ECMAScript's
//! `Number::toString` (ECMA-262 §6.1.6.1.20) chooses them: the fewest digits `s` (length `k`)
//! with exponent `n` such that `s × 10^(n−k)` reads back as the same double; among those, the
//! one closest to the exact value; on an exact tie, the even one.
//!
//! The digits come from the free-format algorithm of Steele & White / Burger & Dybvig, run in
//! exact integer arithmetic ([`Big`]), so the result is the same on every target. Integers
//! below 2^53 take a direct path.

use super::bignum::Big;

/// Most significant digits any `f64` needs to round-trip.
const MAX_DIGITS: usize = 17;

/// `0.d₁d₂…d_len × 10^exponent`: the digits `s` and the exponent `n` of ECMA-262.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Decimal {
    digits: [u8; MAX_DIGITS],
    len: usize,
    /// The `n` of ECMA-262: the value is `0.digits × 10^exponent`.
    pub(crate) exponent: i32,
}

impl Decimal {
    /// The significant digits as ASCII (`b'0'..=b'9'`), first one non-zero.
    pub(crate) fn digits(&self) -> &[u8] {
        self.digits.get(..self.len).unwrap_or(&[])
    }

    fn empty() -> Self {
        Self {
            digits: [0; MAX_DIGITS],
            len: 0,
            exponent: 0,
        }
    }

    fn push(&mut self, digit: u8) {
        if let Some(slot) = self.digits.get_mut(self.len) {
            *slot = b'0' + digit;
            self.len += 1;
        }
    }
}

/// The shortest digits of `value`, which must be positive and finite.
pub(crate) fn shortest_digits(value: f64) -> Decimal {
    const TWO_POW_53: f64 = 9_007_199_254_740_992.0;
    if value < TWO_POW_53 && value == (value as u64) as f64 {
        integer_digits(value as u64)
    } else {
        free_format_digits(value)
    }
}

/// Digits of an integer below 2^53: exact, and trailing zeros move into the exponent. No
/// shorter string can denote the same double, since the rounding interval is at most ±0.5.
fn integer_digits(mut n: u64) -> Decimal {
    let mut reversed = [0u8; 20];
    let mut count = 0;
    while n > 0 {
        if let Some(slot) = reversed.get_mut(count) {
            *slot = (n % 10) as u8;
        }
        n /= 10;
        count += 1;
    }
    let mut decimal = Decimal::empty();
    decimal.exponent = count as i32;
    let significant = reversed
        .iter()
        .take(count)
        .position(|&d| d != 0)
        .unwrap_or(0);
    for &digit in reversed.iter().take(count).skip(significant).rev() {
        decimal.push(digit);
    }
    decimal
}

/// Burger & Dybvig's free-format shortest digits, with exact big-integer state.
fn free_format_digits(value: f64) -> Decimal {
    let bits = value.to_bits();
    let biased_exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (mantissa, exponent) = if biased_exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), biased_exponent - 1075)
    };
    // Round-half-even reading: the interval ends are themselves acceptable when the
    // mantissa is even.
    let boundaries_included = mantissa % 2 == 0;
    // The gap below is half as wide when the mantissa is a power of two (except at the
    // smallest normal exponent, whose predecessor is a subnormal of the same spacing).
    let lower_gap_halved = mantissa == 1u64 << 52 && biased_exponent > 1;

    // value = r / s; upper bound = (r + m_plus) / s; lower bound = (r - m_minus) / s.
    let mut r = Big::from_u64(mantissa);
    let mut s = Big::from_u64(1);
    let mut m_plus = Big::from_u64(1);
    let mut m_minus = Big::from_u64(1);
    let extra = if lower_gap_halved { 2 } else { 1 };
    if exponent >= 0 {
        let e = exponent as u32;
        r.mul_pow2(e + extra);
        s.mul_pow2(extra);
        m_plus.mul_pow2(e + extra - 1);
        m_minus.mul_pow2(e);
    } else {
        let e = exponent.unsigned_abs();
        r.mul_pow2(extra);
        s.mul_pow2(e + extra);
        m_plus.mul_pow2(extra - 1);
    }

    // Scale by the estimated decimal exponent k, then correct it by at most a step or two.
    let bit_length = 64 - mantissa.leading_zeros() as i32;
    let mut k = floor_log10_pow2(exponent + bit_length - 1) + 1;
    if k >= 0 {
        s.mul_pow10(k as u32);
    } else {
        let up = k.unsigned_abs();
        r.mul_pow10(up);
        m_plus.mul_pow10(up);
        m_minus.mul_pow10(up);
    }
    let reaches = |r: &Big, m_plus: &Big, s: &Big| {
        let high = r.plus(m_plus);
        if boundaries_included {
            high >= *s
        } else {
            high > *s
        }
    };
    while reaches(&r, &m_plus, &s) {
        s.mul_small(10);
        k += 1;
    }
    loop {
        let mut r10 = r.clone();
        r10.mul_small(10);
        let mut m_plus10 = m_plus.clone();
        m_plus10.mul_small(10);
        if reaches(&r10, &m_plus10, &s) {
            break;
        }
        r = r10;
        m_plus = m_plus10;
        m_minus.mul_small(10);
        k -= 1;
    }

    let mut decimal = Decimal::empty();
    decimal.exponent = k;
    for _ in 0..MAX_DIGITS {
        r.mul_small(10);
        m_plus.mul_small(10);
        m_minus.mul_small(10);
        let mut digit = 0u8;
        while r >= s {
            r.sub(&s);
            digit += 1;
        }
        let low_ok = if boundaries_included {
            r <= m_minus
        } else {
            r < m_minus
        };
        let high_ok = reaches(&r, &m_plus, &s);
        match (low_ok, high_ok) {
            (false, false) => decimal.push(digit),
            (true, false) => {
                decimal.push(digit);
                break;
            }
            (false, true) => {
                decimal.push(digit + 1);
                break;
            }
            (true, true) => {
                let twice_r = r.plus(&r);
                let round_up = match twice_r.cmp(&s) {
                    core::cmp::Ordering::Less => false,
                    core::cmp::Ordering::Greater => true,
                    core::cmp::Ordering::Equal => digit % 2 == 1,
                };
                decimal.push(digit + u8::from(round_up));
                break;
            }
        }
    }
    decimal
}

/// `floor(log10(2^e))` for |e| ≤ 1,100, in integer arithmetic (78913 / 2^18 ≈ log10 2).
fn floor_log10_pow2(e: i32) -> i32 {
    (e * 78_913) >> 18
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: f64) -> (alloc::string::String, i32) {
        let d = shortest_digits(value);
        (
            core::str::from_utf8(d.digits()).unwrap_or("?").into(),
            d.exponent,
        )
    }

    #[test]
    fn integers_drop_trailing_zeros() {
        assert_eq!(text(1.0), ("1".into(), 1));
        assert_eq!(text(1000.0), ("1".into(), 4));
        assert_eq!(
            text(9_007_199_254_740_991.0),
            ("9007199254740991".into(), 16)
        );
        assert_eq!(text(120.0), ("12".into(), 3));
    }

    #[test]
    fn extremes_of_the_double_range() {
        assert_eq!(text(5e-324), ("5".into(), -323));
        assert_eq!(text(f64::MAX), ("17976931348623157".into(), 309));
        assert_eq!(text(f64::MIN_POSITIVE), ("22250738585072014".into(), -307));
        assert_eq!(
            text(9_007_199_254_740_992.0),
            ("9007199254740992".into(), 16)
        );
    }

    #[test]
    fn ties_and_neighbours_of_powers_of_ten() {
        assert_eq!(text(0.1), ("1".into(), 0));
        assert_eq!(text(1e23), ("1".into(), 24));
        assert_eq!(
            text(f64::from_bits(0x44b5_2d02_c7e1_4af5)),
            ("9999999999999997".into(), 23)
        );
        assert_eq!(
            text(f64::from_bits(0x44b5_2d02_c7e1_4af7)),
            ("10000000000000001".into(), 24)
        );
        assert_eq!(text(1e21), ("1".into(), 22));
        assert_eq!(text(333_333_333.333_333_3), ("3333333333333333".into(), 9));
    }

    #[test]
    fn exact_tie_between_two_shortest_candidates_takes_the_even_one() {
        // 564884782883639.25 is a double, halfway between …639.2 and …639.3; Node prints
        // "564884782883639.2" (Rust's `{}` would print …639.3, so clippy would call the
        // literal over-precise: it is written as a sum of exact parts).
        assert_eq!(
            text(564_884_782_883_639.0 + 0.25),
            ("5648847828836392".into(), 15)
        );
        assert_eq!(
            text(564_884_782_883_639.0 + 0.75),
            ("5648847828836398".into(), 15)
        );
    }

    #[test]
    fn log_estimate_is_exact_over_the_exponent_range() {
        for e in -1100..=1100 {
            let estimate = floor_log10_pow2(e);
            // 10^estimate <= 2^e < 10^(estimate + 1), checked in f64 logs with a margin.
            let log = f64::from(e) * core::f64::consts::LOG10_2;
            assert!(
                f64::from(estimate) <= log + 1e-9 && log < f64::from(estimate + 1),
                "e = {e}"
            );
        }
    }
}
