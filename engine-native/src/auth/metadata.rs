//! RFC 9728 protected-resource metadata: the document served at
//! [`WELL_KNOWN_PATH`] and the URL a 401's `WWW-Authenticate` challenge names.

use serde_json::{Value, json};

use crate::auth::settings::ResourceMetadataConfig;

/// The well-known path of the metadata document (RFC 9728 §3).
pub const WELL_KNOWN_PATH: &str = "/.well-known/oauth-protected-resource";

/// The metadata URL of `resource` (RFC 9728 §3.1: the well-known path goes between the
/// origin and the resource's path), or `None` when `resource` is not an absolute http(s) URL.
pub fn metadata_url(resource: &str) -> Option<String> {
    let scheme_end = resource
        .strip_prefix("https://")
        .map(|_| "https://".len())
        .or_else(|| resource.strip_prefix("http://").map(|_| "http://".len()))?;
    let path_start = resource[scheme_end..]
        .find(['/', '?', '#'])
        .map_or(resource.len(), |i| scheme_end + i);
    let (origin, path) = resource.split_at(path_start);
    let host = &origin[scheme_end..];
    if host.is_empty() || host.contains(['@', ' ']) || path.contains(['?', '#']) {
        return None;
    }
    let path = path.trim_end_matches('/');
    Some(format!("{origin}{WELL_KNOWN_PATH}{path}"))
}

/// The metadata document: the resource, its authorization servers, and bearer tokens in the
/// `Authorization` header only.
pub fn metadata_document(config: &ResourceMetadataConfig) -> Value {
    let mut document = json!({
        "resource": config.resource,
        "bearer_methods_supported": ["header"],
    });
    if !config.authorization_servers.is_empty() {
        document["authorization_servers"] = json!(config.authorization_servers);
    }
    document
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_well_known_path_goes_between_origin_and_path() {
        assert_eq!(
            metadata_url("https://tc.example.com/mcp").as_deref(),
            Some("https://tc.example.com/.well-known/oauth-protected-resource/mcp")
        );
        assert_eq!(
            metadata_url("http://127.0.0.1:8765").as_deref(),
            Some("http://127.0.0.1:8765/.well-known/oauth-protected-resource")
        );
        for bad in [
            "tc.example.com/mcp",
            "ftp://x/mcp",
            "https:///mcp",
            "https://x/mcp?a=1",
        ] {
            assert_eq!(metadata_url(bad), None, "{bad}");
        }
    }
}
