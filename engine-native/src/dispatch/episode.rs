//! The pipeline's work-memory hook: every call bound to a vault is kept as an episode of its
//! caller's work ([`crate::store::Episodes`], `work.captureEpisodes`), with the session the
//! caller has open there, the changed files the caller may read, and a scan of what a
//! changing call wrote (prompt-injection shapes and credentials: high risk keeps it out of
//! search). Arguments are kept only with `work.captureArguments`, credentials redacted and cut
//! at [`MAX_ARGS_BYTES`]. Keeping it never fails the call: a failed write is logged and
//! counted as a bookkeeping fault.

use serde_json::Value;

use crate::auth::Caller;
use crate::content::findings::ContentFindings;
use crate::content::injection::Risk;
use crate::content::secrets::{find_secrets, redact};
use crate::dispatch::Dispatcher;
use crate::dispatch::pipeline::Ended;
use crate::runtime::{Served, Tool};
use crate::store::NewEpisode;

/// The most bytes of a call's arguments an episode keeps.
pub const MAX_ARGS_BYTES: usize = 4096;

impl Dispatcher {
    /// Keeps one finished call bound to a vault as an episode of its caller.
    pub(crate) fn keep_episode(&self, served: &Served, caller: &Caller, ended: &Ended<'_>) {
        let work = served.config().config.work;
        let (name, trace, result) = (ended.name, ended.trace, ended.result);
        let Some(entry) = ended.vault(served).filter(|_| work.capture_episodes) else {
            return;
        };
        let paths = ended.readable_changes(entry, caller);
        let wrote = served.registry().get(name).is_some_and(Tool::is_mutating) && result.is_ok();
        let findings = match (&trace.arguments, wrote) {
            (Some(args), true) => ContentFindings::of(strings(args)),
            _ => ContentFindings::default(),
        };
        let (scan_risk, trust) = match (findings.flags.content_risk, &findings.content_secrets) {
            (Some(Risk::High), _) => (Some("high"), 0.0),
            (Some(Risk::Suspect), _) => (Some("suspect"), 0.5),
            (None, secrets) if !secrets.is_empty() => (None, 0.5),
            (None, _) => (None, 1.0),
        };
        let args_json = trace
            .arguments
            .as_ref()
            .filter(|_| work.capture_arguments)
            .map(kept_arguments);
        let error_code = result.as_ref().err().map(|error| error.code.as_str());
        let session_id = self.runtime.sessions.open_id(&entry.id, &caller.id);
        let episode = NewEpisode {
            vault_id: &entry.id,
            ts: self.runtime.clock.now_seconds(),
            session_id: session_id.as_deref(),
            caller: &caller.id,
            tool: name,
            error_code,
            duration_ms: i64::try_from(ended.duration_ms).unwrap_or(i64::MAX),
            result_size: i64::try_from(trace.result_bytes).unwrap_or(i64::MAX),
            args_hash: &trace.args_hash,
            args_json: args_json.as_deref(),
            paths: &paths,
            scan_risk,
            tags: &tags(&findings),
            trust,
            summary: &summary(name, error_code, paths.len()),
        };
        if let Err(error) = self.runtime.store.episodes().record(&episode) {
            self.runtime.metrics.record_bookkeeping_fault();
            tracing::warn!(
                vault = entry.id,
                tool = name,
                "the call was not kept as a work-memory episode ({error})"
            );
        }
    }
}

/// Every string of a JSON value (keys left out), depth first.
fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(text) => vec![text.as_str()],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(map) => map.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

/// The scan's findings as space-separated tags: each prompt-injection shape, and
/// `secret:<class>` per credential class.
fn tags(findings: &ContentFindings) -> String {
    let flags = findings
        .flags
        .content_flags
        .iter()
        .filter_map(|flag| serde_json::to_value(flag).ok())
        .filter_map(|flag| flag.as_str().map(str::to_owned));
    let secrets = findings
        .content_secrets
        .keys()
        .map(|class| format!("secret:{class}"));
    flags.chain(secrets).collect::<Vec<_>>().join(" ")
}

/// The episode's receipt: tool, outcome and code, how many readable files it changed.
fn summary(tool: &str, error_code: Option<&str>, changed: usize) -> String {
    let outcome = error_code.map_or_else(|| "ok".to_owned(), |code| format!("error {code}"));
    let files = match changed {
        0 => "no file changed".to_owned(),
        1 => "1 file changed".to_owned(),
        n => format!("{n} files changed"),
    };
    format!("{tool} {outcome}; {files}")
}

/// The arguments as kept: JSON, credentials redacted, cut at [`MAX_ARGS_BYTES`] on a
/// character boundary (a cut text ends with `…`).
fn kept_arguments(args: &Value) -> String {
    let text = args.to_string();
    let redacted = redact(&text, &find_secrets(&text));
    if redacted.len() <= MAX_ARGS_BYTES {
        return redacted;
    }
    let mut end = MAX_ARGS_BYTES - '…'.len_utf8();
    while !redacted.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &redacted[..end])
}
