//! `reflect`: an answer to a question written by the language model from the vault's own
//! notes, each claim cited as `[n]` of numbered evidence; or, in mode `challenge`, the
//! question weighed as a proposal by the judge. The recall is `vault_graph_search`'s
//! ranking, cut to a `scope` folder; the evidence passes the egress guard; without a model
//! the answer is `available: false` and the sources still come back. `persist: true` (scope
//! `write:notes`) keeps the answer as a note in `<memoryFolder>/reflections/`.

use engine_core::acl::{Scope, satisfies_all};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::evidence::{Recall, numbered, recall};
use super::judge::{self, ChallengeOutput};
use crate::calendar::{Date, rfc3339_utc};
use crate::errors::ToolError;
use crate::frontmatter;
use crate::inference::egress::{Chunk, Withheld};
use crate::inference::{ChatMessage, InferenceError, ModelAnswer, ModelRequest, Role, Usage};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::file_name::{clean_title, write_new_note};
use crate::tools::common::memory_folder::memory_folder;
use crate::tools::common::model::gateway;
use crate::tools::common::structured::{output_schema, structured};
use crate::vault::queue;

/// The most characters of one evidence chunk.
const EVIDENCE_CHARS: usize = 800;
/// The most tokens of a synthesis.
const SYNTHESIS_TOKENS: u32 = 1024;
/// The subfolder of the memory folder that holds the kept reflections.
const REFLECTIONS_SUBFOLDER: &str = "reflections";
/// The most characters of a reflection note's name after its date.
const SLUG_CHARS: usize = 60;
/// The scope `persist` needs.
const PERSIST_SCOPE: &str = "write:notes";

const SYSTEM: &str = "Answer the question from the numbered evidence only, taken from the \
user's notes. Cite inline as [n] after each claim, n being the evidence's number. If the \
evidence does not answer the question, say so.";

/// What `reflect` does with the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Mode {
    /// An answer written from the evidence, cited as `[n]`.
    Synthesis,
    /// The question weighed as a proposal against the evidence (the judge's verdict).
    Challenge,
}

/// The arguments of `reflect`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReflectArgs {
    /// The question (or, in mode `challenge`, the proposal).
    #[schemars(length(min = 3, max = 4000))]
    query: String,
    /// `synthesis` (default) or `challenge`.
    #[serde(default = "synthesis")]
    mode: Mode,
    /// How many chunks of evidence at most (default 20).
    #[serde(default = "twenty")]
    #[schemars(range(min = 1, max = 60))]
    k: usize,
    /// Only notes whose path starts with this (a folder such as `Projects/`).
    #[serde(default)]
    #[schemars(length(max = 1000))]
    scope: Option<String>,
    /// Keep the answer as a note in `<memoryFolder>/reflections/` (needs `write:notes`;
    /// mode `synthesis` only).
    #[serde(default)]
    persist: bool,
}

fn synthesis() -> Mode {
    Mode::Synthesis
}

fn twenty() -> usize {
    20
}

/// One chunk of evidence the model was shown.
#[derive(Debug, Serialize, JsonSchema)]
struct Source {
    /// Its number in the prompt: the answer cites it as `[n]`.
    n: usize,
    /// The chunk's key (for `record_retrieval_feedback`).
    #[serde(skip_serializing_if = "Option::is_none")]
    chunk_id: Option<String>,
    /// The note's vault path.
    path: String,
    /// Its rank score.
    score: f64,
}

/// The note a persisted reflection was written to.
#[derive(Debug, Serialize, JsonSchema)]
struct Persisted {
    /// Its vault path.
    path: String,
}

/// What `reflect` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Reflection {
    /// Whether a language model was there (false: no answer, the sources still come).
    available: bool,
    /// How to enable a model, when none is there.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// The answer, cited as `[n]` (mode `synthesis`, with a model).
    answer: Option<String>,
    /// The judge's verdict (mode `challenge`, with a model).
    #[serde(skip_serializing_if = "Option::is_none")]
    challenge: Option<ChallengeOutput>,
    /// The model that answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<String>,
    /// `sampling` (the client's model) or `endpoint` (the configured one).
    #[serde(skip_serializing_if = "Option::is_none")]
    provider: Option<String>,
    /// The evidence the model was (or would have been) shown, best first.
    sources: Vec<Source>,
    /// How many chunks were kept from the model, by reason (counts only).
    withheld: Withheld,
    /// The model calls and tokens this call spent.
    usage: Usage,
    /// Where the answer was kept (`persist: true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    persisted: Option<Persisted>,
}

/// The `reflect` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "reflect",
            "Reflect on the vault",
            "Answer a question from the vault's own notes with a language model (the MCP \
             client's model through sampling, or the configured chat endpoint): the best \
             chunks of a graph search become numbered evidence and the answer cites them as \
             [n]. mode challenge weighs the question as a proposal instead. scope keeps to a \
             folder; persist keeps the answer as a note (needs write:notes). Without a model: \
             available false, with the sources.",
        ),
        "knowledge",
        (input_schema::<ReflectArgs>(), output_schema::<Reflection>()),
        reflect,
    )
    .keywords(&[
        "synthesize",
        "what do my notes say",
        "summarize what I know",
        "answer with citations",
        "ask the vault",
        "llm answer",
    ])
    .scopes(&["read:notes"])
}

