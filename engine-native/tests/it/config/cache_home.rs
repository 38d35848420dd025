//! Where the cache goes: the platform folder of a zero-config vault per environment (keyed by
//! the vault's path), `cacheInVault`, `--cache-dir`, and the config file's folder as before.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use obsidian_tc::config::cache_home::{Platform, vault_key, vaults_root};
use obsidian_tc::config::{ConfigErrors, ConfigFlags, ConfigOrigin, LoadInput, Source, load};
use obsidian_tc::schema::JsonPath;

fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

fn zero_config(vault: &str, pairs: &[(&str, &str)]) -> LoadInput {
    LoadInput {
        origin: ConfigOrigin::VaultFolder(PathBuf::from(vault)),
        env: env(pairs),
        overrides: Vec::new(),
    }
}

fn problems(input: &LoadInput) -> Vec<String> {
    let ConfigErrors(list) = load(input).expect_err("expected problems");
    list.iter().map(ToString::to_string).collect()
}

#[test]
fn each_platform_has_its_cache_folder() {
    // XDG_CACHE_HOME is not read: an MCP client starts the server without it, and the CLI a
    // person runs in a shell that has it must find the same folder
    let both = env(&[("XDG_CACHE_HOME", "/xdg"), ("HOME", "/home/me")]);
    assert_eq!(
        vaults_root(Platform::Xdg, &both).expect("home"),
        Path::new("/home/me/.cache/obsidian-tc/vaults")
    );
    assert_eq!(
        vaults_root(Platform::MacOs, &both).expect("mac"),
        Path::new("/home/me/Library/Caches/obsidian-tc/vaults")
    );
    let windows = env(&[("LOCALAPPDATA", r"C:\Users\me\AppData\Local")]);
    assert_eq!(
        vaults_root(Platform::Windows, &windows)
            .expect("windows")
            .to_string_lossy(),
        r"C:\Users\me\AppData\Local\obsidian-tc\cache\vaults"
    );
    for (platform, needs) in [
        (Platform::Xdg, "HOME"),
        (Platform::MacOs, "HOME"),
        (Platform::Windows, "LOCALAPPDATA"),
    ] {
        let error = vaults_root(platform, &BTreeMap::new()).expect_err("nothing set");
        assert!(error.starts_with(&format!("{needs} is not set")), "{error}");
        assert!(error.contains("--cache-dir"), "{error}");
    }
}

#[test]
fn a_key_is_the_folder_name_and_a_hash_of_the_whole_path() {
    let key = vault_key(Path::new("/home/me/My Notes"));
    let (name, hash) = key.rsplit_once('-').expect("name-hash");
    assert_eq!(name, "My_Notes");
    assert_eq!(hash.len(), 12);
    assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()), "{key}");
    assert_eq!(key, vault_key(Path::new("/home/me/My Notes")), "stable");
    assert_ne!(
        key,
        vault_key(Path::new("/srv/My Notes")),
        "same name, other path"
    );
    assert!(vault_key(Path::new("/")).starts_with("vault-"));
    assert!(vault_key(Path::new("/home/.hidden")).starts_with("hidden-"));
}

#[test]
fn a_bare_vault_folder_has_its_cache_in_the_platform_folder_not_inside() {
    let loaded = load(&zero_config(
        "/home/me/Notes",
        &[
            ("XDG_CACHE_HOME", "/xdg"),
            ("HOME", "/home/me"),
            ("LOCALAPPDATA", "/xdg"),
        ],
    ))
    .expect("zero-config");
    let dir = loaded.cache_dir();
    assert!(!dir.starts_with("/home/me/Notes"), "{}", dir.display());
    let key = vault_key(Path::new("/home/me/Notes"));
    assert_eq!(dir.file_name().expect("key").to_string_lossy(), key);
    if Platform::CURRENT == Platform::Xdg {
        assert_eq!(
            dir,
            Path::new("/home/me/.cache/obsidian-tc/vaults").join(&key)
        );
    }
    let home = loaded.cache_home.as_ref().expect("a platform cache home");
    assert_eq!(home.dir(), dir);
    assert_eq!(home.vault, Path::new("/home/me/Notes"));
    assert!(matches!(
        loaded.provenance.source_of(&JsonPath::keys("cacheDir")),
        Some(Source::Derived { reason }) if reason.contains("platform cache folder")
    ));
}

