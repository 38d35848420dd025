//! `obsidian-tc --version`, `version` and `-V`: the version of the workspace, the commit the
//! binary was built from (`OBSIDIAN_TC_GIT_COMMIT` when the build was given one, as
//! scripts/test.sh and the release workflow do, else the checkout's `HEAD`, or "unknown"
//! outside git) and the embedding engines of the features it was built with.

use std::process::Command;

use crate::support::mcp::bin;

/// The stdout of `obsidian-tc <args>`, which must exit 0 with nothing on stderr.
fn run(args: &[&str]) -> String {
    let out = Command::new(bin())
        .args(args)
        .output()
        .expect("run obsidian-tc");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The commit the build was given (the test runs in the environment it was built in), else
/// `git rev-parse HEAD` of this checkout, or "unknown" where there is no git checkout.
fn built_commit() -> String {
    if let Ok(given) = std::env::var("OBSIDIAN_TC_GIT_COMMIT") {
        return given;
    }
    Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

fn expected_engines() -> &'static str {
    match (
        cfg!(feature = "local-embeddings"),
        cfg!(feature = "onnx-runtime"),
    ) {
        (true, true) => "candle, onnx-runtime (load-dynamic)",
        (true, false) => "candle",
        _ => "none (remote providers only)",
    }
}

#[test]
fn long_version_names_the_version_the_commit_and_the_engines() {
    let text = run(&["--version"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            format!("obsidian-tc {}", env!("CARGO_PKG_VERSION")),
            format!("commit: {}", built_commit()),
            format!("embedding engines: {}", expected_engines()),
        ],
        "{text}"
    );
}

#[test]
fn the_version_subcommand_says_what_version_flag_says() {
    assert_eq!(run(&["version"]), run(&["--version"]));
}

#[test]
fn short_version_is_one_line() {
    assert_eq!(
        run(&["-V"]),
        format!("obsidian-tc {}\n", env!("CARGO_PKG_VERSION"))
    );
}
