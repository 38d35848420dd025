//! [`Throughput`]: how fast a count (bytes downloaded, chunks embedded) grows, for an ETA.

use std::time::Instant;

/// Observations of a growing count: the first and the latest.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Throughput {
    first: Option<(Instant, u64)>,
    latest: Option<(Instant, u64)>,
}

impl Throughput {
    /// Records that the count is `value` now.
    pub fn observe(&mut self, value: u64) {
        self.observe_at(Instant::now(), value);
    }

    /// Records that the count was `value` at `at`.
    pub fn observe_at(&mut self, at: Instant, value: u64) {
        if self.first.is_none() {
            self.first = Some((at, value));
        }
        self.latest = Some((at, value));
    }

    /// Units per second between the first and the latest observation, once it moved.
    pub fn rate(&self) -> Option<f64> {
        let ((start, from), (end, to)) = (self.first?, self.latest?);
        let seconds = end.duration_since(start).as_secs_f64();
        (to > from && seconds > 0.0).then(|| (to - from) as f64 / seconds)
    }

    /// Whole seconds until `remaining` more units are done at the observed rate (`Some(0)`
    /// when nothing remains, `None` while the rate is unknown).
    pub fn eta_seconds(&self, remaining: u64) -> Option<u64> {
        if remaining == 0 {
            return Some(0);
        }
        let rate = self.rate()?;
        Some((remaining as f64 / rate).ceil() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_eta_follows_the_observed_rate() {
        let start = Instant::now();
        let mut rate = Throughput::default();
        assert_eq!(rate.eta_seconds(10), None);
        rate.observe_at(start, 100);
        assert_eq!(rate.eta_seconds(10), None, "one observation is no rate");
        rate.observe_at(start + Duration::from_secs(2), 120);
        assert_eq!(rate.rate(), Some(10.0));
        assert_eq!(rate.eta_seconds(25), Some(3));
        assert_eq!(rate.eta_seconds(0), Some(0));
    }
}
