//! The spans of a tool call: a root per call, named `tools/call <tool>` (the MCP semantic
//! conventions' server span: `mcp.method.name`, `gen_ai.tool.name`, `gen_ai.operation.name`,
//! `error.type`), a child per pipeline gate ([`Gate`]), and children for the index refresh
//! after a write and for each embedding request. They hold the tool, the vault id, the
//! caller id, the outcome and counts, never arguments, paths or note text.
//!
//! They are `tracing` spans at [`SPAN_TARGET`], which only the export layer
//! ([`export_layer`]) enables; with export off every function here returns a disabled span
//! and records nothing.

use opentelemetry::trace::{TraceContextExt, TracerProvider};
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::field::Empty;
use tracing::{Span, Subscriber};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::{LevelFilter, filter_fn};
use tracing_subscriber::registry::LookupSpan;

use crate::errors::ToolError;

/// The `tracing` target of every tool-call span (and of nothing else).
pub const SPAN_TARGET: &str = "obsidian_tc::otel";

/// The instrumentation scope the spans are exported under.
const SCOPE: &str = "obsidian-tc";

/// The MCP method of a tool call.
const TOOLS_CALL: &str = "tools/call";

/// A step of the dispatch pipeline, in the order `crate::dispatch` takes them: its number
/// ([`Gate::number`]) and name ([`Gate::name`]) are the same in the code, the spans and
/// `docs/architecture.md`. The steps that can refuse a call have a span of their own; the
/// others (`args_hash`, `changes`, `record`) refuse nothing and have none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// 1: the tool, by name and visibility.
    Lookup,
    /// 2: the args hash over the name and the arguments (no span).
    ArgsHash,
    /// 3: the arguments against the tool's JSON Schema.
    Validate,
    /// 4: the caller's scopes.
    Scopes,
    /// 5: the vault the call is bound to.
    Vault,
    /// 6: the read-only switch and the tool's precheck.
    Precheck,
    /// 7: the idempotency claim.
    Idempotency,
    /// 8: the rate limit.
    Throttle,
    /// 9: the human approval.
    Hitl,
    /// 10: the folder ACL on the path arguments.
    Acl,
    /// 11: the tool's handler, recorded by the undo journal.
    Handler,
    /// 12: the snapshots of the changed files and the index refresh (no span of its own).
    Changes,
    /// 13: the byte governor.
    Governor,
    /// 14: the idempotency record, metrics, audit row and session trace (no span).
    Record,
}

impl Gate {
    /// Every step, in pipeline order: `ALL[n - 1].number() == n`.
    pub const ALL: [Gate; 14] = [
        Gate::Lookup,
        Gate::ArgsHash,
        Gate::Validate,
        Gate::Scopes,
        Gate::Vault,
        Gate::Precheck,
        Gate::Idempotency,
        Gate::Throttle,
        Gate::Hitl,
        Gate::Acl,
        Gate::Handler,
        Gate::Changes,
        Gate::Governor,
        Gate::Record,
    ];

    /// The step's number, from 1.
    pub fn number(self) -> usize {
        Gate::ALL
            .iter()
            .position(|gate| *gate == self)
            .map_or(0, |at| at + 1)
    }

    /// The step's name, and its span's name when it has one.
    pub fn name(self) -> &'static str {
        match self {
            Gate::Lookup => "lookup",
            Gate::ArgsHash => "args_hash",
            Gate::Validate => "validate",
            Gate::Scopes => "scopes",
            Gate::Vault => "vault",
            Gate::Precheck => "precheck",
            Gate::Idempotency => "idempotency",
            Gate::Throttle => "throttle",
            Gate::Hitl => "hitl",
            Gate::Acl => "acl",
            Gate::Handler => "handler",
            Gate::Changes => "changes",
            Gate::Governor => "governor",
            Gate::Record => "record",
        }
    }

    /// A span for this gate, a child of the current one.
    pub fn span(self) -> Span {
        tracing::info_span!(
            target: SPAN_TARGET,
            "gate",
            otel.name = self.name(),
            otel.status_code = Empty,
            error.type = Empty,
        )
    }

    /// Runs `run` in this gate's span, which records the error code of a refusal.
    pub fn check<T>(self, run: impl FnOnce() -> Result<T, ToolError>) -> Result<T, ToolError> {
        self.check_with(|| (run(), ())).0
    }

    /// [`Gate::check`] for a step whose result comes with something it returns either way
    /// (the handler's journal of changed files).
    pub fn check_with<T, R>(
        self,
        run: impl FnOnce() -> (Result<T, ToolError>, R),
    ) -> (Result<T, ToolError>, R) {
        let span = self.span();
        let (result, rest) = span.in_scope(run);
        if let Err(error) = &result {
            failed(&span, error);
        }
        (result, rest)
    }
}

