//! [`Dispatcher::call`]: one tool call through every step of the pipeline, in the order and
//! with the numbers of [`crate::dispatch`] (`// N. name` below names each step).

use engine_core::acl::{AclOp, satisfies_all};
use engine_core::hash::args_hash;
use serde_json::{Value, json};
use unicode_normalization::UnicodeNormalization;

use crate::auth::Caller;
use crate::dispatch::Dispatcher;
use crate::errors::{ErrorCode, ToolError};
use crate::facade::resolve_envelope;
use crate::inference::Sampler;
use crate::runtime::{
    Approval, ApprovalFor, CallRecord, ELICIT_TOKEN_ARG, IDEMPOTENCY_KEY_ARG, OK_CODE, Progress,
    Served, Tool, ToolContext, VAULT_ARG, VaultEntry, call_labels,
};
use crate::schema::validate_args;
use crate::store::{Claim, Event, Outcome, store_fault};
use crate::telemetry::spans::{self, Finished, Gate};
use crate::throttle::rate_class;
use crate::vault::{journal, queue};

/// The most characters of an unknown tool name kept in the audit log.
const MAX_LOGGED_NAME_CHARS: usize = 128;

/// The most paths one audit row keeps (a bulk change lists its first ones, sorted).
const MAX_LOGGED_PATHS: usize = 64;

/// The outcome of one call, with what the transport and the audit need.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutcome {
    /// The structured result, or the tool error.
    pub result: Result<Value, ToolError>,
    /// The call's args hash (`elicit_token` stripped).
    pub args_hash: String,
    /// The vault the call was bound to, when it got that far.
    pub vault: Option<String>,
    /// Whether the result was replayed from an idempotency key without running the handler.
    pub replayed: bool,
    /// How long the call took, by the dispatcher's clock.
    pub duration_ms: u64,
}

/// What the pipeline learnt on the way, for the outcome and the audit row.
#[derive(Debug, Default)]
pub(crate) struct Trace {
    pub(crate) args_hash: String,
    pub(crate) vault: Option<String>,
    pub(crate) replayed: bool,
    /// The vault paths the call named in its path arguments (NFC).
    pub(crate) named: Vec<String>,
    /// The vault paths the handler changed.
    pub(crate) changed: Vec<String>,
    /// The arguments, kept only when session traces include them (`traces.includeArguments`)
    /// or the work memory needs them (kept arguments, the scan of what a change wrote).
    pub(crate) arguments: Option<Value>,
    /// The size of the answer's JSON text, as the governor measured it (0 for an error).
    pub(crate) result_bytes: usize,
}

/// A finished call, as the bookkeeping after it (counters, audit row, session trace) sees it.
pub(crate) struct Ended<'c> {
    /// The tool name called (the inner one of an envelope).
    pub(crate) name: &'c str,
    /// The metrics labels of `name`: the tool (or the unregistered placeholder) and its class.
    pub(crate) labels: (&'c str, &'static str),
    /// What the pipeline learnt on the way.
    pub(crate) trace: &'c Trace,
    /// The result or the tool error.
    pub(crate) result: &'c Result<Value, ToolError>,
    /// How long the call took.
    pub(crate) duration_ms: u64,
}

impl Ended<'_> {
    /// The vault the call was bound to, when it got that far (and the vault is still served).
    pub(crate) fn vault<'s>(&self, served: &'s Served) -> Option<&'s VaultEntry> {
        self.trace.vault.as_deref().and_then(|id| served.vault(id))
    }

    /// The paths the call changed in `entry` that `caller` may read.
    pub(crate) fn readable_changes(&self, entry: &VaultEntry, caller: &Caller) -> Vec<String> {
        self.trace
            .changed
            .iter()
            .filter(|path| entry.check_path(path, AclOp::Read, &caller.scopes).is_ok())
            .cloned()
            .collect()
    }
}

/// Where a gated run failed, which decides what happens to an idempotency claim.
enum Stage {
    /// Before the handler ran, or in a handler that declared no effect: release the key.
    NoEffect,
    /// After an effect may have happened: keep the key as `indeterminate`.
    AfterEffect,
}

