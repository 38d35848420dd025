//! An OTLP/HTTP trace receiver for the tests: accepts `POST /v1/traces` with a protobuf
//! `ExportTraceServiceRequest` body on a loopback port, answers 200, and keeps every span.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::common::v1::{AnyValue as Any, KeyValue};
use prost::Message;

use crate::support::mcp::BIN;

/// One received span, its ids in hex.
#[derive(Debug, Clone)]
pub struct Span {
    /// The span's name.
    pub name: String,
    /// The trace id.
    pub trace_id: String,
    /// The span id.
    pub span_id: String,
    /// The parent's span id; empty for a root.
    pub parent_id: String,
    /// The attributes, values as text.
    pub attributes: Vec<(String, String)>,
    /// The resource's `service.name`.
    pub service: String,
    /// The resource's attributes, values as text.
    pub resource: Vec<(String, String)>,
}

impl Span {
    /// The attribute `key`, as text.
    pub fn attribute(&self, key: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.as_str())
    }

    /// Whether the span is a trace's root.
    pub fn is_root(&self) -> bool {
        self.parent_id.is_empty()
    }
}

/// What the receiver got.
#[derive(Debug, Default)]
struct Received {
    spans: Vec<Span>,
    requests: usize,
    /// The headers of every request, names lowercase.
    headers: Vec<(String, String)>,
    wrong: Vec<String>,
}

/// A receiver listening on a loopback port until the test ends.
pub struct Receiver {
    port: u16,
    received: Arc<Mutex<Received>>,
}

impl Receiver {
    /// Starts listening.
    pub fn start() -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the receiver");
        let port = listener.local_addr().expect("address").port();
        let received = Arc::new(Mutex::new(Received::default()));
        let shared = Arc::clone(&received);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &shared));
            }
        });
        Receiver { port, received }
    }

    /// The base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`).
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every span so far.
    pub fn spans(&self) -> Vec<Span> {
        self.received.lock().expect("lock").spans.clone()
    }

    /// The headers of every request so far, names lowercase.
    pub fn headers(&self) -> Vec<(String, String)> {
        self.received.lock().expect("lock").headers.clone()
    }

    /// How many export requests arrived.
    pub fn requests(&self) -> usize {
        self.received.lock().expect("lock").requests
    }

    /// Waits until `roots` root spans arrived (at most 20 s) and returns every span; fails
    /// on a request that was not an OTLP/HTTP protobuf trace export.
    pub fn wait_for_roots(&self, roots: usize) -> Vec<Span> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let spans = self.spans();
            let wrong = self.received.lock().expect("lock").wrong.clone();
            assert!(wrong.is_empty(), "unexpected requests: {wrong:?}");
            let found = spans.iter().filter(|span| span.is_root()).count();
            if found >= roots {
                return spans;
            }
            assert!(
                Instant::now() < deadline,
                "{found} of {roots} root spans arrived: {spans:#?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Answers the requests of one connection (keep-alive) until it closes.
fn serve(stream: TcpStream, received: &Mutex<Received>) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
            }
        }
        let header = |wanted: &str| {
            headers
                .iter()
                .find(|(name, _)| name == wanted)
                .map(|(_, value)| value.clone())
                .unwrap_or_default()
        };
        let length = header("content-length").parse().unwrap_or(0);
        let content_type = header("content-type");
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        received
            .lock()
            .expect("lock")
            .headers
            .extend(headers.iter().cloned());
        record(received, request_line.trim(), &content_type, &body);
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nContent-Length: 0\r\n\r\n";
        if writer.write_all(answer.as_bytes()).is_err() {
            return;
        }
    }
}

/// Decodes one request into `received`.
fn record(received: &Mutex<Received>, request_line: &str, content_type: &str, body: &[u8]) {
    let mut received = received.lock().expect("lock");
    received.requests += 1;
    if !request_line.starts_with("POST /v1/traces ") || content_type != "application/x-protobuf" {
        received
            .wrong
            .push(format!("{request_line} ({content_type})"));
        return;
    }
    let Ok(export) = ExportTraceServiceRequest::decode(body) else {
        received
            .wrong
            .push(format!("{request_line}: not a trace export"));
        return;
    };
    for resource_spans in export.resource_spans {
        let resource: Vec<(String, String)> = resource_spans
            .resource
            .iter()
            .flat_map(|resource| &resource.attributes)
            .map(|attribute| (attribute.key.clone(), text_of(attribute)))
            .collect();
        let service = resource
            .iter()
            .find(|(key, _)| key == "service.name")
            .map(|(_, value)| value.clone())
            .unwrap_or_default();
        for span in resource_spans
            .scope_spans
            .into_iter()
            .flat_map(|scope| scope.spans)
        {
            received.spans.push(Span {
                name: span.name,
                trace_id: hex(&span.trace_id),
                span_id: hex(&span.span_id),
                parent_id: hex(&span.parent_span_id),
                attributes: span
                    .attributes
                    .iter()
                    .map(|attribute| (attribute.key.clone(), text_of(attribute)))
                    .collect(),
                service: service.clone(),
                resource: resource.clone(),
            });
        }
    }
}

/// An attribute's value as text.
fn text_of(attribute: &KeyValue) -> String {
    match attribute
        .value
        .as_ref()
        .and_then(|value: &Any| value.value.as_ref())
    {
        Some(AnyValue::StringValue(text)) => text.clone(),
        Some(AnyValue::BoolValue(flag)) => flag.to_string(),
        Some(AnyValue::IntValue(number)) => number.to_string(),
        Some(AnyValue::DoubleValue(number)) => number.to_string(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

/// Bytes as lowercase hex.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The standard OpenTelemetry variables, removed from the environment of every process these
/// tests start (only what a test sets applies).
pub const OTEL_VARS: [&str; 9] = [
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_SDK_DISABLED",
    "OTEL_TRACES_EXPORTER",
    "OTEL_SERVICE_NAME",
    "OTEL_RESOURCE_ATTRIBUTES",
    "OTEL_TRACES_SAMPLER",
    "OTEL_TRACES_SAMPLER_ARG",
    "OTEL_BSP_SCHEDULE_DELAY",
];

/// Runs `obsidian-tc call <tool> --args <args> <extra>` with only the variables `env` of
/// [`OTEL_VARS`] and no `OBSIDIAN_TC_CONFIG`, to completion; fails unless it succeeds.
pub fn run_call(tool: &str, args: &str, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(BIN);
    command
        .args(["call", tool, "--args", args])
        .args(extra)
        .env_remove("OBSIDIAN_TC_CONFIG")
        .envs(crate::support::cache_home::cache_env(
            &crate::support::cache_home::test_cache_root(),
        ));
    for var in OTEL_VARS {
        command.env_remove(var);
    }
    let output = command
        .envs(env.iter().copied())
        .output()
        .expect("run obsidian-tc call");
    assert!(output.status.success(), "{output:?}");
    output
}
