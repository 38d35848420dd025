//! `session_bootstrap` and `vault_context`'s `bootstrap` mode read the notes and folders the
//! vault's config names ([`super::vaults::bootstrap_config`]): some hidden and present in one
//! vault only, a hidden hand-off note among them. Every triage row and both modes answer
//! the same on both vaults under every variant.

use serde_json::{Value, json};

use super::vaults::{Variant, ask, on_pair};

/// The calls compared: each triage row, an asked mode, and `vault_context` with and
/// without a query.
fn calls() -> Vec<(&'static str, Value)> {
    vec![
        ("session_bootstrap", json!({})),
        ("session_bootstrap", json!({"message": "the merger"})),
        ("session_bootstrap", json!({"message": "merger and bread"})),
        (
            "session_bootstrap",
            json!({"message": "where did we leave off"}),
        ),
        (
            "session_bootstrap",
            json!({"message": "bread", "mode": "deep"}),
        ),
        ("vault_context", json!({})),
        (
            "vault_context",
            json!({"mode": "bootstrap", "query": "merger"}),
        ),
    ]
}

#[test]
fn the_bootstrap_tools_are_blind_to_hidden_configured_paths() {
    for variant in Variant::ALL {
        let answers = on_pair(variant, |fx, caller| {
            calls()
                .into_iter()
                .map(|(tool, args)| ask(fx, caller, tool, args))
                .collect::<Vec<String>>()
        });
        for (at, (left, right)) in answers[0].iter().zip(&answers[1]).enumerate() {
            assert_eq!(left, right, "{variant:?}, call {at}: {:?}", calls()[at]);
        }
        if variant == Variant::FolderAcl {
            let standard: Value = serde_json::from_str(&answers[0][1]).expect("json");
            assert_eq!(standard["mode"], "standard", "{standard}");
            let loaded: Vec<&str> = standard["loaded"]
                .as_array()
                .expect("loaded")
                .iter()
                .map(|note| note["path"].as_str().expect("path"))
                .collect();
            assert_eq!(
                loaded,
                ["Public/alpha.md", "Public/sub/gamma.md"],
                "{standard}"
            );
            let deep: Value = serde_json::from_str(&answers[0][3]).expect("json");
            assert_eq!(deep["mode"], "deep");
            assert!(!answers[0].iter().any(|answer| answer.contains("hand-off.")));
        }
    }
}
