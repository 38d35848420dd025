//! [`ToolMirror`]: the plugin's tool list as the bridge serves it, the list's hash, whether the
//! plugin answers, and a generation counter that moves on each change clients must hear about.

use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::Tool as McpTool;
use tokio::sync::watch;

use crate::stdio_bridge::client::ToolList;

/// Whether TC Bridge answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// The last request reached it.
    Up,
    /// The last `attempts` requests in a row failed; `reason` is the latest failure.
    Down {
        /// Failed attempts since it last answered.
        attempts: u32,
        /// Why the latest one failed.
        reason: String,
    },
}

#[derive(Debug)]
struct State {
    tools: Arc<Vec<McpTool>>,
    hash: Option<String>,
    link: Link,
}

/// The mirrored tool list and the link state, shared by the poller and the MCP handler.
#[derive(Debug)]
pub struct ToolMirror {
    state: Mutex<State>,
    generations: watch::Sender<u64>,
}

impl Default for ToolMirror {
    fn default() -> ToolMirror {
        ToolMirror::new()
    }
}

impl ToolMirror {
    /// No tools yet, and no answer yet.
    pub fn new() -> ToolMirror {
        ToolMirror {
            state: Mutex::new(State {
                tools: Arc::new(Vec::new()),
                hash: None,
                link: Link::Down {
                    attempts: 0,
                    reason: "not contacted yet".to_owned(),
                },
            }),
            generations: watch::Sender::new(0),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent under a panic (every write is one assignment).
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The tools to list (the last ones seen while the plugin is down).
    pub fn tools(&self) -> Arc<Vec<McpTool>> {
        Arc::clone(&self.lock().tools)
    }

    /// The hash of the mirrored list, once one was read.
    pub fn hash(&self) -> Option<String> {
        self.lock().hash.clone()
    }

    /// Whether the plugin answers.
    pub fn link(&self) -> Link {
        self.lock().link.clone()
    }

    /// A receiver whose value moves on each time clients must re-read the tool list.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.generations.subscribe()
    }

    /// Records a tool list the plugin answered: the link is up; when the hash changed, or
    /// the plugin was down before (it may have restarted), the tools are replaced and
    /// clients are told. Returns whether they were told.
    pub fn answered(&self, list: ToolList) -> bool {
        let mut state = self.lock();
        let recovered = state.link != Link::Up;
        state.link = Link::Up;
        if !recovered && state.hash.as_deref() == Some(list.hash.as_str()) {
            return false;
        }
        state.tools = Arc::new(list.tools.into_iter().map(mcp_tool).collect());
        state.hash = Some(list.hash);
        drop(state);
        self.generations.send_modify(|generation| *generation += 1);
        true
    }

    /// Records a failed request; returns the number of failures in a row.
    pub fn failed(&self, reason: String) -> u32 {
        let mut state = self.lock();
        let attempts = match &state.link {
            Link::Up => 1,
            Link::Down { attempts, .. } => attempts.saturating_add(1),
        };
        state.link = Link::Down { attempts, reason };
        attempts
    }
}

/// A listed tool as MCP describes it: name, description and input schema exactly as listed.
fn mcp_tool(tool: crate::stdio_bridge::client::ListedTool) -> McpTool {
    McpTool::new(tool.name, tool.description, Arc::new(tool.input_schema))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::stdio_bridge::client::ListedTool;

    fn list(names: &[&str], hash: &str) -> ToolList {
        ToolList {
            tools: names
                .iter()
                .map(|name| ListedTool {
                    name: (*name).to_owned(),
                    description: format!("{name} tool"),
                    input_schema:
                        json!({"type": "object", "properties": {"q": {"type": "string"}}})
                            .as_object()
                            .cloned()
                            .unwrap_or_default(),
                })
                .collect(),
            hash: hash.to_owned(),
        }
    }

    #[test]
    fn a_new_hash_or_a_recovery_replaces_the_tools_and_moves_the_generation() {
        let mirror = ToolMirror::new();
        let generations = mirror.watch();
        assert!(mirror.answered(list(&["search"], "h1")), "first answer");
        assert_eq!(*generations.borrow(), 1);
        assert!(
            !mirror.answered(list(&["search"], "h1")),
            "same hash: nothing to tell"
        );
        assert_eq!(*generations.borrow(), 1);
        assert!(mirror.answered(list(&["search", "extra"], "h2")));
        assert_eq!(mirror.tools().len(), 2);
        assert_eq!(mirror.hash().as_deref(), Some("h2"));
        assert_eq!(
            mirror.tools()[0].input_schema["properties"]["q"]["type"],
            "string"
        );

        assert_eq!(mirror.failed("connection refused".to_owned()), 1);
        assert_eq!(mirror.failed("connection refused".to_owned()), 2);
        assert_eq!(mirror.tools().len(), 2, "last known tools kept while down");
        assert!(matches!(mirror.link(), Link::Down { attempts: 2, .. }));
        assert!(
            mirror.answered(list(&["search", "extra"], "h2")),
            "recovery tells clients"
        );
        assert_eq!(mirror.link(), Link::Up);
        assert_eq!(*generations.borrow(), 3);
    }
}
