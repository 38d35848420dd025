//! The clap definitions of `obsidian-tc`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::cli::setup::client::Client;
use crate::config::ConfigFlags;
use crate::telemetry::logs::LogFormat;

/// Turns an Obsidian vault into a safe, fast tool for AI agents over MCP.
///
/// `obsidian-tc <vault-folder | config.json>` serves MCP on stdio.
#[derive(Debug, Parser)]
#[command(
    name = "obsidian-tc",
    version,
    long_version = crate::cli::version::long_version(),
    about,
    long_about = None,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// A subcommand; without one, a vault folder or config file serves MCP on stdio.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The vault folder or config file to serve (same as `serve`).
    #[command(flatten)]
    pub serve: ConfigFlags,
    /// How log lines on stderr are written: `text` for people, `json` (one object per line)
    /// for machines. `RUST_LOG` filters either.
    #[arg(long, global = true, value_enum, value_name = "FORMAT", default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print the version of obsidian-tc, the git commit it was built from and the embedding
    /// engines compiled in (same as --version).
    Version,
    /// Serve MCP: stdio, or HTTP with --http (both when the config enables HTTP).
    Serve(ServeArgs),
    /// Run one tool through the same pipeline as MCP (caller `cli`, every scope) and print
    /// the structured result or error as JSON. Exit 0 on success, 1 on a tool error.
    Call(CallArgs),
    /// Human approval of gated calls (`elicit_required`).
    #[command(subcommand)]
    Elicit(ElicitCommand),
    /// Read the audit log of tool calls, newest first: a table, or the same page as
    /// `query_audit_log` answers with --json.
    Audit(AuditArgs),
    /// Scan the vaults (or one) into the search index now, with a progress bar, and print
    /// what each scan did as JSON.
    Index(IndexArgs),
    /// Measure how well each vault (or one) answers a query set (the lines of --queries, or
    /// the note titles) through the ranked search, keep the pass for `gap_report`, and print
    /// its summary as JSON; progress on stderr. Run after `index`.
    Gaps(GapsArgs),
    /// Measure every note of the vaults (or one) now: the note-quality pass, with a progress
    /// bar; print what each pass did as JSON.
    NoteQuality(PassArgs),
    /// Run the contradiction detector over the vaults (or one) now, within a budget, with a
    /// progress bar; print what each run did as JSON. Judges nothing without a model.
    Contradictions(PassArgs),
    /// Print Prometheus metrics: those of a stdio server's cache (call counts and latencies
    /// from the event log, index sizes), or, with --url, those of a running HTTP server.
    Metrics(MetricsArgs),
    /// Check the vault, the cache folder, SQLite, the HTTP port and the embedding model; one
    /// OK/FAIL line each.
    Doctor(ConfigFlags),
    /// The embedding model: fetch it ahead of time (`pull`), or say where it is (`list`).
    #[command(subcommand)]
    Model(ModelCommand),
    /// Inspect the configuration (flag > OBSIDIAN_TC_* environment > file > default).
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Bearer tokens for HTTP callers under `auth.mode: "jwt"`.
    #[command(subcommand)]
    Token(TokenCommand),
    /// The TC Bridge Obsidian plugin.
    #[command(subcommand)]
    Plugin(PluginCommand),
    /// Relay TC Bridge (the Obsidian plugin) to an MCP client on stdio, e.g. Claude Desktop.
    Bridge(BridgeArgs),
    /// Add this server for a vault to an MCP client's configuration file, keeping the file's
    /// other entries, comments and formatting (a backup is written next to it); or print the
    /// entry with --print.
    Setup(SetupArgs),
}

/// `serve`: the config source and the HTTP overrides.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The configuration.
    #[command(flatten)]
    pub flags: ConfigFlags,
    /// The HTTP bind address (same as --http-host).
    #[arg(long, value_name = "HOST", conflicts_with = "http_host")]
    pub host: Option<String>,
    /// The HTTP port (same as --http-port).
    #[arg(long, value_name = "PORT", conflicts_with = "http_port")]
    pub port: Option<u16>,
}

/// `bridge`: where TC Bridge listens. Each value comes from its flag, else the environment
/// (`OBSIDIAN_MCP_HOST`, `OBSIDIAN_MCP_PORT`, `OBSIDIAN_MCP_TOKEN`), else `--vault`'s TC Bridge
/// settings, else the default (127.0.0.1, port 27190).
#[derive(Debug, Args)]
pub struct BridgeArgs {
    /// The host: loopback only (127.0.0.1, localhost or ::1).
    #[arg(long, value_name = "HOST")]
    pub host: Option<String>,
    /// The port TC Bridge listens on (its "Port" setting).
    #[arg(long, value_name = "PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub port: Option<u16>,
    /// The token TC Bridge expects (its "Token" setting).
    #[arg(long, value_name = "TOKEN")]
    pub token: Option<String>,
    /// A vault folder: read the port and token from its `.obsidian/plugins/tc-bridge/data.json`.
    #[arg(long, value_name = "PATH")]
    pub vault: Option<std::path::PathBuf>,
}

