//! A tool call's remote parent: the W3C trace context (`traceparent`, `tracestate`) an MCP
//! client sends in a request's `_meta` (SEP-414). The call's root span then continues the
//! client's trace instead of starting one of its own.

use std::collections::HashMap;

use opentelemetry::Context;
use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::TraceContextExt;
use opentelemetry_sdk::propagation::TraceContextPropagator;

use crate::telemetry::spans;

/// The W3C header names, as `_meta` keys.
const TRACEPARENT: &str = "traceparent";
/// See [`TRACEPARENT`].
const TRACESTATE: &str = "tracestate";

/// The client's span a call continues.
#[derive(Debug, Clone)]
pub struct RemoteParent(Context);

impl RemoteParent {
    /// The span `traceparent` (with `tracestate`) names; `None` when it is absent or
    /// malformed, or when spans are not exported (nothing is parsed then).
    pub fn from_w3c(traceparent: Option<&str>, tracestate: Option<&str>) -> Option<RemoteParent> {
        let traceparent = traceparent.filter(|_| spans::exporting())?;
        let mut carrier = HashMap::from([(TRACEPARENT.to_owned(), traceparent.to_owned())]);
        if let Some(tracestate) = tracestate {
            carrier.insert(TRACESTATE.to_owned(), tracestate.to_owned());
        }
        let context = TraceContextPropagator::new().extract(&carrier);
        let valid = context.span().span_context().is_valid();
        valid.then_some(RemoteParent(context))
    }

    /// Runs `run` on this thread with `parent`, if any, as the parent of the tool-call root
    /// spans it starts ([`spans::call`]).
    pub fn continuing<T>(parent: Option<RemoteParent>, run: impl FnOnce() -> T) -> T {
        let _attached = parent.map(|parent| parent.0.attach());
        run()
    }
}
