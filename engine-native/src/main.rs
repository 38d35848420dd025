//! `obsidian-tc`: the command-line entry point of the native server (see [`obsidian_tc::cli`]).

use std::ffi::{c_int, c_long};
use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use obsidian_tc::cli::args::{Cli, Command, ConfigCommand, ServeArgs};
use obsidian_tc::cli::audit::run_audit;
use obsidian_tc::cli::call::run_call;
use obsidian_tc::cli::doctor::run_doctor;
use obsidian_tc::cli::elicit::run_elicit;
use obsidian_tc::cli::gaps::run_gaps;
use obsidian_tc::cli::index::run_index;
use obsidian_tc::cli::metrics::run_metrics;
use obsidian_tc::cli::model::run_model;
use obsidian_tc::cli::passes::{run_contradictions, run_note_quality};
use obsidian_tc::cli::plugin_install::run_plugin;
use obsidian_tc::cli::serve::run_serve;
use obsidian_tc::cli::setup::run_setup;
use obsidian_tc::cli::source::load_config;
use obsidian_tc::cli::stdio_bridge::run_bridge;
use obsidian_tc::cli::token::run_token;
use obsidian_tc::cli::{EXIT_FAILURE, EXIT_OK};
use obsidian_tc::telemetry::Telemetry;

/// mimalloc instead of the system allocator: indexing allocates many small, short-lived
/// strings and token lists, and a full index of pf2e-srd (11,181 notes) took 4.6 s with
/// glibc's malloc against 3.3 s with mimalloc (`eval_search latency`, same machine).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    configure_heap();
    // Before anything (rmcp, the OTLP exporter) builds an HTTP client of its own.
    obsidian_tc::http_client::install_tls_provider();
    let cli = Cli::parse();
    let format = cli.log_format;
    let command = match cli.command {
        None if cli.serve.path.is_some() || cli.serve.config.is_some() => {
            Some(Command::Serve(ServeArgs {
                flags: cli.serve,
                host: None,
                port: None,
            }))
        }
        command => command,
    };
    // `serve` and `call` install the logs with the span export once their configuration
    // is loaded (it may name the OTLP endpoint); every other command logs from here.
    let telemetry = (!matches!(command, Some(Command::Serve(_) | Command::Call(_))))
        .then(|| Telemetry::install(format, None));
    let code = match command {
        Some(Command::Version) => {
            println!("obsidian-tc {}", obsidian_tc::cli::version::long_version());
            EXIT_OK
        }
        Some(Command::Serve(args)) => run_serve(args, format),
        Some(Command::Call(args)) => run_call(args, format),
        Some(Command::Elicit(command)) => run_elicit(command),
        Some(Command::Audit(args)) => run_audit(args),
        Some(Command::Index(args)) => run_index(args),
        Some(Command::Gaps(args)) => run_gaps(args),
        Some(Command::NoteQuality(args)) => run_note_quality(args),
        Some(Command::Contradictions(args)) => run_contradictions(args),
        Some(Command::Metrics(args)) => run_metrics(args),
        Some(Command::Doctor(flags)) => run_doctor(&flags),
        Some(Command::Model(command)) => run_model(command),
        Some(Command::Config(command)) => run_config(command),
        Some(Command::Token(command)) => run_token(command),
        Some(Command::Plugin(command)) => run_plugin(command),
        Some(Command::Bridge(args)) => run_bridge(args),
        Some(Command::Setup(args)) => run_setup(&args),
        None => {
            if Cli::command().print_help().is_err() {
                return ExitCode::from(EXIT_FAILURE);
            }
            println!();
            EXIT_OK
        }
    };
    drop(telemetry);
    exit_now(code)
}

/// mimalloc's `mi_option_purge_delay`: its index in `mi_option_e` (mimalloc.h, the same in
/// the v2 and v3 sources libmimalloc-sys vendors). The crate does not export the constant.
const MI_OPTION_PURGE_DELAY: c_int = 15;

unsafe extern "C" {
    /// mimalloc's option setter, in the static library libmimalloc-sys links.
    fn mi_option_set(option: c_int, value: c_long);
    /// mimalloc's option getter (the test of [`MI_OPTION_PURGE_DELAY`]).
    #[cfg(test)]
    fn mi_option_get(option: c_int) -> c_long;
}

