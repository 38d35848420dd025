//! What a server counts about itself, recorded at one point per event and read two ways:
//! `get_metrics` (calls by vault, tool and outcome code; bookkeeping faults) and Prometheus
//! (`GET /metrics` on the HTTP transport, `obsidian-tc metrics`).
//!
//! - [`families`]: the Prometheus families (the `prometheus` crate: its text encoder and, on
//!   Linux, its process collector), one set per server.
//! - [`exposition`]: the text a scrape gets, with the index gauges read at scrape time.
//! - [`from_cache`]: the same families built from the cache database alone.
//!
//! The call counter `obsidian_tc_tool_calls_total` is the one source of `get_metrics`' counts:
//! it is recorded even when `observability.metrics.enabled` is off, and `get_metrics` reads it
//! back. Everything else (latencies, throttle trips, HITL waits) is recorded only when metrics
//! are on. Recording a call is a label lookup and an atomic add per family.

pub mod exposition;
pub mod families;
pub mod from_cache;

use std::collections::BTreeMap;
use std::sync::Mutex;

use engine_core::acl::ScopeFamily;
use prometheus::Registry;
use prometheus::core::Collector;
use schemars::JsonSchema;
use serde::Serialize;

pub use families::Families;

use crate::runtime::tool::Tool;
use crate::throttle::rate_class;

/// The outcome label of a successful call.
pub const OK_CODE: &str = "ok";

/// The outcome label of a failed call (its code label is the error code).
pub const ERROR_OUTCOME: &str = "error";

/// The tool label of calls to names that are not registered (the names themselves are not
/// kept: a caller could otherwise grow the counters without bound).
pub const UNREGISTERED_TOOL: &str = "(unregistered)";

/// The class label of a call to a name that is not registered (it has no rate class).
pub const NO_CLASS: &str = "none";

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

/// The tool and class labels of a call to `name`: the registered tool's name and rate class,
/// else [`UNREGISTERED_TOOL`] and [`NO_CLASS`].
pub fn call_labels<'t>(name: &'t str, tool: Option<&Tool>) -> (&'t str, &'static str) {
    match tool {
        Some(tool) => (name, rate_class(&tool.scopes).as_str()),
        None => (UNREGISTERED_TOOL, NO_CLASS),
    }
}

/// One finished call, as the counters see it.
#[derive(Debug, Clone, Copy)]
pub struct CallRecord<'a> {
    /// The vault it was bound to (`""` before vault binding).
    pub vault: &'a str,
    /// The tool label (see [`call_labels`]).
    pub tool: &'a str,
    /// The class label (see [`call_labels`]).
    pub class: &'a str,
    /// [`OK_CODE`] or the error code.
    pub code: &'a str,
    /// How long it took, milliseconds.
    pub duration_ms: u64,
}

impl CallRecord<'_> {
    /// Counts this call in `families` (and its latency, when `timed`).
    pub fn count_in(&self, families: &Families, timed: bool) {
        let outcome = if self.code == OK_CODE {
            OK_CODE
        } else {
            ERROR_OUTCOME
        };
        families
            .calls
            .with_label_values(&[self.vault, self.tool, self.class, outcome, self.code])
            .inc();
        if timed {
            families
                .call_seconds
                .with_label_values(&[self.class])
                .observe(self.duration_ms as f64 / 1000.0);
        }
    }
}

/// The result label of a wait at the human-approval gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitlResult {
    /// An approval was had: the call runs.
    Approved,
    /// No approval: the call answered `elicit_required`.
    Required,
    /// The approval presented was refused (or the gate failed).
    Refused,
}

impl HitlResult {
    /// The label value.
    pub fn as_str(self) -> &'static str {
        match self {
            HitlResult::Approved => "approved",
            HitlResult::Required => "required",
            HitlResult::Refused => "refused",
        }
    }
}

/// The counters of one server.
#[derive(Debug)]
pub struct Metrics {
    families: Families,
    enabled: bool,
    /// Every family and the process collector, as `/metrics` shows them.
    registry: Registry,
    /// Held while a scrape sets the gauges and encodes, so scrapes do not interleave.
    scraping: Mutex<()>,
}

impl Metrics {
    /// The counters of a server whose Prometheus metrics are on (`enabled`) or off (only
    /// `get_metrics`' counts are kept).
    pub fn new(enabled: bool) -> Metrics {
        let families = Families::new();
        Metrics {
            registry: families.server_registry(),
            families,
            enabled,
            scraping: Mutex::new(()),
        }
    }

    /// Whether Prometheus metrics are on (`observability.metrics.enabled`).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// The families (for a scrape).
    pub fn families(&self) -> &Families {
        &self.families
    }

    /// Counts one call (its latency too when metrics are on).
    pub fn record_call(&self, call: &CallRecord<'_>) {
        call.count_in(&self.families, self.enabled);
    }

    /// Counts one failed write of an audit row or idempotency record.
    pub fn record_bookkeeping_fault(&self) {
        self.families.bookkeeping_faults.inc();
    }

    /// Counts one call the rate limiter refused.
    pub fn record_throttle_trip(&self, vault: &str, class: ScopeFamily) {
        if self.enabled {
            self.families
                .throttle_trips
                .with_label_values(&[vault, class.as_str()])
                .inc();
        }
    }

    /// Records one wait of `waited_ms` at the human-approval gate that ended with `result`.
    pub fn record_hitl_wait(&self, result: HitlResult, waited_ms: u64) {
        if self.enabled {
            self.families
                .hitl_wait_seconds
                .with_label_values(&[result.as_str()])
                .observe(waited_ms as f64 / 1000.0);
        }
    }

    /// The counters, restricted to `vault` when given (a vault-bound caller sees only its own).
    pub fn snapshot(&self, vault: Option<&str>) -> MetricsSnapshot {
        let mut calls: BTreeMap<(String, String, String), u64> = BTreeMap::new();
        for family in self.families.calls.collect() {
            for metric in family.get_metric() {
                let label = |name: &str| {
                    metric
                        .get_label()
                        .iter()
                        .find(|pair| pair.name() == name)
                        .map_or_else(String::new, |pair| pair.value().to_owned())
                };
                let key = (label("vault"), label("tool"), label("code"));
                if vault.is_none_or(|only| only == key.0) {
                    // Counts are whole numbers well below 2^53: the float is exact.
                    *calls.entry(key).or_insert(0) += metric.get_counter().get_value() as u64;
                }
            }
        }
        MetricsSnapshot {
            calls: calls
                .into_iter()
                .map(|((vault, tool, code), count)| CallCount {
                    vault,
                    tool,
                    code,
                    count,
                })
                .collect(),
            bookkeeping_faults: self.families.bookkeeping_faults.get(),
        }
    }
}
