//! Human approval through Obsidian: a call held at the HITL gate of a vault whose TC Bridge is
//! reachable is shown to the human in Obsidian (`POST /obsidian-tc/v1/confirm`). Only
//! `approved` lets it through: the server then mints the call's elicit token and consumes it
//! at once (`crate::runtime`'s approval), so the approval serves this one call, once. `denied`, `timed_out`, no answer in
//! time, or no reachable companion leave the gate answering `elicit_required` as before.
//!
//! The decision comes from the human's click in Obsidian, over the server's own connection
//! to TC Bridge: nothing the agent sends can stand for it.

use std::time::Duration;

use serde_json::{Value, json};

use super::client::{CallFailure, VaultCompanion};
use super::contract::CONFIRM;
use super::state::CompanionState;

/// The route of the approval dialog.
const CONFIRM_ROUTE: &str = CONFIRM.path;

/// How much longer than the dialog's own deadline the server waits for TC Bridge's answer.
const ANSWER_GRACE: Duration = Duration::from_secs(2);

/// The longest summary shown in the dialog, in characters.
const MAX_SUMMARY_CHARS: usize = 2_000;

/// The call held at the HITL gate.
pub(crate) struct GatedCall<'a> {
    /// The vault it is bound to.
    pub vault_id: &'a str,
    /// The tool.
    pub tool: &'a str,
    /// Its args hash.
    pub args_hash: &'a str,
    /// What it would change (the gate's proposal or the tool's own).
    pub proposed_change: &'a Value,
}

/// Asks the human in Obsidian whether `call` may run, when `companion` (its vault's TC Bridge)
/// is reachable, and waits for the dialog (its `confirmTimeoutMs`, plus a grace for the
/// answer). Only `approved` is `true`; a denial, a timeout, no answer or no reachable
/// companion is `false`.
pub(crate) fn approved_in_obsidian(companion: &VaultCompanion, call: &GatedCall<'_>) -> bool {
    if !matches!(companion.current(), CompanionState::Reachable(_)) {
        return false;
    }
    let dialog_ms = companion.config().confirm_timeout_ms;
    let body = confirm_body(call, dialog_ms);
    let wait = Duration::from_millis(dialog_ms) + ANSWER_GRACE;
    match companion.post(CONFIRM_ROUTE, &body, wait) {
        Ok(answer) => answer.get("decision").and_then(Value::as_str) == Some("approved"),
        Err(failure) => {
            log_failure(call, &failure);
            false
        }
    }
}

/// The dialog's request: the tool, the vault, the path when the call names one, what it
/// would change, and the args hash it is bound to.
fn confirm_body(call: &GatedCall<'_>, dialog_ms: u64) -> Value {
    let arguments = call.proposed_change.get("arguments");
    let path = arguments
        .and_then(|arguments| arguments.get("path"))
        .or_else(|| call.proposed_change.get("path"))
        .and_then(Value::as_str);
    let shown = arguments.unwrap_or(call.proposed_change);
    let mut summary = format!("{} in vault '{}': {shown}", call.tool, call.vault_id);
    if summary.chars().count() > MAX_SUMMARY_CHARS {
        summary = summary.chars().take(MAX_SUMMARY_CHARS).collect::<String>() + "…";
    }
    let mut body = json!({
        "tool": call.tool,
        "vault": call.vault_id,
        "summary": summary,
        "args_hash": call.args_hash,
        "timeout_ms": dialog_ms,
    });
    if let (Some(path), Some(map)) = (path, body.as_object_mut()) {
        map.insert("path".to_owned(), Value::String(path.to_owned()));
    }
    body
}

fn log_failure(call: &GatedCall<'_>, failure: &CallFailure) {
    tracing::info!(
        vault = call.vault_id,
        tool = call.tool,
        ?failure,
        "no approval from TC Bridge; the call stays elicit_required"
    );
}
