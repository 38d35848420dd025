//! The two fixture vaults, equal outside `Secret/`, and the ways the caller is kept out of
//! `Secret/`: each [`Variant`] gives a config and a caller.

use std::path::Path;
use std::time::{Duration, SystemTime};

use jsonwebtoken::Algorithm;
use obsidian_tc::auth::{Caller, Verifier};
use obsidian_tc::config::{AuthConfig, AuthMode};
use serde_json::{Value, json};

use crate::support::auth::{SECRET, claims, sign};
use crate::support::dispatch::Fixture;
use crate::support::git;

/// The public notes, the same in both vaults.
const PUBLIC: &[(&str, &str)] = &[
    (
        "Public/alpha.md",
        "---\ntitle: Alpha\ntags: [shared, open]\naliases: [First]\nstatus: draft\n---\n\
         # Alpha\nThe merger of two clubs. #shared\n\n## Tasks\n- [ ] call the bank 📅 2026-01-02\n\
         - [x] write the memo\n\nSee [[beta]] and [[Public/sub/gamma|gamma]]. ^intro\n",
    ),
    (
        "Public/beta.md",
        "# Beta\nMore on the merger, linked from [[alpha]].\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    ),
    (
        "Public/sub/gamma.md",
        "---\ntags: [open]\n---\nGamma talks about bread. #project/open\n",
    ),
    ("2026-01-01.md", "# Daily\n- [ ] public task\n"),
    ("Public/pic.png", "\u{89}PNG not really"),
    (
        "Public/drawing.excalidraw.md",
        "---\nexcalidraw-plugin: parsed\n---\n# Text Elements\nmerger ^t1\n\n%%\n# Drawing\n\
         ```json\n{\"type\":\"excalidraw\",\"version\":2,\"elements\":[],\"appState\":{}}\n```\n%%\n",
    ),
    (
        "Public/board.md",
        "---\nkanban-plugin: basic\n---\n\n## Todo\n\n- [ ] card one\n\n## Done\n\n",
    ),
    (
        "Public/map.canvas",
        r#"{"nodes":[{"id":"n1","type":"text","text":"merger","x":0,"y":0,"width":100,"height":50}],"edges":[]}"#,
    ),
    (
        "Public/table.base",
        "views:\n  - type: table\n    name: All\n",
    ),
    // A goal note of the memory folder's goals subfolder, for `list_goals`.
    (
        "Public/Memory/goals/Close the merger.md",
        "---\ntype: goal\nstatus: open\ntarget: 2026-06-30\ncreated: 2026-01-01\nsource: stated\n---\n\
         Close the merger by June.\n",
    ),
    // The memory folder is `Public/Memory`: an entity related to a secret note and a public one.
    (
        "Public/Memory/merger.md",
        "---\ntype: concept\nabout: \"[[plan]]\"\nsee: \"[[alpha]]\"\n---\n# merger\n\n\
         ## Observations\n\n- Two clubs [date:: 2026-01-01]\n",
    ),
];

/// What `Secret/` holds in each vault: a few notes in one, many more (sharing the public
/// notes' terms, tags, links and task dates) in the other.
fn secret_notes(variant: usize) -> Vec<(String, String)> {
    let mut notes = vec![("Secret/plan.md".to_owned(), "# Plan\nquiet".to_owned())];
    if variant == 1 {
        notes[0].1 = "# Plan\nThe merger, in detail. #shared #secret-tag\n".to_owned();
        for i in 0..60 {
            notes.push((
                format!("Secret/many/{i}.md"),
                format!(
                    "---\ntags: [shared, hidden{i}]\nstatus: final\n---\n# Merger {i}\n\
                     merger merger bread [[alpha]] [[Public/beta]] [[missing{i}]]\n\
                     - [ ] hidden task {i} 📅 2026-01-02\n"
                ),
            ));
        }
        notes.push(("Secret/deep/folder/x.md".to_owned(), "x".to_owned()));
        notes.push((
            "Secret/_next-session.md".to_owned(),
            "---\nstatus: open\n---\nThe merger hand-off.\n".to_owned(),
        ));
        notes.push((
            "Secret/picture.png".to_owned(),
            "not really a png".to_owned(),
        ));
    }
    notes
}

/// Keys of a result that vary between two runs whatever the vaults hold (timings), and the
/// size of an answer the caller already had (a work-memory episode's `result_size`, of the
/// caller's own earlier call, whose answer the caller received in full): set aside, at any
/// depth, before results are compared.
pub const VOLATILE: &[&str] = &[
    "elapsed_ms",
    "last_scan_ms",
    "duration_ms",
    "took_ms",
    "result_size",
];

/// How the caller is kept out of `Secret/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// A stdio caller under `readPaths` (and `writePaths`, `deletePaths`) `["Public/**"]`.
    FolderAcl,
    /// A stdio caller under `strictReadDefault` (no `readPaths`: nothing is readable).
    StrictReadDefault,
    /// A JWT caller granted every scope the tools require but `read:secret`, which an ACL
    /// rule requires on `Secret/**`.
    JwtScopes,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 3] = [
        Variant::FolderAcl,
        Variant::StrictReadDefault,
        Variant::JwtScopes,
    ];

    /// The config root entries of this variant.
    fn config(self) -> Value {
        let acl = match self {
            Variant::FolderAcl => json!({
                "readPaths": ["Public/**", "2026-01-01.md"],
                "writePaths": ["Public/**"],
                "deletePaths": ["Public/**"]
            }),
            Variant::StrictReadDefault => json!({"strictReadDefault": true}),
            Variant::JwtScopes => json!({
                "rules": [{"glob": "Secret/**", "scopes": ["read:secret"]}]
            }),
        };
        json!({
            "throttle": {"enabled": false},
            "acl": acl,
            "vaults": [{
                "id": "main",
                "path": "main",
                "memoryFolder": "Public/Memory",
                "bootstrap": bootstrap_config()
            }]
        })
    }

    /// The caller of this variant on `fx`.
    pub fn caller(self, fx: &Fixture) -> Caller {
        match self {
            Variant::FolderAcl | Variant::StrictReadDefault => Caller::stdio(),
            Variant::JwtScopes => jwt_caller(fx),
        }
    }
}

