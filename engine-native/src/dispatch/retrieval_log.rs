//! The pipeline's retrieval hook (step 14): what a ranked search tool reported returning
//! ([`ToolContext::report_retrieval`]) is logged once the call has answered, with the caller,
//! the caller's open session in the vault (if any), the tool and the time
//! ([`crate::store::Retrievals`]), unless `retrievalLog.enabled` is off. A call that failed
//! logs nothing. Logging never fails the call: a failed write is logged and counted as a
//! bookkeeping fault.

use crate::dispatch::Dispatcher;
use crate::runtime::ToolContext;
use crate::store::RetrievalEvent;

impl Dispatcher {
    /// Logs the ranked search the finished call `ctx` reported, if it reported one.
    pub(crate) fn log_retrieval(&self, ctx: &ToolContext<'_>) {
        let Some(retrieval) = ctx.take_retrieval() else {
            return;
        };
        if !ctx.served().config().config.retrieval_log.enabled {
            return;
        }
        let caller = &ctx.caller().id;
        let session = self.runtime.sessions.open_id(ctx.vault_id(), caller);
        let event = RetrievalEvent {
            vault_id: ctx.vault_id(),
            ts: self.runtime.clock.now_seconds(),
            caller,
            session_id: session.as_deref(),
            surface: ctx.tool().name(),
            args_hash: ctx.args_hash(),
            retrieval: &retrieval,
        };
        if let Err(error) = self.runtime.store.retrievals().append(&event) {
            self.runtime.metrics.record_bookkeeping_fault();
            tracing::warn!(
                vault = ctx.vault_id(),
                tool = ctx.tool().name(),
                "the search was not written to the retrieval log ({error})"
            );
        }
    }
}
