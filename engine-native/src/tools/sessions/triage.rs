//! `session_bootstrap`'s triage of an opening message, over the vault's routing table: a
//! deep phrase, or three or more matched domains, is a deep start (the deep paths, then the
//! matched domains' paths); one or two matched domains a standard start (their paths);
//! nothing a lightweight start (no paths). A domain matches when one of its signals is in
//! the message as whole words, case-insensitively; a deep phrase anywhere in it. Without a
//! routing table (no domains, no deep paths) every start is lightweight.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::config::BootstrapConfig;

/// How many matched domains make a deep start.
const DEEP_DOMAINS: usize = 3;

/// How much a session starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum Depth {
    /// Only the hand-off note.
    Lightweight,
    /// The hand-off note and the matched domains' paths.
    Standard,
    /// The hand-off note, the deep paths and the matched domains' paths.
    Deep,
}

/// The outcome of the triage.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Triage {
    /// How much to load.
    pub(super) depth: Depth,
    /// The names of the domains whose signals the message holds, in configured order.
    pub(super) matched: Vec<String>,
    /// The paths to load, in order, without repeats (as configured, slashes trimmed).
    pub(super) paths: Vec<String>,
}

/// Triages `message` over `config`; `asked` is the depth the caller chose (`None`: auto).
pub(super) fn triage(config: &BootstrapConfig, message: &str, asked: Option<Depth>) -> Triage {
    let lower = message.to_lowercase();
    let matched: Vec<&crate::config::BootstrapDomain> = config
        .domains
        .iter()
        .filter(|domain| {
            domain
                .signals
                .iter()
                .any(|signal| has_words(&lower, &signal.to_lowercase()))
        })
        .collect();
    let deep_phrase = config
        .deep_phrases
        .iter()
        .map(|phrase| phrase.trim().to_lowercase())
        .any(|phrase| !phrase.is_empty() && lower.contains(&phrase));
    let routed = !config.domains.is_empty() || !config.deep_paths.is_empty();
    let depth = asked.unwrap_or(if !routed {
        Depth::Lightweight
    } else if deep_phrase || matched.len() >= DEEP_DOMAINS {
        Depth::Deep
    } else if matched.is_empty() {
        Depth::Lightweight
    } else {
        Depth::Standard
    });
    let domain_paths = matched.iter().flat_map(|domain| &domain.paths);
    let chosen: Vec<&String> = match depth {
        Depth::Lightweight => Vec::new(),
        Depth::Standard => domain_paths.collect(),
        Depth::Deep => config.deep_paths.iter().chain(domain_paths).collect(),
    };
    let mut paths: Vec<String> = Vec::new();
    for path in chosen {
        let path = path.trim_matches('/');
        if !path.is_empty() && !paths.iter().any(|known| known == path) {
            paths.push(path.to_owned());
        }
    }
    Triage {
        depth,
        matched: matched.iter().map(|domain| domain.name.clone()).collect(),
        paths,
    }
}

/// Whether `words` (lowercase, not empty after trimming) occurs in `text` (lowercase) with
/// no letter or digit right before or after it.
fn has_words(text: &str, words: &str) -> bool {
    let words = words.trim();
    if words.is_empty() {
        return false;
    }
    text.match_indices(words).any(|(at, found)| {
        let before = text[..at].chars().next_back();
        let after = text[at + found.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[cfg(test)]
mod tests {
    use super::has_words;

    #[test]
    fn signals_match_whole_words_only() {
        assert!(has_words("fix the git hook", "git"));
        assert!(has_words("git: status", "git"));
        assert!(has_words("the tax return, please", "tax return"));
        assert!(!has_words("digital garden", "git"));
        assert!(!has_words("gitlab", "git"));
        assert!(!has_words("anything", "  "));
        assert!(has_words("café ouvert", "café"));
        assert!(!has_words("cafés", "café"));
    }
}