/// `index`: which vault and the configuration.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Index only this vault (its id in the configuration); all vaults by default.
    #[arg(long, value_name = "ID")]
    pub vault: Option<String>,
    /// The configuration.
    #[command(flatten)]
    pub flags: ConfigFlags,
}

/// `gaps`: which vault, the query set, the floor, and the configuration.
#[derive(Debug, Args)]
pub struct GapsArgs {
    /// Only this vault (its id in the configuration); all vaults by default.
    #[arg(long, value_name = "ID")]
    pub vault: Option<String>,
    /// A file of queries, one per line (blank lines skipped); the note titles by default.
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// The floor a query's best note must reach (default 0.35 cosine under hybrid ranking,
    /// 2.0 BM25F under lexical).
    #[arg(long, value_name = "SCORE")]
    pub threshold: Option<f64>,
    /// The fewest notes at or over the floor a query must have.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub min_results: u32,
    /// The configuration.
    #[command(flatten)]
    pub flags: ConfigFlags,
}

/// `note-quality` and `contradictions`: an offline pass over one vault or each.
#[derive(Debug, Args)]
pub struct PassArgs {
    /// Only this vault (its id in the configuration); all vaults by default.
    #[arg(long, value_name = "ID")]
    pub vault: Option<String>,
    /// When to stop, per vault, in milliseconds; what was done by then is
    /// kept and the next run goes on from there.
    #[arg(long, value_name = "MS", default_value_t = 600_000)]
    pub budget_ms: u64,
    /// `contradictions`: the most pairs of passages put to the model per vault (at least 5).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub max_pairs: u64,
    /// The configuration.
    #[command(flatten)]
    pub flags: ConfigFlags,
}

/// `metrics`: the cache of the configuration, or a running server.
#[derive(Debug, Args)]
pub struct MetricsArgs {
    /// Fetch `/metrics` from the obsidian-tc HTTP server at this URL (its base, e.g.
    /// `http://127.0.0.1:8787`, or the full `/metrics` URL) instead of reading the cache.
    #[arg(long, value_name = "URL", conflicts_with_all = ["path", "config", "cache_dir", "cache_in_vault"])]
    pub url: Option<String>,
    /// The bearer token for --url (else `OBSIDIAN_TC_HTTP_TOKEN`); it needs the scope
    /// `admin:metrics`.
    #[arg(long, value_name = "TOKEN", requires = "url")]
    pub token: Option<String>,
    /// The configuration whose cache is read.
    #[command(flatten)]
    pub flags: ConfigFlags,
}

/// The `model` subcommands.
#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Download the embedding model into the Hugging Face cache now (from `HF_ENDPOINT`, into
    /// `HF_HOME`), each file checked against its pinned SHA-256; a model already there is
    /// checked and kept.
    Pull(ModelArgs),
    /// Print the embedding model, its revision, and whether (and where) it is in the cache,
    /// as JSON.
    List(ModelArgs),
}

/// `model pull` / `model list`: which model.
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// The model (`ORG/NAME`): the configured one, or the default
    /// `sentence-transformers/all-MiniLM-L6-v2` (omitted: the configured model, else the
    /// default).
    #[arg(value_name = "NAME")]
    pub name: Option<String>,
    /// The config file whose `embeddings` block names the model (else `OBSIDIAN_TC_CONFIG`).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// `call`: the tool, its arguments and the configuration.
#[derive(Debug, Args)]
pub struct CallArgs {
    /// The tool name, e.g. `read_note`.
    pub tool: String,
    /// The arguments as a JSON object.
    #[arg(long, value_name = "JSON", default_value = "{}")]
    pub args: String,
    /// The configuration.
    #[command(flatten)]
    pub flags: ConfigFlags,
}

/// `audit`: which rows of the audit log, and how to print them.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Only this vault id (every vault by default, and calls that failed before naming one).
    #[arg(long, value_name = "ID")]
    pub vault: Option<String>,
    /// Only calls at or after this time: RFC 3339, a date, or a span back from now (`24h`).
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Only calls at or before this time (same forms as --since).
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
    /// Only calls of this tool.
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
    /// Only calls of this caller id.
    #[arg(long, value_name = "ID")]
    pub caller: Option<String>,
    /// `ok`, `error`, or one error code.
    #[arg(long, value_name = "OUTCOME")]
    pub outcome: Option<String>,
    /// Only calls that named or changed a path starting with this text.
    #[arg(long = "path", value_name = "PREFIX")]
    pub path_prefix: Option<String>,
    /// The most rows (1-500).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=500))]
    pub limit: u32,
    /// Continue below this cursor (printed under a full page).
    #[arg(long)]
    pub cursor: Option<String>,
    /// Print the page as JSON (`{rows, cursor}`, as `query_audit_log` answers) instead of a
    /// table.
    #[arg(long)]
    pub json: bool,
    /// The configuration.
    #[command(flatten)]
    pub flags: ConfigFlags,
}

