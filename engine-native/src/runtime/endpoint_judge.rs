//! The contradiction judge of the configured chat endpoint (`inference.endpoint`): what the
//! detector asks when no judge was set by hand ([`Runtime::set_contradiction_judge`]). A
//! background run has no MCP client to sample from, so only the endpoint can serve it. Each
//! pair is one `judge` call through [`Gateway`] (bounds, audit row, span, credential scan);
//! a pair with a side under `inference.excludePaths` is never sent.

use crate::index::contradictions::{ContradictionJudge, JudgePrompt};
use crate::inference::egress::{exclude_globs, is_excluded};
use crate::inference::{Audience, ChatMessage, Gateway, ModelRequest, Role};
use crate::runtime::Runtime;

/// The tool name the judge's audit rows are filed under.
const TOOL: &str = "detect_contradictions";

/// The endpoint judge of one vault's run.
pub(crate) struct EndpointJudge<'r> {
    runtime: &'r Runtime,
    vault: &'r str,
    caller: &'r str,
}

impl<'r> EndpointJudge<'r> {
    /// The endpoint's judge for a run over `vault` on behalf of `caller`, or `None` when no
    /// endpoint (with a model) is configured.
    pub(crate) fn configured(
        runtime: &'r Runtime,
        vault: &'r str,
        caller: &'r str,
    ) -> Option<EndpointJudge<'r>> {
        let config = runtime.config();
        let inference = &config.config.inference;
        (inference.endpoint.is_some() && inference.model.is_some()).then_some(EndpointJudge {
            runtime,
            vault,
            caller,
        })
    }
}

impl ContradictionJudge for EndpointJudge<'_> {
    fn model(&self) -> String {
        self.runtime
            .config()
            .config
            .inference
            .model
            .clone()
            .unwrap_or_default()
    }

    fn answer(&self, prompt: &JudgePrompt) -> Result<String, String> {
        let config = self.runtime.config();
        let inference = &config.config.inference;
        let excluded = exclude_globs(&inference.exclude_paths);
        if prompt.paths.iter().any(|path| is_excluded(&excluded, path)) {
            return Err("a side is under inference.excludePaths".to_owned());
        }
        let clock = self.runtime.clock();
        let gateway = Gateway::new(
            inference,
            None,
            self.runtime.store(),
            Audience {
                vault_id: self.vault,
                caller: self.caller,
                tool: TOOL,
                args_hash: "",
            },
            Box::new(move || clock.now_ms()),
        );
        let request = ModelRequest {
            role: Role::Judge,
            system: Some(prompt.system.to_owned()),
            messages: vec![ChatMessage::user(prompt.user.clone())],
            max_tokens: 200,
            temperature: Some(0.0),
        };
        gateway
            .complete(&request)
            .map(|answer| answer.text)
            .map_err(|error| error.to_string())
    }
}
