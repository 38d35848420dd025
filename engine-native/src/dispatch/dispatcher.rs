//! [`Dispatcher`]: a [`Runtime`] with the built-in tools, and the throttle its pipeline applies.

use std::sync::Arc;

use crate::config::LoadedConfig;
use crate::facade;
use crate::runtime::{Clock, Registry, RegistryError, Runtime, StartError};
use crate::throttle::Throttle;
use crate::tools;

/// Runs tool calls through the dispatch pipeline (see [`crate::dispatch`]). `Send + Sync`:
/// share it in an `Arc` across transports and threads.
#[derive(Debug)]
pub struct Dispatcher {
    pub(crate) runtime: Runtime,
    pub(crate) throttle: Throttle,
}

impl Dispatcher {
    /// Opens everything `config` describes with every built-in tool registered
    /// ([`register_builtin`]).
    pub fn new(config: LoadedConfig, clock: Arc<dyn Clock>) -> Result<Dispatcher, StartError> {
        let mut registry = Registry::new(config.config.tool_visibility.clone());
        register_builtin(&mut registry).map_err(StartError::Registry)?;
        Dispatcher::with_registry(config, clock, registry)
    }

    /// Opens everything `config` describes ([`Runtime::open`]), serving the tools of
    /// `registry`, with the throttle of the configuration.
    pub fn with_registry(
        config: LoadedConfig,
        clock: Arc<dyn Clock>,
        registry: Registry,
    ) -> Result<Dispatcher, StartError> {
        let throttle = Throttle::new(config.config.throttle);
        Ok(Dispatcher {
            runtime: Runtime::open(config, clock, registry)?,
            throttle,
        })
    }

    /// The state the calls share: store, indexes, companions, configuration and vaults.
    pub fn runtime(&self) -> &Runtime {
        &self.runtime
    }
}

/// Registers every built-in tool in `registry`: the tool families ([`tools::all_tools`]) and
/// the facade's own (`find_capability`, `describe_capability`).
pub fn register_builtin(registry: &mut Registry) -> Result<(), RegistryError> {
    builtin_tools()
        .into_iter()
        .try_for_each(|tool| registry.register(tool))
}

/// Every built-in tool's declaration: the tool families and the facade's own.
pub fn builtin_tools() -> Vec<crate::runtime::ToolDef> {
    let mut all = tools::all_tools();
    all.extend(facade::tools());
    all
}
