//! `obsidian-tc plugin install --vault <path>`: puts TC Bridge into
//! `<vault>/.obsidian/plugins/tc-bridge/`.
//!
//! Every file is first written in full and fsynced in a staging folder inside `.obsidian/`
//! (where Obsidian looks for no plugins), then renamed into place: a new install renames the
//! whole plugin folder at once; an upgrade renames `main.js` (and `styles.css`) and then
//! `manifest.json`, so Obsidian never finds a manifest without its bundle. Any failure before
//! the renames leaves the vault as it was. `data.json` (the plugin's settings and token) and
//! every other file of the plugin folder are never touched; Obsidian's
//! `community-plugins.json` is changed only with `--enable`, and the report says so.

use std::cmp::Ordering;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use crate::cli::args::{PluginCommand, PluginInstallArgs};
use crate::cli::plugin_files::{
    MANIFEST_JSON, PLUGIN_ID, PluginFiles, STYLES_CSS, manifest_version,
};
use crate::cli::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE};
use crate::companion::plugin_data::PluginData;

/// Obsidian's configuration folder inside a vault.
const OBSIDIAN_DIR: &str = ".obsidian";
/// Obsidian's list of enabled community plugins, under `.obsidian/`.
const COMMUNITY_PLUGINS: &str = "community-plugins.json";
/// The plugin's own settings (port, token), kept across installs.
const DATA_JSON: &str = "data.json";
/// How staging folders start (under `.obsidian/`, removed when the install ends).
const STAGING_PREFIX: &str = ".tc-bridge-install-";

/// Runs a `plugin` subcommand.
pub fn run_plugin(command: PluginCommand) -> u8 {
    let PluginCommand::Install(args) = command;
    run_install(&args)
}

/// `plugin install`: exit 0 when installed, 2 for a folder that is not a vault or plugin
/// files that cannot be used, 1 when writing failed.
fn run_install(args: &PluginInstallArgs) -> u8 {
    let obsidian = match obsidian_dir(&args.vault) {
        Ok(dir) => dir,
        Err(message) => {
            eprintln!("{message}");
            return EXIT_USAGE;
        }
    };
    let files = match PluginFiles::load(args.from.as_deref()) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("{message}");
            return EXIT_USAGE;
        }
    };
    match install(&obsidian, &files, args.enable) {
        Ok(installed) => {
            print_report(&obsidian, &installed, &files);
            EXIT_OK
        }
        Err(message) => {
            eprintln!("cannot install TC Bridge: {message}");
            EXIT_FAILURE
        }
    }
}

/// The vault's `.obsidian/` folder; an error saying what to do when `vault` is not a vault.
pub fn obsidian_dir(vault: &Path) -> Result<PathBuf, String> {
    if !vault.is_dir() {
        return Err(format!(
            "--vault {}: not a folder.\nhint: pass the vault's folder (the one Obsidian opens)",
            vault.display()
        ));
    }
    let obsidian = vault.join(OBSIDIAN_DIR);
    if !obsidian.is_dir() {
        return Err(format!(
            "--vault {} is not an Obsidian vault: it has no {OBSIDIAN_DIR} folder.\nhint: open \
             the folder in Obsidian once (\"Open folder as vault\"), then run this again",
            vault.display()
        ));
    }
    Ok(obsidian)
}

/// What an install did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// The plugin folder.
    pub dir: PathBuf,
    /// The install it replaced: `None` when the folder had no `manifest.json`.
    pub replaced: Option<Previous>,
    /// Whether the folder had a `data.json`, which was kept as it was.
    pub kept_data: bool,
    /// Whether a `styles.css` of the old version was removed (the new one has none).
    pub removed_old_styles: bool,
    /// Whether the plugin is on in `community-plugins.json`, and who did that.
    pub enabled: Enabled,
    /// Port and token from the plugin's `data.json`, once the plugin has made them.
    pub settings: Option<PluginData>,
}

/// The install that was replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Previous {
    /// Its manifest's version, when readable.
    pub version: Option<String>,
}

/// The plugin's entry in `.obsidian/community-plugins.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enabled {
    /// Not listed, and `--enable` was not given.
    No,
    /// Listed before this install.
    Already,
    /// Added by this install (`--enable`).
    Now,
}

