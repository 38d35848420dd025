//! Every mutating tool that takes a path refuses one in `Secret/` with the same answer
//! whether the path exists or not.

use serde_json::Value;

use super::args::arguments;
use super::vaults::{Variant, canonical, pair};

/// The mutating tools that take no path: the memory tools name an entity, and a name cannot
/// reach outside the memory folder (one with `/` is `invalid_input`); that folder's ACL is
/// tested in `tools::memory`.
const NAME_ADDRESSED: &[&str] = &[
    "create_entity",
    "add_observation",
    "link_entities",
    "unlink_entities",
    "rename_entity",
    "delete_entity",
];

/// The mutating tools whose only path is optional and not a place they change:
/// `enqueue_capture` writes nothing to the vault (it queues text in `cache.db`; an optional
/// `suggested_path` is checked against the write ACL like any path argument), and its second
/// call with the same text returns the first capture (`created: false`), so the two answers
/// differ by design whatever the path. Its ACL is tested in `tools::capture`.
const QUEUE_ONLY: &[&str] = &["enqueue_capture"];

/// The mutating tools that take no path and name their note from their text: `set_goal`
/// writes into the goals folder under a name made of the goal's first line, cleaned of `/`
/// and the like, so no text reaches outside that folder (whose ACL is tested in
/// `tools::goals`); its answer echoes the text, which differs between the two calls here.
const TEXT_NAMED: &[&str] = &["set_goal"];

/// The mutating tools that take no path and change no note: `work_result` stamps a verdict
/// on the caller's session's unjudged episodes, so its second call finds none left
/// (`stamped: 0`) by design, whatever the path of the first. Its partition is tested in
/// `tools::work`.
const VERDICT_ONLY: &[&str] = &["work_result"];

/// A path that exists in `Secret/` in both vaults, and one that exists in neither.
const EXISTING: &str = "Secret/plan.md";
const MISSING: &str = "Secret/nothing-here.md";

/// The answer to `tool` with every path argument set to `path`, as compared text.
fn refusal(fx: &crate::support::dispatch::Fixture, tool: &str, path: &str) -> (String, bool) {
    let server = fx.server.runtime();
    let registry = server.registry();
    let schema = &registry.get(tool).expect("registered").def.input_schema;
    let args = arguments(schema, path);
    let caller = Variant::FolderAcl.caller(fx);
    match fx.call(&caller, tool, args).result {
        Ok(value) => (canonical(fx, &value), false),
        Err(error) => (
            canonical(
                fx,
                &serde_json::json!({"error": error.code.to_string(), "message": error.message.replace(path, "<path>"), "details": redact(error.details, path)}),
            ),
            true,
        ),
    }
}

/// `details` with `path` written as `<path>` and the `args_hash` (a hash of the arguments,
/// which differ by the path) left out.
fn redact(mut details: Value, path: &str) -> Value {
    if let Some(map) = details.as_object_mut() {
        map.remove("args_hash");
    }
    serde_json::from_str(&details.to_string().replace(path, "<path>")).unwrap_or(details)
}

#[test]
fn mutating_tools_refuse_a_hidden_path_alike_whether_it_exists_or_not() {
    let [fx, _] = pair(Variant::FolderAcl);
    let server = fx.server.runtime();
    let mutating: Vec<&'static str> = server
        .registry()
        .tools()
        .filter(|tool| {
            tool.is_mutating()
                && !NAME_ADDRESSED.contains(&tool.name())
                && !QUEUE_ONLY.contains(&tool.name())
                && !TEXT_NAMED.contains(&tool.name())
                && !VERDICT_ONLY.contains(&tool.name())
        })
        .map(|tool| tool.name())
        .collect();
    let mut differ = Vec::new();
    for tool in &mutating {
        let (existing, refused_a) = refusal(&fx, tool, EXISTING);
        let (missing, refused_b) = refusal(&fx, tool, MISSING);
        if existing != missing || refused_a != refused_b {
            differ.push(format!(
                "{tool}:\n  exists:  {existing}\n  missing: {missing}"
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} mutating tools answer differently:\n{}",
        differ.len(),
        mutating.len(),
        differ.join("\n")
    );
    eprintln!("noninterference: {} mutating tools", mutating.len());
}
