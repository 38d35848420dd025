//! Who a topic is: the identity evidence the wiki's pages carry for it (exact path, file
//! name, `aliases`, `wikidata` QID, title or first H1, the link text other notes use for a
//! page) and the verdict the evidence gives. Pure: the pages and the links are read by the
//! caller.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::pages::Page;

/// What a topic names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Topic {
    /// A Wikidata QID (`Q42`).
    Wikidata(String),
    /// A vault path (has a `/` or ends in `.md`).
    Path(String),
    /// A `[[link]]`: its target, resolved by the caller.
    Link(String),
    /// Words.
    Text(String),
}

impl Topic {
    /// Reads a topic argument.
    pub fn parse(topic: &str) -> Topic {
        let topic = topic.trim();
        if let Some(inner) = topic
            .strip_prefix("[[")
            .and_then(|rest| rest.strip_suffix("]]"))
        {
            let target = inner.split('|').next().unwrap_or(inner);
            return Topic::Link(target.split('#').next().unwrap_or(target).trim().to_owned());
        }
        let qid = topic.strip_prefix(['Q', 'q']).unwrap_or("");
        if !qid.is_empty() && qid.bytes().all(|byte| byte.is_ascii_digit()) {
            return Topic::Wikidata(format!("Q{qid}"));
        }
        if topic.contains('/') || topic.to_lowercase().ends_with(".md") {
            return Topic::Path(topic.trim_start_matches('/').to_owned());
        }
        Topic::Text(topic.to_owned())
    }

    /// The words the topic's names are compared by (a path's or a link's file name).
    pub fn words(&self) -> String {
        match self {
            Topic::Wikidata(qid) => qid.clone(),
            Topic::Text(text) => text.clone(),
            Topic::Path(path) | Topic::Link(path) => {
                let name = path.rsplit('/').next().unwrap_or(path);
                name.strip_suffix(".md").unwrap_or(name).to_owned()
            }
        }
    }
}

/// A name folded for comparison: lower case, `-` and `_` as spaces, one space between words.
pub(super) fn fold(name: &str) -> String {
    name.to_lowercase()
        .replace(['-', '_'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// How much a piece of evidence says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    /// Similar words or meaning: maybe the same topic.
    Soft,
    /// The page names the topic itself: the same topic.
    Strong,
}

/// What a piece of evidence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// The topic is the page's path (or a link resolving to it).
    Path,
    /// The topic is the page's file name (case, `-`, `_` and spaces folded).
    NameVariant,
    /// The topic is one of the page's `aliases`.
    Alias,
    /// The topic is the page's `wikidata` QID.
    Wikidata,
    /// The topic is the page's `title` or first H1.
    Title,
    /// Another note links to the page with the topic as the link's text.
    LinkText,
    /// A chunk of the page is close in meaning to the topic.
    Semantic,
    /// The model judge said the page is about the topic.
    JudgedBy,
}

impl EvidenceKind {
    /// Identity (strong) or similarity (soft).
    pub fn strength(self) -> Strength {
        match self {
            EvidenceKind::LinkText | EvidenceKind::Semantic => Strength::Soft,
            _ => Strength::Strong,
        }
    }
}

/// One piece of evidence that a page is the topic's.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Evidence {
    /// What it is.
    pub kind: EvidenceKind,
    /// The matched value (alias, title, QID, link text, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// The note the link text is written in (`link_text`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The best chunk's cosine (`semantic`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

impl Evidence {
    /// Evidence of `kind` matching `value`.
    pub fn of(kind: EvidenceKind, value: &str) -> Evidence {
        Evidence {
            kind,
            value: Some(value.to_owned()),
            source: None,
            score: None,
        }
    }
}

/// A page that may be the topic's, with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Candidate {
    /// The page's path.
    pub path: String,
    /// `strong` when any evidence is identity, else `soft`.
    pub strength: Strength,
    /// Why it is a candidate.
    pub evidence: Vec<Evidence>,
    /// The page is an excluded file (Obsidian's "Excluded files"): a link target, never a
    /// similarity candidate.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub excluded: bool,
}

/// The dedupe verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// One page is the topic's: link to it.
    Exists,
    /// Several pages may be, or only similarity says one is: review them.
    Ambiguous,
    /// No page is: create one.
    New,
}

/// The candidates, keyed by path, as evidence is found.
#[derive(Debug, Default)]
pub(super) struct Candidates {
    by_path: BTreeMap<String, Candidate>,
}

impl Candidates {
    /// Adds `evidence` for the page at `path`.
    pub fn add(&mut self, path: &str, excluded: bool, evidence: Evidence) {
        let candidate = self
            .by_path
            .entry(path.to_owned())
            .or_insert_with(|| Candidate {
                path: path.to_owned(),
                strength: Strength::Soft,
                evidence: Vec::new(),
                excluded,
            });
        candidate.strength = candidate.strength.max(evidence.kind.strength());
        if !candidate.evidence.contains(&evidence) {
            candidate.evidence.push(evidence);
        }
    }

    /// The identity evidence `page` carries for `topic` (everything but link text and
    /// similarity); `resolved` is the page a path or link topic resolves to.
    pub fn identity(&mut self, topic: &Topic, resolved: Option<&str>, page: &Page) {
        let words = fold(&topic.words());
        let mut found = Vec::new();
        if resolved == Some(page.path.as_str()) {
            found.push(Evidence::of(EvidenceKind::Path, &page.path));
        }
        if let Topic::Wikidata(qid) = topic {
            if page
                .property("wikidata")
                .is_some_and(|value| value.eq_ignore_ascii_case(qid))
            {
                found.push(Evidence::of(EvidenceKind::Wikidata, qid));
            }
        } else {
            if fold(&page.stem) == words {
                found.push(Evidence::of(EvidenceKind::NameVariant, &page.stem));
            }
            for alias in page.list("aliases") {
                if fold(&alias) == words {
                    found.push(Evidence::of(EvidenceKind::Alias, &alias));
                }
            }
            for title in [page.property("title"), page.h1.as_deref()]
                .into_iter()
                .flatten()
            {
                if fold(title) == words {
                    found.push(Evidence::of(EvidenceKind::Title, title));
                }
            }
        }
        for evidence in found {
            self.add(&page.path, page.excluded, evidence);
        }
    }

    /// The candidates, strongest first (strength, then evidence count, then path).
    pub fn ranked(self) -> Vec<Candidate> {
        let mut all: Vec<Candidate> = self.by_path.into_values().collect();
        all.sort_by(|a, b| {
            b.strength
                .cmp(&a.strength)
                .then(b.evidence.len().cmp(&a.evidence.len()))
                .then(a.path.cmp(&b.path))
        });
        all
    }
}

/// The verdict of `candidates`: one path match or one strong candidate is `exists`; several
/// strong ones are `ambiguous`; only soft evidence is `ambiguous`; nothing is `new`.
pub fn verdict(candidates: &[Candidate]) -> Verdict {
    let by_path = candidates
        .iter()
        .filter(|candidate| has(candidate, EvidenceKind::Path))
        .count();
    let strong = candidates
        .iter()
        .filter(|candidate| candidate.strength == Strength::Strong)
        .count();
    match (by_path, strong, candidates.len()) {
        (1, _, _) | (_, 1, _) => Verdict::Exists,
        (_, _, 0) => Verdict::New,
        _ => Verdict::Ambiguous,
    }
}

/// Whether `candidate` has evidence of `kind`.
pub(super) fn has(candidate: &Candidate, kind: EvidenceKind) -> bool {
    candidate
        .evidence
        .iter()
        .any(|evidence| evidence.kind == kind)
}
