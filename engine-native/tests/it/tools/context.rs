//! The context tools through the real dispatcher on a real vault and `cache.db`:
//! `get_context` / `vault_context` pack the best chunks to a token budget, grouped by note,
//! with links; `bundle_folder` and `bundle_files` pack whole notes to a budget, list what
//! was cut and report unreadable paths per item; the connector pair `search` / `fetch` has
//! OpenAI's shapes, and `fetch` of a hidden note fails exactly like `read_note`.

mod challenge;
mod graph_search;
mod reflect;
mod search_and_read;
mod vault_context;

use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

/// engine-core's token estimate: characters / 4, rounded up.
fn tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// A note of several sections, each mentioning `word` and long enough to be its own chunk.
fn sections(word: &str, links: &str) -> String {
    let mut text = format!("{links}\n\n");
    for section in ["Origins", "Design", "Operation", "Legacy"] {
        text.push_str(&format!(
            "# {section}\n\n{} The {word} {section} part.\n\n",
            "Filler sentence about many unrelated things in this section. ".repeat(12)
        ));
    }
    text
}

fn context_vault(fx: &Fixture) {
    fx.write(
        "main",
        "Zeppelin.md",
        &sections("zeppelin", "See [[Hangar]]."),
    );
    fx.write("main", "Hangar.md", &sections("zeppelin", ""));
    fx.write("main", "Bread.md", "Sourdough bread and yeast.\n");
}

