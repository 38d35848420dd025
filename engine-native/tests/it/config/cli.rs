//! `obsidian-tc config show | validate | explain` run as the built binary against temp vaults.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::cache_home::{vault_cache_dir, with_cache_home};

/// The platform cache folder's base of these runs: `config` commands only name it, never
/// write to it.
fn cache_root() -> PathBuf {
    std::env::temp_dir().join("obsidian-tc-config-cli")
}

fn obsidian_tc(args: &[&str], cwd: &Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_obsidian-tc"));
    command.args(args).current_dir(cwd).env_clear();
    with_cache_home(&mut command, &cache_root())
        .output()
        .expect("run obsidian-tc")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn show_a_bare_vault_prints_the_effective_json() {
    let vault = tempfile::tempdir().expect("vault");
    let out = obsidian_tc(
        &["config", "show", vault.path().to_str().expect("utf-8")],
        vault.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(shown["vaults"][0]["id"], "main");
    let canonical = vault.path().canonicalize().expect("canonical");
    let cache = vault_cache_dir(&cache_root(), &canonical);
    assert_eq!(shown["cacheDir"], cache.to_str().expect("utf-8"));
    assert!(
        !cache.starts_with(vault.path()),
        "the cache is outside the vault"
    );
    assert!(
        !vault.path().join(".obsidian-tc").exists(),
        "config show writes nothing"
    );
    assert_eq!(shown["toolFacade"]["mode"], "triad");
}

#[test]
fn validate_lists_every_problem_and_exits_non_zero() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("config.json");
    std::fs::write(
        &file,
        r#"{"vaults": [{"id": "main", "path": "v", "acl": {"writePaths": ["[x"]}}],
            "governor": {"maxResponseBytes": 0}, "bogus": 1}"#,
    )
    .expect("write config");
    let out = obsidian_tc(
        &["config", "validate", "--config", "config.json"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    let errors = text(&out.stderr);
    assert!(errors.contains("bogus: unknown key"), "{errors}");
    assert!(
        errors.contains("governor.maxResponseBytes: must be at least 1"),
        "{errors}"
    );

    std::fs::write(
        &file,
        r#"{"vaults": [{"id": "main", "path": "v", "acl": {"writePaths": ["[x"]}}]}"#,
    )
    .expect("write config");
    let out = obsidian_tc(
        &["config", "validate", file.to_str().expect("utf-8")],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("vaults[0].acl.writePaths[0]"),
        "{}",
        text(&out.stderr)
    );

    std::fs::write(
        &file,
        r#"{"vaults": [{"id": "main", "path": "v"}], "cacheDir": "c"}"#,
    )
    .expect("write config");
    let elsewhere = tempfile::tempdir().expect("cwd");
    let out = obsidian_tc(
        &["config", "validate", file.to_str().expect("utf-8")],
        elsewhere.path(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let cache = dir.path().join("c");
    assert!(
        text(&out.stdout).contains(cache.to_str().expect("utf-8")),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn explain_shows_flag_env_file_and_default_sources() {
    let dir = tempfile::tempdir().expect("dir");
    let file = dir.path().join("config.json");
    std::fs::write(
        &file,
        r#"{"vaults": [{"id": "main", "path": "/v"}], "elicitTtlSeconds": 120}"#,
    )
    .expect("write config");
    let out = Command::new(env!("CARGO_BIN_EXE_obsidian-tc"))
        .args(["config", "explain", "--http-port", "9999"])
        .env_clear()
        .env("OBSIDIAN_TC_CONFIG", &file)
        .env("OBSIDIAN_TC_TOOL_FACADE", "flat")
        .output()
        .expect("run obsidian-tc");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines = text(&out.stdout);
    assert!(
        lines.contains("transports.http.port = 9999  <- flag --http-port"),
        "{lines}"
    );
    assert!(
        lines.contains("toolFacade.mode = \"flat\"  <- env OBSIDIAN_TC_TOOL_FACADE"),
        "{lines}"
    );
    let from_file = format!(
        "elicitTtlSeconds = 120  <- file {} at elicitTtlSeconds",
        file.display()
    );
    assert!(lines.contains(&from_file), "{lines}");
    assert!(
        lines.contains("governor.maxResponseBytes = 1000000  <- default"),
        "{lines}"
    );
}

#[test]
fn no_configuration_says_what_to_pass() {
    let dir = tempfile::tempdir().expect("dir");
    let out = obsidian_tc(&["config", "show"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("pass a vault folder"),
        "{}",
        text(&out.stderr)
    );
}
