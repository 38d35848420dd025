//! What the process tells its operator besides the tools' answers: logs on stderr
//! ([`logs`]) and, when an OTLP endpoint is set, one OpenTelemetry trace per tool call
//! ([`otlp`], [`spans`]), continuing the client's trace when a request carries one
//! ([`propagation`]).
//!
//! [`Telemetry::install`] sets the process-wide `tracing` subscriber once: the log layer,
//! filtered by `RUST_LOG`, and the span export layer when export is on. The spans of
//! [`spans`] have their own target ([`spans::SPAN_TARGET`]), which the log layer never
//! takes and only the export layer enables: with export off no layer wants them, their
//! callsites are disabled, and creating one costs a cached interest check (no span, no
//! field values). With export on they go to a batch processor that exports them off the
//! call path. Dropping the [`Telemetry`] flushes the spans not yet sent.

pub mod logs;
pub mod otlp;
pub mod propagation;
pub mod spans;

use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

use crate::telemetry::logs::LogFormat;
use crate::telemetry::otlp::SpanExport;

/// The installed subscriber's span export, flushed and shut down when dropped.
#[derive(Debug)]
pub struct Telemetry {
    provider: Option<SdkTracerProvider>,
}

impl Telemetry {
    /// Installs the process-wide subscriber: logs in `format` on stderr and, when
    /// [`SpanExport::from_environment`] turns it on for the configured `otlp_endpoint`
    /// (`observability.otlp.endpoint`), the export of tool-call spans. A second install in
    /// one process keeps the first subscriber. An exporter that cannot be built (a malformed
    /// endpoint) leaves export off and says why in the log.
    pub fn install(format: LogFormat, otlp_endpoint: Option<&str>) -> Telemetry {
        let export = SpanExport::from_environment(otlp_endpoint, |name| std::env::var(name).ok());
        let built = export.map(|export| export.provider());
        let (provider, failure) = match built {
            Some(Ok(provider)) => (Some(provider), None),
            Some(Err(error)) => (None, Some(error)),
            None => (None, None),
        };
        let spans = provider.as_ref().map(spans::export_layer);
        let installed = tracing_subscriber::registry()
            .with(logs::layer(format))
            .with(spans)
            .try_init();
        if let Some(error) = failure {
            tracing::warn!("tool-call spans are not exported: {error}");
        }
        Telemetry {
            provider: installed.is_ok().then_some(provider).flatten(),
        }
    }
}

impl Drop for Telemetry {
    /// Sends the spans still queued and stops the exporter (waiting at most the SDK's 5 s):
    /// the server's exit paths (stdio EOF, SIGTERM, the end of `obsidian-tc call`) drop it
    /// before the process ends.
    fn drop(&mut self) {
        if let Some(provider) = self.provider.take()
            && let Err(error) = provider.shutdown()
        {
            tracing::warn!("the last tool-call spans may not have been exported: {error}");
        }
    }
}
