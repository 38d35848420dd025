//! The command line of `obsidian-tc`, as a library so the binary stays a thin `main`.
//!
//! - [`args`]: the clap definitions;
//! - [`source`]: the configuration a command line names (vault folder or config file);
//! - [`serve`]: the MCP server (stdio, HTTP or both);
//! - [`call`]: one tool call through the dispatcher, printed as JSON;
//! - [`elicit`]: out-of-band human approval of gated calls;
//! - [`audit`]: the audit log as a table or JSON;
//! - [`index`]: scan vaults into the search index (and embed them) with a progress bar;
//! - [`gaps`]: a gap pass per vault (`run_gap_pass`) with progress;
//! - [`passes`]: the offline passes `note-quality` and `contradictions`, with a progress bar;
//! - [`metrics`]: Prometheus metrics of a cache or of a running HTTP server;
//! - [`model`]: fetch the embedding model ahead of time (`model pull`), or list it;
//! - [`progress`]: progress bars on a terminal, plain lines otherwise;
//! - [`doctor`]: environment checks with hints;
//! - [`token`]: bearer tokens for HTTP callers (`token mint`);
//! - [`plugin_install`]: `plugin install`, TC Bridge into a vault, from [`plugin_files`].
//! - [`stdio_bridge`]: the stdio relay of TC Bridge (`bridge`);
//! - [`setup`]: an MCP client's configuration file gets this server (`setup <client>`);
//! - [`version`]: what `--version` says (version, commit, embedding engines).
//!
//! Exit codes: [`EXIT_OK`], [`EXIT_FAILURE`] (a tool error or a runtime failure),
//! [`EXIT_USAGE`] (bad arguments or configuration).

use serde::Serialize;

pub mod args;
pub mod audit;
pub mod call;
pub mod doctor;
pub mod elicit;
pub mod gaps;
pub mod index;
pub mod metrics;
pub mod model;
pub mod passes;
pub mod plugin_files;
pub mod plugin_install;
pub mod progress;
pub mod serve;
pub mod setup;
pub mod source;
pub mod stdio_bridge;
pub mod token;
pub mod version;

/// Success.
pub const EXIT_OK: u8 = 0;
/// A tool error, or a failure while running.
pub const EXIT_FAILURE: u8 = 1;
/// Bad usage: unparseable arguments or an invalid configuration.
pub const EXIT_USAGE: u8 = 2;

/// The caller id of `obsidian-tc call`.
pub const CLI_CALLER_ID: &str = "cli";

/// How long a finished command waits for its runtime's blocking tasks (file writes, a
/// pending read of stdin) before the process exits.
const BLOCKING_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

/// Runs `work` to completion on a multi-threaded async runtime of `workers` threads (one per
/// core when `None`) and returns its exit code; [`EXIT_FAILURE`] when the runtime cannot
/// start.
pub fn run_async(workers: Option<usize>, work: impl std::future::Future<Output = u8>) -> u8 {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if let Some(workers) = workers {
        builder.worker_threads(workers);
    }
    match builder.enable_all().build() {
        Ok(runtime) => {
            let code = runtime.block_on(work);
            // Dropping the runtime would wait for every blocking task, and tokio reads stdin
            // on one: a stdio server stopped by SIGTERM while its client keeps stdin open
            // never exited. Blocking tasks still running get this long to finish.
            runtime.shutdown_timeout(BLOCKING_GRACE);
            code
        }
        Err(e) => {
            eprintln!("cannot start the async runtime: {e}");
            EXIT_FAILURE
        }
    }
}

/// Prints `value` as pretty JSON on stdout; `Err(EXIT_FAILURE)` when it cannot be printed.
pub fn print_result(value: &impl Serialize) -> Result<(), u8> {
    match serde_json::to_string_pretty(value) {
        Ok(text) => {
            println!("{text}");
            Ok(())
        }
        Err(error) => {
            eprintln!("cannot print the result: {error}");
            Err(EXIT_FAILURE)
        }
    }
}
