//! `find_capability` over the caller-visible catalog: a fixed set of natural-language
//! intents (tests/fixtures/intents.json, worded as a user would, not copied from the
//! descriptions) must find their tool first.
//!
//! Accuracy: `cargo test -p obsidian-tc --test it facade::find -- --nocapture` (the
//! words-and-meaning test needs `OBSIDIAN_TC_TEST_MODEL`, the all-MiniLM-L6-v2 folder).

use obsidian_tc::auth::Caller;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::support::companion::{closed_url, companion_config};
use crate::support::dispatch::{Fixture, caller};

/// The least share of intents whose tool must come first (measured 0.988 over 81 intents with
/// the keywords of every tool and the catalog weights of issue 22; 0.939 over the first 49
/// with issue 22's first keywords; 0.918 with keywords and filler-word removal over the tools
/// before issue 6, 0.898 over the 108 after it; 0.837 before keywords; the goal was 0.85).
const TOP1_FLOOR: f64 = 0.98;

/// The least share of intents whose tool must be among the first three (measured 0.988; 0.980
/// over the first 49; 0.898 before; the goal was 0.95).
const TOP3_FLOOR: f64 = 0.98;

/// The least share of held-out intents whose tool must come first (measured 0.917 with issue
/// 23's 15 memory, capture-queue and session tools in the catalog, nothing tuned on this set;
/// 0.944 with the keywords of intents-tuning-22.json; 0.917 with the keywords and weights of issue 22; 0.750
/// before; 0.389 before keywords).
const HELD_OUT_TOP1_FLOOR: f64 = 0.91;

/// The least share of held-out intents whose tool must be among the first three (measured
/// 0.972 with the keywords and weights of issue 22; 0.861 over the tools before issue 6,
/// 0.833 over the 108 after it; 0.528 before keywords).
const HELD_OUT_TOP3_FLOOR: f64 = 0.97;

/// The least share of issue 22's held-out intents whose tool must come first, words only
/// (measured 0.625 with issue 38's 16 knowledge tools added (190 in all): one intent more
/// lost its first place among the new names; 0.641 with issue 36's 17 tools added (git, the original's names, add_vault, three
/// bridges: 162 in all), nothing tuned on this set; 0.656 with all 15 of issue 23's tools in
/// the catalog, 0.688 with its first six; 0.703 after the keywords tuned
/// on intents-tuning-22.json, 0.719 before them with keywords for every tool; 0.531 before).
const HELD_OUT_22_TOP1_FLOOR: f64 = 0.62;

/// The least share of issue 22's held-out intents whose tool must be among the first three,
/// words only (measured 0.844 after the keywords tuned on intents-tuning-22.json, 0.797
/// before them; 0.703 before, 0.672 before issue 22's first keywords).
const HELD_OUT_22_TOP3_FLOOR: f64 = 0.84;

/// The least share of issue 22's second tuning set (tests/fixtures/intents-tuning-22.json,
/// TC Bridge configured) whose tool must come first, words only (measured 0.874 with issue
/// 36's 17 tools added, one intent fewer; 0.881 with the keywords and the listing phrases
/// tuned on it; 0.552 before).
const TUNING_22_TOP1_FLOOR: f64 = 0.87;

/// The least share of issue 22's second tuning set whose tool must be among the first
/// three, words only (measured 0.972; 0.832 before).
const TUNING_22_TOP3_FLOOR: f64 = 0.97;

/// With the test model: the least top-1 share on tests/fixtures/intents-tuning-22.json, TC
/// Bridge configured (measured 0.867 with each tool's keyword phrases embedded beside its
/// summary, 0.853 before with issue 36's 17 tools, 0.846 before them; 0.874 by words).
const MEANING_TUNING_22_TOP1_FLOOR: f64 = 0.85;

/// With the test model: the least top-3 share on tests/fixtures/intents-tuning-22.json
/// (measured 0.979 with the keyword phrases, 0.958 before; 0.972 by words).
const MEANING_TUNING_22_TOP3_FLOOR: f64 = 0.96;

/// With the test model: the least top-1 share on tests/fixtures/intents.json (measured 1.000
/// with the keyword phrases, 0.988 before, 0.975 before issue 23's tools; 1.000 by words).
const MEANING_TOP1_FLOOR: f64 = 0.97;