/// What a call brings beside its arguments.
#[derive(Default)]
struct Extras<'p> {
    /// The user's confirmation of this exact call, from their MCP client.
    confirmation: Option<Approval>,
    /// Where the handler's progress reports go.
    progress: Option<&'p dyn Progress>,
    /// The calling client's model, when it offers sampling.
    sampler: Option<&'p dyn Sampler>,
}

/// What an MCP client brings to a call beside its arguments (see
/// [`Dispatcher::call_from_client`]).
#[derive(Default)]
pub struct ClientSide<'p> {
    /// The args hash of the call the user confirmed in the client.
    pub confirmed: Option<&'p str>,
    /// Where the handler's progress reports go, when the client asked for them.
    pub progress: Option<&'p dyn Progress>,
    /// The client's own model, when it declared the `sampling` capability.
    pub sampler: Option<&'p dyn Sampler>,
}

impl Dispatcher {
    /// Runs `name` with `args` for `caller` through every gate: lookup and visibility, args
    /// hash, validation, scopes, vault binding, read-only switch and precheck, idempotency,
    /// throttle, HITL, per-path ACL, handler, governor. Every call, failed or not, is counted
    /// and leaves an `event_log` row.
    pub fn call(&self, caller: &Caller, name: &str, args: Value) -> CallOutcome {
        self.call_with(caller, name, args, Extras::default())
    }

    /// [`Dispatcher::call`] for an MCP client: with the user's confirmation, the progress
    /// receiver and the client's model (`sampling/createMessage`) it brings, each optional.
    pub fn call_from_client(
        &self,
        caller: &Caller,
        name: &str,
        args: Value,
        client: &ClientSide<'_>,
    ) -> CallOutcome {
        let extras = Extras {
            confirmation: client
                .confirmed
                .map(|hash| Approval::Confirmed(hash.to_owned())),
            progress: client.progress,
            sampler: client.sampler,
        };
        self.call_with(caller, name, args, extras)
    }

    /// [`Dispatcher::call`] for a call the user confirmed in their MCP client: `confirmed` is
    /// the args hash of the call they were shown (an `elicit_required` answer's
    /// `details.args_hash`). It stands in for the HITL approval of that exact call only: a
    /// call whose own args hash differs is refused with `elicit_invalid` and nothing runs.
    pub fn call_confirmed(
        &self,
        caller: &Caller,
        name: &str,
        args: Value,
        confirmed: &str,
    ) -> CallOutcome {
        let extras = Extras {
            confirmation: Some(Approval::Confirmed(confirmed.to_owned())),
            progress: None,
            sampler: None,
        };
        self.call_with(caller, name, args, extras)
    }

    fn call_with(
        &self,
        caller: &Caller,
        name: &str,
        args: Value,
        extras: Extras<'_>,
    ) -> CallOutcome {
        let started = self.runtime.clock.now_ms();
        let served = self.runtime.served();
        let mut trace = Trace::default();
        // Before step 1, a facade envelope runs its inner tool: every gate, the hash and the audit row
        //    see the inner name and arguments, exactly as a call by name
        let (name, args) = match resolve_envelope(served.registry(), caller, name, args) {
            Ok((inner, args)) => (inner, Ok(args)),
            Err(error) => (name.to_owned(), Err(error)),
        };
        // The span is named as the metrics label the tool: an unknown name is the caller's text.
        let labels = call_labels(&name, served.registry().get(&name));
        let span = spans::call(labels.0, &caller.id);
        let result = span.in_scope(|| {
            args.and_then(|args| self.run(&served, caller, &name, args, extras, &mut trace))
        });
        #[cfg(feature = "output-schema-check")]
        if let (Ok(value), Some(tool)) = (&result, served.registry().get(&name)) {
            super::output_check::assert_fits_output_schema(tool, value);
        }
        let duration_ms = self.runtime.clock.now_ms().saturating_sub(started);
        let ended = Ended {
            name: &name,
            labels,
            trace: &trace,
            result: &result,
            duration_ms,
        };
        // 14. record: counters, audit row, session trace, work-memory episode
        self.record(&served, caller, &ended);
        spans::finish_call(
            &span,
            &Finished {
                vault: trace.vault.as_deref(),
                error: result.as_ref().err(),
                replayed: trace.replayed,
                duration_ms,
            },
        );
        CallOutcome {
            result,
            args_hash: trace.args_hash,
            vault: trace.vault,
            replayed: trace.replayed,
            duration_ms,
        }
    }