/// The export layer: OpenTelemetry spans from the `tracing` spans at [`SPAN_TARGET`] only,
/// ended into `provider`.
pub fn export_layer<S>(provider: &SdkTracerProvider) -> impl Layer<S> + use<S>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    tracing_opentelemetry::layer()
        .with_tracer(provider.tracer(SCOPE))
        // Nothing an operator reads in a call's trace, and each costs every span: the thread,
        // the source location and target (the same for all), busy/idle clocks on every entry.
        .with_threads(false)
        .with_location(false)
        .with_target(false)
        .with_tracked_inactivity(false)
        .with_filter(
            filter_fn(|metadata| metadata.target() == SPAN_TARGET)
                .with_max_level_hint(LevelFilter::INFO),
        )
}

/// The root span of one call of `tool` (a registered name, or the placeholder of an unknown
/// one) by `caller`: a new trace, never a child of whatever span the calling thread is in,
/// so no two calls share a trace id; or, inside [`RemoteParent::continuing`], a child of the
/// client's span. [`finish_call`] records how it ended.
///
/// [`RemoteParent::continuing`]: crate::telemetry::propagation::RemoteParent::continuing
pub fn call(tool: &str, caller: &str) -> Span {
    let span = tracing::info_span!(
        target: SPAN_TARGET,
        parent: None,
        "tools/call",
        otel.name = format!("{TOOLS_CALL} {tool}"),
        otel.kind = "server",
        otel.status_code = Empty,
        mcp.method.name = TOOLS_CALL,
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = tool,
        error.type = Empty,
        obsidian_tc.caller = caller,
        obsidian_tc.vault = Empty,
        obsidian_tc.replayed = Empty,
        obsidian_tc.duration_ms = Empty,
    );
    if !span.is_disabled() {
        let attached = opentelemetry::Context::current();
        if attached.span().span_context().is_remote() {
            // A span not yet entered takes a new parent; nothing else can fail here.
            let _ = span.set_parent(attached);
        }
    }
    span
}

/// Whether tool-call spans are exported (the export layer is installed).
pub fn exporting() -> bool {
    tracing::enabled!(target: SPAN_TARGET, tracing::Level::INFO)
}

/// What [`finish_call`] records on a call's span.
#[derive(Debug)]
pub struct Finished<'c> {
    /// The vault the call was bound to, when it got that far.
    pub vault: Option<&'c str>,
    /// The tool error, when the call failed.
    pub error: Option<&'c ToolError>,
    /// Whether the result was replayed from an idempotency key.
    pub replayed: bool,
    /// How long the call took.
    pub duration_ms: u64,
}

/// Records how the call of `span` ended.
pub fn finish_call(span: &Span, finished: &Finished<'_>) {
    if let Some(vault) = finished.vault {
        span.record("obsidian_tc.vault", vault);
    }
    span.record("obsidian_tc.replayed", finished.replayed);
    span.record("obsidian_tc.duration_ms", finished.duration_ms);
    if let Some(error) = finished.error {
        failed(span, error);
    }
}

/// The span of the index refresh after a write, over `notes` notes.
pub fn refresh_index(notes: usize) -> Span {
    tracing::info_span!(
        target: SPAN_TARGET,
        "refresh_index",
        obsidian_tc.notes = notes,
    )
}

/// The span of one embedding request of `texts` texts of `kind` (`query` or `document`)
/// to `model`, when it runs inside a tool call's span; disabled outside one (the background
/// indexing of a vault makes no traces).
pub fn embed(kind: &'static str, texts: usize, model: &str) -> Span {
    let in_call = Span::current()
        .metadata()
        .is_some_and(|metadata| metadata.target() == SPAN_TARGET);
    if !in_call {
        return Span::none();
    }
    tracing::info_span!(
        target: SPAN_TARGET,
        "embed",
        gen_ai.operation.name = "embeddings",
        gen_ai.request.model = model,
        obsidian_tc.embed.kind = kind,
        obsidian_tc.embed.texts = texts,
    )
}

/// Marks `span` failed with the error's code.
fn failed(span: &Span, error: &ToolError) {
    span.record("otel.status_code", "error");
    span.record("error.type", error.code.as_str());
}
