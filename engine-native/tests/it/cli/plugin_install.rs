//! `obsidian-tc plugin install` run as the built binary on temp vaults: a new install, an
//! upgrade that keeps `data.json`, refusals that write nothing, and `--enable`.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tempfile::TempDir;

use crate::support::file_names;

const PLUGIN_DIR: &str = ".obsidian/plugins/tc-bridge";
const COMMUNITY_PLUGINS: &str = ".obsidian/community-plugins.json";

fn obsidian_tc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_obsidian-tc"))
        .args(args)
        .env_clear()
        .output()
        .expect("run obsidian-tc")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

/// A build of TC Bridge `version`: main.js (with bytes a text copy would mangle), manifest.json
/// and, when asked, styles.css.
fn build(version: &str, styles: bool) -> TempDir {
    let dir = tempfile::tempdir().expect("build dir");
    let mut main_js = format!("// TC Bridge {version}\r\nmodule.exports = {{}};\n").into_bytes();
    main_js.extend([0u8, 0xff, 0xfe, b'\n']);
    fs::write(dir.path().join("main.js"), main_js).expect("main.js");
    fs::write(
        dir.path().join("manifest.json"),
        format!(
            "{{\n\t\"id\": \"tc-bridge\",\n\t\"name\": \"TC Bridge\",\n\t\"version\": \"{version}\"\n}}\n"
        ),
    )
    .expect("manifest.json");
    if styles {
        fs::write(
            dir.path().join("styles.css"),
            ".tc-bridge { color: red; }\n",
        )
        .expect("css");
    }
    dir
}

/// A vault Obsidian has opened once: `.obsidian/` and a note.
fn vault() -> TempDir {
    let dir = tempfile::tempdir().expect("vault");
    fs::create_dir(dir.path().join(".obsidian")).expect(".obsidian");
    fs::write(dir.path().join(".obsidian/app.json"), "{}").expect("app.json");
    fs::write(dir.path().join("Note.md"), "# Note\n").expect("note");
    dir
}

fn install(vault: &Path, from: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "plugin",
        "install",
        "--vault",
        path_str(vault),
        "--from",
        path_str(from),
    ];
    args.extend_from_slice(extra);
    obsidian_tc(&args)
}

/// Every file under `root` with its bytes, by relative path.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = fs::read(&path).expect("read file");
                out.insert(
                    path.strip_prefix(root).expect("under root").to_path_buf(),
                    bytes,
                );
            }
        }
    }
    out
}

fn enabled_ids(vault: &Path) -> Vec<String> {
    serde_json::from_slice(&fs::read(vault.join(COMMUNITY_PLUGINS)).expect("list")).expect("ids")
}

