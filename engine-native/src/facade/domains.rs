//! The domains of the catalog: the `domain` of each registered tool, as the `domain` facade
//! mode presents them (one tool per domain taking `{action, args}`).

use std::collections::BTreeMap;

use crate::auth::Caller;
use crate::facade::FACADE_DOMAIN;
use crate::runtime::{Registry, Tool};

/// The tools listed to `caller`, grouped by domain (the facade's own tools left out).
pub fn domain_actions<'r>(
    registry: &'r Registry,
    caller: &Caller,
) -> BTreeMap<&'static str, Vec<&'r Tool>> {
    let mut domains: BTreeMap<&'static str, Vec<&'r Tool>> = BTreeMap::new();
    for tool in catalog_tools(registry, caller) {
        domains.entry(tool.def.domain).or_default().push(tool);
    }
    domains
}

/// The searchable catalog: the tools listed to `caller`, without the facade's own.
pub(crate) fn catalog_tools<'r>(registry: &'r Registry, caller: &Caller) -> Vec<&'r Tool> {
    registry
        .visible_tools(caller)
        .into_iter()
        .filter(|tool| tool.def.domain != FACADE_DOMAIN)
        .collect()
}

/// The whole catalog, whoever asks: every registered tool but the facade's own.
pub(crate) fn all_catalog_tools(registry: &Registry) -> impl Iterator<Item = &Tool> {
    registry
        .tools()
        .filter(|tool| tool.def.domain != FACADE_DOMAIN)
}

/// Whether `name` is a domain envelope: the domain of a registered tool (other than the
/// facade's), and not itself a tool name. Visibility plays no part, so a call's fate never
/// depends on which tools a caller happens to see.
pub(crate) fn is_domain(registry: &Registry, name: &str) -> bool {
    name != FACADE_DOMAIN
        && registry.get(name).is_none()
        && registry.tools().any(|tool| tool.def.domain == name)
}
