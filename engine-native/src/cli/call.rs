//! `obsidian-tc call <tool> --args JSON`: one tool call through the dispatch pipeline, as the
//! caller [`CLI_CALLER_ID`] with every scope.

use engine_core::acl::Scope;
use serde_json::Value;

use crate::auth::Caller;
use crate::cli::args::CallArgs;
use crate::cli::source::dispatcher_for;
use crate::cli::{CLI_CALLER_ID, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, print_result};

/// The caller of `obsidian-tc call`: id `cli`, every scope, no vault binding.
pub fn cli_caller() -> Caller {
    Caller {
        id: CLI_CALLER_ID.to_owned(),
        scopes: vec![Scope::everything()],
        vault_binding: None,
    }
}

/// Runs the call and prints the structured result (stdout, exit 0) or the structured error
/// (stdout, exit 1); bad arguments or configuration go to stderr with exit 2.
pub fn run_call(args: CallArgs) -> u8 {
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
    let dispatcher = match dispatcher_for(&args.flags) {
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
