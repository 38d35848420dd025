//! The DNS-rebinding and cross-origin checks of routes beside MCP (`/metrics`): the same rules
//! rmcp applies to the MCP endpoint, for the same lists ([`super::allowed_hosts`],
//! [`super::allowed_origins`]). rmcp keeps its checks private, so they are restated here.
//!
//! - `Host` (or the URI's authority) must name an allowed host; entries without a port allow
//!   any port.
//! - `Origin`, when present, must match an allowed origin: same scheme and host, and a port
//!   that the entry's `:*` allows, the entry's own port (the scheme's default port when the
//!   origin names none), or any port when the entry names none.

use axum::http::{HeaderMap, Uri, header};

/// An origin or `Host` authority, normalised: lower-case host without IPv6 brackets.
#[derive(Debug, PartialEq, Eq)]
struct Authority {
    host: String,
    port: Option<u16>,
}

impl Authority {
    fn parse(text: &str) -> Option<Authority> {
        let authority = axum::http::uri::Authority::try_from(text.trim()).ok()?;
        Some(Authority {
            host: authority
                .host()
                .trim_start_matches('[')
                .trim_end_matches(']')
                .to_ascii_lowercase(),
            port: authority.port_u16(),
        })
    }
}

/// Why a request with `headers` (to `uri`) is refused, as the 403's body; `None` when its
/// `Host` is one of `hosts` and its `Origin`, if any, one of `origins`.
pub fn refusal(
    headers: &HeaderMap,
    uri: &Uri,
    hosts: &[String],
    origins: &[String],
) -> Option<&'static str> {
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .or_else(|| uri.authority().map(axum::http::uri::Authority::as_str))
        .and_then(Authority::parse);
    let host_allowed = host.is_some_and(|host| {
        hosts
            .iter()
            .filter_map(|allowed| Authority::parse(allowed))
            .any(|allowed| {
                allowed.host == host.host && allowed.port.is_none_or(|port| host.port == Some(port))
            })
    });
    if !host_allowed {
        return Some("Forbidden: Host header is not allowed");
    }
    let origin = headers.get(header::ORIGIN)?;
    let allowed = origin
        .to_str()
        .ok()
        .is_some_and(|origin| origin_allowed(origin, origins));
    (!allowed).then_some("Forbidden: Origin header is not allowed")
}

/// Whether `origin` (`scheme://host[:port]`) matches one of `allowed`.
fn origin_allowed(origin: &str, allowed: &[String]) -> bool {
    let Some((scheme, authority)) = split_origin(origin) else {
        return false;
    };
    let Some(authority) = Authority::parse(authority) else {
        return false;
    };
    let port = authority.port.or_else(|| default_port(&scheme));
    allowed.iter().any(|entry| {
        let (entry, any_port) = match entry.trim().strip_suffix(":*") {
            Some(base) => (base, true),
            None => (entry.trim(), false),
        };
        let Some((entry_scheme, entry_authority)) = split_origin(entry) else {
            return false;
        };
        let Some(entry_authority) = Authority::parse(entry_authority) else {
            return false;
        };
        let port_matches = any_port
            || entry_authority
                .port
                .is_none_or(|wanted| port == Some(wanted));
        entry_scheme == scheme && entry_authority.host == authority.host && port_matches
    })
}

/// The lower-case scheme and the authority of an origin.
fn split_origin(origin: &str) -> Option<(String, &str)> {
    let (scheme, authority) = origin.trim().split_once("://")?;
    Some((scheme.to_ascii_lowercase(), authority.trim_end_matches('/')))
}

/// The port a scheme implies when an origin names none.
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::http::{allowed_hosts, allowed_origins};

    fn request(host: &str, origin: Option<&str>) -> Option<&'static str> {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, host.parse().unwrap());
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, origin.parse().unwrap());
        }
        let hosts = allowed_hosts("0.0.0.0");
        let origins = allowed_origins(&["https://app.example.com".to_owned()]);
        refusal(&headers, &Uri::from_static("/metrics"), &hosts, &origins)
    }

    #[test]
    fn loopback_and_bind_hosts_on_any_port_pass() {
        for host in [
            "127.0.0.1:8080",
            "localhost",
            "[::1]:9",
            "LOCALHOST:1",
            "0.0.0.0:80",
        ] {
            assert_eq!(request(host, None), None, "{host}");
        }
    }

    #[test]
    fn other_hosts_are_refused() {
        for host in ["evil.example:8080", "127.0.0.2", "localhost.evil.example"] {
            assert!(request(host, None).unwrap().contains("Host"), "{host}");
        }
    }

    #[test]
    fn origins_follow_the_allow_list() {
        for origin in [
            "http://localhost:3000",
            "https://[::1]:1",
            "https://app.example.com",
        ] {
            assert_eq!(request("127.0.0.1", Some(origin)), None, "{origin}");
        }
        for origin in ["https://evil.example", "http://app.example.com", "null"] {
            let refused = request("127.0.0.1", Some(origin)).unwrap();
            assert!(refused.contains("Origin"), "{origin}");
        }
    }
}
