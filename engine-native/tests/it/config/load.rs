//! The pure loader: defaults, priority, located problems, auth refusal, zero-config, paths,
//! provenance.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use obsidian_tc::config::{
    ConfigErrors, ConfigFlags, ConfigOrigin, FacadeMode, LoadInput, LoadedConfig, Source,
    ThrottleTiers, load,
};

use crate::support::test_name;

fn from_file(path: &str, text: &str) -> LoadInput {
    LoadInput {
        origin: ConfigOrigin::File {
            path: PathBuf::from(path),
            text: text.to_owned(),
        },
        env: BTreeMap::new(),
        overrides: Vec::new(),
    }
}

const ONE_VAULT: &str = r#"{"vaults": [{"id": "main", "path": "/v"}]}"#;

fn ok(input: &LoadInput) -> LoadedConfig {
    load(input).unwrap_or_else(|e| panic!("expected a valid config, got {e}"))
}

fn problems(input: &LoadInput) -> Vec<String> {
    let ConfigErrors(list) = load(input).expect_err("expected problems");
    list.iter().map(ToString::to_string).collect()
}

fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn defaults_are_the_originals() {
    let config = ok(&from_file("/cfg/c.json", ONE_VAULT)).config;
    assert_eq!(config.governor.max_response_bytes, 1_000_000);
    assert_eq!(config.tool_facade.mode, FacadeMode::Triad);
    assert!(config.throttle.enabled);
    let t = ThrottleTiers::default();
    let pairs = [t.read, t.write, t.delete, t.bulk, t.execute, t.admin]
        .map(|tier| (tier.per_minute(), tier.burst()));
    assert_eq!(
        pairs,
        [(600, 100), (60, 20), (60, 20), (10, 3), (5, 1), (5, 1)]
    );
    assert_eq!(config.throttle.tiers, t);
    assert_eq!(
        (
            config.idempotency_ttl_seconds,
            config.idempotency_reclaim_seconds,
            config.elicit_ttl_seconds
        ),
        (86_400, 60, 300)
    );
    assert_eq!(config.transports.http.host, "127.0.0.1");
    assert_eq!(config.transports.http.port, 8765);
    assert!(!config.transports.http.enabled && config.transports.stdio.enabled);
}

#[test]
fn file_overrides_default_env_overrides_file_flag_overrides_env() {
    let file = r#"{"vaults": [{"id": "main", "path": "/v"}],
        "transports": {"http": {"port": 9001}}, "toolFacade": {"mode": "domain"},
        "throttle": {"tiers": {"read": {"burst": 7}}}}"#;
    let mut input = from_file("/cfg/c.json", file);
    let loaded = ok(&input);
    assert_eq!(loaded.config.transports.http.port, 9001);
    assert_eq!(loaded.config.tool_facade.mode, FacadeMode::Domain);
    assert_eq!(loaded.config.throttle.tiers.read.burst(), 7);
    assert_eq!(
        loaded.config.throttle.tiers.read.per_minute(),
        600,
        "partial tier keeps defaults"
    );

    input.env = env(&[
        ("OBSIDIAN_TC_HTTP_PORT", "9002"),
        ("OBSIDIAN_TC_TOOL_FACADE", "flat"),
    ]);
    let loaded = ok(&input);
    assert_eq!(loaded.config.transports.http.port, 9002);
    assert_eq!(loaded.config.tool_facade.mode, FacadeMode::Flat);

    input.overrides = ConfigFlags {
        http_port: Some(9003),
        ..ConfigFlags::default()
    }
    .overrides();
    let loaded = ok(&input);
    assert_eq!(loaded.config.transports.http.port, 9003);
    assert_eq!(
        loaded.config.tool_facade.mode,
        FacadeMode::Flat,
        "env still applies"
    );
}

#[test]
fn unknown_key_deep_inside_is_reported_with_its_path() {
    let file = r#"{"vaults": [{"id": "a", "path": "/a"},
        {"id": "b", "path": "/b", "acl": {"readpaths": ["x/**"]}}]}"#;
    let found = problems(&from_file("/cfg/c.json", file));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("vaults[1].acl.readpaths: unknown key; the keys here are: "),
        "{found:?}"
    );
    assert!(found[0].contains("readPaths"));
}

#[test]
fn several_problems_are_reported_together() {
    let file = r#"{"vaults": [{"id": "main", "path": "/v", "colour": "red"}],
        "transports": {"http": {"port": 70000, "hots": "x"}},
        "toolFacade": {"mode": "auto"}, "throttle": {"enabled": "yes"}}"#;
    let found = problems(&from_file("/cfg/c.json", file));
    assert_eq!(found.len(), 5, "{found:#?}");
    let expected_starts = [
        "throttle.enabled: expected boolean",
        "toolFacade.mode: must be one of \"triad\", \"domain\", \"flat\"; found \"auto\"",
        "transports.http.hots: unknown key",
        "transports.http.port: must be between 0 and 65535",
        "vaults[0].colour: unknown key",
    ];
    for start in expected_starts {
        assert!(
            found.iter().any(|p| p.starts_with(start)),
            "{start} not in {found:#?}"
        );
    }
}