    fn run(
        &self,
        served: &Served,
        caller: &Caller,
        name: &str,
        mut args: Value,
        extras: Extras<'_>,
        trace: &mut Trace,
    ) -> Result<Value, ToolError> {
        // 1. lookup, with visibility (hidden and disabled look unregistered; a tool the profile
        // leaves out is `capability_hidden`)
        let tool = Gate::Lookup
            .span()
            .in_scope(|| served.registry().callable(name, caller));
        // 2. args_hash, without the approval token
        if args.is_null() {
            args = json!({});
        }
        let token = strip_elicit_token(&mut args);
        let approval = extras.confirmation.or(token.map(Approval::Token));
        trace.args_hash = args_hash(name, &args)
            .map_err(|error| ToolError::new(ErrorCode::ValidationError, error.to_string()))?;
        let config = &served.config().config;
        let work = config.work;
        let episode_needs = work.capture_episodes
            && (work.capture_arguments || tool.is_some_and(Tool::is_mutating));
        if config.traces.include_arguments || episode_needs {
            trace.arguments = Some(args.clone());
        }
        let tool = tool.ok_or_else(|| served.registry().refusal(name, caller))?;
        // 3. validate the arguments
        Gate::Validate.check(|| validate_args(&tool.def.input_schema, &args))?;
        trace.named = named_paths(tool, &args);
        // 4. scopes
        Gate::Scopes.check(|| {
            if satisfies_all(&caller.scopes, &tool.scopes) {
                Ok(())
            } else {
                Err(ToolError::forbidden_scopes(&tool.scopes, &caller.scopes))
            }
        })?;
        // 5. vault: the binding
        let entry = Gate::Vault.check(|| bind_vault(served, caller, tool, &args))?;
        trace.vault = Some(entry.id.clone());
        let key = tool
            .def
            .idempotency
            .then(|| args.get(IDEMPOTENCY_KEY_ARG).and_then(Value::as_str))
            .flatten()
            .map(str::to_owned);
        let handler_args = without_meta_args(&args);
        let args_hash = trace.args_hash.clone();
        let ctx = ToolContext::new(
            &self.runtime,
            served,
            caller,
            tool,
            entry,
            &args_hash,
            approval,
        )
        .reporting_to(extras.progress)
        .sampling_with(extras.sampler);
        // 6. precheck: the read-only kill switch, then the tool's precheck
        Gate::Precheck.check(|| {
            if entry.read_only && tool.is_mutating() {
                return Err(read_only_vault(&entry.id, tool.name()));
            }
            match tool.def.precheck {
                Some(precheck) => precheck(&ctx, &handler_args),
                None => Ok(()),
            }
        })?;
        // Without an idempotency key: steps 8 to 13 (`gated`)
        let Some(key) = key else {
            let (value, text) = self
                .gated(&ctx, &args, handler_args, &mut trace.changed)
                .map_err(|(error, _)| error)?;
            trace.result_bytes = text.len();
            return Ok(value);
        };
        // 7. idempotency: the claim
        let claim = Gate::Idempotency.check(|| {
            self.runtime
                .store
                .idempotency()
                .claim(
                    &entry.id,
                    &key,
                    name,
                    &args_hash,
                    self.runtime.clock.now_seconds(),
                )
                .map_err(store_fault)
        })?;
        match claim {
            Claim::Fresh | Claim::Reclaimed => {}
            Claim::Replay(text) => {
                trace.replayed = true;
                trace.result_bytes = text.len();
                return serde_json::from_str(&text).map_err(|error| {
                    ToolError::internal(format!("the stored result is not JSON: {error}"))
                });
            }
            Claim::InFlight => return Err(ToolError::idempotency_in_flight(&key)),
            Claim::Mismatch => {
                return Err(ToolError::idempotency_key_mismatch(&key, "another call"));
            }
            Claim::Indeterminate => return Err(indeterminate(&key)),
        }
        // 14. record: the claim's fate, completed with the result, released, or kept indeterminate
        let keys = self.runtime.store.idempotency();
        let (result, recorded) = match self.gated(&ctx, &args, handler_args, &mut trace.changed) {
            Ok((value, text)) => {
                trace.result_bytes = text.len();
                let done = keys.complete(&entry.id, &key, &text, self.runtime.clock.now_seconds());
                (Ok(value), done.is_ok())
            }
            Err((error, Stage::NoEffect)) => (Err(error), keys.release(&entry.id, &key).is_ok()),
            Err((error, Stage::AfterEffect)) => {
                (Err(error), keys.mark_indeterminate(&entry.id, &key).is_ok())
            }
        };
        if !recorded {
            self.runtime.metrics.record_bookkeeping_fault();
        }
        result
    }

