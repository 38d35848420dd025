//! The state of a mutation's target before the change: whether it may be touched, and
//! whether it still has the content the caller read (`expected_sha256`).

use std::os::unix::fs::PermissionsExt;

use engine_core::hash::sha256_hex;

use super::error::VaultError;
use super::handle::Vault;
use super::read::read_all;
use super::resolve::Resolved;

impl Vault {
    /// Checks an existing target (a regular file, not hard-linked under the guard, with the
    /// expected content when one is given) and returns its permission bits. A missing target
    /// passes (`None`) unless a content was expected.
    pub(crate) fn check_target(
        &self,
        target: &Resolved,
        expected_sha256: Option<&str>,
    ) -> Result<Option<u32>, VaultError> {
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
        if let Some(expected) = expected_sha256 {
            let actual = sha256_hex(&read_all(&mut file, &metadata, &target.rel)?);
            if !actual.eq_ignore_ascii_case(expected) {
                return Err(VaultError::ConcurrentModification {
                    path: target.rel.clone(),
                    expected: expected.to_owned(),
                    actual: Some(actual),
                });
            }
        }
        Ok(Some(metadata.permissions().mode() & 0o7777))
    }
}