/// The routing table of vault `main`: domains and deep paths naming public notes and
/// folders, hidden ones (that exist in one vault only) and missing ones, and a hand-off note
/// in `Secret/`.
pub fn bootstrap_config() -> Value {
    json!({
        "domains": [
            {"name": "merger", "signals": ["merger"], "paths": [
                "Public/alpha.md", "Secret/plan.md", "Secret/many/3.md", "Secret/many",
                "Public/sub", "Secret/deep"
            ]},
            {"name": "bread", "signals": ["bread"], "paths": ["Secret/nothing.md", "Public/sub/gamma.md"]}
        ],
        "deepPaths": ["Secret", "Public"],
        "maxPaths": 6,
        "handoffNote": "Secret/_next-session.md"
    })
}

/// A caller made by the real verifier from an HS256 token whose scopes are every scope a
/// tool requires, but not `read:secret`.
fn jwt_caller(fx: &Fixture) -> Caller {
    let mut scopes: Vec<String> = fx
        .server
        .runtime()
        .registry()
        .tools()
        .flat_map(|tool| tool.scopes.iter().map(ToString::to_string))
        .collect();
    scopes.sort();
    scopes.dedup();
    let scopes: Vec<&str> = scopes.iter().map(String::as_str).collect();
    let now = 1_800_000_000;
    let token = sign(Algorithm::HS256, None, &claims(now, "agent", &scopes));
    let auth = AuthConfig {
        mode: AuthMode::Jwt,
        jwt_secret: Some(SECRET.to_owned()),
        ..AuthConfig::default()
    };
    let caller = Verifier::new(&auth)
        .unwrap_or_else(|problem| panic!("verifier: {problem:?}"))
        .verify(&token, now)
        .unwrap_or_else(|failure| panic!("token refused: {failure}"));
    assert!(!caller.scopes.iter().any(|s| s.to_string() == "read:secret"));
    caller
}

