//! What `obsidian-tc --version` (and `obsidian-tc version`) says: the version, the git commit
//! the binary was built from (recorded by build.rs; "unknown" for a build outside a git
//! checkout) and the embedding engines compiled in.

use std::sync::LazyLock;

/// The package version, e.g. `0.1.0`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit of the build, or `unknown`.
pub const COMMIT: &str = env!("OBSIDIAN_TC_GIT_COMMIT");

/// The embedding engines this build has, by the Cargo features it was built with.
pub fn engines() -> Vec<&'static str> {
    let mut engines = Vec::new();
    if cfg!(feature = "local-embeddings") {
        engines.push("candle");
    }
    if cfg!(feature = "onnx-runtime") {
        engines.push("onnx-runtime (load-dynamic)");
    }
    engines
}

/// The long version text, one fact a line:
///
/// ```text
/// obsidian-tc 0.1.0
/// commit: 3a06068…
/// embedding engines: candle, onnx-runtime (load-dynamic)
/// ```
///
/// (clap prefixes the first line's program name itself for `--version`, so this starts with
/// the version number.)
pub fn long_version() -> &'static str {
    static TEXT: LazyLock<String> = LazyLock::new(|| {
        let engines = engines();
        let engines = if engines.is_empty() {
            "none (remote providers only)".to_owned()
        } else {
            engines.join(", ")
        };
        format!("{VERSION}\ncommit: {COMMIT}\nembedding engines: {engines}")
    });
    &TEXT
}
