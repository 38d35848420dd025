//! The spans of tool calls, as an OTLP/HTTP receiver gets them from the real binary: one
//! root per call named after its tool, a child per gate, one trace per call, and nothing of
//! the arguments or the notes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use obsidian_tc::errors::ToolError;
use obsidian_tc::telemetry::logs::{self, LogFormat};
use obsidian_tc::telemetry::spans::{self, Gate};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, RequestMetaObject};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use serde_json::json;
use tracing_subscriber::layer::SubscriberExt;

use super::receiver::{OTEL_VARS, Receiver, Span, run_call};
use crate::support::embed::MockApi;
use crate::support::mcp::{BIN, EMBEDDINGS_OFF, HttpServer, arg, call, vault, write_config};

/// Text the calls send, which no span may hold.
const APPENDED: &str = "a line only the note may hold";

/// An rmcp client over stdio to `obsidian-tc <vault>` exporting spans to `receiver`.
async fn stdio_exporting(vault: &Path, receiver: &Receiver) -> RunningService<RoleClient, ()> {
    let endpoint = receiver.endpoint();
    let folder = arg(vault);
    let command = tokio::process::Command::new(BIN).configure(|command| {
        command
            .arg(&folder)
            .env_remove("OBSIDIAN_TC_CONFIG")
            .envs(crate::support::cache_home::cache_env(
                &crate::support::cache_home::test_cache_root(),
            ))
            .env(EMBEDDINGS_OFF.0, EMBEDDINGS_OFF.1);
        for var in OTEL_VARS {
            command.env_remove(var);
        }
        command.env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint);
    });
    ().serve(TokioChildProcess::new(command).expect("spawn obsidian-tc"))
        .await
        .expect("initialize over stdio")
}

/// The spans of each trace, by trace id.
fn traces(spans: &[Span]) -> BTreeMap<&str, Vec<&Span>> {
    let mut traces: BTreeMap<&str, Vec<&Span>> = BTreeMap::new();
    for span in spans {
        traces.entry(span.trace_id.as_str()).or_default().push(span);
    }
    traces
}

/// Checks that `trace` is one call: a single root, every other span a child of a span of
/// the trace; returns the root and the names of its direct children.
fn one_call<'s>(trace: &[&'s Span]) -> (&'s Span, BTreeSet<&'s str>) {
    let roots: Vec<&Span> = trace
        .iter()
        .copied()
        .filter(|span| span.is_root())
        .collect();
    assert_eq!(roots.len(), 1, "one root per trace: {trace:#?}");
    let root = roots[0];
    let ids: BTreeSet<&str> = trace.iter().map(|span| span.span_id.as_str()).collect();
    for span in trace.iter().filter(|span| !span.is_root()) {
        assert!(
            ids.contains(span.parent_id.as_str()),
            "{} has a parent outside its trace",
            span.name
        );
    }
    let children = trace
        .iter()
        .filter(|span| span.parent_id == root.span_id)
        .map(|span| span.name.as_str())
        .collect();
    (root, children)
}

/// The gate spans of a call that passes every gate without an idempotency key or approval.
fn passing_gates<'n>(extra: &[&'n str]) -> BTreeSet<&'n str> {
    [
        "lookup", "validate", "scopes", "vault", "precheck", "throttle", "acl", "handler",
        "governor",
    ]
    .into_iter()
    .chain(extra.iter().copied())
    .collect()
}

