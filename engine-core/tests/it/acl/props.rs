//! Property tests of the ACL module: the glob matcher against a naive recursive reference,
//! literal globs, `**`, path validation invariants, and the hard-deny guarantee.

use engine_core::acl::casefold::eq_folded;
use engine_core::acl::glob::escape;
use engine_core::acl::{
    AclConfig, AclOp, AclPolicy, AclRule, CaseMode, Glob, HARD_DENY_EXEMPT, Scope, is_hard_denied,
    validate_path,
};
use proptest::prelude::*;

/// A naive backtracking glob matcher, written from the documented semantics and nothing
/// else: fine for the short inputs here, exponential in general.
fn reference(pattern: &[char], path: &[char], ci: bool) -> bool {
    go(pattern, 0, path, 0, ci)
}

fn fold(c: char, ci: bool) -> char {
    if ci { c.to_ascii_lowercase() } else { c }
}

/// Whether the star run at `i` is a whole segment.
fn whole_segment_stars(p: &[char], i: usize) -> Option<usize> {
    let run = p[i..].iter().take_while(|&&c| c == '*').count();
    let starts_segment = i == 0 || p[i - 1] == '/';
    let ends_segment = i + run == p.len() || p[i + run] == '/';
    (run >= 2 && starts_segment && ends_segment).then_some(run)
}

/// Whether everything from `i` on is globstar segments separated by `/`.
fn only_globstars(p: &[char], i: usize) -> bool {
    let rest: String = p[i..].iter().collect();
    !rest.is_empty()
        && rest
            .split('/')
            .all(|s| s.len() >= 2 && s.chars().all(|c| c == '*'))
}

fn go(p: &[char], i: usize, s: &[char], j: usize, ci: bool) -> bool {
    if i == p.len() {
        return j == s.len();
    }
    match p[i] {
        '/' if only_globstars(p, i + 1) => j == s.len() || s[j] == '/',
        '*' => match whole_segment_stars(p, i) {
            Some(run) if i + run == p.len() => true,
            Some(run) => {
                let after = i + run + 1;
                go(p, after, s, j, ci)
                    || (j..s.len()).any(|k| s[k] == '/' && go(p, after, s, k + 1, ci))
            }
            None => {
                let run = p[i..].iter().take_while(|&&c| c == '*').count();
                if run >= 2 {
                    (j..=s.len()).any(|k| go(p, i + run, s, k, ci))
                } else {
                    (j..=s.len())
                        .take_while(|&k| k == j || s[k - 1] != '/')
                        .any(|k| go(p, i + 1, s, k, ci))
                }
            }
        },
        '?' => j < s.len() && s[j] != '/' && go(p, i + 1, s, j + 1, ci),
        '[' => {
            let close = i + 2 + p[i + 2..].iter().position(|&c| c == ']').unwrap();
            let (negated, body) = match p[i + 1] {
                '!' => (true, &p[i + 2..close]),
                _ => (false, &p[i + 1..close]),
            };
            if j >= s.len() || s[j] == '/' {
                return false;
            }
            let c = fold(s[j], ci);
            let in_class = |x: char| {
                let mut k = 0;
                while k < body.len() {
                    if k + 2 < body.len() && body[k + 1] == '-' {
                        if body[k] <= x && x <= body[k + 2] {
                            return true;
                        }
                        k += 3;
                    } else {
                        if fold(body[k], ci) == x {
                            return true;
                        }
                        k += 1;
                    }
                }
                false
            };
            let hit = in_class(c) || (ci && in_class(c.to_ascii_uppercase()));
            hit != negated && go(p, close + 1, s, j + 1, ci)
        }
        c => j < s.len() && fold(s[j], ci) == fold(c, ci) && go(p, i + 1, s, j + 1, ci),
    }
}

fn segment() -> impl Strategy<Value = String> {
    let atom = prop::sample::select(vec![
        "a", "b", "A", ".", "*", "**", "?", "[ab]", "[!a]", "[A-B]",
    ]);
    prop_oneof![
        1 => Just("**".to_string()),
        4 => prop::collection::vec(atom, 1..4).prop_map(|atoms| {
            let s = atoms.concat();
            if s == "." || s == ".." { "a".to_string() } else { s }
        }),
    ]
}

fn pattern() -> impl Strategy<Value = String> {
    prop::collection::vec(segment(), 1..5).prop_map(|segments| segments.join("/"))
}

fn raw_path() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!['a', 'b', 'A', 'B', '/', '.']),
        0..12,
    )
    .prop_map(|chars| chars.into_iter().collect())
}

