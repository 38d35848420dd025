//! Reading Obsidian's own settings files (`.obsidian/*.json`) for the server's internal use.
//!
//! `.obsidian/` stays hard-denied to agents: plugin settings there hold API keys and sync
//! passwords. The tools still need a few of Obsidian's settings to behave as Obsidian does
//! (the daily-notes folder and date format, property types, the attachment folder), so this
//! module reads exactly the files of [`ObsidianSetting`], chosen by the server, never by a
//! request path. Nothing here writes, and what is read is never returned whole to an agent.

use std::path::Path;

use serde_json::Value;

use super::error::VaultError;
use super::handle::Vault;
use super::listing::ChangeStamp;
use super::read::read_all;

/// The largest settings file read (larger ones are refused as not Obsidian's).
const MAX_SETTINGS_BYTES: u64 = 1 << 20;

/// An Obsidian settings file the server may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObsidianSetting {
    /// `.obsidian/app.json`: attachment folder, new-link format, user-ignored folders.
    App,
    /// `.obsidian/types.json`: the declared type of each property (`text`, `number`, ...).
    PropertyTypes,
    /// `.obsidian/daily-notes.json`: the core Daily notes folder, format and template.
    DailyNotes,
    /// `.obsidian/templates.json`: the core Templates folder and date/time formats.
    Templates,
    /// `.obsidian/plugins/periodic-notes/data.json`: the Periodic Notes plugin's settings.
    PeriodicNotes,
    /// `.obsidian/workspace.json`: the current layout (what `save_workspace` saves).
    Workspace,
}

impl ObsidianSetting {
    /// The file's path inside `.obsidian/`.
    pub fn file_name(self) -> &'static str {
        match self {
            ObsidianSetting::App => "app.json",
            ObsidianSetting::PropertyTypes => "types.json",
            ObsidianSetting::DailyNotes => "daily-notes.json",
            ObsidianSetting::Templates => "templates.json",
            ObsidianSetting::PeriodicNotes => "plugins/periodic-notes/data.json",
            ObsidianSetting::Workspace => "workspace.json",
        }
    }

    /// The file's vault-relative path, as shown in messages.
    pub fn vault_path(self) -> String {
        format!(".obsidian/{}", self.file_name())
    }
}

impl Vault {
    /// The stamp of the settings file `setting` (`None` when it is absent or unreadable),
    /// cheap enough to ask on every call before reading the file again.
    pub fn setting_stamp(&self, setting: ObsidianSetting) -> Option<ChangeStamp> {
        let metadata = std::fs::metadata(self.root().join(setting.vault_path())).ok()?;
        Some(ChangeStamp::of_metadata(&metadata))
    }

    /// Reads and parses the settings file `setting`: `Ok(None)` when Obsidian has not written
    /// it (every setting then has Obsidian's default). A file that is not a JSON object, is
    /// larger than 1 MiB, or sits behind a symlink leading outside the vault is refused.
    pub fn read_setting(&self, setting: ObsidianSetting) -> Result<Option<Value>, VaultError> {
        let rel = setting.vault_path();
        let abs = self.root().join(&rel);
        let Some(parent) = abs.parent() else {
            return Ok(None);
        };
        let parent = match parent.canonicalize() {
            Ok(parent) => parent,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(VaultError::io(&rel, error)),
        };
        if !parent.starts_with(self.root()) {
            return Err(VaultError::EscapesVault { path: rel });
        }
        let file_name = Path::new(setting.file_name())
            .file_name()
            .expect("every setting names a file");
        let (mut file, metadata) = match self.open_regular(&parent.join(file_name), &rel) {
            Ok(opened) => opened,
            Err(VaultError::NotFound { .. }) => return Ok(None),
            Err(error) => return Err(error),
        };
        if metadata.len() > MAX_SETTINGS_BYTES {
            return Err(VaultError::BadSettings {
                path: rel,
                reason: format!("{} bytes is larger than a settings file", metadata.len()),
            });
        }
        let bytes = read_all(&mut file, &metadata, &rel)?;
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(value @ Value::Object(_)) => Ok(Some(value)),
            Ok(_) => Err(VaultError::BadSettings {
                path: rel,
                reason: "it is not a JSON object".to_owned(),
            }),
            Err(error) => Err(VaultError::BadSettings {
                path: rel,
                reason: error.to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::vault::VaultOptions;

    fn vault_with(files: &[(&str, &str)]) -> (tempfile::TempDir, Vault) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let abs = dir.path().join(path);
            fs::create_dir_all(abs.parent().unwrap()).unwrap();
            fs::write(abs, text).unwrap();
        }
        let vault = Vault::open(dir.path(), VaultOptions::default()).unwrap();
        (dir, vault)
    }

    #[test]
    fn reads_a_settings_object_and_none_when_absent() {
        let (_dir, vault) = vault_with(&[(
            ".obsidian/daily-notes.json",
            r#"{"folder":"Daily","format":"YYYY/MM/DD"}"#,
        )]);
        let daily = vault.read_setting(ObsidianSetting::DailyNotes).unwrap();
        assert_eq!(daily.unwrap()["folder"], "Daily");
        assert!(
            vault
                .read_setting(ObsidianSetting::PeriodicNotes)
                .unwrap()
                .is_none()
        );
        assert!(vault.read_setting(ObsidianSetting::App).unwrap().is_none());
    }

    #[test]
    fn refuses_malformed_json_naming_the_file() {
        let (_dir, vault) = vault_with(&[(".obsidian/types.json", "{\"types\": ")]);
        let error = vault
            .read_setting(ObsidianSetting::PropertyTypes)
            .unwrap_err();
        assert_eq!(error.code(), "bad_settings");
        assert!(error.to_string().contains(".obsidian/types.json"));
        let (_dir, vault) = vault_with(&[(".obsidian/types.json", "[1, 2]")]);
        let error = vault
            .read_setting(ObsidianSetting::PropertyTypes)
            .unwrap_err();
        assert!(error.to_string().contains("not a JSON object"), "{error}");
    }

    #[test]
    fn refuses_a_settings_folder_linked_outside_the_vault() {
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("app.json"), "{}").unwrap();
        let (dir, vault) = vault_with(&[("note.md", "x")]);
        std::os::unix::fs::symlink(outside.path(), dir.path().join(".obsidian")).unwrap();
        let error = vault.read_setting(ObsidianSetting::App).unwrap_err();
        assert_eq!(error.code(), "escapes_vault");
    }

    #[test]
    fn refuses_a_settings_file_that_is_a_symlink() {
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret.json"), "{}").unwrap();
        let (dir, vault) = vault_with(&[(".obsidian/other.json", "{}")]);
        std::os::unix::fs::symlink(
            outside.path().join("secret.json"),
            dir.path().join(".obsidian/types.json"),
        )
        .unwrap();
        let error = vault
            .read_setting(ObsidianSetting::PropertyTypes)
            .unwrap_err();
        assert_eq!(error.code(), "escapes_vault");
    }
}
