//! What the server tells its operator (`observability`): Prometheus metrics on the HTTP
//! transport and the export of tool-call spans over OTLP.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Metrics and traces for the people who run the server.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct ObservabilityConfig {
    /// Prometheus metrics (`GET /metrics` on the HTTP transport, `obsidian-tc metrics`).
    pub metrics: MetricsConfig,
    /// OpenTelemetry export of one span per tool call (OTLP over HTTP/protobuf).
    pub otlp: OtlpConfig,
}

/// Prometheus metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct MetricsConfig {
    /// Record calls, latencies and gauges, and serve them on `GET /metrics`. Off, nothing is
    /// recorded beyond `get_metrics`' call counts and `/metrics` answers 404.
    pub enabled: bool,
    /// Serve `/metrics` without authentication. Honoured only while the HTTP transport is
    /// bound to a loopback address; otherwise `/metrics` takes the same bearer token as MCP.
    pub public: bool,
}

impl Default for MetricsConfig {
    fn default() -> MetricsConfig {
        MetricsConfig {
            enabled: true,
            public: false,
        }
    }
}

/// OTLP export of tool-call spans. Off unless an endpoint is set here or in
/// `OTEL_EXPORTER_OTLP_ENDPOINT` / `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; `OTEL_SDK_DISABLED=true`
/// turns it off whatever is set. The other standard `OTEL_*` variables (headers, timeout,
/// service name, resource attributes, sampler) are honoured.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct OtlpConfig {
    /// The collector's base URL (`http://localhost:4318`); spans go to `<endpoint>/v1/traces`.
    /// The environment variables, when set, take precedence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
}
