//! `obsidian-tc elicit list|approve`: a human confirms a gated call out of band, through the
//! store's elicit requests. `list --json` prints the same list as JSON for scripts.

use serde::Serialize;
use serde_json::Value;

use crate::calendar::rfc3339_utc;
use crate::cli::args::ElicitCommand;
use crate::cli::source::dispatcher_for;
use crate::cli::{EXIT_FAILURE, EXIT_OK};
use crate::dispatch::Dispatcher;
use crate::store::PendingElicit;

/// Runs an `elicit` subcommand.
pub fn run_elicit(command: ElicitCommand) -> u8 {
    let flags = match &command {
        ElicitCommand::List { flags, .. } | ElicitCommand::Approve { flags, .. } => flags,
    };
    let dispatcher = match dispatcher_for(flags) {
        Ok(dispatcher) => dispatcher,
        Err(code) => return code,
    };
    let result = match &command {
        ElicitCommand::List { vault, json, .. } => list(&dispatcher, vault.as_deref(), *json),
        ElicitCommand::Approve {
            args_hash,
            vault,
            caller,
            ..
        } => approve(&dispatcher, args_hash, vault.as_deref(), caller.as_deref()),
    };
    match result {
        Ok(()) => EXIT_OK,
        Err(message) => {
            eprintln!("{message}");
            EXIT_FAILURE
        }
    }
}

/// Prints every pending request and unused approval: one per line plus its proposed change,
/// or with `json` one JSON array.
fn list(dispatcher: &Dispatcher, vault: Option<&str>, json: bool) -> Result<(), String> {
    let now = dispatcher.runtime().clock().now_seconds();
    let pending = dispatcher
        .runtime()
        .store()
        .elicit()
        .list(vault, now)
        .map_err(|e| format!("cannot list elicit requests: {e}"))?;
    if json {
        let listed: Vec<ListedElicit> = pending
            .into_iter()
            .map(|item| ListedElicit::new(item, now))
            .collect();
        let text = serde_json::to_string_pretty(&listed)
            .map_err(|e| format!("cannot encode the list: {e}"))?;
        println!("{text}");
        return Ok(());
    }
    if pending.is_empty() {
        println!("no calls are waiting for approval");
    }
    for item in pending {
        let request = &item.request;
        let state = if item.approved { "approved" } else { "pending" };
        println!(
            "{state} {} {} vault={} caller={} expires in {} s",
            request.args_hash,
            request.tool_name,
            request.vault_id,
            request.caller,
            item.expires_at.saturating_sub(now)
        );
        println!("  change: {}", request.proposed_change);
    }
    Ok(())
}

/// One entry of `elicit list --json`.
#[derive(Debug, Serialize)]
struct ListedElicit {
    /// `pending` (waiting for a human) or `approved` (the agent may repeat the call once).
    state: &'static str,
    args_hash: String,
    tool: String,
    vault: String,
    caller: String,
    /// When the request was recorded, RFC 3339 UTC.
    created_at: String,
    /// When the request or approval lapses, RFC 3339 UTC.
    expires_at: String,
    /// Seconds until `expires_at`.
    expires_in_seconds: i64,
    proposed_change: Value,
}

impl ListedElicit {
    fn new(item: PendingElicit, now: i64) -> ListedElicit {
        let request = item.request;
        ListedElicit {
            state: if item.approved { "approved" } else { "pending" },
            args_hash: request.args_hash,
            tool: request.tool_name,
            vault: request.vault_id,
            caller: request.caller,
            created_at: rfc3339_utc(item.created_at),
            expires_at: rfc3339_utc(item.expires_at),
            expires_in_seconds: item.expires_at.saturating_sub(now),
            proposed_change: request.proposed_change,
        }
    }
}

/// Approves the one pending request with `args_hash` and says what and for how long.
fn approve(
    dispatcher: &Dispatcher,
    args_hash: &str,
    vault: Option<&str>,
    caller: Option<&str>,
) -> Result<(), String> {
    let now = dispatcher.runtime().clock().now_seconds();
    let ttl =
        i64::try_from(dispatcher.runtime().config().config.elicit_ttl_seconds).unwrap_or(i64::MAX);
    let elicit = dispatcher.runtime().store().elicit();
    let request = elicit
        .list(vault, now)
        .map_err(|e| format!("cannot read elicit requests: {e}"))?
        .into_iter()
        .find(|item| {
            !item.approved
                && item.request.args_hash == args_hash
                && caller.is_none_or(|c| c == item.request.caller)
        })
        .map(|item| item.request);
    let token = elicit
        .approve(args_hash, vault, caller, ttl, now)
        .map_err(|e| e.to_string())?;
    match request {
        Some(request) => println!(
            "approved {} in vault {} for caller {} (args hash {args_hash}); change: {}",
            request.tool_name, request.vault_id, request.caller, request.proposed_change
        ),
        None => println!("approved the call with args hash {args_hash}"),
    }
    println!("the identical call is allowed once within {ttl} s (or pass elicit_token {token})");
    Ok(())
}
