//! Text analysis: the tokenizer and analyzer behind every lexical index and query.
//!
//! An [`Analyzer`] turns text into [`Token`]s (term, byte offsets into the original text,
//! position) according to [`AnalyzerSettings`]:
//!
//! 1. The text is cut at ASCII whitespace into pieces. A pure-ASCII piece takes a fast path
//!    that needs no normalization; the others are folded (NFKC or NFC, case folding,
//!    diacritic removal, invisible characters dropped; see `normalize`) with a map back to
//!    the original offsets.
//! 2. Pieces are split at UAX #29 word boundaries. Tokens are runs of letters and digits
//!    (with their combining marks): punctuation inside a UAX #29 word splits it
//!    (`l'homme` → `l`, `homme`; `node.js` → `node`, `js`; `snake_case` → `snake`,
//!    `case`), except a numeric separator between digits (`3.14`, `1,000` stay whole).
//!    A lone `s` after a letter and an apostrophe is dropped (`cafe's` → `cafe`,
//!    `it's` → `it`; `don't` → `don`, `t`).
//! 3. Han, Kana, Hangul, Thai, Lao, Myanmar and Khmer letters form runs indexed as
//!    overlapping bigrams (`東京都` → `東京`, `京都`; a lone character as a unigram), so
//!    that search works in languages written without spaces.
//! 4. Emoji, symbols and punctuation are not tokens. Numbers are.
//! 5. Each term then passes the length limit (longer tokens are dropped), the stop word
//!    list and the stemmer.
//!
//! Equivalent inputs (NFC, NFD, ...) give the same terms. [`Analyzer::fingerprint`]
//! identifies the output; it changes with any setting and with [`ANALYZER_VERSION`].

mod analyzer;
mod ascii;
mod chars;
mod normalize;
mod porter2;
mod script;
mod segment;
mod settings;
mod stopwords;

pub use analyzer::{Analyzer, Token};
pub use porter2::stem_english;
pub use settings::{ANALYZER_VERSION, AnalyzerSettings, Stemmer, StopWords};
pub use stopwords::ENGLISH_STOP_WORDS;
