//! The call bounds and the audit rows: `maxCallsPerRequest` per gateway (one tool call),
//! `maxCallsPerDay` counted from the audit log, so a new tool call and a restarted server
//! see the day's calls; every call is an `event_log` row `model.<role>` without the prompt.

use obsidian_tc::config::InferenceConfig;
use obsidian_tc::inference::bounds::{calls_today, day_start};
use obsidian_tc::inference::{
    Audience, ChatMessage, Gateway, InferenceError, ModelRequest, Provider, Role,
};
use obsidian_tc::store::{EventFilter, Store};
use serde_json::json;

use super::TableSampler;
use crate::support::dispatch::Fixture;

const PROMPT: &str = "the secret-free question about zeppelins";

fn request() -> ModelRequest {
    ModelRequest {
        role: Role::Synthesize,
        system: None,
        messages: vec![ChatMessage::user(PROMPT)],
        max_tokens: 4000,
        temperature: None,
    }
}

fn audience() -> Audience<'static> {
    Audience {
        vault_id: "main",
        caller: "agent",
        tool: "reflect",
        args_hash: "0123456789abcdef0123456789abcdef",
    }
}

fn config(per_request: u32, per_day: u32) -> InferenceConfig {
    InferenceConfig {
        max_calls_per_request: per_request,
        max_calls_per_day: per_day,
        max_tokens: 256,
        ..InferenceConfig::default()
    }
}

fn gateway<'a>(
    config: &'a InferenceConfig,
    sampler: &'a TableSampler,
    store: &'a Store,
    now_ms: u64,
) -> Gateway<'a> {
    Gateway::new(
        config,
        Some(sampler),
        store,
        audience(),
        Box::new(move || now_ms),
    )
}

fn sampler() -> TableSampler {
    TableSampler::new(vec![("zeppelin", "Zeppelins float [1].".to_owned())])
}

#[test]
fn a_tool_call_stops_at_max_calls_per_request_and_the_next_one_may_call_again() {
    let fx = Fixture::new(json!({}));
    let store = fx.server.runtime().store();
    let (config, sampler) = (config(2, 100), sampler());
    let now = fx.clock_ms();
    let first = gateway(&config, &sampler, store, now);
    assert_eq!(first.provider(), Some(Provider::Sampling));
    let answer = first.complete(&request()).expect("first call");
    assert_eq!(answer.text, "Zeppelins float [1].");
    assert_eq!(answer.model, "table-model");
    first.complete(&request()).expect("second call");
    assert_eq!(
        first.complete(&request()),
        Err(InferenceError::RequestLimit { limit: 2 })
    );
    assert_eq!(first.usage().model_calls, 2);
    assert_eq!(sampler.prompts().len(), 2, "the refused call asked nothing");
    // max_tokens is lowered to inference.maxTokens
    assert_eq!(sampler.asked.lock().unwrap()[0].max_tokens, 256);
    let next = gateway(&config, &sampler, store, now);
    next.complete(&request())
        .expect("a new tool call may call again");
}

#[test]
fn the_day_limit_counts_from_the_audit_log_and_survives_a_restart() {
    let fx = Fixture::new(json!({}));
    let (config, sampler) = (config(10, 3), sampler());
    let now = fx.clock_ms();
    {
        let store = fx.server.runtime().store();
        for _ in 0..3 {
            gateway(&config, &sampler, store, now)
                .complete(&request())
                .expect("within the day's limit");
        }
        assert_eq!(calls_today(store, now).expect("count"), 3);
        assert_eq!(
            gateway(&config, &sampler, store, now).complete(&request()),
            Err(InferenceError::DayLimit { limit: 3 })
        );
    }
    let restarted = fx.reopen();
    let store = restarted.runtime().store();
    assert_eq!(
        gateway(&config, &sampler, store, now).complete(&request()),
        Err(InferenceError::DayLimit { limit: 3 }),
        "a restart does not reset the day's count"
    );
    assert_eq!(sampler.prompts().len(), 3);
    let tomorrow = now + 86_400_000;
    assert_eq!(day_start(tomorrow) - day_start(now), 86_400);
    gateway(&config, &sampler, store, tomorrow)
        .complete(&request())
        .expect("a new UTC day renews the limit");
}

#[test]
fn every_model_call_is_an_audit_row_with_role_provider_model_and_outcome_never_the_prompt() {
    let fx = Fixture::new(json!({}));
    let store = fx.server.runtime().store();
    let config = config(5, 100);
    let sampler = TableSampler::new(vec![]); // answers nothing: the call fails
    let now = fx.clock_ms();
    let model = gateway(&config, &sampler, store, now);
    assert!(matches!(
        model.complete(&request()),
        Err(InferenceError::Refused(_))
    ));
    let answering = self::sampler();
    gateway(&config, &answering, store, now)
        .complete(&request())
        .expect("answered");
    let rows = store
        .events()
        .query(
            &EventFilter {
                tool: Some("model.synthesize".to_owned()),
                ..EventFilter::default()
            },
            10,
        )
        .expect("rows");
    assert_eq!(rows.len(), 2);
    let (ok, failed) = (&rows[0].event, &rows[1].event);
    assert_eq!(ok.caller, "agent");
    assert_eq!(ok.vault_id, "main");
    assert_eq!(ok.args_hash, audience().args_hash);
    assert_eq!(ok.details["role"], "synthesize");
    assert_eq!(ok.details["provider"], "sampling");
    assert_eq!(ok.details["model"], "table-model");
    assert_eq!(ok.details["for_tool"], "reflect");
    assert_eq!(
        failed.outcome,
        obsidian_tc::store::Outcome::Error {
            code: "refused".to_owned()
        }
    );
    for row in &rows {
        assert!(
            !row.event.details.to_string().contains("zeppelin"),
            "{row:?}"
        );
    }
}

#[test]
fn a_prompt_holding_a_credential_is_refused_whole_and_nothing_is_sent() {
    let fx = Fixture::new(json!({}));
    let store = fx.server.runtime().store();
    let (config, sampler) = (config(5, 100), sampler());
    let model = gateway(&config, &sampler, store, fx.clock_ms());
    let mut leaking = request();
    leaking.messages[0].text = "zeppelin key AKIAQ7RZ2KX94WNB5TJM".to_owned();
    assert_eq!(
        model.complete(&leaking),
        Err(InferenceError::CredentialInPrompt)
    );
    assert!(sampler.prompts().is_empty());
    assert_eq!(model.usage().model_calls, 0);
}

#[test]
fn without_sampler_or_endpoint_there_is_no_provider() {
    let fx = Fixture::new(json!({}));
    let store = fx.server.runtime().store();
    let config = InferenceConfig::default();
    let model = Gateway::new(&config, None, store, audience(), Box::new(|| 0));
    assert_eq!(model.provider(), None);
    assert_eq!(model.complete(&request()), Err(InferenceError::Unavailable));
    assert!(model.unavailable_message().contains("inference.endpoint"));
}
