//! Whether tool-call spans are exported, and where: the standard variables and
//! `observability.otlp.endpoint`.

use std::collections::BTreeMap;
use std::process::Output;

use obsidian_tc::telemetry::otlp::SpanExport;
use serde_json::json;

use super::receiver::{Receiver, run_call};
use crate::support::mcp::{EMBEDDINGS_OFF, arg, vault, write_config};

/// The export `configured` and the variables `vars` ask for.
fn export(configured: Option<&str>, vars: &[(&str, &str)]) -> Option<SpanExport> {
    let vars: BTreeMap<String, String> = vars
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect();
    SpanExport::from_environment(configured, |name| vars.get(name).cloned())
}

#[test]
fn export_is_off_without_an_endpoint() {
    assert_eq!(export(None, &[]), None);
    assert_eq!(
        export(Some("  "), &[("OTEL_EXPORTER_OTLP_ENDPOINT", "")]),
        None
    );
}

#[test]
fn the_configured_endpoint_gets_the_traces_path() {
    assert_eq!(
        export(Some("http://collector:4318/"), &[]),
        Some(SpanExport::Configured(
            "http://collector:4318/v1/traces".to_owned()
        ))
    );
}

#[test]
fn the_environment_wins_over_the_configuration() {
    for var in [
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    ] {
        assert_eq!(
            export(Some("http://configured:4318"), &[(var, "http://env:4318")]),
            Some(SpanExport::Environment),
            "{var}"
        );
    }
}

#[test]
fn the_sdk_switches_turn_export_off_whatever_is_set() {
    let endpoint = ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://env:4318");
    for off in [
        ("OTEL_SDK_DISABLED", "true"),
        ("OTEL_SDK_DISABLED", "TRUE"),
        ("OTEL_TRACES_EXPORTER", "none"),
    ] {
        assert_eq!(
            export(Some("http://configured:4318"), &[endpoint, off]),
            None,
            "{off:?}"
        );
    }
    assert_eq!(
        export(None, &[endpoint, ("OTEL_SDK_DISABLED", "false")]),
        Some(SpanExport::Environment)
    );
}

/// Runs `obsidian-tc call read_note` on `hello.md` with `extra` arguments (the vault or
/// config) and the variables `env`, embeddings off, to completion.
fn read_hello(extra: &[&str], env: &[(&str, &str)]) -> Output {
    let env: Vec<(&str, &str)> = env.iter().copied().chain([EMBEDDINGS_OFF]).collect();
    run_call("read_note", r#"{"path": "hello.md"}"#, extra, &env)
}

#[test]
fn a_one_shot_call_exports_its_span_before_it_exits() {
    let receiver = Receiver::start();
    let vault = vault();
    let endpoint = receiver.endpoint();
    read_hello(
        &[&arg(vault.path())],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
            ("OTEL_SERVICE_NAME", "notes-agent"),
        ],
    );
    let spans = receiver.spans();
    let roots: Vec<_> = spans.iter().filter(|span| span.is_root()).collect();
    assert_eq!(roots.len(), 1, "{spans:#?}");
    assert_eq!(roots[0].name, "tools/call read_note");
    assert_eq!(roots[0].service, "notes-agent");
}

#[test]
fn the_configured_endpoint_turns_export_on() {
    let receiver = Receiver::start();
    let vault = vault();
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("config.json");
    let otlp = json!({ "observability": { "otlp": { "endpoint": receiver.endpoint() } } });
    write_config(&config, vault.path(), otlp);
    read_hello(&["--config", &arg(&config)], &[]);
    let spans = receiver.spans();
    assert_eq!(
        spans.iter().filter(|span| span.is_root()).count(),
        1,
        "{spans:#?}"
    );
    assert!(spans.iter().all(|span| span.service == "obsidian-tc"));
}

#[test]
fn without_an_endpoint_or_when_disabled_nothing_is_sent() {
    let receiver = Receiver::start();
    let vault = vault();
    let endpoint = receiver.endpoint();
    let folder = arg(vault.path());
    read_hello(&[&folder], &[]);
    read_hello(
        &[&folder],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
            ("OTEL_SDK_DISABLED", "true"),
        ],
    );
    read_hello(
        &[&folder],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
            ("OTEL_TRACES_EXPORTER", "none"),
        ],
    );
    // Each process flushed before it exited: what it sent has arrived.
    assert_eq!(receiver.requests(), 0);
}

#[test]
fn the_sdk_reads_headers_resource_and_sampler_from_the_environment() {
    let receiver = Receiver::start();
    let vault = vault();
    let endpoint = receiver.endpoint();
    let folder = arg(vault.path());
    read_hello(
        &[&folder],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
            ("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=collector-key"),
            (
                "OTEL_RESOURCE_ATTRIBUTES",
                "deployment.environment.name=test",
            ),
        ],
    );
    assert!(
        receiver
            .headers()
            .contains(&("x-api-key".to_owned(), "collector-key".to_owned())),
        "{:?}",
        receiver.headers()
    );
    let spans = receiver.spans();
    assert_eq!(spans.iter().filter(|span| span.is_root()).count(), 1);
    let environment = ("deployment.environment.name".to_owned(), "test".to_owned());
    assert!(
        spans
            .iter()
            .all(|span| span.resource.contains(&environment))
    );
    read_hello(
        &[&folder],
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
            ("OTEL_TRACES_SAMPLER", "always_off"),
        ],
    );
    assert_eq!(receiver.requests(), 1, "a sampled-out call sends nothing");
}