fn valid_path() -> impl Strategy<Value = String> {
    let name = prop::collection::vec(
        prop::sample::select(vec!["a", "b", "A", ".", "é", "e\u{301}", "🧠", " ", "-"]),
        1..5,
    )
    .prop_map(|parts| parts.concat());
    prop::collection::vec(name, 1..5)
        .prop_map(|segments| segments.join("/"))
        .prop_filter("valid", |p| validate_path(p).is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn glob_agrees_with_the_reference(pattern in pattern(), path in raw_path(), ci in any::<bool>()) {
        let case = if ci { CaseMode::Insensitive } else { CaseMode::Sensitive };
        let glob = Glob::compile(&pattern, case).unwrap();
        let p: Vec<char> = pattern.chars().collect();
        let s: Vec<char> = path.chars().collect();
        prop_assert_eq!(glob.matches(&path), reference(&p, &s, ci), "pattern {:?} path {:?} ci {}", pattern, path, ci);
    }

    #[test]
    fn glob_agrees_with_the_reference_past_64_tokens(
        prefix in prop_oneof![
            prop::collection::vec(prop::sample::select(vec!['a', 'b']), 52..66),
            prop::collection::vec(prop::sample::select(vec!['a', 'b']), 116..130),
        ],
        tail in pattern(),
        path_tail in raw_path(),
        flip in any::<bool>(),
        ci in any::<bool>(),
    ) {
        // A literal head of 52-65 or 116-129 tokens puts the tail's wildcards on the edges of
        // the 64-state words (states 63/64 and 127/128).
        let head: String = prefix.into_iter().collect();
        let pattern = format!("{head}/{tail}");
        let path = if flip { format!("{head}/{path_tail}") } else { format!("{head}{path_tail}") };
        let case = if ci { CaseMode::Insensitive } else { CaseMode::Sensitive };
        let glob = Glob::compile(&pattern, case).unwrap();
        let p: Vec<char> = pattern.chars().collect();
        let s: Vec<char> = path.chars().collect();
        prop_assert_eq!(glob.matches(&path), reference(&p, &s, ci), "pattern {:?} path {:?} ci {}", pattern, path, ci);
    }

    #[test]
    fn a_glob_without_wildcards_matches_only_itself(literal in valid_path(), other in valid_path(), ci in any::<bool>()) {
        let case = if ci { CaseMode::Insensitive } else { CaseMode::Sensitive };
        let glob = Glob::compile(&escape(&literal), case).unwrap();
        let same = |a: &str, b: &str| {
            let (a, b) = (validate_path(a).unwrap(), validate_path(b).unwrap());
            if ci { eq_folded(&a, &b) } else { a == b }
        };
        prop_assert!(glob.matches(&literal));
        prop_assert_eq!(glob.matches(&other), same(&literal, &other));
    }

    #[test]
    fn globstar_matches_every_valid_path(path in valid_path()) {
        prop_assert!(Glob::compile("**", CaseMode::Sensitive).unwrap().matches(&path));
    }

    #[test]
    fn validation_never_accepts_traversal_and_is_idempotent(
        chars in prop::collection::vec(
            prop::sample::select(vec!['a', '.', '/', '\\', '\0', ' ', ':', 'C', '\u{ff0e}', '\u{2025}', '\u{1}', 'é']),
            0..16,
        )
    ) {
        let input: String = chars.into_iter().collect();
        if let Ok(path) = validate_path(&input) {
            prop_assert!(!path.split('/').any(|s| s == ".." || s == "." || s.is_empty()), "{:?}", path);
            prop_assert!(!path.contains('\0') && !path.contains('\\') && !path.starts_with('/'), "{:?}", path);
            prop_assert_eq!(validate_path(&path), Ok(path.clone()));
        }
    }

    #[test]
    fn evaluation_never_allows_a_hard_denied_path(
        dir in prop::sample::select(vec![
            ".obsidian", ".OBSIDIAN", ".Obsidian", ".obsidian.", ".obsidian ", ".git", ".Git", ".GIT..",
            ".trash", ".Trash", "GIT~1", "sub/.obsidian", "a/b/.git", ".obsidian-tc", ".tra\u{17f}h",
        ]),
        file in prop::sample::select(vec!["app.json", "bookmarks.json", "workspaces.json", "config", "x/y.md"]),
        read_only in any::<bool>(),
        strict in any::<bool>(),
        lists in prop::collection::vec(
            prop::option::of(prop::collection::vec(
                prop::sample::select(vec!["**", "*", ".obsidian/**", ".*/**", "**/*.json", "!.git/**", ".git/**"]),
                0..4,
            )),
            3,
        ),
        op in prop::sample::select(vec![AclOp::Read, AclOp::Write, AclOp::Delete]),
        ci in any::<bool>(),
    ) {
        let strings = |l: &Option<Vec<&str>>| l.as_ref().map(|v| v.iter().map(|s| s.to_string()).collect());
        let config = AclConfig {
            read_only,
            strict_read_default: strict,
            read_paths: strings(&lists[0]),
            write_paths: strings(&lists[1]),
            delete_paths: strings(&lists[2]),
            default_scopes: vec![],
            rules: vec![AclRule { glob: "**".into(), scopes: vec![] }],
        };
        let case = if ci { CaseMode::Insensitive } else { CaseMode::Sensitive };
        let policy = AclPolicy::compile_for(&config, case).unwrap();
        let path = format!("{dir}/{file}");
        prop_assume!(!HARD_DENY_EXEMPT.contains(&path.as_str()));
        prop_assert!(is_hard_denied(&path));
        prop_assert!(!policy.evaluate(&path, op, &[Scope::everything()]).allowed, "{}", path);
    }
}
