//! `session_bootstrap`: what a session starts with. The opening message is triaged over the
//! vault's routing table (`bootstrap` in its config, [`super::triage`]), and the vault's
//! hand-off note, then the chosen notes and folders, are read under the caller's read ACL,
//! at most `bootstrap.maxPaths` notes, each cut to [`MAX_NOTE_BYTES`] and all of them to what
//! the byte governor lets the answer carry. A path that cannot be loaded is listed in
//! `skipped` with its reason; a hidden one reads as a missing one. Without a routing table
//! every start is lightweight: the hand-off note only.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::triage::{Depth, triage};
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::budget::Budget;
use crate::tools::common::preload::{
    LoadedNote, SkipReason, Skipped, bootstrap_config, folder_notes, is_note_path, load,
};
use crate::tools::common::structured::{output_schema, structured};

/// The most bytes (inside a JSON string) of one loaded note's content.
pub const MAX_NOTE_BYTES: usize = 32 * 1024;

/// How the caller wants the session started.
#[derive(Debug, Clone, Copy, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum AskedMode {
    /// Triage the message (the default).
    #[default]
    Auto,
    /// Only the hand-off note.
    Lightweight,
    /// The hand-off note and the paths of the domains the message matches.
    Standard,
    /// The hand-off note, the deep paths and the matched domains' paths.
    Deep,
}

/// The arguments of `session_bootstrap`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SessionBootstrap {
    /// The session's opening message (what the person asked), triaged for the domains it
    /// is about and for phrases such as "where did we leave off".
    #[serde(default)]
    #[schemars(length(max = 8000))]
    message: String,
    /// `auto` (default: triage the message), or the depth to start at.
    #[serde(default)]
    mode: AskedMode,
}

/// What `session_bootstrap` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Bootstrap {
    /// The depth the session starts at.
    mode: Depth,
    /// The configured domains whose signals the message holds.
    matched_domains: Vec<String>,
    /// The notes loaded, the hand-off note first.
    loaded: Vec<LoadedNote>,
    /// The paths not loaded, with the reason.
    skipped: Vec<Skipped>,
    /// Whether a note's content was cut, or a note left out, to fit the answer.
    truncated: bool,
}

/// The `session_bootstrap` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "session_bootstrap",
            "Bootstrap a session",
            "Start a work session with the right notes: triages the opening message (auto -> lightweight / standard / deep by the vault's configured domains, their signals and phrases like 'where did we leave off') and loads the hand-off note the last session left and the matching notes, capped, with their frontmatter and hash; lists what it skipped.",
        ),
        "sessions",
        (
            input_schema::<SessionBootstrap>(),
            output_schema::<Bootstrap>(),
        ),
        session_bootstrap,
    )
    .keywords(&[
        "bootstrap",
        "session start",
        "preload",
        "where did we leave off",
        "catch me up",
        "triage",
    ])
    .scopes(&["read:notes"])
}

fn session_bootstrap(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SessionBootstrap = parse(args)?;
    let config = bootstrap_config(ctx);
    let asked = match args.mode {
        AskedMode::Auto => None,
        AskedMode::Lightweight => Some(Depth::Lightweight),
        AskedMode::Standard => Some(Depth::Standard),
        AskedMode::Deep => Some(Depth::Deep),
    };
    let triage = triage(&config, &args.message, asked);
    let mut loader = Loader {
        ctx,
        budget: Budget::new(ctx, usize::MAX),
        max_paths: config.max_paths,
        answer: Bootstrap {
            mode: triage.depth,
            matched_domains: triage.matched,
            loaded: Vec::new(),
            skipped: Vec::new(),
            truncated: false,
        },
    };
    loader.note(config.handoff_note.trim_matches('/'));
    for path in &triage.paths {
        if is_note_path(path) {
            loader.note(path);
        } else {
            loader.folder(path);
        }
    }
    let mut answer = loader.answer;
    answer.truncated = answer.loaded.iter().any(|note| note.truncated)
        || answer
            .skipped
            .iter()
            .any(|skip| skip.reason == SkipReason::NoRoom);
    structured(&answer)
}

/// The notes loaded so far, and what is left of the caps.
struct Loader<'c, 'r> {
    ctx: &'c ToolContext<'r>,
    budget: Budget,
    max_paths: usize,
    answer: Bootstrap,
}

impl Loader<'_, '_> {
    /// Whether the note at the canonical `path` is loaded already.
    fn has(&self, path: &str) -> bool {
        self.answer.loaded.iter().any(|note| note.path == path)
    }

    /// Whether `max_paths` notes are loaded.
    fn full(&self) -> bool {
        self.answer.loaded.len() >= self.max_paths
    }

    fn skip(&mut self, path: &str, reason: SkipReason) {
        self.answer.skipped.push(Skipped {
            path: path.to_owned(),
            reason,
        });
    }

    /// Loads the note `path` (configured), or says why not.
    fn note(&mut self, path: &str) {
        if self.full() {
            return self.skip(path, SkipReason::MaxPaths);
        }
        let fitted = load(self.ctx, path).and_then(|note| {
            if self.has(&note.path) {
                return Ok(None);
            }
            note.fit(&mut self.budget, MAX_NOTE_BYTES).map(Some)
        });
        match fitted {
            Ok(Some(note)) => self.answer.loaded.push(note),
            Ok(None) => {}
            Err(reason) => self.skip(path, reason),
        }
    }

    /// Loads the readable notes of the folder `path`, newest first, while the cap has
    /// room; a folder with none reads as a missing one.
    fn folder(&mut self, path: &str) {
        if self.full() {
            return self.skip(path, SkipReason::MaxPaths);
        }
        let notes = folder_notes(self.ctx, path);
        if notes.is_empty() {
            return self.skip(path, SkipReason::NotFound);
        }
        for note in notes {
            if self.full() {
                break;
            }
            if !self.has(&note) {
                self.note(&note);
            }
        }
    }
}
