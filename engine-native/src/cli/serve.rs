//! `obsidian-tc serve` (and the bare `obsidian-tc <vault | config.json>`): MCP on stdio, on
//! HTTP, or both.
//!
//! Transport choice: HTTP runs when `transports.http.enabled` (config, environment or
//! `--http`). stdio runs when `transports.stdio.enabled` (default) unless `--http` was given
//! on the command line. With both, the process ends when the stdio client disconnects or on
//! Ctrl-C / SIGTERM; HTTP alone runs until Ctrl-C / SIGTERM. While serving, the maintenance
//! task sweeps the cache every `maintenance.intervalMinutes` (unless `maintenance.enabled` is
//! false) and stops with the transports; each vault is watched and scanned into the search
//! index in the background (config `index`).

use std::sync::Arc;

use crate::cli::args::ServeArgs;
use crate::cli::source::{load_config_or_exit, open_dispatcher_or_exit};
use crate::cli::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE, run_async};
use crate::dispatch::Dispatcher;
use crate::mcp::http::{bind, serve_http};
use crate::mcp::shutdown::cancel_on_signal;
use crate::mcp::stdio::serve_stdio;
use crate::telemetry::Telemetry;
use crate::telemetry::logs::LogFormat;
use crate::upkeep::keep_fresh;
use crate::upkeep::{run_maintenance, sweep_interval};

/// Runs the server described by `args` until it stops, logging in `format` and exporting
/// tool-call spans when its configuration or the environment names an OTLP endpoint (the
/// spans still queued are sent before it returns); returns the exit code.
pub fn run_serve(args: ServeArgs, format: LogFormat) -> u8 {
    let mut flags = args.flags;
    if args.host.is_some() {
        flags.http_host = args.host;
    }
    if args.port.is_some() {
        flags.http_port = args.port;
    }
    let http_flag = flags.http;
    let config = match load_config_or_exit(&flags) {
        Ok(config) => config,
        Err(code) => return code,
    };
    let _telemetry =
        Telemetry::install(format, config.config.observability.otlp.endpoint.as_deref());
    let transports = &config.config.transports;
    let http = transports.http.enabled;
    let stdio = transports.stdio.enabled && !http_flag;
    if !http && !stdio {
        eprintln!(
            "no transport is enabled: set transports.stdio.enabled or transports.http.enabled, \
             or pass --http"
        );
        return EXIT_USAGE;
    }
    let dispatcher = match open_dispatcher_or_exit(config) {
        Ok(dispatcher) => dispatcher,
        Err(code) => return code,
    };
    run_async(None, async {
        match serve(dispatcher, stdio, http).await {
            Ok(()) => EXIT_OK,
            Err(message) => {
                eprintln!("{message}");
                EXIT_FAILURE
            }
        }
    })
}

/// Runs the chosen transports until they end or a signal arrives.
async fn serve(dispatcher: Arc<Dispatcher>, stdio: bool, http: bool) -> Result<(), String> {
    let cancel = cancel_on_signal();
    let maintenance =
        sweep_interval(&dispatcher.runtime().config().config.maintenance).map(|every| {
            tokio::spawn(run_maintenance(
                Arc::clone(&dispatcher),
                every,
                cancel.child_token(),
            ))
        });
    let freshness = keep_fresh(&dispatcher);
    let served = serve_transports(&dispatcher, &cancel, stdio, http).await;
    drop(freshness);
    cancel.cancel();
    if let Some(task) = maintenance {
        task.await
            .map_err(|e| format!("the maintenance task stopped abnormally: {e}"))?;
    }
    served
}

/// Runs the chosen transports until they end or `cancel` fires.
async fn serve_transports(
    dispatcher: &Arc<Dispatcher>,
    cancel: &tokio_util::sync::CancellationToken,
    stdio: bool,
    http: bool,
) -> Result<(), String> {
    let http_task = if http {
        let listener = bind(&dispatcher.runtime().config()).await?;
        let dispatcher = Arc::clone(dispatcher);
        let cancel = cancel.clone();
        Some(tokio::spawn(serve_http(dispatcher, listener, cancel)))
    } else {
        None
    };
    if stdio {
        let served = serve_stdio(Arc::clone(dispatcher), cancel.clone()).await;
        cancel.cancel();
        served?;
    }
    if let Some(task) = http_task {
        task.await
            .map_err(|e| format!("the HTTP server stopped abnormally: {e}"))??;
    }
    Ok(())
}
