//! [`VaultCompanion`]: one vault's TC Bridge: its address and token, its capability snapshot,
//! and the calls to its Companion API routes.
//!
//! reqwest's blocking client: dispatch runs tool calls on blocking threads, and the blocking
//! client drives its own runtime on a thread of its own. It is built on first use, from a
//! blocking thread (the start-up probe's or a call's), never on an async task.

use std::sync::{OnceLock, PoisonError, RwLock};
use std::time::Duration;

use reqwest::blocking::Client;
use serde::Deserialize;
use serde_json::Value;

use crate::config::sections::CompanionConfig;
use crate::errors::ToolError;

use super::contract::PREFIX;
use super::errors::{
    Needs, from_companion, incompatible, plugin_missing, unauthorized, unreachable,
};
use super::probe::{describe, probe_blocking};
use super::state::CompanionState;

/// Where every Companion API route lives under the companion's address (the contract's).
pub const COMPANION_PREFIX: &str = PREFIX;

/// The envelope of a route's answer: `{ok:true, result}` or `{ok:false, code, message, details}`.
#[derive(Debug, Deserialize)]
struct Envelope {
    ok: bool,
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    details: Option<Value>,
}

/// Why a route call did not get an answer from TC Bridge.
#[derive(Debug, Clone, PartialEq)]
pub enum CallFailure {
    /// No connection could be made: nothing was sent.
    NotConnected(String),
    /// Nothing answered in time, or the connection dropped.
    Unreachable(String),
    /// TC Bridge refused the token.
    Unauthorized,
    /// What answered is not TC Bridge (no route there, or not the envelope).
    NotCompanion(String),
    /// TC Bridge answered `ok: false`.
    Refused(ToolError),
}

/// One vault's companion.
#[derive(Debug)]
pub struct VaultCompanion {
    vault: String,
    config: CompanionConfig,
    client: OnceLock<Result<Client, String>>,
    state: RwLock<CompanionState>,
}

impl VaultCompanion {
    /// The companion of `vault` at `config`, not probed yet.
    pub fn new(vault: &str, config: CompanionConfig) -> VaultCompanion {
        VaultCompanion {
            vault: vault.to_owned(),
            config,
            client: OnceLock::new(),
            state: RwLock::new(CompanionState::Unprobed),
        }
    }

    /// The address and token it was made for.
    pub fn config(&self) -> &CompanionConfig {
        &self.config
    }