/// The `elicit` subcommands.
#[derive(Debug, Subcommand)]
pub enum ElicitCommand {
    /// List the calls waiting for approval and the unused approvals.
    List {
        /// Only this vault id.
        #[arg(long, value_name = "ID")]
        vault: Option<String>,
        /// Print a JSON array (`[{state, args_hash, tool, vault, caller, created_at,
        /// expires_at, expires_in_seconds, proposed_change}]`, times in RFC 3339 UTC)
        /// instead of lines.
        #[arg(long)]
        json: bool,
        /// The configuration.
        #[command(flatten)]
        flags: ConfigFlags,
    },
    /// Approve the pending call with this args hash; the agent then repeats the identical call.
    Approve {
        /// The args hash from the `elicit_required` error.
        args_hash: String,
        /// Only a request in this vault id.
        #[arg(long, value_name = "ID")]
        vault: Option<String>,
        /// Only a request of this caller.
        #[arg(long, value_name = "CALLER")]
        caller: Option<String>,
        /// The configuration.
        #[command(flatten)]
        flags: ConfigFlags,
    },
}

/// The `config` subcommands.
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the effective configuration as JSON (secrets redacted).
    Show(ConfigFlags),
    /// Check the configuration; exit 1 and list every problem when it is invalid.
    Validate(ConfigFlags),
    /// Print every effective value with where it came from.
    Explain {
        /// The configuration.
        #[command(flatten)]
        flags: ConfigFlags,
        /// Print JSON (`[{path, value, source}]`) instead of lines.
        #[arg(long)]
        json: bool,
    },
}

/// The `token` subcommands.
#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Mint an HS256 token signed with auth.jwtSecret (or OBSIDIAN_TC_JWT_SECRET) and print
    /// it on stdout. It carries auth.audience and auth.issuer when those are set.
    Mint(MintArgs),
}

/// `token mint`: the claims and the configuration.
#[derive(Debug, Args)]
pub struct MintArgs {
    /// The caller id (`sub`): audit, rate limits and approvals are keyed by it.
    #[arg(long, value_name = "NAME")]
    pub sub: String,
    /// A granted scope, e.g. `read:notes`, `write:*` or `*`; repeat or separate with commas.
    #[arg(
        long = "scope",
        visible_alias = "scopes",
        value_name = "SCOPE",
        value_delimiter = ','
    )]
    pub scopes: Vec<String>,
    /// Bind the token to this vault id: it may name no other vault.
    #[arg(long, value_name = "ID")]
    pub vault: Option<String>,
    /// Lifetime in seconds (at most auth.tokenTtlSeconds, which is also the default).
    #[arg(long, value_name = "SECONDS")]
    pub ttl: Option<u64>,
    /// The configuration.
    #[command(flatten)]
    pub flags: ConfigFlags,
}

/// The `plugin` subcommands.
#[derive(Debug, Subcommand)]
pub enum PluginCommand {
    /// Copy TC Bridge (main.js, manifest.json, styles.css) into the vault's
    /// .obsidian/plugins/tc-bridge/ folder, keeping its data.json (settings, token). Enables
    /// nothing unless --enable is given.
    Install(PluginInstallArgs),
}

/// `plugin install`: the vault, where the files come from, and whether to enable it.
#[derive(Debug, Args)]
pub struct PluginInstallArgs {
    /// The vault folder (it must have a .obsidian folder: open it in Obsidian once).
    #[arg(long, value_name = "PATH")]
    pub vault: PathBuf,
    /// Install from this folder (main.js, manifest.json, optional styles.css) instead of the
    /// files built into obsidian-tc.
    #[arg(long, value_name = "DIR")]
    pub from: Option<PathBuf>,
    /// Also add tc-bridge to .obsidian/community-plugins.json (enabled when Obsidian next
    /// opens the vault).
    #[arg(long)]
    pub enable: bool,
}

/// `setup`: the client, the vault, and where the entry goes.
#[derive(Debug, Args)]
pub struct SetupArgs {
    /// The MCP client to configure.
    #[arg(value_enum)]
    pub client: Client,
    /// The vault folder the server will serve.
    #[arg(long, value_name = "PATH")]
    pub vault: PathBuf,
    /// Name the entry `obsidian-tc-<NAME>` instead of obsidian-tc (one entry per vault).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Print the entry on stdout and change nothing.
    #[arg(long)]
    pub print: bool,
    /// Edit this file instead of the client's default, e.g. a project's .mcp.json (Claude
    /// Code), .cursor/mcp.json, .vscode/mcp.json, .gemini/settings.json or .codex/config.toml.
    #[arg(long, value_name = "FILE")]
    pub config_path: Option<PathBuf>,
}
