//! The TC Bridge plugin files `plugin install` copies: the ones built into this binary (see
//! `engine-native/build.rs`) or those of a folder given with `--from`, checked to be TC
//! Bridge's before anything is written.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The plugin's id: its folder name under `.obsidian/plugins/` and its entry in
/// `.obsidian/community-plugins.json`.
pub const PLUGIN_ID: &str = "tc-bridge";

/// The bundle `npm run build` writes.
pub const MAIN_JS: &str = "main.js";
/// The plugin's manifest (id, version).
pub const MANIFEST_JSON: &str = "manifest.json";
/// The plugin's stylesheet, when it has one.
pub const STYLES_CSS: &str = "styles.css";

/// The files build.rs found at compile time.
struct Embedded {
    main_js: &'static [u8],
    manifest_json: &'static [u8],
    styles_css: Option<&'static [u8]>,
}

include!(concat!(env!("OUT_DIR"), "/embedded_plugin.rs"));

/// Where the files came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Built into this binary.
    Embedded,
    /// Read from this folder.
    Folder(PathBuf),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Embedded => write!(f, "the files built into obsidian-tc"),
            Origin::Folder(dir) => write!(f, "{}", dir.display()),
        }
    }
}

/// The plugin's files and the version its manifest declares.
#[derive(Debug, Clone)]
pub struct PluginFiles {
    /// The bundle.
    pub main_js: Vec<u8>,
    /// The manifest, byte for byte.
    pub manifest_json: Vec<u8>,
    /// The stylesheet, when the build has one.
    pub styles_css: Option<Vec<u8>>,
    /// `version` from the manifest.
    pub version: String,
    /// Where they came from.
    pub origin: Origin,
}

/// The fields of a manifest this command relies on.
#[derive(Deserialize)]
struct Manifest {
    id: String,
    version: String,
}

impl PluginFiles {
    /// The files of `--from <dir>` when given, else the embedded ones; an error that says
    /// how to get them otherwise.
    pub fn load(from: Option<&Path>) -> Result<PluginFiles, String> {
        match (from, EMBEDDED) {
            (Some(dir), _) => PluginFiles::from_dir(dir),
            (None, Some(files)) => PluginFiles::checked(
                files.main_js.to_vec(),
                files.manifest_json.to_vec(),
                files.styles_css.map(<[u8]>::to_vec),
                Origin::Embedded,
            ),
            (None, None) => Err(format!(
                "this obsidian-tc was built without the TC Bridge plugin files.\n\
                 hint: pass --from <folder> with {MAIN_JS} and {MANIFEST_JSON} (a TC Bridge \
                 release, or the obsidian-tc repository root after `npm ci && npm run build`), \
                 or rebuild obsidian-tc after `npm run build` (see plugin/README.md in \
                 the obsidian-tc repository)"
            )),
        }
    }

