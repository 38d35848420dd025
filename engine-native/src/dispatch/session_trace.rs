//! The pipeline's session hook: a call bound to a vault in which its caller has a session
//! open is appended to that session's trace ([`crate::sessions`]), with only the changed
//! paths the caller may read. Tracing never fails the call: a failed write is logged and
//! counted as a bookkeeping fault.

use crate::auth::Caller;
use crate::calendar::rfc3339_utc;
use crate::dispatch::Dispatcher;
use crate::dispatch::pipeline::Ended;
use crate::runtime::Served;
use crate::sessions::{CallRecord, TraceOutcome};

impl Dispatcher {
    /// Traces one finished call in its caller's open session, if there is one.
    pub(crate) fn trace_in_session(&self, served: &Served, caller: &Caller, ended: &Ended<'_>) {
        let Ended {
            name,
            trace,
            result,
            duration_ms,
            ..
        } = *ended;
        let Some(entry) = ended.vault(served) else {
            return;
        };
        let include_arguments = served.config().config.traces.include_arguments;
        let make = || CallRecord {
            ts: rfc3339_utc(self.runtime.clock.now_seconds()),
            tool: name.to_owned(),
            args_hash: trace.args_hash.clone(),
            outcome: match result {
                Ok(_) => TraceOutcome::Ok,
                Err(_) => TraceOutcome::Error,
            },
            code: result
                .as_ref()
                .err()
                .map(|error| error.code.as_str().to_owned()),
            duration_ms,
            changed_files: ended.readable_changes(entry, caller),
            replayed: trace.replayed,
            arguments: trace.arguments.clone().filter(|_| include_arguments),
        };
        let max_file_bytes = served.config().config.traces.max_file_bytes;
        let traced = self
            .runtime
            .sessions
            .trace(&entry.id, &caller.id, name, max_file_bytes, make);
        if let Err(error) = traced {
            self.runtime.metrics.record_bookkeeping_fault();
            tracing::warn!(
                vault = entry.id,
                tool = name,
                "the call was not written to its session trace ({error})"
            );
        }
    }
}
