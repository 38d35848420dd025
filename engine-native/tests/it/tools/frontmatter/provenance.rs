//! `audit_provenance`, the original obsidian-tc's sources audit over the indexed frontmatter:
//! exact counts and coverages on a small vault, the original's default exclusions,
//! include / exclude globs, `limit` and `truncated`, a blank value counted as missing, notes
//! the caller may not read never counted or named, and a bad glob refused.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn vault() -> Fixture {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Wiki/**", "Top.md", "01-daily/**", "_templates/**", "Art/**"]}
    }));
    let notes = [
        (
            "Wiki/a.md",
            "---\nsources: [\"[[Paper]]\"]\nconfidence: high\nverified: false\n---\nA\n",
        ),
        (
            "Wiki/b.md",
            "---\nsources: \"  \"\nverified: null\n---\nB\n",
        ),
        ("Wiki/c.md", "---\nsources: []\n---\nC\n"),
        (
            "Wiki/deep/d.md",
            "---\nsources: https://example.org\nconfidence: 0.5\n---\nD\n",
        ),
        ("Wiki/00-INDEX.md", "index\n"),
        ("Wiki/_Topic-Index.md", "index\n"),
        ("Top.md", "no frontmatter\n"),
        ("01-daily/2026-01-01.md", "daily\n"),
        ("_templates/t.md", "template\n"),
        (
            "Art/x.excalidraw.md",
            "---\nexcalidraw-plugin: parsed\n---\n",
        ),
        ("Secret/s.md", "---\nsources: [x]\n---\nhidden\n"),
        ("Secret/t.md", "hidden too\n"),
    ];
    for (path, text) in notes {
        fx.write("main", path, text);
    }
    fx.ok("index_vault", json!({}));
    fx
}

fn audit(fx: &Fixture, args: Value) -> Value {
    let reader = caller("agent", &["read:notes"], None);
    fx.call(&reader, "audit_provenance", args)
        .result
        .expect("audit_provenance")
}

#[test]
fn counts_and_coverages_over_the_readable_notes_in_scope() {
    let fx = vault();
    let got = audit(&fx, json!({}));
    assert_eq!(
        got,
        json!({
            "field": "sources",
            "scanned": 5,
            "with_provenance": 2,
            "missing_provenance": 3,
            "coverage": 0.4,
            "confidence_coverage": 0.4,
            "verified_coverage": 0.4,
            "by_folder": {
                "/": {"scanned": 1, "missing": 1},
                "Wiki": {"scanned": 4, "missing": 2}
            },
            "missing": ["Top.md", "Wiki/b.md", "Wiki/c.md"],
            "truncated": false
        })
    );
}

#[test]
fn field_globs_and_limit_narrow_the_audit() {
    let fx = vault();
    let confidence = audit(&fx, json!({"field": "confidence", "include": ["Wiki/**"]}));
    assert_eq!(confidence["scanned"], 4);
    assert_eq!(confidence["missing"], json!(["Wiki/b.md", "Wiki/c.md"]));
    let excluded = audit(&fx, json!({"exclude": ["Wiki/deep/**", "Top.md"]}));
    assert_eq!(excluded["scanned"], 3);
    assert_eq!(
        excluded["by_folder"],
        json!({"Wiki": {"scanned": 3, "missing": 2}})
    );
    let first = audit(&fx, json!({"limit": 1}));
    assert_eq!(
        (first["missing"].clone(), first["truncated"].clone()),
        (json!(["Top.md"]), json!(true))
    );
    assert_eq!(first["missing_provenance"], 3);
    let defaults_only = audit(
        &fx,
        json!({"include": ["01-daily/**", "_templates/**", "Art/**"]}),
    );
    assert_eq!(
        defaults_only["scanned"], 0,
        "the original's exclusions still apply"
    );
    assert_eq!(defaults_only["coverage"], 1.0);
    assert_eq!(defaults_only["confidence_coverage"], 0.0);
}

#[test]
fn hidden_notes_never_count_and_a_bad_glob_is_refused() {
    let fx = vault();
    assert_eq!(fx.ok("audit_provenance", json!({})), audit(&fx, json!({})));
    let got = audit(&fx, json!({"include": ["Secret/**"]}));
    assert_eq!(got["scanned"], 0);
    assert!(!got.to_string().contains("Secret"), "{got}");
    let refused = fx.err(
        "audit_provenance",
        json!({"exclude": ["/rooted/**"]}),
        ErrorCode::InvalidInput,
    );
    assert!(
        refused.message.contains("/rooted/**"),
        "{}",
        refused.message
    );
}