#[test]
fn a_bad_env_value_names_its_variable() {
    let mut input = from_file("/cfg/c.json", ONE_VAULT);
    input.env = env(&[("OBSIDIAN_TC_HTTP_PORT", "eighty")]);
    assert_eq!(
        problems(&input),
        [
            "transports.http.port (from env OBSIDIAN_TC_HTTP_PORT): expected integer, found string \"eighty\""
        ]
    );
}

#[test]
fn default_vault_comes_from_obsidian_tc_default_vault_and_falls_back_to_the_first() {
    let two = r#"{"vaults": [{"id": "main", "path": "/v"}, {"id": "other", "path": "/w"}]}"#;
    let mut input = from_file("/cfg/c.json", two);
    assert_eq!(
        ok(&input).config.default_vault().map(|v| v.id.as_str()),
        Some("main")
    );
    input.env = env(&[("OBSIDIAN_TC_DEFAULT_VAULT", "other")]);
    let loaded = ok(&input);
    assert_eq!(loaded.config.default_vault.as_deref(), Some("other"));
    assert_eq!(
        loaded.config.default_vault().map(|v| v.id.as_str()),
        Some("other")
    );
    input.env = env(&[("OBSIDIAN_TC_DEFAULT_VAULT", "nope")]);
    assert_eq!(
        ok(&input).config.default_vault().map(|v| v.id.as_str()),
        Some("main")
    );
}

#[test]
fn a_bad_index_exclude_glob_is_refused_at_its_path() {
    let input = from_file(
        "/cfg/c.json",
        r#"{"vaults": [{"id": "main", "path": "/v"}], "index": {"exclude": ["ok/**", "/abs"]}}"#,
    );
    let found = problems(&input);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("index.exclude[1]: \"/abs\" is not a glob"),
        "{found:?}"
    );
}

#[test]
fn unauthenticated_http_beyond_loopback_is_refused_with_what_to_do() {
    let file = r#"{"vaults": [{"id": "main", "path": "/v"}],
        "transports": {"http": {"enabled": true, "host": "0.0.0.0"}}}"#;
    let found = problems(&from_file("/cfg/c.json", file));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("transports.http.host: auth.mode \"none\""),
        "{found:?}"
    );
    assert!(
        found[0].contains("127.0.0.1") && found[0].contains("jwt"),
        "{found:?}"
    );

    let mut by_flag = from_file("/cfg/c.json", ONE_VAULT);
    by_flag.overrides = ConfigFlags {
        http: true,
        http_host: Some("192.168.1.20".into()),
        ..ConfigFlags::default()
    }
    .overrides();
    assert_eq!(problems(&by_flag).len(), 1);
}

#[test]
fn unauthenticated_http_on_loopback_is_allowed() {
    for host in ["127.0.0.1", "::1", "localhost"] {
        let file = format!(
            r#"{{"vaults": [{{"id": "main", "path": "/v"}}],
            "transports": {{"http": {{"enabled": true, "host": "{host}"}}}}}}"#
        );
        let config = ok(&from_file("/cfg/c.json", &file)).config;
        assert!(config.transports.http.enabled, "{host}");
    }
}

/// The cache folder itself is `config::cache_home`'s subject.
#[test]
fn a_bare_vault_folder_is_vault_main_with_its_cache_outside() {
    let loaded = ok(&LoadInput {
        origin: ConfigOrigin::VaultFolder(PathBuf::from("/home/me/Notes")),
        env: env(&[
            ("XDG_CACHE_HOME", "/c"),
            ("HOME", "/c"),
            ("LOCALAPPDATA", "/c"),
        ]),
        overrides: Vec::new(),
    });
    assert_eq!(loaded.config.vaults.len(), 1);
    assert_eq!(loaded.config.vaults[0].id, "main");
    assert_eq!(loaded.config.vaults[0].path, "/home/me/Notes");
    assert!(
        loaded.cache_dir().starts_with("/c"),
        "{:?}",
        loaded.cache_dir()
    );
}

/// Set in the child run of the test below: the temp folder it runs in.
const CWD_CHILD_ENV: &str = "OBSIDIAN_TC_TEST_CWD_ELSEWHERE";

