//! What a server bridge tool adds over the TC Bridge route it wraps (issue 8, must-show 4):
//! `list_commands` through the release binary (MCP over stdio, the whole dispatch pipeline,
//! the companion client) against a direct `POST /obsidian-tc/v1/commands/list` to the same
//! companion, and a protocol `ping` on the same MCP session (what the transport alone costs),
//! in the same run, interleaved, on long-lived connections.
//!
//! ```text
//! cargo build --release -p engine-native --bin obsidian-tc
//! cargo run --release -p bench --bin bench_companion [-- --calls 2000 --bin <obsidian-tc>]
//! ```
//!
//! The companion is the tests' fake TC Bridge (an axum server on loopback answering each
//! route at once), so the figures are the server's own cost: the MCP round trip, validation,
//! scopes, vault binding, audit row, plus its HTTP client. The throttle is off so that the
//! calls are not rate limited.

#[path = "../engine-native/tests/it/support/companion.rs"]
mod companion_support;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};

use bench::programs::product;
use bench::rpc::{Session, expect_success, handshake};
use bench::stats::{Summary, summarize};
use bench::stdio_client::StdioSession;
use companion_support::{FakeCompanion, Mode, TOKEN};

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// How many calls of each kind.
    #[arg(long, default_value_t = 1000)]
    calls: usize,
    /// The obsidian-tc binary (else OBSIDIAN_TC_BIN, else `obsidian-tc` next to this
    /// program).
    #[arg(long)]
    bin: Option<PathBuf>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let bin = product(args.bin)?;
    let companion = FakeCompanion::start(Mode::Reachable);
    let dir = tempfile::TempDir::new()?;
    std::fs::create_dir_all(dir.path().join("vault"))?;
    let config = json!({
        "vaults": [{"id": "main", "path": "vault", "companion": companion.config()}],
        "throttle": {"enabled": false},
        "embeddings": {"provider": "none"},
    });
    let path = dir.path().join("config.json");
    std::fs::write(&path, config.to_string())?;
    let mut command = Command::new(&bin);
    command.arg("serve").arg("--config").arg(&path);
    let mut server = StdioSession::spawn(command)?;
    handshake(&mut server)?;
    let client = reqwest::blocking::Client::builder().no_proxy().build()?;
    let route = format!("{}/obsidian-tc/v1/commands/list", companion.url);

    let direct = || -> Result<(), Box<dyn std::error::Error>> {
        let answer: Value = client
            .post(&route)
            .bearer_auth(TOKEN)
            .json(&json!({}))
            .send()?
            .json()?;
        if answer["ok"] != true {
            return Err(format!("the route failed: {answer}").into());
        }
        Ok(())
    };
    let mut id = 1;
    let mut through_server = |method: &str, params: Value| -> Result<Duration, String> {
        id += 1;
        let (took, response) = server.request(id, method, params)?;
        expect_success(&response, method)?;
        Ok(took)
    };
    let list_commands = json!({"name": "list_commands", "arguments": {}});

    // warm up every path (connections, the start-up probe, caches)
    for _ in 0..50 {
        direct()?;
        through_server("tools/call", list_commands.clone())?;
        through_server("ping", json!({}))?;
    }
    let mut direct_samples = Vec::with_capacity(args.calls);
    let mut server_samples = Vec::with_capacity(args.calls);
    let mut ping_samples = Vec::with_capacity(args.calls);
    for _ in 0..args.calls {
        let started = Instant::now();
        direct()?;
        direct_samples.push(started.elapsed());
        server_samples.push(through_server("tools/call", list_commands.clone())?);
        ping_samples.push(through_server("ping", json!({}))?);
    }
    let direct = summary(&direct_samples)?;
    let served = summary(&server_samples)?;
    let ping = summary(&ping_samples)?;
    println!("{} calls each, interleaved", args.calls);
    for (name, summary) in [
        ("plugin route  POST /obsidian-tc/v1/commands/list", &direct),
        (
            "server tool   list_commands (MCP stdio + dispatch + route)",
            &served,
        ),
        ("MCP ping      on the same stdio session", &ping),
    ] {
        println!(
            "{name:<60} p50 {:.3} ms  p90 {:.3} ms  p99 {:.3} ms",
            summary.median, summary.p90, summary.p99
        );
    }
    println!(
        "added by the server: p50 {:.3} ms ({:.3} ms of it the MCP round trip a ping also pays)",
        served.median - direct.median,
        ping.median
    );
    Ok(())
}

fn summary(samples: &[Duration]) -> Result<Summary, String> {
    summarize(samples).ok_or_else(|| "no samples".to_owned())
}