    /// Steps 8 to 13, after the idempotency claim: throttle, HITL, per-path ACL, handler,
    /// changes, governor. Returns the result and its JSON text, or the error and its stage; the paths
    /// the handler changed go to `changed`.
    fn gated(
        &self,
        ctx: &ToolContext<'_>,
        args: &Value,
        handler_args: Value,
        changed: &mut Vec<String>,
    ) -> Result<(Value, String), (ToolError, Stage)> {
        let tool = ctx.tool();
        let before = |error| (error, Stage::NoEffect);
        let class = rate_class(&tool.scopes);
        // 8. throttle
        Gate::Throttle
            .check(|| {
                self.throttle.check(
                    &ctx.caller().id,
                    class,
                    ctx.vault_id(),
                    self.runtime.clock.now_ms(),
                )
            })
            .map_err(|error| {
                self.runtime
                    .metrics
                    .record_throttle_trip(ctx.vault_id(), class);
                before(error)
            })?;
        // 9. hitl, for a tool that needs a human's approval
        if tool.needs_confirmation() {
            let call = ApprovalFor {
                vault_id: ctx.vault_id(),
                tool: tool.name(),
                args_hash: ctx.args_hash(),
                caller: &ctx.caller().id,
            };
            let proposal =
                json!({ "tool": tool.name(), "vault": ctx.vault_id(), "arguments": args });
            Gate::Hitl
                .check(|| {
                    self.runtime
                        .obtain_approval(&call, ctx.take_approval(), proposal)
                })
                .map_err(before)?;
        }
        // 10. acl
        Gate::Acl
            .check(|| check_path_args(tool, ctx.vault_entry(), &ctx.caller().scopes, args))
            .map_err(before)?;
        let run = || (tool.def.handler)(ctx, handler_args);
        // 11. handler, recorded by the undo journal, a mutating one in the write queue
        let (outcome, befores) = Gate::Handler.check_with(|| {
            journal::record(ctx.vault(), || {
                if tool.is_mutating() {
                    queue::serialized(ctx.vault(), run)
                } else {
                    run()
                }
            })
        });
        // 12. changes: snapshots of what the handler changed, then the index refresh
        *changed = self.keep_snapshots(ctx, &befores);
        if tool.is_mutating() || !befores.is_empty() {
            self.refresh_touched(ctx, args, outcome.as_ref().ok(), &befores);
        }
        let value = outcome.map_err(|error| {
            let stage = if ctx.effect_started() {
                Stage::AfterEffect
            } else {
                Stage::NoEffect
            };
            (error, stage)
        })?;
        // 13. governor
        let text = Gate::Governor
            .check(|| self.runtime.governor.serialize(&value))
            .map_err(|error| (error, Stage::AfterEffect))?;
        // 14. record: the retrieval log of a ranked search that answered
        self.log_retrieval(ctx);
        Ok((value, text))
    }

    /// The counters and the audit row of one call.
    fn record(&self, served: &Served, caller: &Caller, ended: &Ended<'_>) {
        let Ended {
            name,
            labels: (tool, class),
            trace,
            result,
            duration_ms,
        } = *ended;
        let (outcome, code) = match result {
            Ok(_) => (Outcome::Ok, OK_CODE),
            Err(error) => (
                Outcome::Error {
                    code: error.code.as_str().to_owned(),
                },
                error.code.as_str(),
            ),
        };
        let vault = trace.vault.as_deref().unwrap_or_default();
        self.runtime.metrics.record_call(&CallRecord {
            vault,
            tool,
            class,
            code,
            duration_ms,
        });
        let event = Event {
            vault_id: vault.to_owned(),
            ts: self.runtime.clock.now_seconds(),
            tool: name.chars().take(MAX_LOGGED_NAME_CHARS).collect(),
            caller: caller.id.clone(),
            outcome,
            duration_ms: i64::try_from(duration_ms).unwrap_or(i64::MAX),
            args_hash: trace.args_hash.clone(),
            details: if trace.replayed {
                json!({ "replayed": true })
            } else {
                json!({})
            },
            paths: audited_paths(trace),
        };
        if self.runtime.store.events().append(&event).is_err() {
            self.runtime.metrics.record_bookkeeping_fault();
        }
        self.trace_in_session(served, caller, ended);
        self.keep_episode(served, caller, ended);
    }
}

