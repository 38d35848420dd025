//! `obsidian-tc`: the command-line entry point of the native server.

use std::collections::BTreeMap;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use obsidian_tc::config::{ConfigErrors, ConfigFlags, LoadedConfig, load_for_command_line};

/// Turns an Obsidian vault into a safe, fast tool for AI agents over MCP.
#[derive(Debug, Parser)]
#[command(name = "obsidian-tc", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands of `obsidian-tc`.
#[derive(Debug, Subcommand)]
enum Command {
    /// Print the version of obsidian-tc and of its engine.
    Version,
    /// Inspect the configuration (flag > OBSIDIAN_TC_* environment > file > default).
    #[command(subcommand)]
    Config(ConfigCommand),
}

/// The `config` subcommands.
#[derive(Debug, Subcommand)]
enum ConfigCommand {
    /// Print the effective configuration as JSON (secrets redacted).
    Show(ConfigFlags),
    /// Check the configuration; exit 1 and list every problem when it is invalid.
    Validate(ConfigFlags),
    /// Print every effective value with where it came from.
    Explain {
        #[command(flatten)]
        flags: ConfigFlags,
        /// Print JSON (`[{path, value, source}]`) instead of lines.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Version) => {
            println!("obsidian-tc {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(Command::Config(command)) => run_config(command),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help().expect("write help to stdout");
            println!();
            ExitCode::SUCCESS
        }
    }
}

fn run_config(command: ConfigCommand) -> ExitCode {
    let flags = match &command {
        ConfigCommand::Show(flags) | ConfigCommand::Validate(flags) => flags,
        ConfigCommand::Explain { flags, .. } => flags,
    };
    let loaded = match load(flags) {
        Ok(loaded) => loaded,
        Err(errors) => {
            eprint!("{errors}");
            return ExitCode::FAILURE;
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
    ExitCode::SUCCESS
}

fn load(flags: &ConfigFlags) -> Result<LoadedConfig, ConfigErrors> {
    let env: BTreeMap<String, String> = std::env::vars_os()
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
        .filter(|(name, _)| name.starts_with("OBSIDIAN_TC_"))
        .collect();
    let cwd = std::env::current_dir().unwrap_or_default();
    load_for_command_line(flags, env, &cwd)
}

fn print_json(value: &impl serde::Serialize) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("cannot print the configuration: {e}"),
    }
}