fn reflect(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ReflectArgs = parse(args)?;
    if args.persist {
        let required: Vec<Scope> = Scope::parse(PERSIST_SCOPE).into_iter().collect();
        if !satisfies_all(&ctx.caller().scopes, &required) {
            return Err(ToolError::forbidden_scopes(&required, &ctx.caller().scopes));
        }
    }
    let scope = args.scope.as_deref().unwrap_or_default();
    let guarded = recall(
        ctx,
        &Recall {
            query: &args.query,
            k: args.k,
            max_chars: EVIDENCE_CHARS,
        },
        &|path| path.starts_with(scope),
    )?;
    let evidence = guarded.sendable;
    let mut reflection = Reflection {
        available: false,
        message: None,
        answer: None,
        challenge: None,
        model: None,
        provider: None,
        sources: sources(&evidence),
        withheld: guarded.withheld,
        usage: Usage::default(),
        persisted: None,
    };
    let model = gateway(ctx);
    if model.provider().is_none() {
        reflection.message = Some(model.unavailable_message().to_owned());
        return structured(&reflection);
    }
    reflection.available = true;
    let answered = match args.mode {
        Mode::Synthesis => model.complete(&synthesis_request(&args.query, &evidence)),
        Mode::Challenge => model.complete(&judge::request(&args.query, &evidence)),
    };
    reflection.usage = model.usage();
    let answer = answered.map_err(|error| error.to_tool_error())?;
    reflection.model = Some(answer.model.clone());
    reflection.provider = Some(answer.provider.as_str().to_owned());
    match args.mode {
        Mode::Synthesis => {
            if args.persist {
                reflection.persisted = Some(persist(ctx, &args.query, &answer, &evidence)?);
            }
            reflection.answer = Some(answer.text);
        }
        Mode::Challenge => {
            let output = judge::parse(&answer.text, &evidence)
                .map_err(|error: InferenceError| error.to_tool_error())?;
            reflection.challenge = Some(output);
        }
    }
    structured(&reflection)
}

/// The evidence as the answer lists it.
fn sources(evidence: &[Chunk]) -> Vec<Source> {
    evidence
        .iter()
        .enumerate()
        .map(|(at, chunk)| Source {
            n: at + 1,
            chunk_id: chunk.chunk_id.clone(),
            path: chunk.path.clone(),
            score: chunk.score,
        })
        .collect()
}

/// The synthesis request for `query` over `evidence`.
fn synthesis_request(query: &str, evidence: &[Chunk]) -> ModelRequest {
    ModelRequest {
        role: Role::Synthesize,
        system: Some(SYSTEM.to_owned()),
        messages: vec![ChatMessage::user(format!(
            "Question:\n{query}\n\nEvidence:\n{}",
            numbered(evidence)
        ))],
        max_tokens: SYNTHESIS_TOKENS,
        temperature: Some(0.2),
    }
}

/// Writes the reflection note through the vault's governed write path (the write queue,
/// a snapshot and a reindex by dispatch): frontmatter `generated_at, source_model, query,
/// source_chunks, source_paths`, the answer, and the sources as `[[links]]`.
fn persist(
    ctx: &ToolContext<'_>,
    query: &str,
    answer: &ModelAnswer,
    evidence: &[Chunk],
) -> Result<Persisted, ToolError> {
    let now_ms = ctx.clock().now_ms();
    let folder = format!("{}/{REFLECTIONS_SUBFOLDER}", memory_folder(ctx));
    let stem = format!("{}-{}", Date::from_unix_ms(now_ms), slug(query));
    let text = note_text(now_ms, query, answer, evidence)?;
    let written = queue::serialized(ctx.vault(), || {
        write_new_note(ctx, &folder, &stem, text.as_bytes())
    })?;
    Ok(Persisted { path: written.path })
}

/// The note's text.
fn note_text(
    now_ms: u64,
    query: &str,
    answer: &ModelAnswer,
    evidence: &[Chunk],
) -> Result<String, ToolError> {
    let mut paths: Vec<&str> = evidence.iter().map(|chunk| chunk.path.as_str()).collect();
    paths.dedup();
    let properties = [
        (
            "generated_at",
            json!(rfc3339_utc(i64::try_from(now_ms / 1000).unwrap_or(0))),
        ),
        ("source_model", json!(answer.model)),
        ("query", json!(query)),
        (
            "source_chunks",
            json!(
                evidence
                    .iter()
                    .filter_map(|c| c.chunk_id.as_deref())
                    .collect::<Vec<_>>()
            ),
        ),
        ("source_paths", json!(paths)),
    ];
    let mut note = frontmatter::block_of(properties)
        .map_err(|error| ToolError::internal(format!("a reflection's frontmatter: {error}")))?;
    note.push_str(&format!(
        "# {}\n\n{}\n\n## Sources\n\n",
        clean_title(query),
        answer.text.trim()
    ));
    for (at, chunk) in evidence.iter().enumerate() {
        let target = chunk.path.strip_suffix(".md").unwrap_or(&chunk.path);
        note.push_str(&format!("{}. [[{target}]]\n", at + 1));
    }
    Ok(note)
}

/// The note name's part after the date: the query's words, cleaned of what a file name may
/// not hold, lower case, joined by `-`, at most [`SLUG_CHARS`] characters.
fn slug(query: &str) -> String {
    let words: Vec<String> = clean_title(query)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    let slug: String = words.join("-").chars().take(SLUG_CHARS).collect();
    match slug.trim_end_matches('-') {
        "" => "reflection".to_owned(),
        cut => cut.to_owned(),
    }
}
