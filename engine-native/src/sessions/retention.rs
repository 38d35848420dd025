//! Retention: a session whose last record is older than the retention period is deleted,
//! all its parts, open or not (an open session that has been silent that long was left
//! behind by a client that never came back).

use std::io;

use super::files;
use super::reader::last_record;
use super::registry::Sessions;

impl Sessions {
    /// Deletes the sessions of `vault` whose last record is before `cutoff` (an RFC 3339 UTC
    /// timestamp, as records carry); returns how many. A session with no readable record is
    /// left alone.
    pub fn prune(&self, vault: &str, cutoff: &str) -> io::Result<usize> {
        let dir = self.vault_dir(vault);
        let mut deleted = Vec::new();
        for id in files::session_ids(&dir)? {
            if let Some(last) = last_record(&dir, &id)?
                && last.ts() < cutoff
            {
                files::remove(&dir, &id)?;
                deleted.push(id);
            }
        }
        self.forget(vault, &deleted);
        Ok(deleted.len())
    }

    /// [`Sessions::prune`] in every vault that has traces.
    pub fn prune_all(&self, cutoff: &str) -> io::Result<usize> {
        let mut deleted = 0;
        for vault in self.vaults()? {
            deleted += self.prune(&vault, cutoff)?;
        }
        Ok(deleted)
    }
}