/// With the test model: the least top-3 share on tests/fixtures/intents.json (measured 0.988;
/// 0.988 by words).
const MEANING_TOP3_FLOOR: f64 = 0.98;

/// With the test model: the least top-1 share on tests/fixtures/intents-heldout.json
/// (measured 0.917 with all 15 of issue 23's tools in the catalog; 0.944 before them, 0.917
/// before the keywords of intents-tuning-22.json).
const MEANING_HELD_OUT_TOP1_FLOOR: f64 = 0.91;

/// With the test model: the least top-3 share on tests/fixtures/intents-heldout.json
/// (measured 0.972; 0.972 by words).
const MEANING_HELD_OUT_TOP3_FLOOR: f64 = 0.97;

/// With the test model: the least top-1 share on tests/fixtures/intents-heldout-22.json
/// (measured 0.656 with issue 36's 17 tools added, nothing tuned on this set; 0.672 with all
/// 15 of issue 23's tools, 0.688 with its first six; 0.703 after the keywords tuned on
/// intents-tuning-22.json, 0.750 before them; 0.547 before keywords).
const MEANING_HELD_OUT_22_TOP1_FLOOR: f64 = 0.65;

/// With the test model: the least top-3 share on tests/fixtures/intents-heldout-22.json
/// (measured 0.844 with each tool's keyword phrases embedded beside its summary, nothing tuned
/// on this set; 0.828 with rename_entity, delete_entity and search_entities in the catalog:
/// one intent of 64 fewer than 0.844 before them, with nothing tuned on this set; 0.844
/// after the keywords tuned on intents-tuning-22.json, 0.828 before them; 0.844 by words).
const MEANING_HELD_OUT_22_TOP3_FLOOR: f64 = 0.82;

/// With the default model's stand-in: the least top-1 share on the held-out intents in English
/// (intents-heldout.json and intents-heldout-22.json, 100). Measured 0.740 (top-3 0.890) with
/// each tool's keyword phrases embedded beside its summary, 0.730 (0.890) before them with
/// issue 36's 17 tools in the catalog; 0.740 (0.890) with the catalog embedded as queries and
/// the word weight following the words it knows, 0.730 (0.880) before, on ONNX Runtime int8
/// (the torch export and bench/models/bert_onnx.py's graph alike, the latter what
/// scripts/test.sh builds and this test runs) and on candle f32.
/// With the stand-in's int8 file quantized per output channel, as the hub's file is (what
/// scripts/test.sh builds since), 0.730 (0.900), against 0.740 (0.890) per tensor in the same
/// session. The floor leaves two intents of margin for int8's rounding on another CPU. The
/// goal of issue 35 was 0.85, missed.
const DEFAULT_MODEL_HELD_OUT_TOP1_FLOOR: f64 = 0.71;

/// With the default model's stand-in: the least top-3 share on the same 100 intents asked in
/// Russian, German and Spanish (intents-heldout-{ru,de,es}.json, translated before any tuning
/// by someone who read no tool description). Measured 0.600 / 0.620 / 0.660 on ONNX Runtime
/// int8 with bert_onnx.py's graph (what this test runs) with each tool's keyword phrases
/// embedded beside its summary, chosen on the tuning intents' translations only (0.480 / 0.500
/// / 0.540 before them with issue 36's 17 tools in the catalog); before those tools 0.510 /
/// 0.530 / 0.550, 0.490 / 0.530 / 0.580 with the torch export, after the first tuning (0.400 /
/// 0.500 / 0.520 before it); 0.510 / 0.570 / 0.590 on candle f32. The floor leaves two intents
/// of margin. Issue 37's 16 tools (work memory, goals, session start) took that to 0.570 /
/// 0.620 / 0.640 (English top-1 0.740 to 0.750); with the 186 tools of now, 0.580 / 0.590 /
/// 0.660 per tensor and 0.600 / 0.630 / 0.640 with the int8 file quantized per output channel
/// (what this test runs). The goal of issue 35 was 0.80, missed: the
/// English summaries and phrases put the tool among the first three for about 0.6 of such
/// requests.
const DEFAULT_MODEL_OTHER_LANGUAGES_TOP3_FLOOR: f64 = 0.55;

