//! What a scrape of a running server gets: the counters as recorded, the index gauges read
//! now (sizes from the cache database, the live index's queue and last scan), the HTTP
//! sessions the transport reports, and the process' own figures.

use std::collections::BTreeMap;
use std::sync::PoisonError;

use crate::runtime::metrics::families::{Families, exposition};
use crate::runtime::state::Runtime;
use crate::store::IndexCounts;

impl Runtime {
    /// The Prometheus text (format 0.0.4) of this server, `http_sessions` being how many MCP
    /// sessions the HTTP transport has open. The index gauges are read first.
    pub fn metrics_text(&self, http_sessions: usize) -> Result<String, String> {
        let _scraping = self
            .metrics
            .scraping
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let families = self.metrics.families();
        let counts = self
            .store
            .counts()
            .index()
            .map_err(|error| format!("cannot read the index sizes: {error}"))?;
        let served = self.served();
        let vaults: Vec<&str> = served.vaults().iter().map(|v| v.id.as_str()).collect();
        set_index_gauges(families, &vaults, &counts);
        for family in [
            &families.index_queued,
            &families.index_scanning,
            &families.index_last_scan,
        ] {
            family.reset();
        }
        for vault in &vaults {
            let Some(status) = self.indexes.status_if_open(vault) else {
                continue;
            };
            let labels = [*vault];
            let queued = i64::try_from(status.queued).unwrap_or(i64::MAX);
            families.index_queued.with_label_values(&labels).set(queued);
            families
                .index_scanning
                .with_label_values(&labels)
                .set(i64::from(status.scanning));
            if let Some(at) = status.last_scan_at {
                families.index_last_scan.with_label_values(&labels).set(at);
            }
        }
        families
            .http_sessions
            .set(i64::try_from(http_sessions).unwrap_or(i64::MAX));
        exposition(&self.metrics.registry)
    }
}

/// Sets the stored-index gauges of `vaults` (the configured ones: other vaults' rows in the
/// cache are not reported) from `counts`; a vault without rows reports zeros.
pub fn set_index_gauges(
    families: &Families,
    vaults: &[&str],
    counts: &BTreeMap<String, IndexCounts>,
) {
    for family in [
        &families.index_notes,
        &families.index_chunks,
        &families.index_embedded,
    ] {
        family.reset();
    }
    let none = IndexCounts::default();
    for vault in vaults {
        let counts = counts.get(*vault).unwrap_or(&none);
        let labels = [*vault];
        families
            .index_notes
            .with_label_values(&labels)
            .set(gauge(counts.notes));
        families
            .index_chunks
            .with_label_values(&labels)
            .set(gauge(counts.chunks));
        for (set, embedded) in &counts.embedded {
            families
                .index_embedded
                .with_label_values(&[*vault, set.as_str()])
                .set(gauge(*embedded));
        }
    }
}

/// A count as a gauge value.
fn gauge(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}
