//! The throttle's configuration: one tier (rate and burst) per scope class, and the switch.

use std::fmt;

use engine_core::acl::ScopeFamily;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A rate-limit tier: a bucket of `burst` tokens refilled continuously at `perMinute`
/// tokens per minute. Both are at least 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(try_from = "RawTier", rename_all = "camelCase")]
pub struct ThrottleTier {
    per_minute: u32,
    burst: u32,
}

/// The tier as written in the config, before validation.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawTier {
    /// Tokens added per minute.
    #[schemars(range(min = 1))]
    per_minute: u32,
    /// The most tokens the bucket holds.
    #[schemars(range(min = 1))]
    burst: u32,
}

impl TryFrom<RawTier> for ThrottleTier {
    type Error = TierError;

    fn try_from(raw: RawTier) -> Result<ThrottleTier, TierError> {
        ThrottleTier::new(raw.per_minute, raw.burst)
    }
}

/// Why a tier is refused: a zero rate would never refill, a zero burst would refuse every call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierError {
    /// `perMinute` is 0.
    ZeroRate,
    /// `burst` is 0.
    ZeroBurst,
}

impl fmt::Display for TierError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TierError::ZeroRate => {
                "throttle tier perMinute must be at least 1 (set throttle.enabled to false to disable limits)"
            }
            TierError::ZeroBurst => {
                "throttle tier burst must be at least 1 (set throttle.enabled to false to disable limits)"
            }
        })
    }
}

impl std::error::Error for TierError {}

impl ThrottleTier {
    /// A tier of `per_minute` tokens per minute and a bucket of `burst`; both must be ≥ 1.
    pub fn new(per_minute: u32, burst: u32) -> Result<ThrottleTier, TierError> {
        match (per_minute, burst) {
            (0, _) => Err(TierError::ZeroRate),
            (_, 0) => Err(TierError::ZeroBurst),
            _ => Ok(ThrottleTier { per_minute, burst }),
        }
    }

    /// Tokens added per minute.
    pub fn per_minute(self) -> u32 {
        self.per_minute
    }

    /// The bucket's size: how many calls may be made at once after an idle spell.
    pub fn burst(self) -> u32 {
        self.burst
    }

    const fn shipped(per_minute: u32, burst: u32) -> ThrottleTier {
        ThrottleTier { per_minute, burst }
    }
}

/// One tier per scope class. Missing classes in the config keep their shipped default:
/// read 600/min burst 100, write 60/20, delete 60/20, bulk 10/3, execute 5/1, admin 5/1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ThrottleTiers {
    /// Tier of `read` calls.
    pub read: ThrottleTier,
    /// Tier of `write` calls.
    pub write: ThrottleTier,
    /// Tier of `delete` calls.
    pub delete: ThrottleTier,
    /// Tier of `bulk` calls.
    pub bulk: ThrottleTier,
    /// Tier of `execute` calls.
    pub execute: ThrottleTier,
    /// Tier of `admin` calls.
    pub admin: ThrottleTier,
}

impl Default for ThrottleTiers {
    fn default() -> ThrottleTiers {
        ThrottleTiers {
            read: ThrottleTier::shipped(600, 100),
            write: ThrottleTier::shipped(60, 20),
            delete: ThrottleTier::shipped(60, 20),
            bulk: ThrottleTier::shipped(10, 3),
            execute: ThrottleTier::shipped(5, 1),
            admin: ThrottleTier::shipped(5, 1),
        }
    }
}

impl ThrottleTiers {
    /// The tier of a scope class.
    pub fn tier(&self, class: ScopeFamily) -> ThrottleTier {
        match class {
            ScopeFamily::Read => self.read,
            ScopeFamily::Write => self.write,
            ScopeFamily::Delete => self.delete,
            ScopeFamily::Bulk => self.bulk,
            ScopeFamily::Execute => self.execute,
            ScopeFamily::Admin => self.admin,
        }
    }
}

/// The `throttle` config block: `{"enabled": true, "tiers": {"write": {"perMinute": 30, "burst": 5}}}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ThrottleConfig {
    /// When false every call passes and no bucket is kept (default true).
    pub enabled: bool,
    /// The tier per scope class.
    pub tiers: ThrottleTiers,
}

impl Default for ThrottleConfig {
    fn default() -> ThrottleConfig {
        ThrottleConfig {
            enabled: true,
            tiers: ThrottleTiers::default(),
        }
    }
}