#[derive(Deserialize)]
struct Intent {
    intent: String,
    tool: String,
}

fn names(found: &Value) -> Vec<String> {
    found["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|item| item["name"].as_str().expect("name").to_owned())
        .collect()
}

/// The share of `intents` (JSON, as in tests/fixtures/intents.json) whose tool comes first,
/// and the share whose tool is among the first three; prints each miss and the figures.
fn accuracy(label: &str, intents: &str) -> (f64, f64) {
    accuracy_on(&words_only(), label, intents)
}

/// A server without an embedding model: `find_capability` ranks by words.
fn words_only() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

/// The test model (all-MiniLM-L6-v2) as int8 ONNX (`OBSIDIAN_TC_TEST_ONNX_MODEL`), on ONNX
/// Runtime, the default engine: a quarter of candle's CPU for the same figures within an
/// intent or two.
fn onnx_test_model() -> Value {
    let folder = std::env::var_os("OBSIDIAN_TC_TEST_ONNX_MODEL").unwrap_or_else(|| {
        panic!("OBSIDIAN_TC_TEST_ONNX_MODEL is not set: run scripts/test.sh (it builds the int8 test model)")
    });
    json!({"provider": "local", "modelPath": std::path::PathBuf::from(folder).display().to_string()})
}

/// A server with the test model loaded ([`onnx_test_model`]): words and meaning.
fn with_model() -> Fixture {
    Fixture::new(json!({
        "throttle": {"enabled": false},
        "embeddings": onnx_test_model()
    }))
}

/// `config` with TC Bridge configured for the vault (down: only the catalog matters), so that
/// the tools that need it are suggested too.
fn with_companion(mut config: Value) -> Fixture {
    config["throttle"] = json!({"enabled": false});
    config["vaults"] =
        json!([{"id": "main", "path": "main", "companion": companion_config(&closed_url())}]);
    Fixture::new(config)
}

/// [`accuracy`] on the server `fx`.
fn accuracy_on(fx: &Fixture, label: &str, intents: &str) -> (f64, f64) {
    let intents: Vec<Intent> = serde_json::from_str(intents).expect(label);
    let (mut top1, mut top3) = (0, 0);
    for intent in &intents {
        let found = names(&fx.ok(
            "find_capability",
            json!({"query": intent.intent, "limit": 3}),
        ));
        if found.first() == Some(&intent.tool) {
            top1 += 1;
        } else {
            println!(
                "{label} miss: {:?} wants {} got {found:?}",
                intent.intent, intent.tool
            );
        }
        if found.contains(&intent.tool) {
            top3 += 1;
        }
    }
    let total = intents.len() as f64;
    let (top1, top3) = (f64::from(top1) / total, f64::from(top3) / total);
    println!("find_capability over {total} {label} intents: top-1 {top1:.3}, top-3 {top3:.3}");
    (top1, top3)
}

#[test]
fn intents_find_their_tool() {
    let (top1, top3) = accuracy("tuning", include_str!("../../fixtures/intents.json"));
    assert!(top1 >= TOP1_FLOOR, "top-1 {top1:.3}");
    assert!(top3 >= TOP3_FLOOR, "top-3 {top3:.3}");
}

/// The held-out intents (tests/fixtures/intents-heldout.json) were written before the
/// ranking changed, and no weight was chosen on them: they measure how well it generalises.
#[test]
fn held_out_intents_find_their_tool() {
    let (top1, top3) = accuracy(
        "held-out",
        include_str!("../../fixtures/intents-heldout.json"),
    );
    assert!(top1 >= HELD_OUT_TOP1_FLOOR, "top-1 {top1:.3}");
    assert!(top3 >= HELD_OUT_TOP3_FLOOR, "top-3 {top3:.3}");
}

/// The held-out intents of issue 22 (tests/fixtures/intents-heldout-22.json): 64 intents over
/// 62 tools, written and committed before the ranking of issue 22 changed; nothing was tuned
/// on them.
#[test]
fn issue_22_held_out_intents_find_their_tool() {
    let (top1, top3) = accuracy(
        "held-out-22",
        include_str!("../../fixtures/intents-heldout-22.json"),
    );
    assert!(top1 >= HELD_OUT_22_TOP1_FLOOR, "top-1 {top1:.3}");
    assert!(top3 >= HELD_OUT_22_TOP3_FLOOR, "top-3 {top3:.3}");
}

/// Issue 22's second tuning set (tests/fixtures/intents-tuning-22.json): 143 intents over 125
/// tools, written by someone who had not seen the other sets or the ranking code, for tuning
/// keywords after the first held-out set fell short; TC Bridge is configured, so every tool
/// competes.
#[test]
fn issue_22_tuning_intents_find_their_tool() {
    let (top1, top3) = accuracy_on(
        &with_companion(json!({})),
        "tuning-22",
        include_str!("../../fixtures/intents-tuning-22.json"),
    );
    assert!(top1 >= TUNING_22_TOP1_FLOOR, "top-1 {top1:.3}");
    assert!(top3 >= TUNING_22_TOP3_FLOOR, "top-3 {top3:.3}");
}

/// With the test model loaded, `find_capability` ranks by words and meaning, on all three
/// intent sets.
#[test]
fn with_a_model_intents_find_their_tool_by_words_and_meaning() {
    let fx = with_model();
    // The model loads with the first search; the first find_capability embeds the catalog.
    fx.ok("search_vault", json!({"query": "warm up"}));
    let timed = |query: &str| {
        let started = std::time::Instant::now();
        let found = fx.ok("find_capability", json!({ "query": query }));
        (found, started.elapsed().as_millis())
    };
    let (found, first_ms) = timed("rename a note");
    let (_, next_ms) = timed("delete a note");
    assert_eq!(found["ranking"], "words_and_meaning", "{found}");
    // A restart reads the catalog's vectors back from cache.db instead of embedding them.
    let restarted = fx.reopen();
    let call = |tool: &str, args: Value| {
        restarted
            .call(&Caller::stdio(), tool, args)
            .result
            .unwrap_or_else(|error| panic!("{tool}: {error}"))
    };
    call("search_vault", json!({"query": "warm up"}));
    let started = std::time::Instant::now();
    let again = call("find_capability", json!({"query": "rename a note"}));
    let restart_ms = started.elapsed().as_millis();
    println!(
        "find_capability with the model: first call {first_ms} ms (embeds the catalog), next \
{next_ms} ms, first after a restart {restart_ms} ms"
    );
    assert_eq!(again["results"], found["results"]);
    assert!(
        restart_ms * 4 < first_ms,
        "{restart_ms} ms after a restart, {first_ms} ms first"
    );
    assert_eq!(
        words_only().ok("find_capability", json!({"query": "rename a note"}))["ranking"],
        "words"
    );
    let sets = [
        (
            "tuning+meaning",
            include_str!("../../fixtures/intents.json"),
            MEANING_TOP1_FLOOR,
            MEANING_TOP3_FLOOR,
        ),
        (
            "held-out+meaning",
            include_str!("../../fixtures/intents-heldout.json"),
            MEANING_HELD_OUT_TOP1_FLOOR,
            MEANING_HELD_OUT_TOP3_FLOOR,
        ),
        (
            "held-out-22+meaning",
            include_str!("../../fixtures/intents-heldout-22.json"),
            MEANING_HELD_OUT_22_TOP1_FLOOR,
            MEANING_HELD_OUT_22_TOP3_FLOOR,
        ),
    ];
    for (label, intents, top1_floor, top3_floor) in sets {
        let (top1, top3) = accuracy_on(&fx, label, intents);
        assert!(top1 >= top1_floor, "{label} top-1 {top1:.3}");
        assert!(top3 >= top3_floor, "{label} top-3 {top3:.3}");
    }
    // The second tuning set asks for TC Bridge's tools too: every tool competes.
    let bridged = with_companion(json!({"embeddings": onnx_test_model()}));
    bridged.ok("search_vault", json!({"query": "warm up"}));
    let (top1, top3) = accuracy_on(
        &bridged,
        "tuning-22+meaning",
        include_str!("../../fixtures/intents-tuning-22.json"),
    );
    assert!(
        top1 >= MEANING_TUNING_22_TOP1_FLOOR,
        "tuning-22+meaning top-1 {top1:.3}"
    );
    assert!(
        top3 >= MEANING_TUNING_22_TOP3_FLOOR,
        "tuning-22+meaning top-3 {top3:.3}"
    );
}

/// With the default model, the held-out intents find their tool in English and, asked in
/// Russian, German or Spanish, among the first three: the meaning channel bridges languages.
#[test]
fn with_the_default_model_intents_in_four_languages_find_their_tool() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "embeddings": {"provider": "local", "modelPath": crate::support::hub_mirror::e5_model().display().to_string()}
    }));
    fx.ok("search_vault", json!({"query": "warm up"}));
    let found = fx.ok("find_capability", json!({"query": "rename a note"}));
    assert_eq!(found["ranking"], "words_and_meaning", "{found}");
    let held_out: Vec<Value> = [
        include_str!("../../fixtures/intents-heldout.json"),
        include_str!("../../fixtures/intents-heldout-22.json"),
    ]
    .iter()
    .flat_map(|set| serde_json::from_str::<Vec<Value>>(set).expect("intents"))
    .collect();
    let (top1, top3) = accuracy_on(&fx, "held-out en+e5", &Value::from(held_out).to_string());
    println!("default model, held-out English: top-1 {top1:.3}, top-3 {top3:.3}");
    assert!(top1 >= DEFAULT_MODEL_HELD_OUT_TOP1_FLOOR, "top-1 {top1:.3}");
    let languages = [
        ("ru", include_str!("../../fixtures/intents-heldout-ru.json")),
        ("de", include_str!("../../fixtures/intents-heldout-de.json")),
        ("es", include_str!("../../fixtures/intents-heldout-es.json")),
    ];
    for (language, intents) in languages {
        let (top1, top3) = accuracy_on(&fx, &format!("held-out {language}+e5"), intents);
        println!("default model, held-out {language}: top-1 {top1:.3}, top-3 {top3:.3}");
        assert!(
            top3 >= DEFAULT_MODEL_OTHER_LANGUAGES_TOP3_FLOOR,
            "{language} top-3 {top3:.3}"
        );
    }
}