/// Installs `files` into `<obsidian>/plugins/tc-bridge/` and, with `enable`, lists the plugin
/// in `community-plugins.json`; nothing changes when an error is returned before the renames.
pub fn install(obsidian: &Path, files: &PluginFiles, enable: bool) -> Result<Installed, String> {
    let plugins = obsidian.join("plugins");
    let dir = plugins.join(PLUGIN_ID);
    let existing = existing_folder(&dir)?;
    let replaced = previous_install(&dir);
    let kept_data = dir.join(DATA_JSON).exists();
    let enabled_list = read_enabled(obsidian);
    let listed = matches!(&enabled_list, Ok(ids) if ids.iter().any(|id| id == PLUGIN_ID));
    let new_list = match (enable, listed, enabled_list) {
        (true, false, Ok(mut ids)) => {
            ids.push(PLUGIN_ID.to_owned());
            Some(ids)
        }
        (true, false, Err(message)) => return Err(message),
        _ => None,
    };

    let staging = tempfile::Builder::new()
        .prefix(STAGING_PREFIX)
        .tempdir_in(obsidian)
        .map_err(|e| {
            format!(
                "cannot create a staging folder in {} ({e})",
                obsidian.display()
            )
        })?;
    let staged_dir = staging.path().join(PLUGIN_ID);
    fs::create_dir(&staged_dir).map_err(|e| io_error("create", &staged_dir, &e))?;
    for (name, bytes) in files.in_commit_order() {
        write_synced(&staged_dir.join(name), bytes, None)?;
    }
    sync_dir(&staged_dir)?;
    let staged_list = match &new_list {
        Some(ids) => {
            let target = obsidian.join(COMMUNITY_PLUGINS);
            let mode = fs::metadata(&target).ok().map(|m| m.permissions());
            let text = serde_json::to_string_pretty(ids)
                .map_err(|e| format!("cannot write {COMMUNITY_PLUGINS} ({e})"))?;
            let staged = staging.path().join(COMMUNITY_PLUGINS);
            write_synced(&staged, text.as_bytes(), mode)?;
            Some((staged, target))
        }
        None => None,
    };

    let removed_old_styles = if existing {
        replace_files(&staged_dir, &dir, files)?
    } else {
        fs::create_dir_all(&plugins).map_err(|e| io_error("create", &plugins, &e))?;
        fs::rename(&staged_dir, &dir)
            .map_err(|e| io_error("move the plugin folder to", &dir, &e))?;
        false
    };
    sync_dir(&plugins)?;
    if let Some((staged, target)) = staged_list {
        fs::rename(&staged, &target).map_err(|e| io_error("replace", &target, &e))?;
        sync_dir(obsidian)?;
    }
    Ok(Installed {
        settings: read_settings(&dir.join(DATA_JSON)),
        dir,
        replaced,
        kept_data,
        removed_old_styles,
        enabled: match (listed, new_list.is_some()) {
            (true, _) => Enabled::Already,
            (false, true) => Enabled::Now,
            (false, false) => Enabled::No,
        },
    })
}

/// Whether the plugin folder exists; an error when `dir` is something this command must not
/// write into (a symlink, e.g. a developer's link to a checkout, or a file).
fn existing_folder(dir: &Path) -> Result<bool, String> {
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(io_error("inspect", dir, &e)),
        Ok(meta) if meta.file_type().is_symlink() => Err(format!(
            "{} is a symbolic link (a development setup?); nothing was changed.\nhint: remove the \
             link to install a copy, or update the folder it points to yourself",
            dir.display()
        )),
        Ok(meta) if !meta.is_dir() => Err(format!(
            "{} exists and is not a folder; nothing was changed.\nhint: move it away and run this \
             again",
            dir.display()
        )),
        Ok(_) => Ok(true),
    }
}

/// The install in `dir`: the one whose `manifest.json` is there.
fn previous_install(dir: &Path) -> Option<Previous> {
    let manifest = dir.join(MANIFEST_JSON);
    manifest.is_file().then(|| Previous {
        version: fs::read(&manifest)
            .ok()
            .and_then(|bytes| manifest_version(&bytes)),
    })
}

/// Renames the staged files over those of `dir`, `manifest.json` last; removes an old
/// `styles.css` the new version does not have (it would style the new one). Returns whether
/// it did.
fn replace_files(staged_dir: &Path, dir: &Path, files: &PluginFiles) -> Result<bool, String> {
    for (name, _) in files.in_commit_order() {
        let target = dir.join(name);
        fs::rename(staged_dir.join(name), &target).map_err(|e| {
            format!(
                "{}; the files already replaced are complete: run the command again to finish",
                io_error("replace", &target, &e)
            )
        })?;
    }
    let old_styles = dir.join(STYLES_CSS);
    let removed = if files.styles_css.is_none() && old_styles.is_file() {
        fs::remove_file(&old_styles).map_err(|e| io_error("remove the old", &old_styles, &e))?;
        true
    } else {
        false
    };
    sync_dir(dir)?;
    Ok(removed)
}

/// The ids in `community-plugins.json` (empty when the file does not exist yet).
fn read_enabled(obsidian: &Path) -> Result<Vec<String>, String> {
    let path = obsidian.join(COMMUNITY_PLUGINS);
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error("read", &path, &e)),
    };
    serde_json::from_slice(&bytes).map_err(|e| {
        format!(
            "{} is not a JSON list of plugin ids ({e}); nothing was changed.\nhint: enable TC \
             Bridge in Obsidian (Settings → Community plugins) instead of --enable",
            path.display()
        )
    })
}

