//! The state of a mutation's target before the change: whether it may be touched, and
//! whether it still has the content the caller read (`expected_sha256`).

use std::fs::Permissions;

use engine_core::hash::sha256_hex;

use super::error::VaultError;
use super::handle::Vault;
use super::read::read_all;
use super::resolve::Resolved;

impl Vault {
    /// Checks an existing target (a regular file, not hard-linked under the guard, with the
    /// expected content when one is given) and returns its permissions. A missing target
    /// passes (`None`) unless a content was expected.
    pub(crate) fn check_target(
        &self,
        target: &Resolved,
        expected_sha256: Option<&str>,
    ) -> Result<Option<Permissions>, VaultError> {
        if !target.exists() {
            return match expected_sha256 {
                Some(expected) => Err(VaultError::ConcurrentModification {
                    path: target.rel.clone(),
                    expected: expected.to_owned(),
                    actual: None,
                }),
                None => Ok(None),
            };
        }
        let (mut file, metadata) = self.open_regular(&target.abs, &target.rel)?;
        if expected_sha256.is_some() {
            let actual = sha256_hex(&read_all(&mut file, &metadata, &target.rel)?);
            verify_sha256(&target.rel, &actual, expected_sha256)?;
        }
        Ok(Some(metadata.permissions()))
    }
}

/// `ConcurrentModification` unless `actual` is the expected SHA-256 (hex, any case) or
/// nothing was expected.
pub(crate) fn verify_sha256(
    rel: &str,
    actual: &str,
    expected: Option<&str>,
) -> Result<(), VaultError> {
    match expected {
        Some(expected) if !actual.eq_ignore_ascii_case(expected) => {
            Err(VaultError::ConcurrentModification {
                path: rel.to_owned(),
                expected: expected.to_owned(),
                actual: Some(actual.to_owned()),
            })
        }
        _ => Ok(()),
    }
}
