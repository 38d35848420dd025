//! `obsidian-tc call <tool> --args JSON`: one tool call through the dispatch pipeline, as the
//! caller [`CLI_CALLER_ID`] with every scope.

use engine_core::acl::Scope;
use serde_json::Value;

use crate::auth::Caller;
use crate::cli::args::CallArgs;
use crate::cli::source::{load_config_or_exit, open_dispatcher_or_exit};
use crate::cli::{CLI_CALLER_ID, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, print_result};
use crate::telemetry::Telemetry;
use crate::telemetry::logs::LogFormat;

/// The caller of `obsidian-tc call`: id `cli`, every scope, no vault binding.
pub fn cli_caller() -> Caller {
    Caller {
        id: CLI_CALLER_ID.to_owned(),
        scopes: vec![Scope::everything()],
        vault_binding: None,
        token_without_vault: false,
    }
}

/// Runs the call and prints the structured result (stdout, exit 0) or the structured error
/// (stdout, exit 1); bad arguments or configuration go to stderr with exit 2. Logs go to
/// stderr in `format`; the call's spans are exported (and flushed before it returns) when
/// the configuration or the environment names an OTLP endpoint.
pub fn run_call(args: CallArgs, format: LogFormat) -> u8 {
    let call_args: Value = match serde_json::from_str(&args.args) {
        Ok(value @ Value::Object(_)) => value,
        Ok(_) => {
            eprintln!("--args must be a JSON object, e.g. --args '{{\"path\": \"note.md\"}}'");
            return EXIT_USAGE;
        }
        Err(e) => {
            eprintln!("--args is not valid JSON ({e}); pass an object, e.g. --args '{{}}'");
            return EXIT_USAGE;
        }
    };
    let config = match load_config_or_exit(&args.flags) {
        Ok(config) => config,
        Err(code) => return code,
    };
    let _telemetry =
        Telemetry::install(format, config.config.observability.otlp.endpoint.as_deref());
    let dispatcher = match open_dispatcher_or_exit(config) {
        Ok(dispatcher) => dispatcher,
        Err(code) => return code,
    };
    let outcome = dispatcher.call(&cli_caller(), &args.tool, call_args);
    let (printed, code) = match outcome.result {
        Ok(value) => (value, EXIT_OK),
        Err(error) => (error.to_structured(), EXIT_FAILURE),
    };
    match print_result(&printed) {
        Ok(()) => code,
        Err(failed) => failed,
    }
}
