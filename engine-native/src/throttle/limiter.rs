//! [`Throttle`]: the token buckets of every (caller, scope class, vault), behind one lock.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use engine_core::acl::{Scope, ScopeFamily, scope_class};

use crate::errors::ToolError;
use crate::throttle::ThrottleConfig;
use crate::throttle::bucket::Bucket;

/// Sweep idle full buckets at least this often (in clock milliseconds) while calls arrive.
const SWEEP_INTERVAL_MS: u64 = 60_000;

/// Never sweep because of size below this many buckets.
const MIN_SWEEP_LEN: usize = 1024;

/// The rate-limit class of a tool with these required scopes: engine-core's scope class
/// (bulk > execute > admin > delete > write > read), `read` for a tool that needs no scope.
pub fn rate_class(required: &[Scope]) -> ScopeFamily {
    scope_class(required).unwrap_or(ScopeFamily::Read)
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct BucketKey {
    caller: String,
    class: ScopeFamily,
    vault: String,
}

#[derive(Debug)]
struct Buckets {
    map: HashMap<BucketKey, Bucket>,
    last_sweep_ms: u64,
    sweep_at_len: usize,
}

/// The rate limiter: one token bucket per (caller, scope class, vault), in memory only.
///
/// Time is the caller's monotonic clock in milliseconds, passed to every call. Buckets start
/// full and refill continuously. A bucket that is full is the same as no bucket, so full
/// buckets are dropped when the map has doubled since the last sweep or a minute of clock
/// time has passed: memory holds only callers active within their tier's refill time.
#[derive(Debug)]
pub struct Throttle {
    config: ThrottleConfig,
    buckets: Mutex<Buckets>,
}

impl Throttle {
    /// A throttle with these tiers (or passing everything when `config.enabled` is false).
    pub fn new(config: ThrottleConfig) -> Throttle {
        Throttle {
            config,
            buckets: Mutex::new(Buckets {
                map: HashMap::new(),
                last_sweep_ms: 0,
                sweep_at_len: MIN_SWEEP_LEN,
            }),
        }
    }

    /// The configuration in force.
    pub fn config(&self) -> &ThrottleConfig {
        &self.config
    }

    /// Takes one token from the bucket of (`caller`, `class`, `vault`) at `now_ms`, or takes
    /// nothing and returns `throttled` with the exact wait. `caller` is the caller's identity
    /// or its hash; the throttle only compares it.
    pub fn check(
        &self,
        caller: &str,
        class: ScopeFamily,
        vault: &str,
        now_ms: u64,
    ) -> Result<(), ToolError> {
        if !self.config.enabled {
            return Ok(());
        }
        let tier = self.config.tiers.tier(class);
        let mut buckets = self.lock();
        if buckets.map.len() >= buckets.sweep_at_len
            || now_ms.saturating_sub(buckets.last_sweep_ms) >= SWEEP_INTERVAL_MS
        {
            self.sweep(&mut buckets, now_ms);
        }
        let key = BucketKey {
            caller: caller.to_owned(),
            class,
            vault: vault.to_owned(),
        };
        buckets
            .map
            .entry(key)
            .or_insert_with(|| Bucket::full(tier, now_ms))
            .take(tier, now_ms)
            .map_err(|retry_after_ms| ToolError::throttled(class, retry_after_ms, tier))
    }

    /// Drops every bucket that is full at `now_ms` (for a periodic maintenance task; `check`
    /// also does it on its own). Returns how many buckets remain.
    pub fn evict_idle(&self, now_ms: u64) -> usize {
        let mut buckets = self.lock();
        self.sweep(&mut buckets, now_ms);
        buckets.map.len()
    }

    /// How many buckets are held now.
    pub fn bucket_count(&self) -> usize {
        self.lock().map.len()
    }

    fn sweep(&self, buckets: &mut Buckets, now_ms: u64) {
        let tiers = &self.config.tiers;
        buckets
            .map
            .retain(|key, bucket| !bucket.is_full(tiers.tier(key.class), now_ms));
        buckets.last_sweep_ms = now_ms;
        buckets.sweep_at_len = (buckets.map.len() * 2).max(MIN_SWEEP_LEN);
    }

    /// The buckets; a panic in another thread while holding the lock leaves them consistent
    /// (every update is a single assignment), so a poisoned lock is used as is.
    fn lock(&self) -> MutexGuard<'_, Buckets> {
        self.buckets
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Default for Throttle {
    /// The shipped defaults, enabled.
    fn default() -> Throttle {
        Throttle::new(ThrottleConfig::default())
    }
}
