//! The egress guard: unreadable, excluded and credential-holding chunks never reach a
//! prompt, and the answer counts each reason.

use obsidian_tc::inference::egress::{Chunk, Withheld, exclude_globs, guard, holds_credential};

fn chunk(path: &str, text: &str) -> Chunk {
    Chunk {
        path: path.to_owned(),
        chunk_id: Some(format!("id-{path}")),
        text: text.to_owned(),
        score: 1.0,
    }
}

const AWS_KEY: &str = "AKIAQ7RZ2KX94WNB5TJM";

#[test]
fn only_readable_included_credential_free_chunks_pass_and_each_reason_is_counted() {
    let chunks = vec![
        chunk("Public/a.md", "the plan is to ship in May"),
        chunk("Secret/b.md", "hidden plan"),
        chunk("Private/Journal/c.md", "a private thought"),
        chunk(
            "Public/keys.md",
            &format!("aws key {AWS_KEY} for the bucket"),
        ),
        chunk("Public/d.md", "password: hunter2-Zq3vT8kLm2"),
        chunk("Public/e.md", "the second half of the plan"),
    ];
    let excluded = exclude_globs(&["Private".to_owned(), "**/*.secret.md".to_owned()]);
    let guarded = guard(chunks, &|path| !path.starts_with("Secret/"), &excluded);
    let kept: Vec<&str> = guarded.sendable.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(kept, ["Public/a.md", "Public/e.md"]);
    assert_eq!(
        guarded.withheld,
        Withheld {
            unreadable: 1,
            excluded: 1,
            credential: 2,
        }
    );
    assert_eq!(guarded.withheld.total(), 4);
}

#[test]
fn an_unreadable_chunk_is_counted_as_unreadable_whatever_else_it_is() {
    let guarded = guard(
        vec![chunk("Private/x.md", AWS_KEY)],
        &|_| false,
        &exclude_globs(&["Private/**".to_owned()]),
    );
    assert!(guarded.sendable.is_empty());
    assert_eq!(guarded.withheld.unreadable, 1);
    assert_eq!(guarded.withheld.total(), 1);
}

#[test]
fn the_credential_scan_knows_keys_and_leaves_plain_text() {
    assert!(holds_credential(&format!("key {AWS_KEY}")));
    assert!(!holds_credential("We decided to move the launch to May."));
}
