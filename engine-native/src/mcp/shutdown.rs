//! Graceful shutdown: Ctrl-C or SIGTERM cancels one token every transport watches.

use tokio_util::sync::CancellationToken;

/// A token cancelled on the first Ctrl-C (SIGINT) or SIGTERM. The signal listeners are
/// registered before this returns, so a signal sent once the server has logged its address
/// is never missed (registered inside a spawned task, a SIGTERM could arrive first and kill
/// the process, or land between the handler and its listener and be lost). Call it from
/// inside the runtime.
pub fn cancel_on_signal() -> CancellationToken {
    let token = CancellationToken::new();
    let cancel = token.clone();
    let signals = listen();
    tokio::spawn(async move {
        signals.recv().await;
        tracing::info!("shutting down");
        cancel.cancel();
    });
    token
}

/// The registered listeners for the signals that stop the server.
#[cfg(unix)]
struct Signals {
    interrupt: Option<tokio::signal::unix::Signal>,
    terminate: Option<tokio::signal::unix::Signal>,
}

#[cfg(unix)]
fn listen() -> Signals {
    use tokio::signal::unix::{SignalKind, signal};
    let register = |kind: SignalKind, name: &str| match signal(kind) {
        Ok(listener) => Some(listener),
        Err(error) => {
            tracing::warn!("cannot watch {name} ({error}); it will not stop the server gracefully");
            None
        }
    };
    Signals {
        interrupt: register(SignalKind::interrupt(), "SIGINT"),
        terminate: register(SignalKind::terminate(), "SIGTERM"),
    }
}

#[cfg(unix)]
impl Signals {
    /// Waits for the first of the registered signals (forever when none is).
    async fn recv(mut self) {
        async fn next(listener: &mut Option<tokio::signal::unix::Signal>) {
            match listener {
                Some(listener) => {
                    listener.recv().await;
                }
                None => std::future::pending().await,
            }
        }
        tokio::select! {
            _ = next(&mut self.interrupt) => {}
            _ = next(&mut self.terminate) => {}
        }
    }
}

/// Ctrl-C, the one stopping signal outside Unix.
#[cfg(not(unix))]
struct Signals;

#[cfg(not(unix))]
fn listen() -> Signals {
    Signals
}

#[cfg(not(unix))]
impl Signals {
    /// Waits for Ctrl-C.
    async fn recv(self) {
        let _ = tokio::signal::ctrl_c().await;
    }
}