/// Port and token from `data.json`, when it exists and has either.
fn read_settings(path: &Path) -> Option<PluginData> {
    PluginData::read_file(path)
        .ok()
        .filter(|data| data.port.is_some() || data.token.is_some())
}

/// Writes a new file in full and fsyncs it, with `mode` when given.
fn write_synced(path: &Path, bytes: &[u8], mode: Option<fs::Permissions>) -> Result<(), String> {
    let written = (|| {
        let file = File::create(path)?;
        if let Some(mode) = mode {
            file.set_permissions(mode)?;
        }
        io::Write::write_all(&mut &file, bytes)?;
        file.sync_all()
    })();
    written.map_err(|e| io_error("write", path, &e))
}

/// Flushes a folder's entries (new names, renames) to disk.
fn sync_dir(dir: &Path) -> Result<(), String> {
    crate::vault::os::sync_dir(dir).map_err(|e| io_error("flush", dir, &e))
}

fn io_error(action: &str, path: &Path, error: &io::Error) -> String {
    format!("cannot {action} {} ({error})", path.display())
}

/// Prints what was installed and what the user does next.
fn print_report(obsidian: &Path, installed: &Installed, files: &PluginFiles) {
    let version = &files.version;
    let what = match &installed.replaced {
        None => "new install".to_owned(),
        Some(Previous { version: None }) => "replaced an install of unknown version".to_owned(),
        Some(Previous { version: Some(old) }) => match compare_versions(old, version) {
            Some(Ordering::Less) => format!("upgraded from {old}"),
            Some(Ordering::Equal) => format!("reinstalled the same version {old}"),
            Some(Ordering::Greater) => format!("replaced the newer {old}: a downgrade"),
            None => format!("replaced {old}"),
        },
    };
    println!(
        "Installed TC Bridge {version} in {} ({what}; from {}).",
        installed.dir.display(),
        files.origin
    );
    if installed.kept_data {
        println!("Kept {DATA_JSON} (TC Bridge's settings and token) as it was.");
    }
    if installed.removed_old_styles {
        println!("Removed the old version's {STYLES_CSS} (this version has none).");
    }
    println!("Next steps:");
    match installed.enabled {
        Enabled::No => println!(
            "  - Enable it in Obsidian: Settings → Community plugins → TC Bridge (turn community \
             plugins on first if Obsidian asks). Nothing was enabled: this command changes \
             Obsidian's settings only with --enable."
        ),
        Enabled::Already => println!(
            "  - TC Bridge was already enabled in this vault: if Obsidian has the vault open, \
             turn TC Bridge off and on in Settings → Community plugins (or restart Obsidian) to \
             run {version}."
        ),
        Enabled::Now => println!(
            "  - Enabled: added \"{PLUGIN_ID}\" to {} because of --enable. Obsidian reads it when \
             it opens the vault: if the vault is open now, restart Obsidian.",
            obsidian.join(COMMUNITY_PLUGINS).display()
        ),
    }
    match &installed.settings {
        Some(PluginData { port, token }) => {
            let port = port.map_or("(not set)".to_owned(), |p| p.to_string());
            let token = token.as_deref().unwrap_or("(not set)");
            println!("  - TC Bridge listens on 127.0.0.1:{port}; token: {token}");
            println!(
                "    The native server finds TC Bridge through {} by itself (no companion \
                 config needed).",
                installed.dir.join(DATA_JSON).display()
            );
        }
        None => println!(
            "  - TC Bridge makes its port (default 27190) and token when it first loads: they \
             are then in Settings → TC Bridge and in {}.",
            installed.dir.join(DATA_JSON).display()
        ),
    }
}

/// Compares dotted numeric versions (`0.10.0` > `0.9.1`); `None` when either is not one.
fn compare_versions(a: &str, b: &str) -> Option<Ordering> {
    let parts = |v: &str| -> Option<Vec<u64>> { v.split('.').map(|p| p.parse().ok()).collect() };
    Some(parts(a)?.cmp(&parts(b)?))
}

#[cfg(test)]
mod tests {
    use super::compare_versions;
    use std::cmp::Ordering;

    #[test]
    fn versions_compare_by_number() {
        assert_eq!(compare_versions("0.9.1", "0.10.0"), Some(Ordering::Less));
        assert_eq!(compare_versions("1.0.0", "1.0.0"), Some(Ordering::Equal));
        assert_eq!(compare_versions("2.0", "1.9.9"), Some(Ordering::Greater));
        assert_eq!(compare_versions("1.0.0-beta", "1.0.0"), None);
    }
}
