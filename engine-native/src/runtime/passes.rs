//! The offline passes over a vault's derived tables, run for the server itself (the command
//! line, the maintenance task, which are the operator's and see every note whatever the
//! folder ACL) or by a tool for a caller who may read every note:
//! [`Runtime::detect_contradictions`] and [`Runtime::measure_notes`].

use std::time::Instant;

use crate::index::contradictions::{Budget, ContradictionJudge, DetectReport, detect};
use crate::index::note_quality::{PassReport, run_pass};
use crate::index::semantic::SemanticError;
use crate::runtime::Runtime;
use crate::runtime::endpoint_judge::EndpointJudge;
use crate::runtime::served::VaultEntry;
use crate::vault::EntryKind;

/// What a contradiction run could do.
#[derive(Debug)]
pub enum Detection {
    /// No model judges contradictions ([`Runtime::contradiction_judge`]).
    NoJudge,
    /// Semantic search is off: there are no vectors to pair passages by.
    NoVectors,
    /// It ran.
    Ran {
        /// The model that judged.
        model: String,
        /// What it did.
        report: DetectReport,
    },
}

impl Runtime {
    /// One bounded run of the contradiction detector over vault `vault` for `caller` (whom the
    /// endpoint judge's audit rows name)
    /// ([`crate::index::contradictions::detect`]); `progress(done, total)` after each chunk.
    pub fn detect_contradictions(
        &self,
        vault: &str,
        caller: &str,
        budget: Budget,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<Detection, SemanticError> {
        let set = self.contradiction_judge();
        let endpoint = EndpointJudge::configured(self, vault, caller);
        let judge: &dyn ContradictionJudge = match (&set, &endpoint) {
            (Some(set), _) => set.as_ref(),
            (None, Some(endpoint)) => endpoint,
            (None, None) => return Ok(Detection::NoJudge),
        };
        let config = self.config();
        let Some(semantic) = self
            .indexes()
            .semantic(self.store(), &config.config.embeddings)?
        else {
            return Ok(Detection::NoVectors);
        };
        let now = self.clock().now_seconds();
        let report = detect(self.store(), &semantic, vault, judge, budget, now, progress)?;
        Ok(Detection::Ran {
            model: judge.model(),
            report,
        })
    }

    /// The `note-quality` pass over the indexed notes of `entry` until `deadline`
    /// ([`crate::index::note_quality::run_pass`]), with the vault's link table as it is
    /// now; `progress(done, total)` after each note. A failure is said in words.
    pub fn measure_notes(
        &self,
        entry: &VaultEntry,
        deadline: Instant,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<PassReport, String> {
        let links = self
            .indexes()
            .links()
            .get(self.store(), &entry.id, || {
                let entries = entry.vault.list(None).map_err(|error| error.to_string())?;
                Ok(entries
                    .into_iter()
                    .filter(|file| file.kind == EntryKind::File)
                    .map(|file| file.path)
                    .collect())
            })
            .map_err(|error| format!("the link index failed: {error}"))?;
        let now = self.clock().now_seconds();
        run_pass(self.store(), &entry.id, &links, now, deadline, progress)
            .map_err(|error| format!("the cache database failed: {error}"))
    }
}
