//! `obsidian-tc`: the command-line entry point of the native server.

use clap::{Parser, Subcommand};

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
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Version) => println!("obsidian-tc {}", env!("CARGO_PKG_VERSION")),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help().expect("write help to stdout");
            println!();
        }
    }
}