#[test]
fn relative_paths_resolve_against_the_config_files_folder_not_the_cwd() {
    // The current folder is the whole process's, shared by every test thread: the loading
    // below runs in a child process (this test binary re-run for this test only) started in
    // a fresh temp folder, which then reports that it got to the end.
    let Some(elsewhere) = std::env::var_os(CWD_CHILD_ENV) else {
        let elsewhere = tempfile::tempdir().expect("temp dir");
        let name = test_name(
            module_path!(),
            "relative_paths_resolve_against_the_config_files_folder_not_the_cwd",
        );
        let output = Command::new(std::env::current_exe().expect("test binary"))
            .args(["--exact", &name, "--test-threads", "1", "--nocapture"])
            .env(CWD_CHILD_ENV, elsewhere.path())
            .current_dir(elsewhere.path())
            .output()
            .expect("run the child");
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(output.status.success(), "the child failed:\n{printed}");
        assert!(
            elsewhere.path().join("done").exists(),
            "the child did not run the test:\n{printed}"
        );
        return;
    };
    let elsewhere = Path::new(&elsewhere);
    assert_eq!(
        std::env::current_dir().expect("cwd"),
        elsewhere.canonicalize().expect("temp dir"),
        "the child runs in the temp folder"
    );
    let file = r#"{"vaults": [{"id": "main", "path": "../vault"}], "cacheDir": "./cache"}"#;
    let loaded = ok(&from_file("/srv/tc/config.json", file));
    assert_eq!(loaded.cache_dir(), Path::new("/srv/tc/cache"));
    assert_eq!(loaded.config.vaults[0].path, "/srv/tc/../vault");

    let without = ok(&from_file("/srv/tc/config.json", ONE_VAULT));
    assert_eq!(without.cache_dir(), Path::new("/srv/tc/.obsidian-tc"));

    let mut relative_env = from_file("/srv/tc/config.json", ONE_VAULT);
    relative_env.env = env(&[("OBSIDIAN_TC_CACHE_DIR", "cache")]);
    assert_eq!(
        problems(&relative_env),
        [
            "cacheDir (from env OBSIDIAN_TC_CACHE_DIR): \"cache\" is relative: give an absolute folder"
        ]
    );
    std::fs::write(elsewhere.join("done"), b"").expect("report the run");
}

#[test]
fn explain_names_the_source_of_each_value() {
    let file = r#"{"vaults": [{"id": "main", "path": "/v"}], "auth": {"jwtSecret": "0123456789abcdef0123456789abcdef"},
        "transports": {"http": {"port": 9001}}}"#;
    let mut input = from_file("/cfg/c.json", file);
    input.env = env(&[("OBSIDIAN_TC_HTTP_HOST", "::1")]);
    input.overrides = ConfigFlags {
        http: true,
        ..ConfigFlags::default()
    }
    .overrides();
    let loaded = ok(&input);
    let source = |path: &str| {
        loaded
            .explain()
            .into_iter()
            .find(|entry| entry.path == path)
            .map(|entry| (entry.value.to_string(), entry.source))
            .unwrap_or_else(|| panic!("{path} not explained"))
    };
    assert_eq!(
        source("transports.http.enabled"),
        ("true".into(), "flag --http".into())
    );
    assert_eq!(
        source("transports.http.host"),
        ("\"::1\"".into(), "env OBSIDIAN_TC_HTTP_HOST".into())
    );
    assert_eq!(
        source("transports.http.port"),
        (
            "9001".into(),
            "file /cfg/c.json at transports.http.port".into()
        )
    );
    assert_eq!(
        source("governor.maxResponseBytes"),
        ("1000000".into(), "default".into())
    );
    assert_eq!(source("auth.jwtSecret").0, "\"<redacted>\"");
    assert!(source("cacheDir").1.starts_with("derived: "));
    assert!(matches!(
        loaded.provenance.source_of(
            &obsidian_tc::schema::JsonPath::keys("vaults")
                .index(0)
                .key("id")
        ),
        Some(Source::File { .. })
    ));
}

#[test]
fn an_invalid_acl_glob_in_a_vault_is_reported_at_its_path() {
    let file = r#"{"vaults": [{"id": "a", "path": "/a"},
        {"id": "b", "path": "/b", "acl": {"readPaths": ["ok/**", "bad/[x"]}}],
        "acl": {"rules": [{"glob": "!x/**", "scopes": []}]}}"#;
    let found = problems(&from_file("/cfg/c.json", file));
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("acl.rules[0].glob: \"!x/**\"")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("vaults[1].acl.readPaths[1]: \"bad/[x\" is not valid")),
        "{found:?}"
    );
}

#[test]
fn vault_ids_must_be_unique_and_present() {
    let file =
        r#"{"vaults": [{"id": "a", "path": "/a"}, {"id": "a", "path": "/b"}, {"path": "/c"}]}"#;
    assert_eq!(
        problems(&from_file("/cfg/c.json", file)),
        ["vaults[2].id: is required but missing"]
    );
    let dup = r#"{"vaults": [{"id": "a", "path": "/a"}, {"id": "a", "path": "/b"}]}"#;
    let found = problems(&from_file("/cfg/c.json", dup));
    assert!(
        found[0].starts_with("vaults[1].id: \"a\" is used by an earlier vault"),
        "{found:?}"
    );
    assert_eq!(
        problems(&from_file("/cfg/c.json", "{}"))[0]
            .split(':')
            .next(),
        Some("vaults")
    );
}

#[test]
fn invalid_json_is_reported_with_its_position() {
    let found = problems(&from_file("/cfg/c.json", "{\"vaults\": [}"));
    assert_eq!(found.len(), 1);
    assert!(
        found[0].contains("/cfg/c.json is not valid JSON") && found[0].contains("line 1"),
        "{found:?}"
    );
}