#[test]
fn context_is_packed_to_the_budget_grouped_by_note_in_document_order() {
    let fx = fixture(json!({}));
    context_vault(&fx);
    fx.ok("index_vault", json!({}));
    for tool in ["get_context", "vault_context"] {
        let got = fx.ok(tool, json!({"query": "zeppelin", "max_tokens": 600}));
        let notes = got["notes"].as_array().expect("notes");
        assert!(!notes.is_empty(), "{got}");
        let mut paths: Vec<&str> = notes.iter().map(|n| n["path"].as_str().unwrap()).collect();
        assert!(!paths.contains(&"Bread.md"));
        paths.dedup();
        assert_eq!(paths.len(), notes.len(), "one group per note");
        let mut packed = 0;
        for note in notes {
            let links: Vec<&str> = note["links"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap())
                .collect();
            packed += tokens(&format!(
                "{} {} {}",
                note["path"].as_str().unwrap(),
                note["title"].as_str().unwrap(),
                links.join(" ")
            ));
            let ordinals: Vec<u64> = note["chunks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["ordinal"].as_u64().unwrap())
                .collect();
            let mut sorted = ordinals.clone();
            sorted.sort_unstable();
            assert_eq!(ordinals, sorted, "document order");
            for chunk in note["chunks"].as_array().unwrap() {
                packed += tokens(chunk["heading"].as_str().unwrap());
                packed += tokens(chunk["text"].as_str().unwrap());
            }
        }
        assert_eq!(got["tokens_used"], packed, "{got}");
        assert!(packed <= 600, "{packed} tokens packed for a budget of 600");
        assert!(got["chunks_left_out"].as_u64().unwrap() > 0, "{got}");
        let zeppelin = notes.iter().find(|n| n["path"] == "Zeppelin.md").unwrap();
        assert_eq!(zeppelin["links"], json!(["Hangar.md"]));
        assert_eq!(zeppelin["title"], "Zeppelin");
        assert!(
            zeppelin["chunks"][0]["heading"]
                .as_str()
                .is_some_and(|h| !h.is_empty()),
            "{zeppelin}"
        );
    }
    let roomy = fx.ok(
        "get_context",
        json!({"query": "zeppelin", "max_tokens": 100000}),
    );
    assert_eq!(roomy["chunks_left_out"], 0, "{roomy}");
    let chunks: usize = roomy["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["chunks"].as_array().unwrap().len())
        .sum();
    assert!(chunks > 2, "more than each note's best chunk: {roomy}");
}

#[test]
fn context_never_shows_a_hidden_note_or_a_link_to_one() {
    let fx = fixture(json!({"acl": {"readPaths": ["Public/**"]}}));
    fx.write(
        "main",
        "Public/Zeppelin.md",
        "Zeppelin facts. See [[Secret]] and [[Hangar]].\n",
    );
    fx.write("main", "Public/Hangar.md", "Hangar doors.\n");
    fx.write("main", "Private/Secret.md", "Zeppelin zeppelin zeppelin.\n");
    fx.ok("index_vault", json!({}));
    let reader = caller("agent", &["read:notes"], None);
    let got = fx
        .call(&reader, "get_context", json!({"query": "zeppelin"}))
        .result
        .expect("get_context");
    // The visible note's own text names it; nothing else does.
    assert!(!got.to_string().contains("Private/"), "{got}");
    assert_eq!(got["notes"].as_array().unwrap().len(), 1, "{got}");
    assert_eq!(got["notes"][0]["links"], json!(["Public/Hangar.md"]));
}

fn bundle_vault(fx: &Fixture) {
    for name in ["a", "b", "c"] {
        fx.write("main", &format!("Docs/{name}.md"), &"x".repeat(400));
    }
    fx.write("main", "Docs/Deep/d.md", "deep note\n");
    fx.write("main", "Docs/image.png", "not a note");
    fx.write("main", "Outside.md", "not in the folder\n");
    fx.write("main", "Docs/Private/secret.md", "hidden\n");
}

#[test]
fn bundle_folder_packs_whole_notes_to_the_budget_and_lists_the_cut() {
    let fx = fixture(json!({}));
    bundle_vault(&fx);
    let all = fx.ok(
        "bundle_folder",
        json!({"folder": "Docs", "max_tokens": 5000}),
    );
    let included: Vec<&str> = all["included"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        included,
        [
            "Docs/Deep/d.md",
            "Docs/Private/secret.md",
            "Docs/a.md",
            "Docs/b.md",
            "Docs/c.md"
        ]
    );
    let text = all["text"].as_str().unwrap();
    assert!(
        text.starts_with("==> Docs/Deep/d.md <==\ndeep note\n\n"),
        "{text}"
    );
    assert!(!text.contains("Outside") && !text.contains("not a note"));
    assert_eq!(all["cut_count"], 0);

    // 400 characters are 100 tokens (+ the header): after the two short notes, one of the
    // three fits in 200.
    let tight = fx.ok(
        "bundle_folder",
        json!({"folder": "Docs/", "max_tokens": 200}),
    );
    assert!(tight["tokens_used"].as_u64().unwrap() <= 200, "{tight}");
    let counted: u64 = tight["included"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["tokens"].as_u64().unwrap())
        .sum();
    assert_eq!(tight["tokens_used"], counted);
    assert!(tokens(tight["text"].as_str().unwrap()) as u64 <= counted);
    assert_eq!(tight["cut"], json!(["Docs/b.md", "Docs/c.md"]), "{tight}");
    assert_eq!(tight["cut_count"], 2);
    assert!(!tight["text"].as_str().unwrap().contains("Docs/b.md"));

    let reader = caller("agent", &["read:notes"], None);
    let fx = fixture(json!({"acl": {"readPaths": ["Docs/*.md", "Docs/Deep/**"]}}));
    bundle_vault(&fx);
    let seen = fx
        .call(&reader, "bundle_folder", json!({"folder": "Docs"}))
        .result
        .expect("bundle_folder");
    assert!(!seen.to_string().contains("secret"), "{seen}");
    assert_eq!(seen["included"].as_array().unwrap().len(), 4);
}

#[test]
fn bundle_files_reports_each_unreadable_path_like_read_note() {
    let fx = fixture(json!({"acl": {"readPaths": ["Docs/*.md"]}}));
    bundle_vault(&fx);
    let reader = caller("agent", &["read:notes"], None);
    let got = fx
        .call(
            &reader,
            "bundle_files",
            json!({
                "paths": ["Docs/c.md", "Docs/missing.md", "Docs/Private/secret.md", "Docs/a.md"],
                "max_tokens": 150
            }),
        )
        .result
        .expect("bundle_files");
    let included: Vec<&str> = got["included"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(included, ["Docs/c.md"], "order of the paths, budget 150");
    assert_eq!(got["cut"], json!(["Docs/a.md"]));
    let errors = got["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 2, "{got}");
    for (item, path) in errors
        .iter()
        .zip(["Docs/missing.md", "Docs/Private/secret.md"])
    {
        assert_eq!(item["path"], path);
        let read = fx
            .call(&reader, "read_note", json!({"path": path}))
            .result
            .expect_err("read_note fails too");
        assert_eq!(item["error"]["code"], json!(read.code), "{item}");
        assert_eq!(item["error"]["message"], json!(read.message), "{item}");
    }
}

#[test]
fn search_and_fetch_have_the_connector_shapes() {
    let fx = fixture(json!({}));
    context_vault(&fx);
    fx.write(
        "main",
        "Folder/Two words.md",
        "Zeppelin hangar in a folder.\n",
    );
    fx.ok("index_vault", json!({}));
    let found = fx.ok("search", json!({"query": "zeppelin"}));
    let results = found["results"].as_array().expect("results");
    assert!(results.len() >= 2, "{found}");
    for result in results {
        let keys: Vec<&String> = result.as_object().unwrap().keys().collect();
        // The connector contract's keys, and the chunk id for record_retrieval_feedback.
        assert_eq!(keys, ["chunk_id", "id", "text", "title", "url"], "{result}");
        let text = result["text"].as_str().expect("text");
        assert!(text.to_lowercase().contains("zeppelin"), "{result}");
        assert!(text.chars().count() <= 300);
    }
    let one = fx.ok("search", json!({"query": "zeppelin", "limit": 1}));
    assert_eq!(one["results"].as_array().map(Vec::len), Some(1), "{one}");
    let folder = results
        .iter()
        .find(|r| r["id"] == "Folder/Two words.md")
        .expect("folder note");
    assert_eq!(folder["title"], "Two words");
    assert_eq!(folder["url"], "obsidian-tc://main/Folder/Two%20words.md");

    let fetched = fx.ok("fetch", json!({"id": "Folder/Two words.md"}));
    assert_eq!(fetched["id"], "Folder/Two words.md");
    assert_eq!(fetched["title"], "Two words");
    assert_eq!(fetched["text"], "Zeppelin hangar in a folder.\n");
    assert_eq!(fetched["url"], folder["url"]);
    assert_eq!(fetched["metadata"]["vault"], "main");
    assert_eq!(fetched["metadata"]["path"], "Folder/Two words.md");
    assert_eq!(fetched["metadata"]["size"], 29);
    assert_eq!(
        fetched["metadata"]["sha256"].as_str().map(str::len),
        Some(64)
    );
}

#[test]
fn fetch_of_a_hidden_or_missing_note_fails_like_read_note() {
    let fx = fixture(json!({"acl": {"readPaths": ["Public/**"]}}));
    fx.write("main", "Public/a.md", "visible zeppelin\n");
    fx.write("main", "Private/b.md", "hidden zeppelin zeppelin\n");
    fx.ok("index_vault", json!({}));
    let reader = caller("agent", &["read:notes"], None);
    let found = fx
        .call(&reader, "search", json!({"query": "zeppelin"}))
        .result
        .expect("search");
    assert_eq!(found["results"].as_array().unwrap().len(), 1, "{found}");
    assert_eq!(found["results"][0]["id"], "Public/a.md");
    for path in ["Private/b.md", "Private/none.md", "Public/none.md"] {
        let fetched = fx
            .call(&reader, "fetch", json!({"id": path}))
            .result
            .expect_err("fetch fails");
        let read = fx
            .call(&reader, "read_note", json!({"path": path}))
            .result
            .expect_err("read_note fails");
        assert_eq!(fetched.code, read.code, "{path}");
        assert_eq!(fetched.message, read.message, "{path}");
    }
}
