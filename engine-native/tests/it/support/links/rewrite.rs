//! Shared by the `rewrite_link` and `prune_hub_links` tests (`tools::links::rewrite` in `it`
//! and in `faults`): small vaults, indexed.

use serde_json::json;

use super::Fixture;

/// A fixture (throttle off) whose `main` vault holds `files` (path, text), indexed.
pub fn fixture(files: &[(&str, &str)]) -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    for (path, text) in files {
        fx.write("main", path, text);
    }
    fx.ok("index_vault", json!({}));
    fx
}

/// A vault whose notes link to `Target.md` in every way a rewrite must handle.
pub const LINKING: &[(&str, &str)] = &[
    ("Target.md", "# Target\n"),
    ("New/Dest.md", "# Dest\n"),
    ("Other.md", "other\n"),
    (
        "a.md",
        "See [[Target]] and [[Target#Intro|the intro]].\nUnrelated [[Other]]\n![[Target#^blk]]\n",
    ),
    ("b/c.md", "[md](../Target.md#Part) and [[target]]\n"),
    ("d.md", "---\nup: \"[[Target]]\"\n---\nno body link\n"),
];

/// A hub note with a link for each pruning reason of [`POLICY`].
pub const HUB: &str = "# Hub\n- [[Popular]]\n- [[Missing]]\n- See [[Archive/Old|old stuff]] here\n- [[Quiet]] and [[Quiet]]\n1. [md link](Popular.md)\n![[Popular]]\n";

/// [`fixture`] with [`HUB`] as `Hub.md` and the notes it links to.
pub fn hub_fixture() -> Fixture {
    fixture(&[
        ("Hub.md", HUB),
        ("Popular.md", "popular\n"),
        ("Quiet.md", "quiet\n"),
        ("Archive/Old.md", "old\n"),
        ("x.md", "[[Popular]]\n"),
        ("y.md", "[[Popular]]\n"),
    ])
}

/// A `prune_hub_links` policy using every rule.
pub const POLICY: &str =
    r#"{"max_backlinks": 2, "unresolved": true, "folders": ["Archive"], "duplicates": true}"#;
