//! The serving process runs without transparent huge pages (`main.rs`, `configure_heap`):
//! with them, mimalloc's arenas were backed in whole 2 MiB pages
//! and the soak's resident memory swung and grew (issue 21). `MIMALLOC_ALLOW_THP` keeps the
//! kernel's choice.

use crate::support::mcp::{HttpServer, vault};

/// The `THP_enabled` field of `/proc/<pid>/status`: `0` once the process turned transparent
/// huge pages off (`PR_SET_THP_DISABLE`), else `1`.
fn thp_enabled(pid: u32) -> String {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("read status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("THP_enabled:"))
        .map(|value| value.trim().to_owned())
        .expect("the kernel reports THP_enabled")
}

#[test]
fn a_serving_process_turns_transparent_huge_pages_off() {
    let vault = vault();
    // The server logs its address from inside `main`: the switch has run by then.
    let server = HttpServer::serve_vault(vault.path());
    assert_eq!(thp_enabled(server.pid()), "0");
    server.stop();
}

#[test]
fn mimalloc_allow_thp_leaves_them_on() {
    assert_eq!(
        thp_enabled(std::process::id()),
        "1",
        "the test itself must run with transparent huge pages allowed"
    );
    let vault = vault();
    let server = HttpServer::serve_vault_with(vault.path(), &[("MIMALLOC_ALLOW_THP", "1")]);
    assert_eq!(thp_enabled(server.pid()), "1");
    server.stop();
}