#[test]
fn without_a_home_the_cache_folder_is_a_located_problem() {
    let found = problems(&zero_config("/home/me/Notes", &[]));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("cacheDir: "), "{found:?}");
    assert!(found[0].contains("is not set"), "{found:?}");
}

#[test]
fn cache_in_vault_keeps_it_inside_from_env_flag_or_file() {
    let by_env = load(&zero_config(
        "/home/me/Notes",
        &[("OBSIDIAN_TC_CACHE_IN_VAULT", "true")],
    ))
    .expect("loads without any home: none is needed");
    assert_eq!(by_env.cache_dir(), Path::new("/home/me/Notes/.obsidian-tc"));
    assert!(by_env.cache_home.is_none());

    let mut by_flag = zero_config("/home/me/Notes", &[]);
    by_flag.overrides = ConfigFlags {
        cache_in_vault: true,
        ..ConfigFlags::default()
    }
    .overrides();
    let by_flag = load(&by_flag).expect("loads");
    assert_eq!(
        by_flag.cache_dir(),
        Path::new("/home/me/Notes/.obsidian-tc")
    );

    let file = LoadInput {
        origin: ConfigOrigin::File {
            path: PathBuf::from("/cfg/c.json"),
            text: r#"{"vaults": [{"id": "a", "path": "/v/a"}, {"id": "b", "path": "/v/b"}],
                      "cacheInVault": true}"#
                .to_owned(),
        },
        env: BTreeMap::new(),
        overrides: Vec::new(),
    };
    assert_eq!(
        load(&file).expect("loads").cache_dir(),
        Path::new("/v/a/.obsidian-tc"),
        "the first vault's"
    );
}

#[test]
fn cache_in_vault_with_cache_dir_is_refused() {
    let found = problems(&zero_config(
        "/home/me/Notes",
        &[
            ("OBSIDIAN_TC_CACHE_IN_VAULT", "1"),
            ("OBSIDIAN_TC_CACHE_DIR", "/elsewhere"),
        ],
    ));
    assert_eq!(
        found,
        [
            "cacheInVault (from env OBSIDIAN_TC_CACHE_IN_VAULT): cacheDir is set too: keep one of the two"
        ]
    );
}

#[test]
fn cache_dir_overrides_the_platform_folder() {
    let mut input = zero_config("/home/me/Notes", &[]);
    input.overrides = ConfigFlags {
        cache_dir: Some(PathBuf::from("/fast/cache")),
        ..ConfigFlags::default()
    }
    .overrides();
    let loaded = load(&input).expect("no home needed with --cache-dir");
    assert_eq!(loaded.cache_dir(), Path::new("/fast/cache"));
    assert!(loaded.cache_home.is_none(), "nothing to place");
}

#[test]
fn a_config_file_keeps_its_cache_next_to_it() {
    let input = LoadInput {
        origin: ConfigOrigin::File {
            path: PathBuf::from("/srv/tc/config.json"),
            text: r#"{"vaults": [{"id": "main", "path": "/v"}]}"#.to_owned(),
        },
        env: env(&[("XDG_CACHE_HOME", "/xdg"), ("HOME", "/home/me")]),
        overrides: Vec::new(),
    };
    let loaded = load(&input).expect("loads");
    assert_eq!(loaded.cache_dir(), Path::new("/srv/tc/.obsidian-tc"));
    assert!(loaded.cache_home.is_none());
}
