//! Exports for [`engine_core::text`]: analyzing text into terms, the analyzer fingerprint
//! and the English stemmer.
//!
//! Inputs refuse unknown fields (`fold_cases`), natively and in WASM alike, so a misspelt
//! setting can never silently change the analyzer (and its fingerprint) in the plugin.

use engine_core::text::{ANALYZER_VERSION, Analyzer, AnalyzerSettings, Stemmer, Token};
use serde::{Deserialize, Serialize};

use super::ApiError;

/// Input of [`analyze`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeInput {
    /// The text to analyze.
    pub text: String,
    /// Analyzer settings; missing fields (or a missing or null object) take the defaults.
    #[serde(default)]
    pub settings: Option<AnalyzerSettings>,
}

/// Output of [`analyze`].
#[derive(Debug, Serialize)]
pub struct AnalyzeOutput {
    /// The tokens in order: term, UTF-8 byte offsets `start..end` into `text`, position.
    pub tokens: Vec<Token>,
}

/// Analyzes a text into tokens. Input: [`AnalyzeInput`].
pub fn analyze(input: AnalyzeInput) -> Result<AnalyzeOutput, ApiError> {
    let tokens = Analyzer::new(input.settings.unwrap_or_default()).analyze(&input.text);
    Ok(AnalyzeOutput { tokens })
}

/// Input of [`analyzer_fingerprint`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzerFingerprintInput {
    /// Analyzer settings; missing fields (or a missing or null object) take the defaults.
    #[serde(default)]
    pub settings: Option<AnalyzerSettings>,
}

/// Output of [`analyzer_fingerprint`].
#[derive(Debug, Serialize)]
pub struct AnalyzerFingerprintOutput {
    /// 32 lower-case hex digits identifying the analyzer's output.
    pub fingerprint: String,
    /// The analyzer version included in the fingerprint.
    pub analyzer_version: u32,
    /// The settings with every default filled in.
    pub settings: AnalyzerSettings,
}

/// The fingerprint of an analyzer configuration, with the settings it stands for.
/// Input: [`AnalyzerFingerprintInput`].
pub fn analyzer_fingerprint(
    input: AnalyzerFingerprintInput,
) -> Result<AnalyzerFingerprintOutput, ApiError> {
    let analyzer = Analyzer::new(input.settings.unwrap_or_default());
    Ok(AnalyzerFingerprintOutput {
        fingerprint: analyzer.fingerprint().to_owned(),
        analyzer_version: ANALYZER_VERSION,
        settings: analyzer.settings().clone(),
    })
}

/// Input of [`stem`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StemInput {
    /// One word.
    pub word: String,
    /// The stemmer; `english` when absent.
    #[serde(default)]
    pub stemmer: Option<Stemmer>,
}

/// Output of [`stem`].
#[derive(Debug, Serialize)]
pub struct StemOutput {
    /// The stem (the word itself with the `none` stemmer, or when it is not ASCII).
    pub stem: String,
}

/// Stems one word, exactly as the Snowball `english` stemmer does (for ASCII words).
/// Input: [`StemInput`].
pub fn stem(input: StemInput) -> Result<StemOutput, ApiError> {
    let stem = match input.stemmer.unwrap_or(Stemmer::English) {
        Stemmer::English => engine_core::text::stem_english(&input.word),
        Stemmer::None => input.word,
    };
    Ok(StemOutput { stem })
}
