//! What of a round of chunks may go to a remote embedding provider: each text is scanned for
//! credentials ([`crate::content::secrets`]) and, per `embeddings.secrets`, a chunk holding
//! one is withheld or sent redacted. Only class names and counts are kept and logged.

use std::collections::BTreeMap;

use crate::content::secrets::{SecretsAction, class_counts, find_secrets, redact};
use crate::vectors::ChunkFindings;

/// A round of chunks after the scan.
#[derive(Debug, Default)]
pub struct Screened<'v> {
    /// The positions (in the round) of the chunks to send, with the text to send.
    pub send: Vec<(usize, String)>,
    /// The chunks not sent, with what they hold.
    pub withheld: Vec<ChunkFindings<'v>>,
    /// The chunks sent redacted, with what they held.
    pub redacted: Vec<ChunkFindings<'v>>,
}

/// Screens `texts` (chunk ids `chunk_ids`, of `vault`) under `action`; `None` sends every
/// text as it is.
pub fn screen<'v>(
    vault: &'v str,
    chunk_ids: &[i64],
    texts: Vec<String>,
    action: Option<SecretsAction>,
) -> Screened<'v> {
    let mut screened = Screened::default();
    for (at, (text, chunk_id)) in texts.into_iter().zip(chunk_ids).enumerate() {
        let found = match action {
            Some(SecretsAction::Skip | SecretsAction::Redact) => find_secrets(&text),
            Some(SecretsAction::Off) | None => Vec::new(),
        };
        if found.is_empty() {
            screened.send.push((at, text));
            continue;
        }
        let findings = ChunkFindings {
            chunk_id: *chunk_id,
            classes: class_counts(&found)
                .into_iter()
                .map(|(class, count)| (class.name(), count))
                .collect(),
            vault_id: vault,
        };
        if action == Some(SecretsAction::Redact) {
            screened.send.push((at, redact(&text, &found)));
            screened.redacted.push(findings);
        } else {
            screened.withheld.push(findings);
        }
    }
    screened
}

/// The credentials a pass found, for its log line: chunks withheld and redacted, and counts
/// by class name.
#[derive(Debug, Default)]
pub struct PassFindings {
    withheld: usize,
    redacted: usize,
    classes: BTreeMap<&'static str, usize>,
}

impl PassFindings {
    /// Adds a screened round's findings.
    pub fn add(&mut self, screened: &Screened<'_>) {
        self.withheld += screened.withheld.len();
        self.redacted += screened.redacted.len();
        for chunk in screened.withheld.iter().chain(&screened.redacted) {
            for (class, count) in &chunk.classes {
                *self.classes.entry(class).or_default() += count;
            }
        }
    }

    /// Logs what the pass over `vault` found (class names and counts only), if anything.
    pub fn log(&self, vault: &str, provider: &str) {
        if self.classes.is_empty() {
            return;
        }
        let classes: Vec<String> = self
            .classes
            .iter()
            .map(|(class, count)| format!("{class}={count}"))
            .collect();
        tracing::warn!(
            vault,
            provider,
            withheld = self.withheld,
            redacted = self.redacted,
            classes = %classes.join(","),
            "credentials found in chunks bound for the remote embedding provider: {} chunks withheld, {} redacted ({})",
            self.withheld,
            self.redacted,
            classes.join(", ")
        );
    }
}
