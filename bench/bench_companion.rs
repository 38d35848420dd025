//! What a server bridge tool adds over the TC Bridge route it wraps (issue 8, must-show 4):
//! `list_commands` through the release binary (MCP over stdio, the whole dispatch pipeline,
//! the companion client) against a direct `POST /obsidian-tc/v1/commands/list` to the same
//! companion, and a protocol `ping` on the same MCP session (what the transport alone costs),
//! in the same run, interleaved, on long-lived connections.
//!
//! Side by side, what finding the companion through TC Bridge's settings file costs (issue
//! 18): the same call through two zero-config servers, one given the companion by
//! `OBSIDIAN_TC_COMPANION_URL`, one finding it in the vault's `data.json` (a `stat` of the
//! file before each bridge call), and, in this process, the companion lookup alone
//! (`Companions::of`) for a configured and a found companion.
//!
//! ```text
//! cargo build --release -p obsidian-tc --bin obsidian-tc
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
use companion_support::{FakeCompanion, Mode, TOKEN, write_plugin_data};
use obsidian_tc::companion::Companions;
use obsidian_tc::config::VaultConfig;
use obsidian_tc::config::sections::{CompanionConfig, CompanionSetting};

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
    // two zero-config servers on vaults alike (each with TC Bridge's settings file): one is
    // given the companion by OBSIDIAN_TC_COMPANION_URL / _TOKEN, the other finds it in the file
    let zero_config =
        |name: &str, given: bool| -> Result<StdioSession, Box<dyn std::error::Error>> {
            let vault = dir.path().join(name);
            std::fs::create_dir_all(&vault)?;
            write_plugin_data(&vault, companion.port(), TOKEN, json!({}));
            let mut command = Command::new(&bin);
            command
                .arg(&vault)
                .env("OBSIDIAN_TC_THROTTLE_ENABLED", "false")
                .env("OBSIDIAN_TC_EMBEDDINGS_PROVIDER", "none");
            if given {
                command
                    .env("OBSIDIAN_TC_COMPANION_URL", &companion.url)
                    .env("OBSIDIAN_TC_COMPANION_TOKEN", TOKEN);
            }
            let mut session = StdioSession::spawn(command)?;
            handshake(&mut session)?;
            Ok(session)
        };
    let mut given = zero_config("given", true)?;
    let mut found = zero_config("found", false)?;
    let found_vault = dir.path().join("found");
    let client = obsidian_tc::http_client::blocking_builder()
        .no_proxy()
        .build()?;
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
    let mut zero_config_id = 1;
    let mut tool_call = |session: &mut StdioSession, params: &Value| -> Result<Duration, String> {
        zero_config_id += 1;
        let (took, response) = session.request(zero_config_id, "tools/call", params.clone())?;
        expect_success(&response, "tools/call")?;
        if response["result"]["isError"] == true {
            return Err(format!("list_commands failed: {response}"));
        }
        Ok(took)
    };
    let list_commands = json!({"name": "list_commands", "arguments": {}});

    // warm up every path (connections, the start-up probe, caches)
    for _ in 0..50 {
        direct()?;
        through_server("tools/call", list_commands.clone())?;
        tool_call(&mut given, &list_commands)?;
        tool_call(&mut found, &list_commands)?;
        through_server("ping", json!({}))?;
    }
    let mut direct_samples = Vec::with_capacity(args.calls);
    let mut server_samples = Vec::with_capacity(args.calls);
    let mut given_samples = Vec::with_capacity(args.calls);
    let mut found_samples = Vec::with_capacity(args.calls);
    let mut ping_samples = Vec::with_capacity(args.calls);
    for _ in 0..args.calls {
        let started = Instant::now();
        direct()?;
        direct_samples.push(started.elapsed());
        server_samples.push(through_server("tools/call", list_commands.clone())?);
        given_samples.push(tool_call(&mut given, &list_commands)?);
        found_samples.push(tool_call(&mut found, &list_commands)?);
        ping_samples.push(through_server("ping", json!({}))?);
    }
    let direct = summary(&direct_samples)?;
    let served = summary(&server_samples)?;
    let given = summary(&given_samples)?;
    let found = summary(&found_samples)?;
    let ping = summary(&ping_samples)?;
    println!("{} calls each, interleaved", args.calls);
    for (name, summary) in [
        ("plugin route  POST /obsidian-tc/v1/commands/list", &direct),
        (
            "server tool   list_commands (MCP stdio + dispatch + route)",
            &served,
        ),
        (
            "zero-config   the same, companion from OBSIDIAN_TC_COMPANION_URL",
            &given,
        ),
        (
            "zero-config   the same, companion found in data.json",
            &found,
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
    println!(
        "finding the companion in data.json: p50 {:+.3} ms over the companion given by the \
         environment",
        found.median - given.median
    );
    lookups(&companion, &found_vault, args.calls.max(1) * 100);
    Ok(())
}

/// Times `rounds` companion lookups (`Companions::of`) of a vault whose config names the
/// companion and of one whose companion comes from `found_vault`'s settings file: the
/// freshness check a found companion adds to every bridge call.
fn lookups(companion: &FakeCompanion, found_vault: &std::path::Path, rounds: usize) {
    let vault = |companion: Option<CompanionSetting>, path: &std::path::Path| VaultConfig {
        id: "main".to_owned(),
        path: path.to_string_lossy().into_owned(),
        acl: None,
        companion,
        inbox_folder: None,
        memory_folder: None,
        bootstrap: None,
        wiki: None,
    };
    let configured = CompanionConfig::at(companion.url.clone(), Some(TOKEN.to_owned()));
    let named = vault(Some(CompanionSetting::At(configured)), found_vault);
    let found = vault(None, found_vault);
    let companions = Companions::default();
    let time = |vault: &VaultConfig| {
        companions.of(vault).expect("a companion");
        let started = Instant::now();
        for _ in 0..rounds {
            companions.of(vault).expect("a companion");
        }
        started.elapsed().as_nanos() as f64 / rounds as f64
    };
    let (named_ns, found_ns) = (time(&named), time(&found));
    println!(
        "companion lookup per bridge call ({rounds} rounds): configured {named_ns:.0} ns, \
         found in data.json {found_ns:.0} ns (+{:.0} ns: the stat of the file and the comparison with the last read)",
        found_ns - named_ns
    );
}

fn summary(samples: &[Duration]) -> Result<Summary, String> {
    summarize(samples).ok_or_else(|| "no samples".to_owned())
}
