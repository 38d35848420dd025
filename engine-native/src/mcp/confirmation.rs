//! Destructive calls under protocol 2026-07-28 (SEP-2322, multi round-trip requests).
//!
//! When the HITL gate stops a call with `elicit_required` and the client speaks 2026-07-28
//! and declared form elicitation, the call is answered with an input-required result instead
//! of the error: one elicitation (`confirm`) showing the user what the call would change, and
//! a request state sealed with a key that never leaves this process, bound to the caller and
//! naming the call's args hash. The client asks the user, then retries the same call with the
//! answer and the state. An accepted answer runs [`Dispatcher::call_confirmed`], whose gate
//! lets through only the call with that args hash, only while its recorded request is live,
//! and only once; a declined one is `aborted`; a forged, expired or foreign state is an
//! invalid-params protocol error. Older clients, and clients without elicitation, get the
//! classic `elicit_required` error (approved out of band with `obsidian-tc elicit approve`).
//!
//! [`Dispatcher::call_confirmed`]: crate::dispatch::Dispatcher::call_confirmed

use std::sync::OnceLock;
use std::time::Duration;

use rmcp::ErrorData as McpError;
use rmcp::model::{
    ClientCapabilities, ElicitRequest, ElicitRequestParams, ElicitationSchema, InputRequest,
    InputRequests, InputRequiredResult, InputResponses, ProtocolVersion, RequestStateCodec,
    SealOptions,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::errors::{ErrorCode, ToolError};

/// The key of the one input request, and the boolean the user ticks in it.
pub const CONFIRM: &str = "confirm";

/// The most characters of the proposed change shown in the confirmation message.
const MAX_CHANGE_CHARS: usize = 600;

/// What the sealed request state says: the call the user is asked about.
#[derive(Debug, Serialize, Deserialize)]
struct ConfirmState {
    /// The args hash of the call (the only call a yes can approve).
    args_hash: String,
    /// The tool, to say which call a stale state was for.
    tool: String,
}

/// Whether a request may be answered with an input-required confirmation: the request speaks
/// protocol 2026-07-28 or later and its client declared form elicitation.
pub fn can_ask(protocol: Option<&ProtocolVersion>, client: Option<&ClientCapabilities>) -> bool {
    let speaks_mrtr =
        protocol.is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    let elicits_forms = client
        .and_then(|capabilities| capabilities.elicitation.as_ref())
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
    speaks_mrtr && elicits_forms
}

/// The input-required result asking the user to confirm the call `error` stopped, for
/// `caller`, valid for `ttl`; `None` when `error` is not `elicit_required`.
pub fn ask(error: &ToolError, caller: &Caller, ttl: Duration) -> Option<InputRequiredResult> {
    if error.code != ErrorCode::ElicitRequired {
        return None;
    }
    let details = &error.details;
    let state = ConfirmState {
        args_hash: details.get("args_hash")?.as_str()?.to_owned(),
        tool: details.get("tool")?.as_str()?.to_owned(),
    };
    let message = confirmation_message(&state.tool, details.get("proposed_change"));
    let schema = ElicitationSchema::builder()
        .required_bool_with(CONFIRM, |property| {
            property
                .title("Allow this change")
                .description("Tick to let this one call run; leave it to refuse")
        })
        .build()
        .ok()?;
    let request = ElicitRequest::new(ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: schema,
    });
    let sealed = codec()?
        .seal_json_with(&state, &seal_options(caller, ttl))
        .ok()?;
    let requests = InputRequests::from([(CONFIRM.to_owned(), InputRequest::Elicitation(request))]);
    Some(InputRequiredResult::new(Some(requests), Some(sealed)))
}

/// What a call brings back from a confirmation round: `Ok(None)` for a call without request
/// state (or whose user has not answered yet: ask again), `Ok(Some(args_hash))` when the user
/// confirmed the call with that hash, a tool error `aborted` when they refused, and an
/// invalid-params protocol error when the state fails verification (forged, tampered,
/// expired, or sealed for another caller).
pub fn answer(
    request_state: Option<&str>,
    responses: Option<&InputResponses>,
    caller: &Caller,
) -> Result<Result<Option<String>, ToolError>, McpError> {
    let Some(sealed) = request_state else {
        return Ok(Ok(None));
    };
    let refused = |why: String| {
        McpError::invalid_params(
            format!(
                "requestState failed verification ({why}); call again without it to be asked \
                 for a new confirmation"
            ),
            None,
        )
    };
    let codec = codec().ok_or_else(|| refused("the server cannot verify states".to_owned()))?;
    let state: ConfirmState = codec
        .open_json_with(sealed, caller.id.as_bytes())
        .map_err(|error| refused(error.to_string()))?;
    let Some(response) = responses.and_then(|responses| responses.get(CONFIRM)) else {
        return Ok(Ok(None));
    };
    if response["action"] == "accept" && response["content"][CONFIRM] == json!(true) {
        return Ok(Ok(Some(state.args_hash)));
    }
    Ok(Err(ToolError::new(
        ErrorCode::Aborted,
        format!(
            "the user did not allow this {} call; nothing changed",
            state.tool
        ),
    )
    .with_details(json!({
        "tool": state.tool,
        "args_hash": state.args_hash,
        "action": response["action"],
    }))))
}

/// The message the user reads: which tool, and what it would change.
fn confirmation_message(tool: &str, proposed_change: Option<&Value>) -> String {
    let change = proposed_change.map(Value::to_string).unwrap_or_default();
    let shown: String = change.chars().take(MAX_CHANGE_CHARS).collect();
    let ellipsis = if shown.len() < change.len() {
        "…"
    } else {
        ""
    };
    format!("obsidian-tc: allow {tool} to run once? It would do: {shown}{ellipsis}")
}

/// Seals for `caller` only, for `ttl`.
pub(super) fn seal_options<'a>(caller: &'a Caller, ttl: Duration) -> SealOptions<'a> {
    SealOptions::new()
        .associated_data(caller.id.as_bytes())
        .ttl(ttl)
}

/// The process's sealing key: 32 random bytes drawn once (a restart voids the states in
/// flight, which only means the user is asked again). `None` without OS randomness: then
/// nothing is sealed, calls get the classic `elicit_required`, and every state is refused.
pub(super) fn codec() -> Option<&'static RequestStateCodec> {
    static CODEC: OnceLock<Option<RequestStateCodec>> = OnceLock::new();
    CODEC
        .get_or_init(|| {
            let mut key = [0u8; 32];
            let drawn = getrandom::fill(&mut key).map_err(|error| error.to_string());
            match drawn.and_then(|()| {
                RequestStateCodec::try_new(key.to_vec()).map_err(|error| error.to_string())
            }) {
                Ok(codec) => Some(codec),
                Err(error) => {
                    tracing::error!("no request-state key: {error}");
                    None
                }
            }
        })
        .as_ref()
}
