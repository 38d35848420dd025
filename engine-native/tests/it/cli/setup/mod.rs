//! `obsidian-tc setup`, run as the built binary against fixture configuration files in each
//! client's real format (`tests/fixtures/setup/<client>/`: other servers already configured,
//! comments where the format allows them, unusual indentation): the result parses as the
//! client reads it, every other byte and entry is kept, a second run changes nothing; broken
//! files are refused untouched; `--print` writes nothing. The modules below test the pieces
//! through the library.

mod apply;
mod client;
mod json_file;
mod toml_file;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use obsidian_tc::cli::setup::client::JsonDialect;
use obsidian_tc::cli::setup::json_file::parse_options;
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::support::file_names;

/// A fixture of `tests/fixtures/setup/`.
pub(super) fn fixture(relative: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/setup")
        .join(relative);
    fs::read(&path).unwrap_or_else(|e| panic!("fixture {}: {e}", path.display()))
}

/// The binary's path as the running binary sees itself (`current_exe`: links resolved).
pub(super) fn binary() -> String {
    fs::canonicalize(env!("CARGO_BIN_EXE_obsidian-tc"))
        .expect("binary")
        .to_str()
        .expect("utf-8 binary path")
        .to_owned()
}

/// Runs the binary with only `HOME` (a temp folder: never the real one) and `extra` set.
pub(super) fn obsidian_tc(home: &Path, args: &[&str], extra: &[(&str, &Path)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_obsidian-tc"));
    command.args(args).env_clear().env("HOME", home);
    for (name, value) in extra {
        command.env(name, value);
    }
    command.output().expect("run obsidian-tc")
}

pub(super) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub(super) fn path_str(path: &Path) -> &str {
    path.to_str().expect("utf-8 temp path")
}

/// A temp folder with a vault in it whose name needs quoting in JSON and TOML alike.
pub(super) struct Scene {
    pub dir: TempDir,
    pub vault: PathBuf,
}

impl Scene {
    pub fn new() -> Scene {
        let dir = tempfile::tempdir().expect("temp dir");
        let vault = dir.path().join("My \"Vault\" \\ notes");
        fs::create_dir_all(vault.join(".obsidian")).expect("vault");
        let vault = fs::canonicalize(vault).expect("vault path");
        Scene { dir, vault }
    }

    /// A config folder holding `name` with `bytes`; returns the file's path.
    pub fn config(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let folder = self.dir.path().join("config");
        fs::create_dir_all(&folder).expect("config folder");
        let path = folder.join(name);
        fs::write(&path, bytes).expect("config file");
        path
    }

    pub fn setup(&self, client: &str, config: &Path, extra: &[&str]) -> Output {
        let mut args = vec![
            "setup",
            client,
            "--vault",
            path_str(&self.vault),
            "--config-path",
            path_str(config),
        ];
        args.extend_from_slice(extra);
        obsidian_tc(self.dir.path(), &args, &[])
    }
}

/// Where `old` and `new` differ: what is left of each after their longest common prefix and
/// suffix (not overlapping, cut at character boundaries).
pub(super) fn difference<'a>(old: &'a str, new: &'a str) -> (&'a str, &'a str) {
    let mut prefix = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let room = old.len().min(new.len()) - prefix;
    let mut suffix = old
        .bytes()
        .rev()
        .zip(new.bytes().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - suffix) {
        suffix -= 1;
    }
    (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    )
}

/// The client's file as data, read the way the client reads it: plain JSON with serde_json
/// (an independent parser), JSON with comments and JSONC with jsonc-parser allowing only what
/// the client allows, TOML with the toml crate.
pub(super) fn read_as(client: &str, text: &str) -> Value {
    let jsonc = |dialect| {
        jsonc_parser::parse_to_serde_value::<Value>(text, &parse_options(dialect))
            .unwrap_or_else(|e| panic!("{client} cannot read the result: {e}\n{text}"))
    };
    match client {
        "claude-desktop" | "claude-code" => {
            serde_json::from_str(text).unwrap_or_else(|e| panic!("not plain JSON: {e}\n{text}"))
        }
        "gemini-cli" => jsonc(JsonDialect::Comments),
        "cursor" | "vscode" => jsonc(JsonDialect::Jsonc),
        "codex" => {
            let table: toml::Table =
                toml::from_str(text).unwrap_or_else(|e| panic!("not TOML: {e}\n{text}"));
            serde_json::to_value(table).expect("TOML as data")
        }
        other => panic!("unknown client {other}"),
    }
}

/// The key holding the servers in `client`'s file.
pub(super) fn servers_key(client: &str) -> &'static str {
    match client {
        "vscode" => "servers",
        "codex" => "mcp_servers",
        _ => "mcpServers",
    }
}

