//! The programs a benchmark drives: the product binary and the baselines, found beside the
//! benchmark itself (`target/release/`, where cargo puts them all) unless named.

use std::path::PathBuf;

/// The vault a benchmark serves and the product binary it serves it with (command-line
/// options, flattened into each benchmark's own).
#[derive(Debug, clap::Args)]
pub struct Served {
    /// The vault to serve.
    #[arg(long, default_value = "../shared/vaults/obsidian-help-en")]
    pub vault: PathBuf,
    /// The obsidian-tc binary (else OBSIDIAN_TC_BIN, else `obsidian-tc` next to this
    /// program).
    #[arg(long)]
    pub bin: Option<PathBuf>,
}

/// The obsidian-tc binary: `given`, else `OBSIDIAN_TC_BIN`, else `obsidian-tc` beside this
/// program; an error says how to build it when it is missing.
pub fn product(given: Option<PathBuf>) -> Result<PathBuf, String> {
    let given = given.or_else(|| std::env::var_os("OBSIDIAN_TC_BIN").map(PathBuf::from));
    program(given, "obsidian-tc", "-p obsidian-tc --bin obsidian-tc")
}

/// `given`, else `name` beside this program; `build` is the cargo selection that builds it.
pub fn program(given: Option<PathBuf>, name: &str, build: &str) -> Result<PathBuf, String> {
    let path = match given {
        Some(path) => path,
        None => {
            let exe =
                std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
            exe.parent().ok_or("this program has no folder")?.join(name)
        }
    };
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "{} is missing: build it first with `cargo build --release {build}`",
            path.display()
        ))
    }
}
