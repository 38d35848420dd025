//! `--log-format`: human lines by default, one JSON object per line with `json`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::support::mcp::{BIN, EMBEDDINGS_OFF, arg, vault};

/// The line the HTTP server logs once it listens.
const LISTENING: &str = "MCP over HTTP on http://";

/// The stderr lines of `obsidian-tc <args>` up to and including the one that says it
/// listens; the server is killed then.
fn lines_until_listening(args: &[&str]) -> Vec<String> {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("OBSIDIAN_TC_CONFIG")
        .envs(crate::support::cache_home::cache_env(
            &crate::support::cache_home::test_cache_root(),
        ))
        .env(EMBEDDINGS_OFF.0, EMBEDDINGS_OFF.1)
        .env("RUST_LOG", "debug")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn obsidian-tc");
    let stderr = child.stderr.take().expect("stderr piped");
    let mut lines = Vec::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("a line of stderr");
        let listening = line.contains(LISTENING);
        lines.push(line);
        if listening {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        lines.last().is_some_and(|line| line.contains(LISTENING)),
        "{lines:#?}"
    );
    lines
}

#[test]
fn json_logs_are_one_object_per_line() {
    let vault = vault();
    let folder = arg(vault.path());
    for args in [
        vec![
            "--log-format",
            "json",
            "--http",
            "--http-port",
            "0",
            &folder,
        ],
        vec![
            "serve",
            "--http",
            "--port",
            "0",
            "--log-format",
            "json",
            &folder,
        ],
    ] {
        let lines = lines_until_listening(&args);
        for line in &lines {
            let object: Value = serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("not JSON ({error}): {line}"));
            assert!(object["level"].is_string(), "{line}");
            assert!(object["message"].is_string(), "{line}");
        }
    }
}

#[test]
fn text_logs_are_the_default() {
    let vault = vault();
    let folder = arg(vault.path());
    let lines = lines_until_listening(&["serve", "--http", "--port", "0", &folder]);
    let listening = lines.last().expect("the listening line");
    assert!(
        serde_json::from_str::<Value>(listening).is_err(),
        "{listening}"
    );
    assert!(listening.contains(" INFO "), "{listening}");
}
