//! The Companion API contract, from `contract/companion-api.json`, the one file TC Bridge
//! imports too: the prefix and API version, the probe and approval endpoints, the route of
//! each of TC Bridge's tools (its path, method, the plugin it needs, its timeout class, its
//! `mode` when it shares a route), and the server code each TC Bridge error code becomes.
//! `build.rs` writes these constants from the file (`contract/codegen.rs`); nothing here is
//! written by hand, and `tests/it/companion/contract.rs` checks the server keeps to it.

use crate::errors::ErrorCode;

pub use super::errors::Needs;

/// A route's HTTP method: `Get` routes only list things and accept POST too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET (or POST with a JSON body of arguments).
    Get,
    /// POST only.
    Post,
}

impl Method {
    /// `"GET"` or `"POST"`, as in the contract.
    pub const fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
        }
    }
}

/// Which of the companion's configured timeouts a request gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timeout {
    /// `probeTimeoutMs`.
    Probe,
    /// `confirmTimeoutMs` (plus the server's grace for the answer).
    Confirm,
    /// `callTimeoutMs`.
    Call,
    /// `slowCallTimeoutMs` (OCR, Templater, QuickAdd).
    Slow,
}

/// An endpoint that runs none of TC Bridge's tools (the probe, the approval dialog).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    /// Its path under [`PREFIX`].
    pub path: &'static str,
    /// Its method.
    pub method: Method,
    /// Its timeout class.
    pub timeout: Timeout,
}

/// The route a call of one of TC Bridge's tools goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolRoute {
    /// The tool's name (TC Bridge's tool, and the server's Obsidian tool when it has one).
    pub tool: &'static str,
    /// The route's path under [`PREFIX`].
    pub path: &'static str,
    /// Its method.
    pub method: Method,
    /// The plugin it needs inside Obsidian, when one.
    pub needs: Option<Needs>,
    /// Its timeout class.
    pub timeout: Timeout,
    /// The `mode` the route chooses this tool by, when tools share the route.
    pub mode: Option<&'static str>,
    /// Whether a server tool calls it (`false`: only TC Bridge's own clients do).
    pub called_by_server: bool,
}

impl ToolRoute {
    /// Whether it gets the slow timeout.
    pub const fn slow(&self) -> bool {
        matches!(self.timeout, Timeout::Slow)
    }
}

include!(concat!(env!("OUT_DIR"), "/companion_contract.rs"));

/// The server code TC Bridge's error `code` becomes, when the contract lists it (as a route's
/// error or as the HTTP server's refusal).
pub fn mapped_code(code: &str) -> Option<ErrorCode> {
    ERROR_CODES
        .iter()
        .chain(ADMISSION_CODES)
        .find(|(listed, _)| *listed == code)
        .map(|(_, mapped)| *mapped)
}
