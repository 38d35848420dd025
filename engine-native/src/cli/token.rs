//! `obsidian-tc token mint`: an HS256 bearer token for an HTTP caller, signed with the
//! configured secret and printed alone on stdout (so `$(obsidian-tc token mint ...)` works).

use std::time::{SystemTime, UNIX_EPOCH};

use crate::auth::{MintRequest, mint_hs256};
use crate::cli::args::TokenCommand;
use crate::cli::source::load_config_or_exit;
use crate::cli::{EXIT_FAILURE, EXIT_OK};

/// Runs a `token` subcommand.
pub fn run_token(command: TokenCommand) -> u8 {
    let TokenCommand::Mint(args) = command;
    let config = match load_config_or_exit(&args.flags) {
        Ok(config) => config,
        Err(code) => return code,
    };
    let auth = &config.config.auth;
    let request = MintRequest {
        sub: args.sub,
        scopes: args.scopes,
        vault: args.vault,
        ttl_seconds: args.ttl.unwrap_or(auth.token_ttl_seconds),
    };
    if let Some(vault) = &request.vault
        && !config.config.vaults.iter().any(|v| &v.id == vault)
    {
        eprintln!("--vault {vault:?} is not a configured vault id");
        return EXIT_FAILURE;
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    match mint_hs256(auth, &request, now) {
        Ok(token) => {
            println!("{token}");
            EXIT_OK
        }
        Err(message) => {
            eprintln!("cannot mint a token: {message}");
            EXIT_FAILURE
        }
    }
}