#[tokio::test]
async fn each_call_is_one_trace_with_its_gates_and_no_arguments() {
    let receiver = Receiver::start();
    let vault = vault();
    let client = stdio_exporting(vault.path(), &receiver).await;
    let read = call(&client, "read_note", json!({"path": "hello.md"})).await;
    assert_eq!(read.is_error, Some(false));
    let appended = call(
        &client,
        "append_note",
        json!({"path": "hello.md", "content": APPENDED}),
    )
    .await;
    assert_eq!(appended.is_error, Some(false), "{appended:?}");
    let missing = call(&client, "read_note", json!({"path": "private-plans.md"})).await;
    assert_eq!(missing.is_error, Some(true));
    client.cancel().await.expect("close");

    let spans = receiver.wait_for_roots(3);
    let traces = traces(&spans);
    assert_eq!(traces.len(), 3, "one trace per call: {spans:#?}");
    let mut calls: Vec<(String, BTreeSet<&str>, Option<&str>)> = traces
        .values()
        .map(|trace| {
            let (root, children) = one_call(trace);
            assert_eq!(root.attribute("mcp.method.name"), Some("tools/call"));
            assert!(
                root.attribute("obsidian_tc.caller")
                    .is_some_and(|caller| !caller.is_empty()),
                "{root:#?}"
            );
            assert!(root.attribute("obsidian_tc.vault").is_some(), "{root:#?}");
            let tool = root.attribute("gen_ai.tool.name").expect("the tool");
            assert_eq!(root.name, format!("tools/call {tool}"));
            (root.name.clone(), children, root.attribute("error.type"))
        })
        .collect();
    calls.sort();
    let mut expected = vec![
        (
            "tools/call append_note".to_owned(),
            passing_gates(&["refresh_index"]),
            None,
        ),
        ("tools/call read_note".to_owned(), passing_gates(&[]), None),
        (
            "tools/call read_note".to_owned(),
            passing_gates(&[])
                .into_iter()
                .filter(|gate| *gate != "governor")
                .collect(),
            Some("not_found"),
        ),
    ];
    expected.sort();
    assert_eq!(calls, expected);

    let failed_handler = spans
        .iter()
        .find(|span| span.name == "handler" && span.attribute("error.type").is_some())
        .expect("the failing handler's span");
    assert_eq!(failed_handler.attribute("error.type"), Some("not_found"));
    for span in &spans {
        assert_eq!(span.service, "obsidian-tc");
        for (key, value) in &span.attributes {
            for private in ["hello.md", "private-plans", APPENDED, "# Hello"] {
                assert!(
                    !value.contains(private),
                    "{}: {key} = {value:?} holds {private:?}",
                    span.name
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_http_sessions_never_share_a_trace() {
    const CALLS: usize = 8;
    let receiver = Receiver::start();
    let vault = vault();
    let endpoint = receiver.endpoint();
    let server = HttpServer::serve_vault_with(
        vault.path(),
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
            ("OTEL_BSP_SCHEDULE_DELAY", "20"),
        ],
    );
    let session = || async {
        ().serve(StreamableHttpClientTransport::from_uri(server.url()))
            .await
            .expect("initialize over HTTP")
    };
    let (reader, lister) = tokio::join!(session(), session());
    let reads = async {
        for _ in 0..CALLS {
            let result = call(&reader, "read_note", json!({"path": "hello.md"})).await;
            assert_eq!(result.is_error, Some(false));
        }
    };
    let lists = async {
        for _ in 0..CALLS {
            let result = call(&lister, "list_notes", json!({})).await;
            assert_eq!(result.is_error, Some(false));
        }
    };
    tokio::join!(reads, lists);
    reader.cancel().await.expect("close");
    lister.cancel().await.expect("close");
    server.stop();

    let spans = receiver.wait_for_roots(2 * CALLS);
    let traces = traces(&spans);
    assert_eq!(traces.len(), 2 * CALLS, "one trace per call: {spans:#?}");
    let mut by_tool: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for (trace_id, trace) in &traces {
        let (root, children) = one_call(trace);
        assert_eq!(children, passing_gates(&[]), "{}", root.name);
        let handlers = trace.iter().filter(|span| span.name == "handler").count();
        assert_eq!(handlers, 1, "{trace_id} holds one call's spans");
        by_tool
            .entry(root.name.clone())
            .or_default()
            .insert(trace_id);
    }
    let reads = &by_tool["tools/call read_note"];
    let lists = &by_tool["tools/call list_notes"];
    assert_eq!((reads.len(), lists.len()), (CALLS, CALLS));
    assert!(reads.is_disjoint(lists));
}

#[test]
fn an_embedding_request_in_a_call_is_a_span_below_it() {
    let receiver = Receiver::start();
    let api = MockApi::start(3);
    let vault = vault();
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("config.json");
    let embeddings = json!({
        "embeddings": {
            "provider": "openai", "endpoint": format!("{}/v1", api.url()), "apiKey": "sk-test",
            "dimensions": 3, "retries": 0
        }
    });
    write_config(&config, vault.path(), embeddings);
    let endpoint = receiver.endpoint();
    run_call(
        "find_capability",
        &json!({ "query": "rename a note" }).to_string(),
        &["--config", &arg(&config)],
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)],
    );
    assert!(!api.requests().is_empty(), "the provider was asked");

    let spans = receiver.wait_for_roots(1);
    let traces = traces(&spans);
    assert_eq!(traces.len(), 1, "{spans:#?}");
    let trace = traces.values().next().expect("the call's trace");
    let (root, _) = one_call(trace);
    assert_eq!(root.name, "tools/call find_capability");
    let handler = trace
        .iter()
        .find(|span| span.name == "handler" && span.parent_id == root.span_id)
        .expect("the handler's span");
    let embeds: Vec<&&Span> = trace.iter().filter(|span| span.name == "embed").collect();
    assert!(!embeds.is_empty(), "{trace:#?}");
    for embed in embeds {
        assert_eq!(embed.parent_id, handler.span_id);
        assert_eq!(embed.attribute("gen_ai.operation.name"), Some("embeddings"));
        assert!(matches!(
            embed.attribute("obsidian_tc.embed.kind"),
            Some("query" | "document")
        ));
        assert!(
            embed
                .attributes
                .iter()
                .all(|(_, value)| !value.contains("rename a note")),
            "{embed:#?}"
        );
    }
}

#[tokio::test]
async fn a_call_with_a_traceparent_continues_the_clients_trace() {
    const TRACE: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
    const CLIENT_SPAN: &str = "00f067aa0ba902b7";
    let receiver = Receiver::start();
    let vault = vault();
    let client = stdio_exporting(vault.path(), &receiver).await;
    let mut meta = RequestMetaObject::new();
    meta.set_traceparent(format!("00-{TRACE}-{CLIENT_SPAN}-01"));
    let mut params =
        CallToolRequestParams::new("read_note").with_arguments(rmcp::object!({"path": "hello.md"}));
    params.meta = Some(meta);
    let continued = client.call_tool(params).await.expect("tools/call answers");
    assert_eq!(continued.is_error, Some(false));
    let own = call(&client, "read_note", json!({"path": "hello.md"})).await;
    assert_eq!(own.is_error, Some(false));
    client.cancel().await.expect("close");

    let calls: Vec<Span> = receiver
        .wait_for_roots(1)
        .into_iter()
        .filter(|span| span.name == "tools/call read_note")
        .collect();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    let (continuing, own): (Vec<&Span>, Vec<&Span>) =
        calls.iter().partition(|span| span.trace_id == TRACE);
    assert_eq!(continuing.len(), 1, "{calls:#?}");
    assert_eq!(continuing[0].parent_id, CLIENT_SPAN);
    assert!(
        own[0].is_root(),
        "a call without a traceparent starts its own trace"
    );
}

#[test]
fn without_the_export_layer_no_span_exists_whatever_rust_log_says() {
    let logs_only = tracing_subscriber::registry().with(logs::layer(LogFormat::Json));
    tracing::subscriber::with_default(logs_only, || {
        assert!(!spans::exporting());
        assert!(spans::call("read_note", "cli").is_disabled());
        assert!(Gate::Handler.span().is_disabled());
        assert!(spans::refresh_index(1).is_disabled());
        let checked: Result<(), ToolError> = Gate::Acl.check(|| Ok(()));
        assert!(checked.is_ok());
    });
}
