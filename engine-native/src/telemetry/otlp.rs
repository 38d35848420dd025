//! Whether and where tool-call spans are exported: OTLP over HTTP with protobuf bodies, by
//! opentelemetry-otlp's blocking client (the reqwest 0.13 the server already links), from a
//! batch processor on a thread of its own.
//!
//! Export is on when `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`
//! is set (the environment wins) or `observability.otlp.endpoint` is; it is off whatever is
//! set when `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`. The SDK reads the other
//! standard variables itself: `OTEL_EXPORTER_OTLP[_TRACES]_HEADERS`, `_TIMEOUT`,
//! `_COMPRESSION`, `OTEL_TRACES_SAMPLER[_ARG]`, `OTEL_BSP_*`, `OTEL_RESOURCE_ATTRIBUTES`;
//! `OTEL_SERVICE_NAME` names the service (default `obsidian-tc`).

use opentelemetry::KeyValue;
use opentelemetry_otlp::{ExporterBuildError, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::resource::{
    EnvResourceDetector, ResourceDetector, TelemetryResourceDetector,
};
use opentelemetry_sdk::trace::SdkTracerProvider;

/// The service name when `OTEL_SERVICE_NAME` (or `service.name` in
/// `OTEL_RESOURCE_ATTRIBUTES`) does not give one.
pub const DEFAULT_SERVICE_NAME: &str = "obsidian-tc";

/// The base URL of the collector, for every signal.
const ENDPOINT_VAR: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
/// The full URL traces are posted to.
const TRACES_ENDPOINT_VAR: &str = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
/// `true` turns the SDK off.
const SDK_DISABLED_VAR: &str = "OTEL_SDK_DISABLED";
/// The trace exporters to use; `none` turns export off.
const TRACES_EXPORTER_VAR: &str = "OTEL_TRACES_EXPORTER";
/// The service name, over `service.name` in the resource attributes.
const SERVICE_NAME_VAR: &str = "OTEL_SERVICE_NAME";
/// Where OTLP/HTTP traces go below a base URL.
const TRACES_PATH: &str = "/v1/traces";

/// Where tool-call spans go, when they are exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpanExport {
    /// Where the standard `OTEL_EXPORTER_OTLP_*` variables say (the exporter reads them).
    Environment,
    /// To this URL: `observability.otlp.endpoint` with `/v1/traces` appended.
    Configured(String),
}

impl SpanExport {
    /// The export the variables (read through `env`) and the configured base URL
    /// `configured` ask for; `None` when export is off. Empty values count as unset.
    pub fn from_environment(
        configured: Option<&str>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Option<SpanExport> {
        let set = |name: &str| env(name).filter(|value| !value.trim().is_empty());
        let says = |name: &str, word: &str| {
            set(name).is_some_and(|value| value.trim().eq_ignore_ascii_case(word))
        };
        if says(SDK_DISABLED_VAR, "true") || says(TRACES_EXPORTER_VAR, "none") {
            return None;
        }
        if set(TRACES_ENDPOINT_VAR).is_some() || set(ENDPOINT_VAR).is_some() {
            return Some(SpanExport::Environment);
        }
        configured
            .map(str::trim)
            .filter(|endpoint| !endpoint.is_empty())
            .map(|endpoint| {
                SpanExport::Configured(format!("{}{TRACES_PATH}", endpoint.trim_end_matches('/')))
            })
    }

    /// A tracer provider that batches the spans it ends and posts them here.
    pub fn provider(&self) -> Result<SdkTracerProvider, ExporterBuildError> {
        // The exporter builds its own reqwest client.
        crate::http_client::install_tls_provider();
        let builder = opentelemetry_otlp::SpanExporter::builder().with_http();
        let builder = match self {
            SpanExport::Environment => builder,
            SpanExport::Configured(url) => builder.with_endpoint(url),
        };
        Ok(SdkTracerProvider::builder()
            .with_batch_exporter(builder.build()?)
            .with_resource(resource())
            .build())
    }
}

/// The resource of every span: `service.name` (`OTEL_SERVICE_NAME`, else `service.name` in
/// `OTEL_RESOURCE_ATTRIBUTES`, else [`DEFAULT_SERVICE_NAME`]), `service.version`, the SDK's
/// `telemetry.sdk.*`, and the other `OTEL_RESOURCE_ATTRIBUTES`.
fn resource() -> Resource {
    let detectors: [Box<dyn ResourceDetector>; 2] = [
        Box::new(TelemetryResourceDetector),
        Box::new(EnvResourceDetector::new()),
    ];
    let resource = Resource::builder_empty()
        .with_service_name(DEFAULT_SERVICE_NAME)
        .with_attribute(KeyValue::new("service.version", env!("CARGO_PKG_VERSION")))
        .with_detectors(&detectors);
    match std::env::var(SERVICE_NAME_VAR) {
        Ok(name) if !name.trim().is_empty() => resource.with_service_name(name),
        _ => resource,
    }
    .build()
}
