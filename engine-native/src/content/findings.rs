//! What a text an agent writes holds, for the answer of the tool that wrote it: the
//! prompt-injection flags of [`crate::content::injection`] (the same `content_flags` and
//! `content_risk` fields reads carry) and the credential classes of
//! [`crate::content::secrets`], by name and count (never the matched text). Reported, never
//! acted on: the text is written as given, so the agent can tell the person what went in.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::content::injection::ContentFlags;
use crate::content::secrets::{class_counts, find_secrets};

/// The findings of the texts of one write; every field is absent when nothing was found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ContentFindings {
    /// Prompt-injection shapes in the written text, and their highest risk.
    #[serde(flatten)]
    pub flags: ContentFlags,
    /// Credential-shaped text in the written text: how many of each class (e.g.
    /// `aws_access_key_id: 1`). The text was written as given; tell the person, who may want
    /// to remove the credential and revoke it.
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub content_secrets: BTreeMap<String, usize>,
}

impl ContentFindings {
    /// The findings of `texts`, each scanned by itself (a shape never spans two of them).
    pub fn of<'t>(texts: impl IntoIterator<Item = &'t str>) -> ContentFindings {
        let mut flags = Vec::new();
        let mut content_secrets = BTreeMap::new();
        for text in texts {
            flags.extend(ContentFlags::of(text).content_flags);
            for (class, count) in class_counts(&find_secrets(text)) {
                *content_secrets.entry(class.name().to_owned()).or_default() += count;
            }
        }
        ContentFindings {
            flags: ContentFlags::from_flags(flags),
            content_secrets,
        }
    }
}
