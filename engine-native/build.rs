//! Embeds the built TC Bridge plugin (`main.js`, `manifest.json`, `styles.css` when present)
//! into the binary, so `obsidian-tc plugin install` works with the binary alone, and records
//! the git commit the binary is built from for `obsidian-tc --version` (see [`git_commit`]).
//!
//! Where the files come from:
//! - `OBSIDIAN_TC_PLUGIN_DIR=<absolute folder>`: that folder; `main.js` and `manifest.json`
//!   must be there or the build fails (release and CI builds set it, so they never ship a
//!   binary without the plugin);
//! - otherwise `tc-bridge/` beside this script, when it holds `main.js`: the copy
//!   `scripts/release.sh` puts into the published crate, so `cargo install obsidian-tc` builds
//!   the whole product (the folder is not tracked; the script removes it after packaging);
//! - otherwise the repository root, when `npm run build` has written `main.js` there;
//! - otherwise nothing: the build still succeeds (a fresh clone needs no npm) and
//!   `plugin install` asks for `--from <folder>`.
//!
//! It also turns the Companion API contract (`contract/companion-api.json`, which TC Bridge
//! imports too) into the constants of `crate::companion::contract` (see `contract/codegen.rs`).
//!
//! Cargo reruns this script when an embedded file, the variable or `manifest.json` changes. A
//! `main.js` built after a build without it is picked up once one of those changes (Cargo
//! would rerun on every build if it watched a missing file).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

#[path = "contract/codegen.rs"]
mod codegen;

/// The variable naming the folder to embed the plugin from.
const PLUGIN_DIR_VAR: &str = "OBSIDIAN_TC_PLUGIN_DIR";

/// The plugin folder inside a packaged crate (beside this script).
const PACKAGED: &str = "tc-bridge";

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed={PLUGIN_DIR_VAR}");
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by Cargo"));
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("set by Cargo"));
    let source = match env::var_os(PLUGIN_DIR_VAR) {
        Some(dir) => Some(required_source(Path::new(&dir))),
        None if manifest_dir.join(PACKAGED).join(MAIN_JS).is_file() => {
            Some(manifest_dir.join(PACKAGED))
        }
        None => {
            let root = manifest_dir
                .parent()
                .expect("engine-native is in the workspace");
            // Watched so a new version number re-embeds; it is tracked, so it always exists.
            println!("cargo::rerun-if-changed={}", root.join(MANIFEST).display());
            root.join(MAIN_JS).is_file().then(|| root.to_path_buf())
        }
    };
    let code = match source {
        Some(dir) => embedded(&dir),
        None => "None".to_owned(),
    };
    let generated = format!(
        "/// The plugin files built into this binary, if any (see build.rs).\n\
         const EMBEDDED: Option<Embedded> = {code};\n"
    );
    fs::write(out_dir.join("embedded_plugin.rs"), generated).expect("OUT_DIR is writable");
    // The file, not its folder: Cargo compares a watched folder by the newest time of anything
    // in it, the folder included, so a fresh checkout (new folder times) reran this script and
    // then compiled the crate again in every profile, whatever had changed. `codegen.rs` is part
    // of this script's own build.
    println!("cargo::rerun-if-changed={}", codegen::CONTRACT);
    let contract = codegen::generate(&manifest_dir.join(codegen::CONTRACT));
    fs::write(out_dir.join("companion_contract.rs"), contract).expect("OUT_DIR is writable");
    println!(
        "cargo::rustc-env={COMMIT_VAR}={}",
        git_commit(&manifest_dir).unwrap_or_else(|| "unknown".to_owned())
    );
}

/// The variable naming the commit (set by builds from a source archive without `.git`, by the
/// release workflow, and by scripts/test.sh to the newest commit that changed a file other than
/// Markdown, so that a commit of documentation alone does not rerun this script: Cargo compiles
/// the crate again whenever it reruns), and the one `--version` reads at compile time.
const COMMIT_VAR: &str = "OBSIDIAN_TC_GIT_COMMIT";

/// The commit: `OBSIDIAN_TC_GIT_COMMIT` when set, else `git rev-parse HEAD` in the source
/// folder, else the one `cargo package` recorded in `.cargo_vcs_info.json` (a crate from
/// crates.io); `None` when there is none of them. Cargo reruns this script when the
/// variable, `HEAD` or the branch it points to changes (a worktree's `HEAD` and the shared
/// refs are found with `git rev-parse --git-path`).
fn git_commit(manifest_dir: &Path) -> Option<String> {
    println!("cargo::rerun-if-env-changed={COMMIT_VAR}");
    if let Some(commit) = env::var_os(COMMIT_VAR) {
        return Some(commit.to_string_lossy().into_owned());
    }
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git")
            .args(args)
            .current_dir(manifest_dir)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
    };
    let Some(commit) = git(&["rev-parse", "HEAD"]) else {
        return packaged_commit(manifest_dir);
    };
    let mut watched = vec!["HEAD".to_owned(), "packed-refs".to_owned()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", &name])
            && Path::new(&path).exists()
        {
            println!("cargo::rerun-if-changed={path}");
        }
    }
    Some(commit)
}

/// The `git.sha1` of the `.cargo_vcs_info.json` that `cargo package` writes into a crate.
fn packaged_commit(manifest_dir: &Path) -> Option<String> {
    let info = fs::read_to_string(manifest_dir.join(".cargo_vcs_info.json")).ok()?;
    let info: serde_json::Value = serde_json::from_str(&info).ok()?;
    Some(info["git"]["sha1"].as_str()?.to_owned())
}

const MAIN_JS: &str = "main.js";
const MANIFEST: &str = "manifest.json";
const STYLES: &str = "styles.css";

/// The folder `OBSIDIAN_TC_PLUGIN_DIR` names, which must hold the plugin.
fn required_source(dir: &Path) -> PathBuf {
    if !dir.is_absolute() {
        panic!(
            "{PLUGIN_DIR_VAR}={} must be an absolute path to a folder with main.js and \
             manifest.json",
            dir.display()
        );
    }
    for name in [MAIN_JS, MANIFEST] {
        if !dir.join(name).is_file() {
            panic!(
                "{PLUGIN_DIR_VAR}={}: {name} is missing (run `npm ci && npm run build` at the \
                 repository root, or unset {PLUGIN_DIR_VAR} to build without the plugin)",
                dir.display()
            );
        }
    }
    dir.to_path_buf()
}

/// The `Some(Embedded { .. })` expression including the files of `dir`.
fn embedded(dir: &Path) -> String {
    let include = |name: &str| {
        let path = dir.join(name);
        println!("cargo::rerun-if-changed={}", path.display());
        format!("include_bytes!({:?})", path.display().to_string())
    };
    let styles = if dir.join(STYLES).is_file() {
        format!("Some({})", include(STYLES))
    } else {
        "None".to_owned()
    };
    format!(
        "Some(Embedded {{ main_js: {}, manifest_json: {}, styles_css: {styles} }})",
        include(MAIN_JS),
        include(MANIFEST)
    )
}
