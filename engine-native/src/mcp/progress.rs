//! `notifications/progress` for a tool call whose client sent a `progressToken`: the
//! handler's reports (on the blocking thread that runs the call) go through a channel to a
//! task that sends them in order, at most one per [`MIN_INTERVAL`] besides the last, and that
//! finishes before the call's result is sent.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use rmcp::RoleServer;
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::Peer;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::runtime::Progress;

/// The shortest time between two notifications (the final one is always sent).
pub const MIN_INTERVAL: Duration = Duration::from_millis(100);

/// The reporting end handed to the dispatcher.
pub struct ProgressSender {
    token: ProgressToken,
    sender: mpsc::UnboundedSender<ProgressNotificationParam>,
    last: Mutex<Option<Instant>>,
}

/// Starts the task that sends the reports of one call to `peer`; drop the sender when the
/// call ends, then await the handle so every notification precedes the result.
pub fn start(peer: Peer<RoleServer>, token: ProgressToken) -> (ProgressSender, JoinHandle<()>) {
    let (sender, mut receiver) = mpsc::unbounded_channel::<ProgressNotificationParam>();
    let forward = tokio::spawn(async move {
        while let Some(notification) = receiver.recv().await {
            // A client that went away stops hearing progress; the call itself goes on.
            if peer.notify_progress(notification).await.is_err() {
                break;
            }
        }
    });
    let sender = ProgressSender {
        token,
        sender,
        last: Mutex::new(None),
    };
    (sender, forward)
}

impl Progress for ProgressSender {
    fn report(&self, done: u64, total: Option<u64>, message: &str) {
        let finished = total.is_some_and(|total| done >= total);
        {
            let mut last = self
                .last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let now = Instant::now();
            if !finished && last.is_some_and(|at| now.duration_since(at) < MIN_INTERVAL) {
                return;
            }
            *last = Some(now);
        }
        let mut notification = ProgressNotificationParam::new(self.token.clone(), done as f64);
        notification.total = total.map(|total| total as f64);
        notification.message = Some(message.to_owned());
        // The receiver lives until the sender is dropped, unless the client is gone.
        let _ = self.sender.send(notification);
    }
}
