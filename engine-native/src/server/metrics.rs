//! In-memory call counters (`get_metrics`): calls by vault, tool and outcome code, and faults
//! of the bookkeeping itself (audit rows or idempotency records that could not be written).

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use schemars::JsonSchema;
use serde::Serialize;

/// The outcome label of a successful call.
pub const OK_CODE: &str = "ok";

/// The tool label of calls to names that are not registered (the names themselves are not
/// kept: a caller could otherwise grow the counters without bound).
pub const UNREGISTERED_TOOL: &str = "(unregistered)";

/// One counter: calls of `tool` in `vault` that ended with `code`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CallCount {
    /// The vault the call resolved to (`""` when it failed before vault binding).
    pub vault: String,
    /// The tool name, or [`UNREGISTERED_TOOL`].
    pub tool: String,
    /// `ok` or the error code.
    pub code: String,
    /// How many calls.
    pub count: u64,
}

/// A copy of the counters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MetricsSnapshot {
    /// Calls by vault, tool and code, sorted.
    pub calls: Vec<CallCount>,
    /// Audit rows or idempotency records the store failed to write.
    pub bookkeeping_faults: u64,
}

#[derive(Debug, Default)]
struct Counters {
    calls: BTreeMap<(String, String, String), u64>,
    bookkeeping_faults: u64,
}

/// The counters of one server.
#[derive(Debug, Default)]
pub struct Metrics {
    counters: Mutex<Counters>,
}

impl Metrics {
    /// Counts one call.
    pub fn record_call(&self, vault: &str, tool: &str, code: &str) {
        let key = (vault.to_owned(), tool.to_owned(), code.to_owned());
        *self.lock().calls.entry(key).or_insert(0) += 1;
    }

    /// Counts one failed write of an audit row or idempotency record.
    pub fn record_bookkeeping_fault(&self) {
        self.lock().bookkeeping_faults += 1;
    }

    /// The counters, restricted to `vault` when given (a vault-bound caller sees only its own).
    pub fn snapshot(&self, vault: Option<&str>) -> MetricsSnapshot {
        let counters = self.lock();
        let calls = counters
            .calls
            .iter()
            .filter(|((v, _, _), _)| vault.is_none_or(|only| only == v))
            .map(|((vault, tool, code), count)| CallCount {
                vault: vault.clone(),
                tool: tool.clone(),
                code: code.clone(),
                count: *count,
            })
            .collect();
        MetricsSnapshot {
            calls,
            bookkeeping_faults: counters.bookkeeping_faults,
        }
    }

    /// The count of calls of `tool` that ended with `code`, over every vault.
    pub fn count(&self, tool: &str, code: &str) -> u64 {
        self.lock()
            .calls
            .iter()
            .filter(|((_, t, c), _)| t == tool && c == code)
            .map(|(_, count)| count)
            .sum()
    }

    /// Every update is a single assignment, so a poisoned lock holds consistent counters.
    fn lock(&self) -> MutexGuard<'_, Counters> {
        self.counters.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