    /// The files in `dir`: `main.js` and `manifest.json` required, `styles.css` optional.
    pub fn from_dir(dir: &Path) -> Result<PluginFiles, String> {
        if !dir.is_dir() {
            return Err(format!(
                "--from {}: not a folder.\nhint: pass the folder holding {MAIN_JS} and \
                 {MANIFEST_JSON}",
                dir.display()
            ));
        }
        let read = |name: &str| {
            fs::read(dir.join(name)).map_err(|e| {
                let hint = if e.kind() == io::ErrorKind::NotFound && name == MAIN_JS {
                    format!("\nhint: {MAIN_JS} is made by `npm ci && npm run build` at the repository root")
                } else {
                    String::new()
                };
                format!("--from {}: cannot read {name} ({e}){hint}", dir.display())
            })
        };
        let main_js = read(MAIN_JS)?;
        let manifest_json = read(MANIFEST_JSON)?;
        let styles_css = match fs::read(dir.join(STYLES_CSS)) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => {
                return Err(format!(
                    "--from {}: cannot read {STYLES_CSS} ({e})",
                    dir.display()
                ));
            }
        };
        PluginFiles::checked(
            main_js,
            manifest_json,
            styles_css,
            Origin::Folder(dir.to_path_buf()),
        )
    }

    /// The files in the order they are put in place: `manifest.json` last, so Obsidian (which
    /// finds plugins by their manifest) never sees a new manifest before its bundle.
    pub fn in_commit_order(&self) -> Vec<(&'static str, &[u8])> {
        let mut files = vec![(MAIN_JS, self.main_js.as_slice())];
        if let Some(styles) = &self.styles_css {
            files.push((STYLES_CSS, styles.as_slice()));
        }
        files.push((MANIFEST_JSON, self.manifest_json.as_slice()));
        files
    }

    /// Checks that the files are TC Bridge's: a non-empty bundle and a manifest with our id
    /// and a version.
    fn checked(
        main_js: Vec<u8>,
        manifest_json: Vec<u8>,
        styles_css: Option<Vec<u8>>,
        origin: Origin,
    ) -> Result<PluginFiles, String> {
        let manifest: Manifest = serde_json::from_slice(&manifest_json).map_err(|e| {
            format!("{origin}: {MANIFEST_JSON} is not a plugin manifest with id and version ({e})")
        })?;
        if manifest.id != PLUGIN_ID {
            return Err(format!(
                "{origin}: {MANIFEST_JSON} is for the plugin {:?}, not {PLUGIN_ID:?}.\nhint: \
                 pass the folder of TC Bridge's build",
                manifest.id
            ));
        }
        if manifest.version.trim().is_empty() || main_js.is_empty() {
            return Err(format!(
                "{origin}: the build is incomplete (empty {MAIN_JS} or version).\nhint: run \
                 `npm run build` again"
            ));
        }
        Ok(PluginFiles {
            main_js,
            manifest_json,
            styles_css,
            version: manifest.version,
            origin,
        })
    }
}

/// The `version` of a manifest, if it has one (an installed copy may be anything).
pub fn manifest_version(bytes: &[u8]) -> Option<String> {
    serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()?
        .get("version")?
        .as_str()
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(id: &str, version: &str) -> Vec<u8> {
        format!(r#"{{"id": "{id}", "version": "{version}", "name": "TC Bridge"}}"#).into_bytes()
    }

    #[test]
    fn accepts_tc_bridge_and_reads_its_version() {
        let files = PluginFiles::checked(
            b"x".to_vec(),
            manifest(PLUGIN_ID, "1.2.3"),
            None,
            Origin::Embedded,
        )
        .expect("valid files");
        assert_eq!(files.version, "1.2.3");
        let order: Vec<&str> = files.in_commit_order().iter().map(|f| f.0).collect();
        assert_eq!(order, [MAIN_JS, MANIFEST_JSON]);
    }

    #[test]
    fn refuses_another_plugin_an_empty_bundle_and_a_bad_manifest() {
        let other = PluginFiles::checked(
            b"x".to_vec(),
            manifest("dataview", "1.0"),
            None,
            Origin::Embedded,
        );
        assert!(other.expect_err("another id").contains("\"dataview\""));
        let empty = PluginFiles::checked(
            Vec::new(),
            manifest(PLUGIN_ID, "1.0"),
            None,
            Origin::Embedded,
        );
        assert!(empty.expect_err("empty bundle").contains("incomplete"));
        let bad = PluginFiles::checked(b"x".to_vec(), b"{".to_vec(), None, Origin::Embedded);
        assert!(
            bad.expect_err("bad manifest")
                .contains("not a plugin manifest")
        );
    }

    #[test]
    fn styles_go_before_the_manifest() {
        let files = PluginFiles::checked(
            b"x".to_vec(),
            manifest(PLUGIN_ID, "1.0"),
            Some(b"css".to_vec()),
            Origin::Embedded,
        )
        .expect("valid files");
        let order: Vec<&str> = files.in_commit_order().iter().map(|f| f.0).collect();
        assert_eq!(order, [MAIN_JS, STYLES_CSS, MANIFEST_JSON]);
    }
}
