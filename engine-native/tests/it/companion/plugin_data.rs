//! TC Bridge's settings file as every reader sees it: read leniently (other settings, a port
//! of 0, an empty token), and an unreadable or broken file an error naming it.

use obsidian_tc::companion::plugin_data::PluginData;

use crate::support::companion::write_plugin_file;

fn vault_with(data: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    write_plugin_file(dir.path(), data);
    dir
}

#[test]
fn plugin_data_is_read_leniently_but_a_broken_file_is_an_error() {
    let vault = vault_with(r#"{"port": 0, "token": "", "folderAccess": []}"#);
    assert_eq!(PluginData::read(vault.path()), Ok(PluginData::default()));
    let vault = vault_with(r#"{"token": "abc", "host": "192.0.2.7"}"#);
    let data = PluginData::read(vault.path()).expect("read");
    assert_eq!(data.token.as_deref(), Some("abc"));
    assert_eq!(data.port, None);

    let broken = vault_with("{not json");
    let error = PluginData::read(broken.path()).expect_err("broken");
    assert!(error.reason.contains("not a JSON object"), "{error}");
    assert!(error.to_string().contains("data.json"), "{error}");
    let bad_port = vault_with(r#"{"port": 70000, "token": "x"}"#);
    let error = PluginData::read(bad_port.path()).expect_err("port");
    assert!(error.reason.contains("not a port number"), "{error}");

    let nowhere = tempfile::tempdir().expect("tempdir");
    let error = PluginData::read(nowhere.path()).expect_err("missing file");
    assert!(error.to_string().contains("data.json"), "{error}");
}
