//! The metrics of a server that is not running (a stdio server's cache, `obsidian-tc metrics`):
//! the same families as `/metrics`, built from the cache database alone. The call counts and
//! latencies come from the event log (every call of every process on this cache, as far back
//! as `maintenance.eventLogRetentionDays` keeps rows), each tool's class from the registry;
//! the index gauges from the stored index. What only a running process knows (throttle trips,
//! HITL waits, sessions, the live index's queue, the process itself) is left out.

use crate::runtime::metrics::exposition::set_index_gauges;
use crate::runtime::metrics::families::{Families, exposition};
use crate::runtime::metrics::{CallRecord, OK_CODE, call_labels};
use crate::runtime::state::Runtime;

impl Runtime {
    /// The Prometheus text (format 0.0.4) of this server's cache database.
    pub fn cache_metrics_text(&self) -> Result<String, String> {
        let families = Families::new();
        let fault = |error| format!("cannot read the cache database: {error}");
        let counts = self.store.counts();
        let served = self.served();
        for calls in counts.logged_calls().map_err(fault)? {
            let (tool, class) = call_labels(&calls.tool, served.registry().get(&calls.tool));
            let record = CallRecord {
                vault: &calls.vault,
                tool,
                class,
                code: calls.code.as_deref().unwrap_or(OK_CODE),
                duration_ms: calls.duration_ms,
            };
            for _ in 0..calls.count {
                record.count_in(&families, true);
            }
        }
        let vaults: Vec<&str> = served.vaults().iter().map(|v| v.id.as_str()).collect();
        set_index_gauges(&families, &vaults, &counts.index().map_err(fault)?);
        exposition(&families.cache_registry())
    }
}