    /// The last capability snapshot, as it is.
    pub fn state(&self) -> CompanionState {
        self.state
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Whether, at the last probe or call, TC Bridge refused this companion's token or did not
    /// answer at its address: what a new token or port in TC Bridge's settings would cause.
    pub fn refused_or_gone(&self) -> bool {
        matches!(
            *self.state.read().unwrap_or_else(PoisonError::into_inner),
            CompanionState::Unauthorized | CompanionState::Unreachable(_)
        )
    }

    fn set_state(&self, state: CompanionState) {
        *self.state.write().unwrap_or_else(PoisonError::into_inner) = state;
    }

    /// Probes now (within `probeTimeoutMs`) and replaces the snapshot with what it found.
    pub fn refresh(&self) -> CompanionState {
        let state = match self.client() {
            Ok(client) => CompanionState::from_probe(probe_blocking(client, &self.config)),
            Err(why) => CompanionState::Unreachable(why),
        };
        self.set_state(state.clone());
        state
    }

    /// The snapshot, probed again first when it says the companion was not there.
    pub fn current(&self) -> CompanionState {
        let state = self.state();
        if state.worth_reprobing() {
            self.refresh()
        } else {
            state
        }
    }

    /// `Ok` when a bridge call can go to TC Bridge: reachable, compatible, and the plugin the
    /// call `needs` installed and enabled (a plugin the probe does not mention is left to
    /// TC Bridge to report). `missing` makes the error of a companion that is not TC Bridge.
    pub fn ready(
        &self,
        needs: Option<&Needs>,
        missing: impl FnOnce(&str) -> ToolError,
    ) -> Result<(), ToolError> {
        match self.current() {
            CompanionState::Reachable(probe) => {
                let absent = needs.filter(|needs| {
                    probe
                        .capabilities
                        .get(needs.capability)
                        .is_some_and(|capability| !capability.usable())
                });
                match absent {
                    Some(needs) => Err(plugin_missing(&self.vault, needs)),
                    None => Ok(()),
                }
            }
            CompanionState::Unprobed => {
                Err(unreachable(&self.vault, &self.config.url, "not probed yet"))
            }
            CompanionState::Unreachable(why) => {
                Err(unreachable(&self.vault, &self.config.url, &why))
            }
            CompanionState::Missing(why) => Err(missing(&why)),
            CompanionState::Incompatible(reported) => Err(incompatible(&self.vault, &reported)),
            CompanionState::Unauthorized => Err(unauthorized(&self.vault, &self.config.url)),
        }
    }

    /// Posts `body` to the route `path` (under `/obsidian-tc/v1`) and waits up to `timeout`
    /// for its envelope. A failure to get an answer marks the companion unreachable; a refused
    /// token marks it unauthorized.
    pub fn post(&self, path: &str, body: &Value, timeout: Duration) -> Result<Value, CallFailure> {
        let client = self.client().map_err(CallFailure::NotConnected)?;
        let url = format!(
            "{}{COMPANION_PREFIX}{path}",
            self.config.url.trim_end_matches('/')
        );
        let mut request = client.post(url).timeout(timeout).json(body);
        if let Some(token) = &self.config.token {
            request = request.bearer_auth(token);
        }
        let answer = request.send().and_then(|response| {
            let status = response.status().as_u16();
            response.bytes().map(|bytes| (status, bytes))
        });
        let (status, bytes) = match answer {
            Ok(answer) => answer,
            Err(error) => {
                let why = describe(&error);
                self.set_state(CompanionState::Unreachable(why.clone()));
                return Err(if error.is_connect() {
                    CallFailure::NotConnected(why)
                } else {
                    CallFailure::Unreachable(why)
                });
            }
        };
        if matches!(status, 401 | 403) {
            self.set_state(CompanionState::Unauthorized);
            return Err(CallFailure::Unauthorized);
        }
        let envelope: Envelope = serde_json::from_slice(&bytes).map_err(|error| {
            CallFailure::NotCompanion(format!("HTTP {status}, not the Companion API: {error}"))
        })?;
        match envelope {
            Envelope {
                ok: true,
                result: Some(result),
                ..
            } => Ok(result),
            Envelope { ok: true, .. } => Ok(Value::Null),
            Envelope {
                code: Some(code),
                message,
                details,
                ..
            } => Err(CallFailure::Refused(from_companion(
                &code,
                message.as_deref().unwrap_or("the call failed"),
                details,
            ))),
            Envelope { code: None, .. } => Err(CallFailure::NotCompanion(format!(
                "HTTP {status}, ok: false without a code"
            ))),
        }
    }

    /// The call failure as the tool error an agent gets.
    pub fn failure_error(
        &self,
        failure: CallFailure,
        missing: impl FnOnce(&str) -> ToolError,
    ) -> ToolError {
        match failure {
            CallFailure::NotConnected(why) | CallFailure::Unreachable(why) => {
                unreachable(&self.vault, &self.config.url, &why)
            }
            CallFailure::Unauthorized => unauthorized(&self.vault, &self.config.url),
            CallFailure::NotCompanion(why) => missing(&why),
            CallFailure::Refused(error) => error,
        }
    }

    fn client(&self) -> Result<&Client, String> {
        self.client
            .get_or_init(|| {
                crate::http_client::blocking_builder()
                    .no_proxy()
                    .build()
                    .map_err(|error| format!("cannot build the HTTP client: {error}"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}