/// The entry `client` should have for `vault`.
pub(super) fn expected_entry(client: &str, vault: &Path) -> Value {
    let mut entry = json!({"command": binary(), "args": [path_str(vault)]});
    if matches!(client, "claude-code" | "vscode") {
        entry["type"] = json!("stdio");
    }
    entry
}

/// `data` without the entry `name` (and without the server table when that leaves it empty
/// and `drop_empty`).
pub(super) fn without_entry(mut data: Value, client: &str, name: &str, drop_empty: bool) -> Value {
    let key = servers_key(client);
    let root = data.as_object_mut().expect("an object");
    if let Some(servers) = root.get_mut(key).and_then(Value::as_object_mut) {
        servers.remove(name);
        if servers.is_empty() && drop_empty {
            root.remove(key);
        }
    }
    data
}

/// Runs `setup` for `client` on a copy of its fixture `fixture` named `file_name` and checks
/// everything the command promises; returns the edited text.
fn adds_the_entry_and_keeps_the_rest(client: &str, fixture_path: &str, file_name: &str) -> String {
    let scene = Scene::new();
    let old_bytes = fixture(fixture_path);
    let old = text(&old_bytes);
    let config = scene.config(file_name, &old_bytes);
    fs::set_permissions(&config, fs::Permissions::from_mode(0o600)).expect("chmod");

    let out = scene.setup(client, &config, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(
        report.contains("Added the \"obsidian-tc\" entry"),
        "{report}"
    );
    assert!(report.contains(path_str(&config)), "{report}");
    assert!(report.contains("Next: "), "{report}");

    let new = fs::read_to_string(&config).expect("edited file");
    // It parses as the client reads it, with the entry in place.
    let after = read_as(client, &new);
    let before = read_as(client, &old);
    assert_eq!(
        after[servers_key(client)]["obsidian-tc"],
        expected_entry(client, &scene.vault),
        "{new}"
    );
    // Every other entry and setting is equal as data...
    let had_servers = before.get(servers_key(client)).is_some();
    assert_eq!(
        without_entry(after, client, "obsidian-tc", !had_servers),
        before
    );
    // ...and byte for byte: the only bytes of the old file not kept in place are blanks and
    // a comma, and the new bytes between are the entry.
    let (old_middle, new_middle) = difference(&old, &new);
    assert!(
        old_middle.chars().all(|c| c.is_whitespace() || c == ','),
        "changed old bytes {old_middle:?}\n{new}"
    );
    assert!(new_middle.contains("obsidian-tc"), "{new_middle:?}");
    // The mode is kept; the old file is saved next to it, once.
    let mode = |path: &Path| fs::metadata(path).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode(&config), 0o600);
    let folder = config.parent().expect("folder");
    let listed = file_names(folder);
    assert_eq!(listed.len(), 2, "{listed:?}");
    let backup = folder.join(&listed[1]);
    assert!(
        listed[1].starts_with(&format!("{file_name}.bak-")),
        "{listed:?}"
    );
    assert_eq!(fs::read(&backup).expect("backup"), old_bytes);
    assert_eq!(mode(&backup), 0o600);
    assert!(report.contains(path_str(&backup)), "{report}");

    // A second run changes nothing: same bytes, no new backup.
    let again = scene.setup(client, &config, &[]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(
        text(&again.stdout).contains("nothing was changed"),
        "{}",
        text(&again.stdout)
    );
    assert_eq!(fs::read_to_string(&config).expect("file"), new);
    assert_eq!(file_names(folder), listed);
    new
}

#[test]
fn claude_desktop_gets_the_entry_in_its_tab_indented_file() {
    let new = adds_the_entry_and_keeps_the_rest(
        "claude-desktop",
        "claude-desktop/claude_desktop_config.json",
        "claude_desktop_config.json",
    );
    assert!(
        new.contains("\n\t\t\"obsidian-tc\": {\n\t\t\t\"command\": "),
        "{new}"
    );
}

#[test]
fn claude_code_gets_a_user_scope_entry_beside_its_state() {
    let new = adds_the_entry_and_keeps_the_rest(
        "claude-code",
        "claude-code/.claude.json",
        ".claude.json",
    );
    // The project-scoped servers stay as they were; the new table is the top-level one.
    let data: Value = serde_json::from_str(&new).expect("json");
    assert_eq!(
        data["projects"]["/home/me/code/app"]["mcpServers"]
            .as_object()
            .map(|servers| servers.len()),
        Some(1)
    );
}

#[test]
fn codex_gets_a_table_among_its_servers() {
    let new = adds_the_entry_and_keeps_the_rest("codex", "codex/config.toml", "config.toml");
    // The new table follows the other servers, before the profiles and their comment.
    let entry = new.find("[mcp_servers.obsidian-tc]").expect("table");
    assert!(new.find("[mcp_servers.figma]").expect("figma") < entry);
    assert!(entry < new.find("# Profiles").expect("comment"));
}

#[test]
fn cursor_gets_the_entry_in_its_jsonc_file() {
    let new = adds_the_entry_and_keeps_the_rest("cursor", "cursor/mcp.json", "mcp.json");
    assert!(new.contains("// pinned later"), "{new}");
    assert!(
        new.contains("\n      \"obsidian-tc\": {\n         \"command\""),
        "{new}"
    );
}

#[test]
fn vscode_gets_a_typed_entry_under_servers() {
    let new = adds_the_entry_and_keeps_the_rest("vscode", "vscode/mcp.json", "mcp.json");
    assert!(
        new.starts_with("// VS Code MCP servers (user profile)\n"),
        "{new}"
    );
}

#[test]
fn gemini_cli_gets_the_entry_in_its_commented_settings() {
    let new = adds_the_entry_and_keeps_the_rest(
        "gemini-cli",
        "gemini-cli/settings.json",
        "settings.json",
    );
    assert!(new.contains("/* MCP servers */"), "{new}");
}

/// One file per client that it cannot read, and what the refusal names.
const BROKEN: [(&str, &str, &str, &str); 6] = [
    (
        "claude-desktop",
        "claude_desktop_config.json",
        "{\n  \"mcpServers\": {\n    // mine\n  }\n}\n",
        ":3:5: Comments are not allowed (this client reads plain JSON)",
    ),
    (
        "claude-code",
        ".claude.json",
        "{\n  \"numStartups\": 3,\n  \"mcpServers\": {}\n",
        "Unterminated object",
    ),
    (
        "codex",
        "config.toml",
        "model = \"x\"\n[mcp_servers.a\ncommand = \"y\"\n",
        ":2:",
    ),
    (
        "cursor",
        "mcp.json",
        "{ \"mcpServers\": { 'a': {} } }",
        ":1:19: ",
    ),
    (
        "vscode",
        "mcp.json",
        "{\n\t// one\n\t\"servers\": [\"a\"]\n}\n",
        ":3:13: \"servers\" is not an object",
    ),
    (
        "gemini-cli",
        "settings.json",
        "{\n  // ok\n  \"ui\": {},\n}\n",
        "Trailing commas are not allowed (this client reads JSON with comments, not trailing \
         commas)",
    ),
];

#[test]
fn a_file_the_client_cannot_read_is_refused_untouched() {
    for (client, file_name, broken, message) in BROKEN {
        let scene = Scene::new();
        let config = scene.config(file_name, broken.as_bytes());
        let out = scene.setup(client, &config, &[]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{client}: {stderr}");
        assert!(
            stderr.starts_with(&format!("{}:", config.display())),
            "{client}: {stderr}"
        );
        assert!(stderr.contains(message), "{client}: {stderr}");
        assert!(stderr.contains("nothing was changed"), "{client}: {stderr}");
        assert_eq!(
            fs::read(&config).expect("file"),
            broken.as_bytes(),
            "{client}"
        );
        assert_eq!(
            file_names(config.parent().expect("folder")),
            [file_name],
            "{client}"
        );
        assert!(out.stdout.is_empty(), "{client}");
    }
}

#[test]
fn print_writes_nothing_and_shows_what_a_new_file_gets() {
    for client in [
        "claude-desktop",
        "claude-code",
        "codex",
        "cursor",
        "vscode",
        "gemini-cli",
    ] {
        let scene = Scene::new();
        let existing = scene.config("existing", b"{\"mcpServers\": {}}");
        let printed = scene.setup(client, &existing, &["--print"]);
        assert_eq!(printed.status.code(), Some(0), "{}", text(&printed.stderr));
        assert_eq!(fs::read(&existing).expect("file"), b"{\"mcpServers\": {}}");
        let missing = scene.dir.path().join("config/new/folder/file");
        let printed_for_new = scene.setup(client, &missing, &["--print"]);
        assert_eq!(printed_for_new.stdout, printed.stdout, "{client}");
        assert_eq!(file_names(&scene.dir.path().join("config")), ["existing"]);
        assert!(
            text(&printed.stderr).contains("nothing was written"),
            "{}",
            text(&printed.stderr)
        );

        let block = text(&printed.stdout);
        assert_eq!(
            read_as(client, &block),
            json!({servers_key(client): {"obsidian-tc": expected_entry(client, &scene.vault)}}),
            "{client}: {block}"
        );
        // Without --print a new file (and its folders) gets exactly that block.
        let out = scene.setup(client, &missing, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).starts_with("Created "),
            "{}",
            text(&out.stdout)
        );
        assert_eq!(fs::read_to_string(&missing).expect("created"), block);
        assert_eq!(file_names(missing.parent().expect("folder")), ["file"]);
    }
}

#[test]
fn the_default_file_is_the_clients_own_under_home() {
    let scene = Scene::new();
    let home = scene.dir.path();
    let vault = path_str(&scene.vault);
    let out = obsidian_tc(home, &["setup", "cursor", "--vault", vault], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let cursor = home.join(".cursor/mcp.json");
    assert!(text(&out.stdout).contains(path_str(&cursor)));
    assert_eq!(
        read_as("cursor", &fs::read_to_string(&cursor).expect("created"))["mcpServers"]["obsidian-tc"],
        expected_entry("cursor", &scene.vault)
    );

    let codex_home = home.join("codex home");
    let out = obsidian_tc(
        home,
        &["setup", "codex", "--vault", vault, "--name", "work_2"],
        &[("CODEX_HOME", &codex_home)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let codex = read_as(
        "codex",
        &fs::read_to_string(codex_home.join("config.toml")).expect("created"),
    );
    assert_eq!(
        codex["mcp_servers"]["obsidian-tc-work_2"],
        expected_entry("codex", &scene.vault)
    );
}

#[test]
fn bad_requests_are_refused_before_any_file_is_touched() {
    let scene = Scene::new();
    let config = scene.dir.path().join("mcp.json");
    let missing_vault = scene.dir.path().join("no such vault");
    let out = obsidian_tc(
        scene.dir.path(),
        &[
            "setup",
            "vscode",
            "--vault",
            path_str(&missing_vault),
            "--config-path",
            path_str(&config),
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no such vault"),
        "{}",
        text(&out.stderr)
    );

    let out = scene.setup("vscode", &config, &["--name", "my vault"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--name \"my vault\""),
        "{}",
        text(&out.stderr)
    );

    let folder = scene.config("x", b"");
    let out = scene.setup("vscode", folder.parent().expect("folder"), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is not a file"),
        "{}",
        text(&out.stderr)
    );
    assert!(!config.exists());
    assert_eq!(file_names(folder.parent().expect("folder")), ["x"]);
}

/// An existing entry of the same name (`tests/fixtures/setup/existing/<client>/`): the client,
/// what the report says, the entry afterwards.
fn existing_entry_cases(vault: &Path) -> [(&'static str, &'static str, Value); 3] {
    [
        ("vscode", "Updated the existing \"obsidian-tc\" entry", {
            let mut entry = expected_entry("vscode", vault);
            entry["env"] = json!({"RUST_LOG": "debug"});
            entry
        }),
        (
            "codex",
            "changed command, args; its other settings were kept",
            {
                let mut entry = expected_entry("codex", vault);
                entry["startup_timeout_sec"] = json!(30);
                entry["env"] = json!({"RUST_LOG": "debug"});
                entry
            },
        ),
        (
            "cursor",
            "Replaced the existing \"obsidian-tc\" entry",
            expected_entry("cursor", vault),
        ),
    ]
}

#[test]
fn an_existing_entry_is_brought_up_to_date_and_says_so() {
    let scene = Scene::new();
    for (client, report_says, entry) in existing_entry_cases(&scene.vault) {
        let file_name = if client == "codex" {
            "config.toml"
        } else {
            "mcp.json"
        };
        let old = text(&fixture(&format!("existing/{client}/{file_name}")));
        let config = scene.config(file_name, old.as_bytes());
        let out = scene.setup(client, &config, &[]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).contains(report_says),
            "{}",
            text(&out.stdout)
        );
        let new = fs::read_to_string(&config).expect("file");
        let key = servers_key(client);
        assert_eq!(read_as(client, &new)[key]["obsidian-tc"], entry, "{new}");
        assert_eq!(
            without_entry(read_as(client, &new), client, "obsidian-tc", false),
            without_entry(read_as(client, &old), client, "obsidian-tc", false)
        );
        // Only the entry's old values changed; the other entries and the comments stay.
        let (old_middle, _) = difference(&old, &new);
        for kept in ["memory", "docs", "playwright", "model"] {
            assert!(
                !old_middle.contains(kept),
                "{client}: lost {kept:?} in {old_middle:?}"
            );
        }
        for comment in [
            "// added by an older obsidian-tc",
            "// the old install",
            "# the old install",
        ] {
            assert_eq!(
                old.contains(comment),
                new.contains(comment),
                "{client}: {new}"
            );
        }
        let again = scene.setup(client, &config, &[]);
        assert!(text(&again.stdout).contains("nothing was changed"));
        assert_eq!(fs::read_to_string(&config).expect("file"), new);
        fs::remove_dir_all(config.parent().expect("folder")).expect("clean");
    }
}