/// Keeps the resident memory of a long-running server near what it uses (issue 21's soak:
/// 10 clients for 30 minutes). Three settings, each left alone when its environment variable
/// is set (the allocator then applies that value itself):
///
/// - Transparent huge pages off (Linux, `MIMALLOC_ALLOW_THP`): mimalloc asks for them on its
///   arenas (`madvise(MADV_HUGEPAGE)`), so every 2 MiB region the heap touched stayed backed
///   whole. In a 6-minute soak that was about 80 of 150 MB resident, swinging by 25 MB
///   between half-minute samples. `PR_SET_THP_DISABLE` covers every mapping of the
///   process, the arenas mimalloc reserved before `main` included.
/// - Freed pages returned at once (`MIMALLOC_PURGE_DELAY`, default 1 s, 10 s for whole
///   arena ranges): under steady load the delay kept being renewed and the freed pages kept
///   piling up; with huge pages off alone the soak still grew by 24 % in 15 minutes.
/// - At most two glibc malloc arenas (Linux with glibc, `MALLOC_ARENA_MAX`): SQLite allocates
///   through the C library's malloc, not mimalloc, from whichever thread runs the query, and
///   glibc gave each of them an arena of its own; in the 30-minute soak twelve arenas of about
///   1.1 MB each had built up by minute 23.
///
/// Called first in `main`, while no other thread runs (mimalloc's option setter is not
/// thread-safe).
fn configure_heap() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: sets an integer tunable of glibc's malloc before any other thread exists.
        let _ = unsafe { libc::mallopt(libc::M_ARENA_MAX, 2) };
    }
    #[cfg(target_os = "linux")]
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_none() {
        // SAFETY: PR_SET_THP_DISABLE takes integer arguments only and touches no memory; a
        // kernel without it answers EINVAL, and the process then runs as before.
        let _ = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
    }
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: an integer option of the allocator, set before any other thread exists.
        unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    }
}

/// Ends the process with `code` once stdout and stderr are flushed, without the C library's
/// exit handlers: a background thread may still be inside ONNX Runtime (loading the embedding
/// model), and the library's static destructors, which `exit` runs, crashed under it (about
/// one exit in six with the library next to the binary). Nothing of ours needs them: the
/// commands have closed their stores by the time they return, and SQLite keeps no state for
/// exit handlers.
fn exit_now(code: u8) -> ! {
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` only ends the process; every buffer of ours was flushed above.
    unsafe { libc::_exit(i32::from(code)) }
}

fn run_config(command: ConfigCommand) -> u8 {
    let flags = match &command {
        ConfigCommand::Show(flags) | ConfigCommand::Validate(flags) => flags,
        ConfigCommand::Explain { flags, .. } => flags,
    };
    let loaded = match load_config(flags) {
        Ok(loaded) => loaded,
        Err(message) => {
            eprint!("{message}");
            return EXIT_FAILURE;
        }
    };
    match command {
        ConfigCommand::Show(_) => print_json(&loaded.to_redacted_json()),
        ConfigCommand::Validate(_) => println!(
            "configuration is valid: {} vault(s), cache in {}",
            loaded.config.vaults.len(),
            loaded.cache_dir().display()
        ),
        ConfigCommand::Explain { json: true, .. } => print_json(&loaded.explain()),
        ConfigCommand::Explain { json: false, .. } => {
            for entry in loaded.explain() {
                println!("{} = {}  <- {}", entry.path, entry.value, entry.source);
            }
        }
    }
    EXIT_OK
}

fn print_json(value: &impl serde::Serialize) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("cannot print the configuration: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{MI_OPTION_PURGE_DELAY, mi_option_get};

    /// The index names the purge delay: unset (this test binary never calls
    /// `configure_heap`), it reads mimalloc's default, 1,000 ms in v3 (10 ms in v2); the
    /// options next to it default to 0 or 1. Fails when a mimalloc upgrade moves the option.
    #[test]
    fn the_purge_delay_option_index_is_mimallocs() {
        let expected = match std::env::var("MIMALLOC_PURGE_DELAY") {
            Ok(value) => vec![value.parse().expect("MIMALLOC_PURGE_DELAY is a number")],
            Err(_) => vec![1_000, 10],
        };
        // SAFETY: reads an integer option of the allocator.
        let value = unsafe { mi_option_get(MI_OPTION_PURGE_DELAY) };
        assert!(
            expected.contains(&value),
            "option {MI_OPTION_PURGE_DELAY} is {value}"
        );
    }
}
