//! Order statistics of timed samples, in milliseconds.

use std::time::Duration;

/// The median, 90th and 99th percentile of a set of samples (nearest rank), in ms.
#[derive(Debug, Clone, Copy)]
pub struct Summary {
    /// The 50th percentile.
    pub median: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The 99th percentile.
    pub p99: f64,
}

/// Summarizes `samples`; `None` when there are none.
pub fn summarize(samples: &[Duration]) -> Option<Summary> {
    if samples.is_empty() {
        return None;
    }
    let mut ms: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    let rank = |q: f64| {
        let index = ((q * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1;
        ms[index]
    };
    Some(Summary {
        median: rank(0.5),
        p90: rank(0.9),
        p99: rank(0.99),
    })
}