#[test]
fn a_new_install_copies_the_files_byte_for_byte_and_enables_nothing() {
    let vault = vault();
    let build = build("0.1.0", true);
    fs::write(vault.path().join(COMMUNITY_PLUGINS), "[\"dataview\"]").expect("list");

    let out = install(vault.path(), build.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    let plugin = vault.path().join(PLUGIN_DIR);
    assert_eq!(
        file_names(&plugin),
        ["main.js", "manifest.json", "styles.css"]
    );
    for name in ["main.js", "manifest.json", "styles.css"] {
        assert_eq!(
            fs::read(plugin.join(name)).expect("installed"),
            fs::read(build.path().join(name)).expect("source"),
            "{name} differs from its source"
        );
    }
    assert_eq!(
        fs::read(vault.path().join(COMMUNITY_PLUGINS)).expect("list"),
        b"[\"dataview\"]",
        "community-plugins.json changed without --enable"
    );
    // No staging folder is left behind.
    assert_eq!(
        file_names(&vault.path().join(".obsidian")),
        ["app.json", "community-plugins.json", "plugins"]
    );
    let report = text(&out.stdout);
    assert!(report.contains("Installed TC Bridge 0.1.0"), "{report}");
    assert!(report.contains("new install"), "{report}");
    assert!(report.contains("Settings → Community plugins"), "{report}");
    assert!(report.contains("Nothing was enabled"), "{report}");
    assert!(report.contains("default 27190"), "{report}");
}

#[test]
fn an_upgrade_keeps_data_json_untouched_and_drops_the_old_styles() {
    let vault = vault();
    let old = build("0.1.0", true);
    let out = install(vault.path(), old.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let plugin = vault.path().join(PLUGIN_DIR);
    let data = plugin.join("data.json");
    let settings = b"{\n  \"port\": 27191,\n  \"token\": \"0123abcd\",\n  \"allowWrites\": true\n}";
    fs::write(&data, settings).expect("data.json");
    fs::write(plugin.join("notes.txt"), "mine").expect("another file");
    let data_inode = fs::metadata(&data).expect("data.json").ino();

    let new = build("0.2.0", false);
    let out = install(vault.path(), new.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    assert_eq!(fs::read(&data).expect("data.json"), settings);
    assert_eq!(fs::metadata(&data).expect("data.json").ino(), data_inode);
    assert_eq!(fs::read(plugin.join("notes.txt")).expect("kept"), b"mine");
    assert_eq!(
        file_names(&plugin),
        ["data.json", "main.js", "manifest.json", "notes.txt"]
    );
    for name in ["main.js", "manifest.json"] {
        assert_eq!(
            fs::read(plugin.join(name)).expect("installed"),
            fs::read(new.path().join(name)).expect("source"),
        );
    }
    assert_eq!(
        file_names(&vault.path().join(".obsidian")),
        ["app.json", "plugins"]
    );
    let report = text(&out.stdout);
    assert!(report.contains("Installed TC Bridge 0.2.0"), "{report}");
    assert!(report.contains("upgraded from 0.1.0"), "{report}");
    assert!(report.contains("Kept data.json"), "{report}");
    assert!(
        report.contains("Removed the old version's styles.css"),
        "{report}"
    );
    assert!(report.contains("127.0.0.1:27191"), "{report}");
    assert!(report.contains("0123abcd"), "{report}");

    let again = install(vault.path(), new.path(), &[]);
    assert!(text(&again.stdout).contains("reinstalled the same version 0.2.0"));
    assert_eq!(fs::read(&data).expect("data.json"), settings);
}

#[test]
fn a_folder_that_is_not_a_vault_is_refused_and_nothing_is_written() {
    let folder = tempfile::tempdir().expect("folder");
    fs::write(folder.path().join("Note.md"), "# Note\n").expect("note");
    let build = build("0.1.0", false);
    let before = snapshot(folder.path());

    let out = install(folder.path(), build.path(), &["--enable"]);
    assert_eq!(out.status.code(), Some(2));
    let error = text(&out.stderr);
    assert!(error.contains("not an Obsidian vault"), "{error}");
    assert!(
        error.contains("open the folder in Obsidian once"),
        "{error}"
    );
    assert_eq!(snapshot(folder.path()), before);
    assert_eq!(file_names(folder.path()), ["Note.md"]);

    let missing = folder.path().join("nowhere");
    let out = install(&missing, build.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!missing.exists());
}

#[test]
fn enable_adds_the_id_once_and_keeps_the_other_entries() {
    let vault = vault();
    let build = build("0.1.0", false);
    fs::write(
        vault.path().join(COMMUNITY_PLUGINS),
        "[\n  \"dataview\",\n  \"obsidian-tasks-plugin\"\n]",
    )
    .expect("list");

    let out = install(vault.path(), build.path(), &["--enable"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        enabled_ids(vault.path()),
        ["dataview", "obsidian-tasks-plugin", "tc-bridge"]
    );
    let report = text(&out.stdout);
    assert!(report.contains("added \"tc-bridge\""), "{report}");
    assert!(report.contains("because of --enable"), "{report}");

    let listed = fs::read(vault.path().join(COMMUNITY_PLUGINS)).expect("list");
    let out = install(vault.path(), build.path(), &["--enable"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        fs::read(vault.path().join(COMMUNITY_PLUGINS)).expect("list"),
        listed
    );
    assert!(text(&out.stdout).contains("already enabled"));

    let fresh = self::vault();
    let out = install(fresh.path(), build.path(), &["--enable"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(enabled_ids(fresh.path()), ["tc-bridge"]);
}

#[test]
fn a_malformed_plugin_list_with_enable_changes_nothing() {
    let vault = vault();
    let build = build("0.1.0", false);
    fs::write(
        vault.path().join(COMMUNITY_PLUGINS),
        "{\"not\": \"a list\"}",
    )
    .expect("list");
    let before = snapshot(vault.path());

    let out = install(vault.path(), build.path(), &["--enable"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not a JSON list of plugin ids"));
    assert_eq!(snapshot(vault.path()), before);
    assert_eq!(
        file_names(&vault.path().join(".obsidian")),
        ["app.json", "community-plugins.json"]
    );
}

#[test]
fn files_that_are_not_tc_bridge_are_refused() {
    let vault = vault();
    let before = snapshot(vault.path());

    let other = build("1.0.0", false);
    fs::write(
        other.path().join("manifest.json"),
        r#"{"id": "dataview", "version": "1.0.0"}"#,
    )
    .expect("manifest");
    let out = install(vault.path(), other.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not \"tc-bridge\""));

    let unbuilt = build("1.0.0", false);
    fs::remove_file(unbuilt.path().join("main.js")).expect("remove main.js");
    let out = install(vault.path(), unbuilt.path(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("npm run build"));

    assert_eq!(snapshot(vault.path()), before);
}

#[test]
fn a_symlinked_plugin_folder_is_left_alone() {
    let vault = vault();
    let checkout = build("0.0.1", false);
    let before = snapshot(checkout.path());
    fs::create_dir(vault.path().join(".obsidian/plugins")).expect("plugins");
    std::os::unix::fs::symlink(checkout.path(), vault.path().join(PLUGIN_DIR)).expect("link");

    let out = install(vault.path(), build("0.2.0", false).path(), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("symbolic link"));
    assert_eq!(snapshot(checkout.path()), before);
    assert_eq!(
        file_names(&vault.path().join(".obsidian")),
        ["app.json", "plugins"]
    );
}

/// Without `--from`, the files built into the binary (build.rs: OBSIDIAN_TC_PLUGIN_DIR, else
/// the repository root when `npm run build` had made main.js); a binary built without them
/// says how to get them and writes nothing.
#[test]
fn without_from_the_embedded_files_are_installed_or_the_user_is_told_how() {
    let vault = vault();
    let before = snapshot(vault.path());
    let out = obsidian_tc(&["plugin", "install", "--vault", path_str(vault.path())]);
    let source = option_env!("OBSIDIAN_TC_PLUGIN_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join(".."),
        PathBuf::from,
    );
    match out.status.code() {
        Some(0) => {
            let plugin = vault.path().join(PLUGIN_DIR);
            for name in ["main.js", "manifest.json"] {
                assert_eq!(
                    fs::read(plugin.join(name)).expect("installed"),
                    fs::read(source.join(name)).expect("source"),
                    "{name} differs from the build's"
                );
            }
            assert!(text(&out.stdout).contains("files built into obsidian-tc"));
        }
        code => {
            assert_eq!(code, Some(2), "{}", text(&out.stderr));
            let error = text(&out.stderr);
            assert!(
                error.contains("built without the TC Bridge plugin"),
                "{error}"
            );
            assert!(error.contains("--from"), "{error}");
            assert_eq!(snapshot(vault.path()), before);
        }
    }
}
