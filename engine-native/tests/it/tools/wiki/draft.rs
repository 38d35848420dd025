//! `draft_wiki_page`: the changeset skeleton for a new topic (path in the wiki folder,
//! required properties empty, sources, link patches with the notes' hashes) that
//! `commit_wiki_page` accepts once filled in; no changeset for a topic with a page, nor for
//! a short raw source nothing covers; nothing is ever written.

use serde_json::json;

use super::{sha, wiki};
use crate::support::dispatch::snapshot;

#[test]
fn a_new_topic_gets_a_skeleton_that_commits() {
    let fx = wiki(json!({}));
    fx.write("main", "Journal/todo.md", "Read about [[Comets]] later.\n");
    fx.ok("index_vault", json!({}));
    let before = snapshot(&fx.vault_dir("main"));
    let draft = fx.ok(
        "draft_wiki_page",
        json!({"topic": "Comets", "type": "person", "sources": ["raw/space-notes.md"]}),
    );
    assert_eq!(
        snapshot(&fx.vault_dir("main")),
        before,
        "a draft writes nothing"
    );
    assert_eq!(draft["dedupe"]["verdict"], "new");
    assert_eq!(
        draft["requirements"]["required"],
        json!(["title", "wikidata", "born"])
    );
    assert_eq!(
        draft["link_map"]["already_linking"],
        json!(["Journal/todo.md"])
    );
    let changeset = &draft["changeset"];
    assert_eq!(changeset["page"]["path"], "Wiki/Comets.md");
    assert_eq!(changeset["page"]["mode"], "create");
    assert_eq!(changeset["page"]["body"], "");
    assert_eq!(
        changeset["page"]["frontmatter"],
        json!({"type": "person", "title": "", "wikidata": "", "born": "", "sources": ["[[raw/space-notes|space-notes]]"]})
    );
    let mut page = changeset["page"].clone();
    page["body"] = json!("# Comets\n\nIcy bodies.\n");
    let done = fx.ok(
        "commit_wiki_page",
        json!({"topic": "Comets", "page": page, "patches": changeset["patches"]}),
    );
    assert_eq!(done["page"]["created"], true);
    assert!(fx.exists("main", "Wiki/Comets.md"));
}

#[test]
fn a_topic_with_a_page_gets_no_changeset() {
    let fx = wiki(json!({}));
    let draft = fx.ok("draft_wiki_page", json!({"topic": "Levain bread"}));
    assert_eq!(draft["dedupe"]["verdict"], "exists");
    assert!(draft["changeset"].is_null());
    assert!(
        draft["reason"]
            .as_str()
            .expect("reason")
            .contains("has a page")
    );
    assert_eq!(
        draft["schema"]["types"]["concept"],
        json!(["title", "sources"])
    );
}

#[test]
fn a_short_uncovered_source_gets_no_changeset_a_cited_one_does() {
    let fx = wiki(json!({}));
    fx.write(
        "main",
        "raw/stray.md",
        "# Stray\n\nA short note about nothing else here.\n",
    );
    fx.ok("index_vault", json!({}));
    let stray = fx.ok(
        "draft_wiki_page",
        json!({"topic": "Zebra crossings", "source": "raw/stray.md"}),
    );
    assert!(stray["changeset"].is_null(), "{stray}");
    assert!(stray["reason"].as_str().expect("reason").contains("1500"));
    let cited = fx.ok(
        "draft_wiki_page",
        json!({"topic": "Leaf chemistry", "source": "raw/leaf-article.md"}),
    );
    assert_eq!(
        cited["changeset"]["page"]["path"], "Wiki/Leaf chemistry.md",
        "{cited}"
    );
    let _ = sha(&fx, "raw/leaf-article.md");
}