/// Gate 5: the named vault (a bound caller may name only its own), else the caller's
/// bound vault, else the default vault. A JWT without a `vault` claim is bound to the
/// default vault ([`Served::binding_of`]).
fn bind_vault<'s>(
    served: &'s Served,
    caller: &Caller,
    tool: &Tool,
    args: &Value,
) -> Result<&'s VaultEntry, ToolError> {
    let named = if tool.def.vault_arg {
        args.get(VAULT_ARG).and_then(Value::as_str)
    } else {
        None
    };
    let bound = served.binding_of(caller);
    let id = match (named, bound) {
        (Some(named), Some(bound)) if named != bound => {
            return Err(ToolError::forbidden_vault(bound, named));
        }
        (Some(id), _) | (None, Some(id)) => id,
        (None, None) => {
            return served
                .default_vault()
                .ok_or_else(|| ToolError::internal("no vault is configured"));
        }
    };
    served.vault(id).ok_or_else(|| {
        ToolError::new(ErrorCode::NotFound, format!("no vault named '{id}'"))
            .with_details(json!({ "vault": id }))
    })
}

/// The values of `tool`'s declared path arguments, in NFC as the ACL sees them.
fn named_paths(tool: &Tool, args: &Value) -> Vec<String> {
    tool.def
        .path_args
        .iter()
        .filter_map(|path_arg| args.get(path_arg.name).and_then(Value::as_str))
        .map(|path| path.nfc().collect())
        .collect()
}

/// The paths of a call's audit row: those it named and those it changed, sorted, no repeats,
/// at most [`MAX_LOGGED_PATHS`].
fn audited_paths(trace: &Trace) -> Vec<String> {
    let mut paths: Vec<String> = trace.named.iter().chain(&trace.changed).cloned().collect();
    paths.sort();
    paths.dedup();
    paths.truncate(MAX_LOGGED_PATHS);
    paths
}

/// Removes and returns a string `elicit_token` argument.
fn strip_elicit_token(args: &mut Value) -> Option<String> {
    match args.as_object_mut()?.remove(ELICIT_TOKEN_ARG)? {
        Value::String(token) => Some(token),
        _ => None,
    }
}

/// The arguments the handler gets: without the dispatch-owned `vault` and `idempotency_key`.
fn without_meta_args(args: &Value) -> Value {
    let mut args = args.clone();
    if let Some(map) = args.as_object_mut() {
        map.remove(VAULT_ARG);
        map.remove(IDEMPOTENCY_KEY_ARG);
    }
    args
}

/// Gate 8: the folder ACL on every declared path argument (engine-core's evaluator, on the
/// NFC path); the vault backend enforces realpath and hard links at I/O.
fn check_path_args(
    tool: &Tool,
    entry: &VaultEntry,
    granted: &[engine_core::acl::Scope],
    args: &Value,
) -> Result<(), ToolError> {
    for path_arg in tool.def.path_args {
        if let Some(path) = args.get(path_arg.name).and_then(Value::as_str) {
            entry.check_path(path, path_arg.op, granted)?;
        }
    }
    Ok(())
}

/// `read_only_mode`: the vault's ACL kill switch refuses a tool that changes the vault.
fn read_only_vault(vault: &str, tool: &str) -> ToolError {
    ToolError::new(
        ErrorCode::ReadOnlyMode,
        format!("vault '{vault}' is read-only: {tool} changes the vault and is refused"),
    )
    .with_details(json!({ "vault": vault, "tool": tool, "read_only": true }))
}

/// `indeterminate`: an earlier call with `key` failed after its change may have happened.
fn indeterminate(key: &str) -> ToolError {
    ToolError::new(
        ErrorCode::Indeterminate,
        format!(
            "an earlier call with idempotency_key '{key}' failed after its change may have happened; it is not run again"
        ),
    )
    .with_details(json!({ "key": key }))
}