/// The two servers of `variant`: vault `main` equal outside `Secret/` in both, indexed.
pub fn pair(variant: Variant) -> [Fixture; 2] {
    [0, 1].map(|which| {
        let fx = Fixture::new(variant.config());
        for (path, text) in PUBLIC {
            fx.write("main", path, text);
        }
        let secrets = secret_notes(which);
        fx.write("main", &secrets[0].0, &secrets[0].1);
        history(&fx, which);
        for (path, text) in &secrets[1..] {
            fx.write("main", path, text);
        }
        same_times(&fx.vault_dir("main"));
        fx.ok("index_vault", json!({}));
        fx
    })
}

/// Makes vault `main` a git repository with two commits: the public notes and the first
/// secret note, then a public note and (in the vault with many hidden notes) the secret
/// note changed again, and in that vault a third commit of the secret note only. The later secret notes stay untracked, and a public note is left
/// changed in the working tree, so that the git tools have hidden commits, hidden changes
/// and hidden untracked files to be blind to.
fn history(fx: &Fixture, which: usize) {
    let dir = fx.vault_dir("main");
    let repo = git::init(&dir);
    git::commit_all(&repo, "import", 0);
    fx.write(
        "main",
        "Public/beta.md",
        &format!("{}\nSecond commit.\n", PUBLIC[1].1),
    );
    if which == 1 {
        fx.write("main", "Secret/plan.md", "# Plan\nThe merger, revised.\n");
    }
    git::commit_all(&repo, "more on beta", 60);
    if which == 1 {
        fx.write("main", "Secret/plan.md", "# Plan\nThe merger, final.\n");
        git::commit_all(&repo, "a hidden commit", 120);
    }
    fx.write(
        "main",
        "Public/beta.md",
        &format!("{}\nIn the working tree.\n", PUBLIC[1].1),
    );
}

/// Sets every file and folder outside `Secret/` (the vault folder too) to one fixed
/// modification time, so file times differ only where the vaults do.
fn same_times(root: &Path) {
    let fixed = SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600);
    let mut stack = vec![root.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.ends_with("Secret") {
            continue;
        }
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).expect("read_dir") {
                stack.push(entry.expect("entry").path());
            }
        }
        let file = std::fs::File::open(&path).expect("open");
        file.set_modified(fixed).expect("set the modification time");
    }
}

/// What `answers` gives on each vault of `variant`'s pair, called with the variant's caller.
pub fn on_pair<T>(variant: Variant, answers: impl Fn(&Fixture, &Caller) -> T) -> [T; 2] {
    let [a, b] = pair(variant);
    [&a, &b].map(|fx| answers(fx, &variant.caller(fx)))
}

/// The answer of `tool` called by `caller` on `fx` (its error as code and message), as
/// [`canonical`] text.
pub fn ask(fx: &Fixture, caller: &Caller, tool: &str, args: Value) -> String {
    let shown = match fx.call(caller, tool, args).result {
        Ok(value) => value,
        Err(error) => json!({"error": error.code.to_string(), "message": error.message}),
    };
    canonical(fx, &shown)
}

/// `value` with the [`VOLATILE`] keys removed at every depth, the vault folder of `fx`
/// written as `<vault>` and work-memory episode ids (random per server) as `ep_<id>`, as
/// canonical JSON text.
pub fn canonical(fx: &Fixture, value: &Value) -> String {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.retain(|key, _| !VOLATILE.contains(&key.as_str()));
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut value = value.clone();
    strip(&mut value);
    let root = fx.dir.path().to_string_lossy().into_owned();
    let text = value.to_string().replace(&root, "<dir>");
    let episode_id = regex::Regex::new("ep_[0-9a-f]{18}").expect("regex");
    episode_id.replace_all(&text, "ep_<id>").into_owned()
}
