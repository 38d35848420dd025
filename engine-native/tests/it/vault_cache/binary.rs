//! Through the real binary: a zero-config `obsidian-tc <vault>` session keeps its database in
//! the platform cache folder, leaving in the vault only its `vault-id` (and the write locks).

use serde_json::json;

use crate::support::cache_home::cache_of;
use crate::support::mcp::{arg, call, run, stdio_client, vault};

#[tokio::test(flavor = "multi_thread")]
async fn a_zero_config_session_leaves_no_database_in_the_vault() {
    let vault = vault();
    let client = stdio_client(&[&arg(vault.path())]).await;
    call(
        &client,
        "write_note",
        json!({"path": "new.md", "content": "x\n"}),
    )
    .await;
    call(&client, "enqueue_capture", json!({"content": "later\n"})).await;
    client.cancel().await.expect("stop the stdio server");

    let own = vault.path().join(".obsidian-tc");
    let mut left = crate::support::file_names(&own);
    left.retain(|name| name != "locks");
    assert_eq!(left, ["vault-id"], "only the id and the locks in the vault");
    assert!(cache_of(vault.path()).join("cache.db").is_file());

    // a command that only reads the cache finds the same one
    let out = run(&["audit", &arg(vault.path())]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("enqueue_capture"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
