//! One token bucket in exact integer arithmetic.
//!
//! The level is kept in units of 1/60 000 of a token, so that one millisecond refills exactly
//! `per_minute` units: refill, the deficit and the wait are all exact, with no rounding drift.

use crate::throttle::ThrottleTier;

/// Units in one token: the milliseconds in a minute.
const UNITS_PER_TOKEN: u64 = 60_000;

/// A token bucket's state; the tier is passed in, it is fixed per scope class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bucket {
    /// Tokens held, in units (see the module doc).
    level: u64,
    /// The clock reading the level was last brought up to date at.
    updated_ms: u64,
}

fn capacity(tier: ThrottleTier) -> u64 {
    u64::from(tier.burst()) * UNITS_PER_TOKEN
}

impl Bucket {
    /// A full bucket, as a caller finds it on first use or after an idle spell.
    pub(crate) fn full(tier: ThrottleTier, now_ms: u64) -> Bucket {
        Bucket {
            level: capacity(tier),
            updated_ms: now_ms,
        }
    }

    /// The level at `now_ms`. A clock reading before the last update adds nothing.
    fn level_at(&self, tier: ThrottleTier, now_ms: u64) -> u64 {
        let elapsed = now_ms.saturating_sub(self.updated_ms);
        let refill = elapsed.saturating_mul(u64::from(tier.per_minute()));
        self.level.saturating_add(refill).min(capacity(tier))
    }

    /// Whether the bucket is full at `now_ms`, i.e. indistinguishable from a fresh one.
    pub(crate) fn is_full(&self, tier: ThrottleTier, now_ms: u64) -> bool {
        self.level_at(tier, now_ms) == capacity(tier)
    }

    /// Takes one token at `now_ms`, or takes nothing and returns the exact milliseconds until
    /// a whole token is back.
    pub(crate) fn take(&mut self, tier: ThrottleTier, now_ms: u64) -> Result<(), u64> {
        self.level = self.level_at(tier, now_ms);
        self.updated_ms = self.updated_ms.max(now_ms);
        if self.level >= UNITS_PER_TOKEN {
            self.level -= UNITS_PER_TOKEN;
            return Ok(());
        }
        let deficit = UNITS_PER_TOKEN - self.level;
        Err(deficit.div_ceil(u64::from(tier.per_minute())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tier(per_minute: u32, burst: u32) -> ThrottleTier {
        ThrottleTier::new(per_minute, burst).expect("valid tier")
    }

    #[test]
    fn refill_is_exact_per_millisecond() {
        // 7 per minute: one token every 60000/7 = 8571.43 ms, so the wait rounds up to 8572.
        let t = tier(7, 1);
        let mut b = Bucket::full(t, 0);
        assert_eq!(b.take(t, 0), Ok(()));
        assert_eq!(b.take(t, 0), Err(8572));
        assert_eq!(b.take(t, 8571), Err(1));
        assert_eq!(b.take(t, 8572), Ok(()));
    }

    #[test]
    fn a_clock_going_back_neither_refills_nor_rewinds() {
        let t = tier(60, 2);
        let mut b = Bucket::full(t, 10_000);
        assert_eq!(b.take(t, 10_000), Ok(()));
        assert_eq!(b.take(t, 10_000), Ok(()));
        // An earlier reading: no refill, and the later reading still counts from 10 000.
        assert!(b.take(t, 5_000).is_err());
        assert_eq!(b.take(t, 10_999), Err(1));
        assert_eq!(b.take(t, 11_000), Ok(()));
    }

    #[test]
    fn fullness_reflects_refill() {
        let t = tier(60, 2);
        let mut b = Bucket::full(t, 0);
        assert!(b.is_full(t, 0));
        assert_eq!(b.take(t, 0), Ok(()));
        assert!(!b.is_full(t, 999));
        assert!(b.is_full(t, 1_000));
        assert!(b.is_full(t, u64::MAX));
    }
}
