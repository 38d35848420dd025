//! The model layer (`src/inference/`): the egress guard, the call bounds (per tool call, per
//! day across a restart), the audit rows, and the chat endpoint client's answers and typed
//! failures against a small real HTTP server.

mod bounds;
mod chat;
mod egress;

use std::sync::Mutex;
use std::time::Duration;

use obsidian_tc::inference::{InferenceError, ModelRequest, Sampled, Sampler};

/// A client model answering from a table: the first entry whose key the prompt contains;
/// it keeps every request it was asked.
pub struct TableSampler {
    pub table: Vec<(&'static str, String)>,
    pub asked: Mutex<Vec<ModelRequest>>,
}

impl TableSampler {
    pub fn new(table: Vec<(&'static str, String)>) -> TableSampler {
        TableSampler {
            table,
            asked: Mutex::new(Vec::new()),
        }
    }

    /// Every prompt text asked so far (system and messages).
    pub fn prompts(&self) -> Vec<String> {
        self.asked
            .lock()
            .expect("asked")
            .iter()
            .map(|request| {
                let mut text = request.system.clone().unwrap_or_default();
                for message in &request.messages {
                    text.push('\n');
                    text.push_str(&message.text);
                }
                text
            })
            .collect()
    }
}

impl Sampler for TableSampler {
    fn sample(
        &self,
        request: &ModelRequest,
        _timeout: Duration,
    ) -> Result<Sampled, InferenceError> {
        self.asked.lock().expect("asked").push(request.clone());
        let prompt = request
            .messages
            .iter()
            .map(|message| message.text.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        let text = self
            .table
            .iter()
            .find(|(key, _)| prompt.contains(key))
            .map(|(_, answer)| answer.clone())
            .ok_or_else(|| InferenceError::Refused("no table entry".to_owned()))?;
        Ok(Sampled {
            text,
            model: "table-model".to_owned(),
        })
    }
}
