//! [`Patience`]: a download waits out failures that pass (the hub or its CDN unreachable,
//! 5xx, HTTP 429) for a budget of time ([`crate::embed::hub::HubAccess::wait`]), pausing as
//! long as the server asks ([`asked_wait`]: `Retry-After`, the IETF `RateLimit` fields),
//! else half a second doubling up to [`MAX_PAUSE`]; then it gives up with
//! [`HubError::GaveUp`].

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, NaiveDateTime};
use reqwest::header::{HeaderMap, RETRY_AFTER};

use crate::embed::hub::access::WAIT_VAR;
use crate::embed::hub::error::HubError;

/// The pause after the first failure when the server names none; it doubles after each.
const FIRST_PAUSE: Duration = Duration::from_millis(500);

/// The longest pause the doubling reaches.
pub const MAX_PAUSE: Duration = Duration::from_secs(8);

/// One download's waiting out of failures.
#[derive(Debug)]
pub struct Patience {
    budget: Duration,
    /// When the failures began (none since the last progress: `None`).
    since: Option<Instant>,
    /// The next pause when the server names none.
    pause: Duration,
}

impl Patience {
    /// Waits out failures for `budget`.
    pub fn new(budget: Duration) -> Patience {
        Patience {
            budget,
            since: None,
            pause: FIRST_PAUSE,
        }
    }

    /// An attempt got further: failures from now on start a new wait.
    pub fn progressed(&mut self) {
        self.since = None;
        self.pause = FIRST_PAUSE;
    }

    /// After the passing failure `error` (whose server asked for `asked`): sleeps until the
    /// next attempt, saying so in the log, or gives up when the budget is spent or the wait
    /// asked for goes past it.
    pub fn wait(&mut self, error: HubError, asked: Option<Duration>) -> Result<(), HubError> {
        let since = *self.since.get_or_insert_with(Instant::now);
        let waited = since.elapsed();
        let left = self.budget.saturating_sub(waited);
        let asked = asked.filter(|asked| !asked.is_zero());
        let pause = asked.unwrap_or(self.pause);
        if left.is_zero() || asked.is_some_and(|asked| asked > left) {
            return Err(HubError::GaveUp {
                waited: waited.as_secs(),
                budget: self.budget.as_secs(),
                last: Box::new(error),
            });
        }
        let pause = pause.min(left);
        self.pause = (self.pause * 2).min(MAX_PAUSE);
        tracing::warn!(
            "model download: {}; waiting {:.1} s before trying again ({} of the {} s a \
             download waits out failures are left, {WAIT_VAR})",
            error.brief(),
            pause.as_secs_f64(),
            left.as_secs(),
            self.budget.as_secs()
        );
        std::thread::sleep(pause);
        Ok(())
    }
}

/// The wait a 429 or 5xx answer asks for: `Retry-After` (seconds, or an HTTP date), else the
/// `t` (or `reset`) parameter of the IETF `RateLimit` field, else `RateLimit-Reset`
/// (seconds); `now` is the time an HTTP date is counted from.
pub fn asked_wait(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let text = |name| headers.get(name).and_then(|value| value.to_str().ok());
    if let Some(value) = text(RETRY_AFTER.as_str()) {
        let value = value.trim();
        return match value.parse::<u64>() {
            Ok(seconds) => Some(Duration::from_secs(seconds)),
            Err(_) => {
                let at = http_date(value)?;
                Some(at.duration_since(now).unwrap_or(Duration::ZERO))
            }
        };
    }
    let reset = text("ratelimit").and_then(|value| {
        value
            .split([',', ';'])
            .filter_map(|param| {
                let (name, number) = param.trim().split_once('=')?;
                matches!(name.trim(), "t" | "reset").then(|| number.trim().parse::<u64>().ok())?
            })
            .max()
    });
    reset
        .or_else(|| text("ratelimit-reset")?.trim().parse().ok())
        .map(Duration::from_secs)
}

/// An HTTP date: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), or the obsolete RFC 850
/// and asctime forms recipients must still read.
fn http_date(value: &str) -> Option<SystemTime> {
    let seconds = match DateTime::parse_from_rfc2822(value) {
        Ok(date) => date.timestamp(),
        Err(_) => ["%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"]
            .iter()
            .find_map(|format| NaiveDateTime::parse_from_str(value, format).ok())?
            .and_utc()
            .timestamp(),
    };
    Some(UNIX_EPOCH + Duration::from_secs(u64::try_from(seconds).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(headers: &[(&'static str, &str)]) -> Option<Duration> {
        let mut map = HeaderMap::new();
        for (name, value) in headers {
            map.insert(*name, value.parse().expect("a header value"));
        }
        // Sun, 06 Nov 1994 08:49:30 GMT
        asked_wait(&map, UNIX_EPOCH + Duration::from_secs(784_111_770))
    }

    #[test]
    fn the_server_names_the_wait_in_seconds_or_as_a_date() {
        let secs = |s| Some(Duration::from_secs(s));
        assert_eq!(asked(&[("retry-after", " 2 ")]), secs(2));
        assert_eq!(
            asked(&[("retry-after", "Sun, 06 Nov 1994 08:49:37 GMT")]),
            secs(7)
        );
        assert_eq!(
            asked(&[("retry-after", "Sunday, 06-Nov-94 08:49:37 GMT")]),
            secs(7)
        );
        assert_eq!(
            asked(&[("retry-after", "Sun Nov  6 08:49:37 1994")]),
            secs(7)
        );
        assert_eq!(
            asked(&[("retry-after", "Sun, 06 Nov 1994 08:49:00 GMT")]),
            secs(0),
            "a date past"
        );
        assert_eq!(asked(&[("ratelimit", "\"resolvers\";r=0;t=55")]), secs(55));
        assert_eq!(
            asked(&[("ratelimit", "limit=10, remaining=0, reset=5")]),
            secs(5)
        );
        assert_eq!(asked(&[("ratelimit-reset", "3")]), secs(3));
        assert_eq!(
            asked(&[("retry-after", "1"), ("ratelimit", "\"r\";r=0;t=55")]),
            secs(1),
            "Retry-After first"
        );
        assert_eq!(asked(&[("retry-after", "later")]), None);
        assert_eq!(asked(&[]), None);
    }

    #[test]
    fn the_budget_ends_the_waiting_and_a_wait_past_it_is_not_begun() {
        let down = || HubError::Unreachable {
            url: "http://hub/x".to_owned(),
            reason: "refused".to_owned(),
        };
        let mut patience = Patience::new(Duration::from_millis(700));
        let started = Instant::now();
        assert_eq!(patience.wait(down(), None), Ok(()));
        assert_eq!(patience.wait(down(), None), Ok(()), "the 200 ms left");
        let Err(HubError::GaveUp { budget, last, .. }) = patience.wait(down(), None) else {
            panic!("the budget is spent");
        };
        assert_eq!((budget, *last), (0, down()));
        let slept = started.elapsed();
        assert!(slept >= Duration::from_millis(700), "{slept:?}");

        let mut patience = Patience::new(Duration::from_secs(5));
        let started = Instant::now();
        let limited = HubError::RateLimited {
            url: "http://hub/x".to_owned(),
            asked: Some(30),
        };
        let given_up = patience.wait(limited, Some(Duration::from_secs(30)));
        assert!(
            matches!(
                given_up,
                Err(HubError::GaveUp {
                    waited: 0,
                    budget: 5,
                    ..
                })
            ),
            "{given_up:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(1));
    }
}
