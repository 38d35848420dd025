//! Human approval of one exact call (HITL), shared by the dispatch gate and
//! [`crate::runtime::ToolContext::confirm`]: an `elicit_token` passed with the call, the
//! user's confirmation of the call in their MCP client, an approval a human gave to the
//! call's `args_hash`, or the human's approval in Obsidian through TC Bridge
//! ([`crate::companion::confirm`]), is consumed once; otherwise the request is recorded for
//! the human and the call answers `elicit_required`.

use serde_json::{Value, json};

use crate::companion::confirm::{GatedCall, approved_in_obsidian};
use crate::errors::{ErrorCode, ToolError};
use crate::store::{ElicitError, ElicitRequest, store_fault};

use crate::runtime::metrics::HitlResult;
use crate::runtime::state::Runtime;

/// What a call brings to the HITL gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Approval {
    /// An `elicit_token` argument (a token a human minted or approved out of band).
    Token(String),
    /// The user confirmed, in their MCP client, the call whose args hash is this one
    /// ([`crate::dispatch::Dispatcher::call_confirmed`]).
    Confirmed(String),
}

/// The call an approval is for.
pub(crate) struct ApprovalFor<'a> {
    pub vault_id: &'a str,
    pub tool: &'a str,
    pub args_hash: &'a str,
    pub caller: &'a str,
}

impl Runtime {
    /// Consumes an approval for `call` (the presented token or confirmation, else one given
    /// to its args hash), or records the request with `proposed_change` and answers
    /// `elicit_required`. The wait and its result are counted (`obsidian_tc_hitl_wait_seconds`).
    pub(crate) fn obtain_approval(
        &self,
        call: &ApprovalFor<'_>,
        approval: Option<Approval>,
        proposed_change: Value,
    ) -> Result<(), ToolError> {
        let started = self.clock.now_ms();
        let outcome = self.approve(call, approval, proposed_change);
        let result = match &outcome {
            Ok(()) => HitlResult::Approved,
            Err(error) if error.code == ErrorCode::ElicitRequired => HitlResult::Required,
            Err(_) => HitlResult::Refused,
        };
        let waited = self.clock.now_ms().saturating_sub(started);
        self.metrics.record_hitl_wait(result, waited);
        outcome
    }

    /// [`Runtime::obtain_approval`] without the counting.
    fn approve(
        &self,
        call: &ApprovalFor<'_>,
        approval: Option<Approval>,
        proposed_change: Value,
    ) -> Result<(), ToolError> {
        let now = self.clock.now_seconds();
        let elicit = self.store.elicit();
        match approval {
            Some(Approval::Token(token)) => {
                return elicit
                    .consume(&token, call.vault_id, call.args_hash, call.caller, now)
                    .map_err(elicit_invalid);
            }
            Some(Approval::Confirmed(confirmed)) => {
                return self.take_confirmation(call, &confirmed, now);
            }
            None => {}
        }
        if elicit
            .consume_approved(call.vault_id, call.args_hash, call.caller, now)
            .map_err(store_fault)?
        {
            return Ok(());
        }
        if self.approve_in_obsidian(call, &proposed_change)? {
            return Ok(());
        }
        let ttl = i64::try_from(self.config().config.elicit_ttl_seconds).unwrap_or(i64::MAX);
        let request = ElicitRequest {
            vault_id: call.vault_id.to_owned(),
            tool_name: call.tool.to_owned(),
            args_hash: call.args_hash.to_owned(),
            caller: call.caller.to_owned(),
            proposed_change: proposed_change.clone(),
        };
        elicit.request(&request, ttl, now).map_err(store_fault)?;
        Err(ToolError::elicit_required(
            call.args_hash,
            call.tool,
            proposed_change,
        ))
    }
}

impl Runtime {
    /// Shows `call` to the human in Obsidian when its vault's TC Bridge is reachable; on
    /// `approved`, mints the call's approval and consumes it at once (`Ok(true)`: run it).
    /// Otherwise `Ok(false)` and nothing is recorded.
    fn approve_in_obsidian(
        &self,
        call: &ApprovalFor<'_>,
        proposed_change: &Value,
    ) -> Result<bool, ToolError> {
        let config = self.config();
        let companion = config
            .config
            .vaults
            .iter()
            .find(|vault| vault.id == call.vault_id)
            .and_then(|vault| self.companions.of(vault).ok());
        let Some(companion) = companion else {
            return Ok(false);
        };
        let gated = GatedCall {
            vault_id: call.vault_id,
            tool: call.tool,
            args_hash: call.args_hash,
            proposed_change,
        };
        if !approved_in_obsidian(&companion, &gated) {
            return Ok(false);
        }
        let ttl = i64::try_from(config.config.elicit_ttl_seconds).unwrap_or(i64::MAX);
        let now = self.clock.now_seconds();
        let request = ElicitRequest {
            vault_id: call.vault_id.to_owned(),
            tool_name: call.tool.to_owned(),
            args_hash: call.args_hash.to_owned(),
            caller: call.caller.to_owned(),
            proposed_change: proposed_change.clone(),
        };
        let elicit = self.store.elicit();
        let token = elicit.mint(&request, ttl, now).map_err(store_fault)?;
        elicit
            .consume(&token, call.vault_id, call.args_hash, call.caller, now)
            .map_err(|error| {
                ToolError::internal(format!(
                    "the approval given in Obsidian was not usable: {error}"
                ))
            })?;
        Ok(true)
    }

    /// Uses the user's confirmation of the call hashed `confirmed` for `call`: only that exact
    /// call, only while its recorded request is live, only once.
    fn take_confirmation(
        &self,
        call: &ApprovalFor<'_>,
        confirmed: &str,
        now: i64,
    ) -> Result<(), ToolError> {
        if confirmed != call.args_hash {
            return Err(ToolError::new(
                ErrorCode::ElicitInvalid,
                format!(
                    "the user confirmed a {} call with other arguments; nothing ran",
                    call.tool
                ),
            )
            .with_details(json!({ "reason": "WrongBinding", "args_hash": call.args_hash }))
            .with_recovery(
                "repeat the confirmed call with its exact arguments, or call again without \
                 requestState to ask the user about these arguments",
            ));
        }
        let taken = self
            .store
            .elicit()
            .confirm_pending(call.vault_id, call.args_hash, call.caller, now)
            .map_err(store_fault)?;
        if taken {
            return Ok(());
        }
        Err(ToolError::new(
            ErrorCode::ElicitInvalid,
            format!(
                "the confirmation of this {} call was already used or has expired",
                call.tool
            ),
        )
        .with_details(json!({ "reason": "NoPendingRequest", "args_hash": call.args_hash }))
        .with_recovery("call again without requestState to ask the user again"))
    }
}

fn elicit_invalid(error: ElicitError) -> ToolError {
    match error {
        ElicitError::Store(error) => store_fault(error),
        refused => ToolError::new(ErrorCode::ElicitInvalid, refused.to_string())
            .with_details(json!({ "reason": format!("{refused:?}") })),
    }
}
