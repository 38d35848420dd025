//! The tags written in a task's text.

use engine_core::markdown::extract;

/// The tags of a task's `text`, lowercase keys, by Obsidian's tag rules (none in code).
pub fn task_tags(text: &str) -> Vec<String> {
    if text.contains('#') {
        extract(text).tags.into_iter().map(|tag| tag.key).collect()
    } else {
        Vec::new()
    }
}
