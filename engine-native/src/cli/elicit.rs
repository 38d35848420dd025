//! `obsidian-tc elicit list|approve`: a human confirms a gated call out of band, through the
//! store's elicit requests.

use crate::cli::args::ElicitCommand;
use crate::cli::source::{load_config_or_exit, open_dispatcher_or_exit};
use crate::cli::{EXIT_FAILURE, EXIT_OK};
use crate::dispatch::Dispatcher;

/// Runs an `elicit` subcommand.
pub fn run_elicit(command: ElicitCommand) -> u8 {
    let flags = match &command {
        ElicitCommand::List { flags, .. } | ElicitCommand::Approve { flags, .. } => flags,
    };
    let config = match load_config_or_exit(flags) {
        Ok(config) => config,
        Err(code) => return code,
    };
    let dispatcher = match open_dispatcher_or_exit(config) {
        Ok(dispatcher) => dispatcher,
        Err(code) => return code,
    };
    let result = match &command {
        ElicitCommand::List { vault, .. } => list(&dispatcher, vault.as_deref()),
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

/// Prints every pending request and unused approval, one per line plus its proposed change.
fn list(dispatcher: &Dispatcher, vault: Option<&str>) -> Result<(), String> {
    let now = dispatcher.clock().now_seconds();
    let pending = dispatcher
        .store()
        .elicit()
        .list(vault, now)
        .map_err(|e| format!("cannot list elicit requests: {e}"))?;
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

/// Approves the one pending request with `args_hash` and says what and for how long.
fn approve(
    dispatcher: &Dispatcher,
    args_hash: &str,
    vault: Option<&str>,
    caller: Option<&str>,
) -> Result<(), String> {
    let now = dispatcher.clock().now_seconds();
    let ttl = i64::try_from(dispatcher.config().config.elicit_ttl_seconds).unwrap_or(i64::MAX);
    let elicit = dispatcher.store().elicit();
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
