//! [`Families`]: every Prometheus metric family obsidian-tc exposes, named, described and
//! bucketed once, and the [`prometheus::Registry`] views a running server and the cache
//! report ([`Families::server_registry`], [`Families::cache_registry`]) put them in.
//!
//! Each server has its own families and registries, never the crate's global default
//! registry: the tests run many servers in one process.

use prometheus::core::Collector;
use prometheus::{
    HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, Registry,
    TextEncoder,
};

/// The prefix of every family's name.
const PREFIX: &str = "obsidian_tc_";

/// The upper bounds (seconds) of the tool-call latency buckets: the dispatcher times calls in
/// whole milliseconds, from a note read (under a millisecond) to a full index (minutes).
const CALL_BUCKETS: [f64; 16] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0,
];

/// The upper bounds (seconds) of the HITL wait buckets: an approval already given answers at
/// once, a human in Obsidian takes seconds to minutes (the dialog's timeout).
const HITL_BUCKETS: [f64; 11] = [
    0.01, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0,
];

/// The metric families of one server (or of one cache report).
#[derive(Debug, Clone)]
pub struct Families {
    /// `obsidian_tc_tool_calls_total{vault,tool,class,outcome,code}`.
    pub calls: IntCounterVec,
    /// `obsidian_tc_tool_call_duration_seconds{class}`.
    pub call_seconds: HistogramVec,
    /// `obsidian_tc_bookkeeping_faults_total`.
    pub bookkeeping_faults: IntCounter,
    /// `obsidian_tc_throttle_trips_total{vault,class}`.
    pub throttle_trips: IntCounterVec,
    /// `obsidian_tc_hitl_wait_seconds{result}`.
    pub hitl_wait_seconds: HistogramVec,
    /// `obsidian_tc_http_sessions_open`.
    pub http_sessions: IntGauge,
    /// `obsidian_tc_index_notes{vault}`.
    pub index_notes: IntGaugeVec,
    /// `obsidian_tc_index_chunks{vault}`.
    pub index_chunks: IntGaugeVec,
    /// `obsidian_tc_index_embedded_chunks{vault,embedding_set}`.
    pub index_embedded: IntGaugeVec,
    /// `obsidian_tc_index_queued_paths{vault}`.
    pub index_queued: IntGaugeVec,
    /// `obsidian_tc_index_scanning{vault}`.
    pub index_scanning: IntGaugeVec,
    /// `obsidian_tc_index_last_scan_timestamp_seconds{vault}`.
    pub index_last_scan: IntGaugeVec,
}

impl Default for Families {
    fn default() -> Families {
        Families::new()
    }
}

impl Families {
    /// Every family, empty.
    pub fn new() -> Families {
        Families {
            calls: counters(
                "tool_calls_total",
                "Tool calls by vault, tool, rate class, outcome (ok or error) and code (ok or \
                 the error code).",
                &["vault", "tool", "class", "outcome", "code"],
            ),
            call_seconds: histograms(
                "tool_call_duration_seconds",
                "How long tool calls took, by rate class (the dispatcher's millisecond clock).",
                &["class"],
                &CALL_BUCKETS,
            ),
            bookkeeping_faults: IntCounter::with_opts(opts(
                "bookkeeping_faults_total",
                "Audit rows, idempotency records or session traces the cache failed to write.",
            ))
            .expect("a valid family"),
            throttle_trips: counters(
                "throttle_trips_total",
                "Calls the rate limiter refused, by vault and rate class.",
                &["vault", "class"],
            ),
            hitl_wait_seconds: histograms(
                "hitl_wait_seconds",
                "Time at the human-approval gate, by result: approved (the call ran), \
                 required (elicit_required) or refused (an invalid approval).",
                &["result"],
                &HITL_BUCKETS,
            ),
            http_sessions: IntGauge::with_opts(opts(
                "http_sessions_open",
                "MCP sessions open on the HTTP transport.",
            ))
            .expect("a valid family"),
            index_notes: gauges(
                "index_notes",
                "Notes in the search index, by vault.",
                &["vault"],
            ),
            index_chunks: gauges(
                "index_chunks",
                "Chunks in the search index, by vault.",
                &["vault"],
            ),
            index_embedded: gauges(
                "index_embedded_chunks",
                "Chunks with an embedding vector, by vault and embedding set (the model's \
                 fingerprint).",
                &["vault", "embedding_set"],
            ),
            index_queued: gauges(
                "index_queued_paths",
                "Changed paths waiting for the index writer (watcher and write refreshes), by \
                 vault.",
                &["vault"],
            ),
            index_scanning: gauges(
                "index_scanning",
                "1 while a scan of the vault runs, else 0.",
                &["vault"],
            ),
            index_last_scan: gauges(
                "index_last_scan_timestamp_seconds",
                "Unix time the last full scan of the vault finished, in this process.",
                &["vault"],
            ),
        }
    }

