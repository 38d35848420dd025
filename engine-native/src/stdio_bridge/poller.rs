//! The poller: reads `/bridge/v1/tools` every [`POLL_INTERVAL`] while TC Bridge answers, and
//! with exponential backoff while it does not ([`retry_delay`]), until cancelled.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::stdio_bridge::client::BridgeClient;
use crate::stdio_bridge::mirror::{Link, ToolMirror};

/// How often the tool list is read while the plugin answers.
pub const POLL_INTERVAL: Duration = Duration::from_secs(5);
/// Exponential backoff attempts (seed 001) before falling back to [`SLOW_RETRY`].
pub const MAX_ATTEMPTS: u32 = 30;
/// The first retry delay; each further attempt doubles it, up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_millis(250);
/// The longest backoff delay.
pub const MAX_BACKOFF: Duration = Duration::from_secs(5);
/// The retry interval once [`MAX_ATTEMPTS`] attempts have failed: the bridge keeps trying,
/// slowly, so it still recovers when Obsidian is started much later.
pub const SLOW_RETRY: Duration = Duration::from_secs(30);

/// The wait before the next attempt after `failures` failures in a row.
pub fn retry_delay(failures: u32) -> Duration {
    if failures >= MAX_ATTEMPTS {
        return SLOW_RETRY;
    }
    let doublings = failures.saturating_sub(1).min(16);
    FIRST_BACKOFF
        .saturating_mul(1u32 << doublings)
        .min(MAX_BACKOFF)
}

/// Logs on stderr the first failure in a row and the one that ends the backoff.
pub fn log_failure(authority: &str, failures: u32, reason: &str) {
    if failures != 1 && failures != MAX_ATTEMPTS {
        return;
    }
    let next = if failures == MAX_ATTEMPTS {
        format!(
            "{MAX_ATTEMPTS} attempts failed; retrying every {}s",
            SLOW_RETRY.as_secs()
        )
    } else {
        "retrying with backoff".to_owned()
    };
    tracing::warn!(
        "TC Bridge at {authority} does not answer ({reason}): is Obsidian running with TC Bridge enabled? {next}"
    );
}

/// Keeps the [`ToolMirror`] in step with the plugin.
#[derive(Debug, Clone)]
pub struct Poller {
    client: BridgeClient,
    mirror: Arc<ToolMirror>,
    wake: Arc<Notify>,
    authority: String,
}

impl Poller {
    /// A poller of `client` into `mirror`; `wake` makes it poll now (a call saw the plugin go
    /// away, come back, or not know a tool). `authority` names the plugin in log lines.
    pub fn new(
        client: BridgeClient,
        mirror: Arc<ToolMirror>,
        wake: Arc<Notify>,
        authority: String,
    ) -> Poller {
        Poller {
            client,
            mirror,
            wake,
            authority,
        }
    }

    /// One read of the tool list into the mirror, logging a change of link state on stderr.
    pub async fn poll_once(&self) {
        match self.client.tools().await {
            Ok(list) => {
                let was_down = self.mirror.link() != Link::Up;
                let count = list.tools.len();
                if self.mirror.answered(list) {
                    let how = if was_down {
                        "connected to"
                    } else {
                        "tool list changed on"
                    };
                    tracing::info!("{how} TC Bridge at {}: {count} tools", self.authority);
                }
            }
            Err(error) => {
                let failures = self.mirror.failed(error.0.clone());
                log_failure(&self.authority, failures, &error.0);
            }
        }
    }

    /// Polls until `cancel` fires.
    pub async fn run(self, cancel: CancellationToken) {
        loop {
            let delay = match self.mirror.link() {
                Link::Up => POLL_INTERVAL,
                Link::Down { attempts, .. } => retry_delay(attempts),
            };
            tokio::select! {
                () = tokio::time::sleep(delay) => {}
                () = self.wake.notified() => {}
                () = cancel.cancelled() => return,
            }
            self.poll_once().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_its_cap_then_falls_back_to_a_slow_retry() {
        assert_eq!(retry_delay(0), FIRST_BACKOFF);
        assert_eq!(retry_delay(1), Duration::from_millis(250));
        assert_eq!(retry_delay(2), Duration::from_millis(500));
        assert_eq!(retry_delay(3), Duration::from_secs(1));
        assert_eq!(retry_delay(5), Duration::from_secs(4));
        assert_eq!(retry_delay(6), MAX_BACKOFF);
        assert_eq!(retry_delay(MAX_ATTEMPTS - 1), MAX_BACKOFF);
        assert_eq!(retry_delay(MAX_ATTEMPTS), SLOW_RETRY);
        assert_eq!(retry_delay(u32::MAX), SLOW_RETRY);
        let backoff: Duration = (1..MAX_ATTEMPTS).map(retry_delay).sum();
        assert!(
            backoff < Duration::from_secs(150),
            "{backoff:?} of backoff before slowing down"
        );
    }
}
