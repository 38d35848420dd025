//! `obsidian-tc bridge`: resolve where TC Bridge is, then relay it on stdio (see
//! [`crate::stdio_bridge`]).

use crate::cli::args::BridgeArgs;
use crate::cli::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE, run_async};
use crate::mcp::shutdown::cancel_on_signal;
use crate::stdio_bridge::serve_bridge;
use crate::stdio_bridge::settings::{ConnectionFlags, ConnectionSettings};

/// Runs the bridge until the client disconnects or Ctrl-C / SIGTERM; returns the exit code.
pub fn run_bridge(args: BridgeArgs) -> u8 {
    let flags = ConnectionFlags {
        host: args.host,
        port: args.port,
        token: args.token,
        vault: args.vault,
    };
    let settings = match ConnectionSettings::resolve(&flags, |name| std::env::var(name).ok()) {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("obsidian-tc bridge: {error}");
            return EXIT_USAGE;
        }
    };
    run_async(Some(2), async {
        let cancel = cancel_on_signal();
        match serve_bridge(&settings, cancel).await {
            Ok(()) => EXIT_OK,
            Err(message) => {
                eprintln!("obsidian-tc bridge: {message}");
                EXIT_FAILURE
            }
        }
    })
}