#[test]
fn results_carry_name_title_description_domain_score_best_first() {
    let fx = Fixture::new(json!({}));
    let found = fx.ok("find_capability", json!({"query": "rename a note"}));
    let results = found["results"].as_array().expect("results");
    assert!(!results.is_empty() && results.len() <= 10);
    let first = &results[0];
    for key in ["name", "title", "description", "domain"] {
        assert!(first[key].is_string(), "{key}: {first}");
    }
    let scores: Vec<f64> = results
        .iter()
        .map(|r| r["score"].as_f64().expect("score"))
        .collect();
    assert!(
        scores.windows(2).all(|pair| pair[0] >= pair[1]),
        "{scores:?}"
    );
    assert!(!first["description"].as_str().unwrap().contains(". "));
    let none = fx.ok("find_capability", json!({"query": "zzzqqq"}));
    assert_eq!(none["results"], json!([]));
}

/// Only what the caller is shown is searched: hidden, disabled and scope-denied tools and
/// the facade's own never come back.
#[test]
fn only_the_callers_visible_catalog_is_searched() {
    let fx =
        Fixture::new(json!({"toolVisibility": {"hide": ["copy_note"], "disable": ["move_note"]}}));
    let all = names(&fx.ok(
        "find_capability",
        json!({"query": "note copy move rename capability tool", "limit": 50}),
    ));
    assert!(
        !all.iter().any(|name| name == "copy_note"
            || name == "move_note"
            || name.ends_with("_capability")),
        "{all:?}"
    );
    let reader = caller("alice", &["read:notes"], None);
    let found = fx.call(
        &reader,
        "find_capability",
        json!({"query": "delete a note", "limit": 50}),
    );
    let found = names(&found.result.expect("find"));
    assert!(!found.contains(&"delete_note".to_owned()), "{found:?}");
    assert!(found.contains(&"read_note".to_owned()), "{found:?}");
}
