//! `obsidian-tc doctor` on the embedding model: off (and from where), not downloaded but the
//! hub answers, not downloaded and the hub down (search is lexical: FAIL with what to do),
//! and present in the cache; against a mirror like the hub, the weights probed through the
//! redirect to the CDN (the token to the hub only), and a CDN that cannot be reached named
//! with what to do.

use std::process::{Command, Output};

use crate::support::hub_mirror::{
    Listener, Mirror, closed_endpoint, first_run_env, test_model, with_env,
};
use crate::support::mcp::{arg, bin, vault};

fn doctor(home: &std::path::Path, endpoint: &str, extra: &[(&str, &str)]) -> Output {
    let vault = vault();
    let mut command = Command::new(bin());
    with_env(&mut command, &first_run_env(home, endpoint));
    for (name, value) in extra {
        command.env(name, value);
    }
    command
        .args(["doctor", &arg(vault.path())])
        .output()
        .expect("run obsidian-tc doctor")
}

/// The line (and hint) of the embeddings check.
fn embeddings_line(out: &Output) -> String {
    let said = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = said.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("embedding") || l.contains("semantic search"))
        .unwrap_or_else(|| panic!("no embeddings line: {said}"));
    lines[at..]
        .iter()
        .take(2)
        .copied()
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn doctor_says_whether_semantic_search_will_work_and_why_not() {
    let home = tempfile::tempdir().expect("home");
    let mirror = Mirror::serve(&test_model());

    let off = doctor(
        home.path(),
        &mirror.endpoint(),
        &[("OBSIDIAN_TC_EMBEDDINGS_PROVIDER", "none")],
    );
    let line = embeddings_line(&off);
    assert!(line.starts_with("OK   semantic search is off"), "{line}");
    assert!(
        line.contains("env OBSIDIAN_TC_EMBEDDINGS_PROVIDER"),
        "{line}"
    );

    let pending = doctor(home.path(), &mirror.endpoint(), &[]);
    let line = embeddings_line(&pending);
    assert_eq!(pending.status.code(), Some(0), "{line}");
    assert!(
        line.starts_with(
            "OK   embedding model sentence-transformers/all-MiniLM-L6-v2 is not downloaded yet"
        ),
        "{line}"
    );
    assert!(
        line.contains(&mirror.endpoint()) && line.contains("model pull"),
        "{line}"
    );

    let down = doctor(home.path(), &closed_endpoint(), &[]);
    let line = embeddings_line(&down);
    assert_eq!(down.status.code(), Some(1), "{line}");
    assert!(line.starts_with("FAIL search is lexical"), "{line}");
    assert!(
        line.contains("hint:") && line.contains("OBSIDIAN_TC_EMBEDDINGS_PROVIDER=none"),
        "{line}"
    );

    let pulled = with_env(
        &mut Command::new(bin()),
        &first_run_env(home.path(), &mirror.endpoint()),
    )
    .args(["model", "pull"])
    .output()
    .expect("model pull");
    assert_eq!(pulled.status.code(), Some(0));
    let present = doctor(home.path(), &closed_endpoint(), &[]);
    let line = embeddings_line(&present);
    assert!(
        line.starts_with("OK   embedding model sentence-transformers/all-MiniLM-L6-v2 is in"),
        "{line}"
    );
}

#[test]
fn doctor_probes_the_weights_through_the_cdn_and_names_a_blocked_one() {
    let home = tempfile::tempdir().expect("home");
    let mirror = Mirror::serve_like_hub(&test_model(), 1_000_000, "config.json");
    let token = [("HF_TOKEN", "hf_doctor")];

    let through = doctor(home.path(), &mirror.endpoint(), &token);
    let line = embeddings_line(&through);
    assert_eq!(through.status.code(), Some(0), "{line}");
    assert!(line.contains("is not downloaded yet"), "{line}");
    let asked: Vec<(Listener, Option<String>)> = mirror
        .requests_for("model.safetensors")
        .into_iter()
        .map(|r| (r.listener, r.authorization))
        .collect();
    assert_eq!(
        asked,
        [
            (Listener::Hub, Some("Bearer hf_doctor".to_owned())),
            (Listener::Cdn, None)
        ]
    );

    let cdn = mirror.cdn_down();
    let blocked = doctor(home.path(), &mirror.endpoint(), &token);
    let line = embeddings_line(&blocked);
    assert_eq!(blocked.status.code(), Some(1), "{line}");
    assert!(line.starts_with("FAIL search is lexical"), "{line}");
    for needle in [
        cdn.as_str(),
        "HTTPS_PROXY",
        "HF_ENDPOINT",
        "obsidian-tc model pull",
        "hint: until that host can be reached",
    ] {
        assert!(line.contains(needle), "{needle}: {line}");
    }
}
