//! Unguessable tokens from the operating system's random generator.

use super::StoreError;

/// 16 random bytes as 32 lowercase hex characters.
pub(super) fn token_hex() -> Result<String, StoreError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(StoreError::Random)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
