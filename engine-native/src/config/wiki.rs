//! A vault's `wiki` section: the folder the wiki tools (`find_existing_page`, `lint_wiki`,
//! `draft_wiki_page`, `commit_wiki_page`) keep their pages in, and the folder of raw sources
//! beside it. It is a vault's own (`vaults[].wiki`): its folders are that vault's.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The raw-sources folder's name when the vault names none (beside the wiki folder).
pub const DEFAULT_RAW_FOLDER: &str = "raw";

/// The wiki of one vault (`vaults[].wiki`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WikiConfig {
    /// The vault-relative folder of the wiki's pages (its `SCHEMA.md`, `index.md` and
    /// `log.md` too); `commit_wiki_page` writes pages only inside it.
    #[schemars(length(min = 1, max = 1024))]
    pub folder: String,
    /// The vault-relative folder of raw sources (default: `raw` beside `folder`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 1024))]
    pub raw_folder: Option<String>,
}

impl WikiConfig {
    /// The wiki folder without leading or trailing slashes.
    pub fn folder(&self) -> &str {
        self.folder.trim_matches('/')
    }

    /// The raw-sources folder: the configured one, else `raw` beside the wiki folder.
    pub fn raw_folder(&self) -> String {
        if let Some(raw) = &self.raw_folder {
            return raw.trim_matches('/').to_owned();
        }
        match self.folder().rsplit_once('/') {
            Some((parent, _)) => format!("{parent}/{DEFAULT_RAW_FOLDER}"),
            None => DEFAULT_RAW_FOLDER.to_owned(),
        }
    }
}
