//! What the server last learnt about one vault's companion: its [`CompanionState`], and the
//! [`CapabilityReport`] `refresh_plugin_capabilities` answers with.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::discovery::Absent;
use super::probe::{Probe, ProbeError};

/// The capability snapshot of one vault's companion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompanionState {
    /// Not probed yet (the start-up probe is still running).
    Unprobed,
    /// TC Bridge answered the probe and speaks our API.
    Reachable(Probe),
    /// Nothing answered in time (Obsidian closed, plugin off, wrong port).
    Unreachable(String),
    /// Something answered that is not TC Bridge (404, or not the Companion API's envelope).
    Missing(String),
    /// TC Bridge speaks another major version of the Companion API.
    Incompatible(String),
    /// TC Bridge refused the configured token.
    Unauthorized,
}

impl CompanionState {
    /// The state a probe's outcome puts the companion in.
    pub fn from_probe(outcome: Result<Probe, ProbeError>) -> CompanionState {
        match outcome {
            Ok(probe) => CompanionState::Reachable(probe),
            Err(ProbeError::Unreachable(why)) => CompanionState::Unreachable(why),
            Err(ProbeError::Unauthorized) => CompanionState::Unauthorized,
            Err(error @ (ProbeError::Status(_) | ProbeError::BadAnswer(_))) => {
                CompanionState::Missing(error.to_string())
            }
            Err(ProbeError::Incompatible { reported }) => CompanionState::Incompatible(reported),
        }
    }

    /// Whether the next call should probe again before using this state: a companion that
    /// was not there may have come up since.
    pub fn worth_reprobing(&self) -> bool {
        matches!(
            self,
            CompanionState::Unprobed | CompanionState::Unreachable(_)
        )
    }
}

/// The status word of a [`CapabilityReport`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CompanionStatus {
    /// The vault has no `companion` configured and none was found in TC Bridge's settings.
    NotConfigured,
    /// The vault's config turns the companion off (`companion: false`).
    Off,
    /// Not probed yet.
    Unprobed,
    /// TC Bridge answered and speaks our API.
    Reachable,
    /// Nothing answered in time.
    Unreachable,
    /// Something answered that is not TC Bridge.
    Missing,
    /// TC Bridge speaks another major Companion API version.
    Incompatible,
    /// TC Bridge refused the token.
    Unauthorized,
}

/// One bridgeable plugin in a report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PluginReport {
    /// Installed in Obsidian.
    pub installed: bool,
    /// Enabled in Obsidian.
    pub enabled: bool,
    /// Installed and enabled: the Obsidian tools that need it can run.
    pub usable: bool,
    /// Its version, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// The capability snapshot of one vault, as `refresh_plugin_capabilities` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CapabilityReport {
    /// The vault id.
    pub vault: String,
    /// Where the companion stands.
    pub status: CompanionStatus,
    /// TC Bridge's version, when reachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plugin_version: Option<String>,
    /// Obsidian's version, when reachable.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub obsidian_version: Option<String>,
    /// The Companion API version TC Bridge reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// The bridgeable plugins by capability key (`dataview`, `templater`, ...).
    pub plugins: BTreeMap<String, PluginReport>,
    /// What TC Bridge's self-check of Obsidian's internals found wrong.
    pub shape_warnings: Vec<String>,
    /// Why the companion is not reachable, when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl CapabilityReport {
    /// The report of `vault` whose companion is in `state`, or has none for the reason
    /// `Err` gives.
    pub fn of(vault: &str, state: Result<&CompanionState, &Absent>) -> CapabilityReport {
        let mut report = CapabilityReport {
            vault: vault.to_owned(),
            status: CompanionStatus::NotConfigured,
            plugin_version: None,
            obsidian_version: None,
            api_version: None,
            plugins: BTreeMap::new(),
            shape_warnings: Vec::new(),
            reason: None,
        };
        let state = match state {
            Ok(state) => state,
            Err(absent) => {
                if *absent == Absent::Off {
                    report.status = CompanionStatus::Off;
                }
                report.reason = Some(absent.to_string());
                return report;
            }
        };
        let (status, reason) = match state {
            CompanionState::Unprobed => (CompanionStatus::Unprobed, None),
            CompanionState::Reachable(probe) => {
                report.fill(probe);
                (CompanionStatus::Reachable, None)
            }
            CompanionState::Unreachable(why) => (CompanionStatus::Unreachable, Some(why.clone())),
            CompanionState::Missing(why) => (CompanionStatus::Missing, Some(why.clone())),
            CompanionState::Incompatible(reported) => {
                report.api_version = Some(reported.clone());
                (
                    CompanionStatus::Incompatible,
                    Some(
                        ProbeError::Incompatible {
                            reported: reported.clone(),
                        }
                        .to_string(),
                    ),
                )
            }
            CompanionState::Unauthorized => (
                CompanionStatus::Unauthorized,
                Some(ProbeError::Unauthorized.to_string()),
            ),
        };
        report.status = status;
        report.reason = reason;
        report
    }

    fn fill(&mut self, probe: &Probe) {
        self.plugin_version = Some(probe.plugin_version.clone());
        self.obsidian_version = Some(probe.obsidian_version.clone());
        self.api_version = probe.api_version.clone();
        self.shape_warnings = probe.shape_warnings.clone();
        self.plugins = probe
            .capabilities
            .iter()
            .map(|(key, capability)| {
                let report = PluginReport {
                    installed: capability.installed,
                    enabled: capability.installed && capability.enabled,
                    usable: capability.usable(),
                    version: capability.version.clone(),
                };
                (key.clone(), report)
            })
            .collect();
    }
}