    /// The registry `/metrics` of a running server shows: every family and, on Linux, the
    /// process' own (`process_resident_memory_bytes`, `process_open_fds`, CPU, start time).
    pub fn server_registry(&self) -> Registry {
        let registry = Registry::new();
        for collector in self.stored().into_iter().chain(self.live()) {
            register(&registry, collector);
        }
        #[cfg(target_os = "linux")]
        register(
            &registry,
            Box::new(prometheus::process_collector::ProcessCollector::for_self()),
        );
        registry
    }

    /// The registry of a report from the cache database alone (`obsidian-tc metrics`): the
    /// call counts and latencies of the event log and the stored index sizes; nothing only a
    /// running process knows.
    pub fn cache_registry(&self) -> Registry {
        let registry = Registry::new();
        for collector in self.stored() {
            register(&registry, collector);
        }
        registry
    }

    /// The families the cache database can tell: calls, latencies, index sizes.
    fn stored(&self) -> [Box<dyn Collector>; 5] {
        [
            Box::new(self.calls.clone()),
            Box::new(self.call_seconds.clone()),
            Box::new(self.index_notes.clone()),
            Box::new(self.index_chunks.clone()),
            Box::new(self.index_embedded.clone()),
        ]
    }

    /// The families only a running server knows.
    fn live(&self) -> [Box<dyn Collector>; 7] {
        [
            Box::new(self.bookkeeping_faults.clone()),
            Box::new(self.throttle_trips.clone()),
            Box::new(self.hitl_wait_seconds.clone()),
            Box::new(self.http_sessions.clone()),
            Box::new(self.index_queued.clone()),
            Box::new(self.index_scanning.clone()),
            Box::new(self.index_last_scan.clone()),
        ]
    }
}

/// The Prometheus text format (0.0.4) of everything in `registry`.
pub fn exposition(registry: &Registry) -> Result<String, String> {
    TextEncoder::new()
        .encode_to_string(&registry.gather())
        .map_err(|error| format!("cannot encode the metrics: {error}"))
}

/// The content type of [`exposition`]'s text.
pub const EXPOSITION_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The options of family `name` (prefixed) described by `help`.
fn opts(name: &str, help: &str) -> Opts {
    Opts::new(format!("{PREFIX}{name}"), help)
}

fn counters(name: &str, help: &str, labels: &[&str]) -> IntCounterVec {
    IntCounterVec::new(opts(name, help), labels).expect("a valid family")
}

fn gauges(name: &str, help: &str, labels: &[&str]) -> IntGaugeVec {
    IntGaugeVec::new(opts(name, help), labels).expect("a valid family")
}

fn histograms(name: &str, help: &str, labels: &[&str], buckets: &[f64]) -> HistogramVec {
    let opts = HistogramOpts::from(opts(name, help)).buckets(buckets.to_vec());
    HistogramVec::new(opts, labels).expect("a valid family")
}

/// Registers `collector`; the families are distinct by construction, so a refusal is a bug.
fn register(registry: &Registry, collector: Box<dyn Collector>) {
    registry
        .register(collector)
        .expect("each family is registered once");
}
