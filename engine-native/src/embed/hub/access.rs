//! [`HubAccess`]: how the hub is asked: with the token of a hub account, found where
//! `huggingface_hub` finds it (`HF_TOKEN`, else the file `huggingface-cli login` writes), and
//! how long a download waits out an outage or a rate limit ([`WAIT_VAR`]).

use std::fmt;
use std::time::Duration;

use crate::embed::hub::cache::{Env, hf_home, path_var};

/// The variable that sets how many seconds a download waits out failures (an outage, 5xx
/// answers, HTTP 429) before it gives up; [`DEFAULT_WAIT`] when unset.
pub const WAIT_VAR: &str = "OBSIDIAN_TC_HUB_WAIT_SECONDS";

/// How long failures are waited out when [`WAIT_VAR`] is not set.
pub const DEFAULT_WAIT: Duration = Duration::from_secs(60);

/// The token and the patience of the requests to the hub.
#[derive(Clone, PartialEq, Eq)]
pub struct HubAccess {
    /// The hub account's token (gated and private models), sent as `Authorization: Bearer`
    /// to the hub's own host and never to another.
    pub token: Option<String>,
    /// How long a download waits out failures, from the first one after the last progress.
    pub wait: Duration,
}

impl HubAccess {
    /// The access the environment gives: the token of `HF_TOKEN` (or the older
    /// `HUGGING_FACE_HUB_TOKEN`), else of the file `$HF_TOKEN_PATH` (default
    /// `$HF_HOME/token`, see [`hf_home`]); the wait of [`WAIT_VAR`].
    pub fn from_env(env: Env<'_>) -> HubAccess {
        let token = ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"]
            .iter()
            .find_map(|name| clean_token(env(name)))
            .or_else(|| {
                let path = path_var("HF_TOKEN_PATH", env)
                    .or_else(|| hf_home(env).map(|home| home.join("token")))?;
                clean_token(std::fs::read_to_string(path).ok())
            });
        let wait = env(WAIT_VAR).map_or(DEFAULT_WAIT, |value| {
            value
                .trim()
                .parse()
                .map(Duration::from_secs)
                .unwrap_or_else(|_| {
                    tracing::warn!(
                        "{WAIT_VAR}={value:?} is not a number of seconds; waiting {} s",
                        DEFAULT_WAIT.as_secs()
                    );
                    DEFAULT_WAIT
                })
        });
        HubAccess { token, wait }
    }
}

impl fmt::Debug for HubAccess {
    /// Never shows the token.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HubAccess")
            .field("token", &self.token.as_ref().map(|_| "(set)"))
            .field("wait", &self.wait)
            .finish()
    }
}

/// A token without surrounding blanks and line ends; none when empty, as `huggingface_hub`
/// cleans one.
fn clean_token(value: Option<String>) -> Option<String> {
    Some(value?.trim().to_owned()).filter(|token| !token.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn access(vars: &[(&str, &str)]) -> HubAccess {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect();
        HubAccess::from_env(&move |name: &str| {
            vars.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn the_token_comes_from_hf_token_else_from_the_login_file() {
        let home = tempfile::tempdir().expect("home");
        let hf = home.path().join("hf");
        std::fs::create_dir_all(&hf).expect("hf home");
        std::fs::write(hf.join("token"), "hf_file\n").expect("token file");
        let hf_home = hf.display().to_string();
        let from_file = access(&[("HF_HOME", &hf_home), ("HF_TOKEN", " ")]);
        assert_eq!(from_file.token.as_deref(), Some("hf_file"));
        let from_var = access(&[("HF_HOME", &hf_home), ("HF_TOKEN", "hf_var")]);
        assert_eq!(from_var.token.as_deref(), Some("hf_var"));
        let legacy = access(&[("HF_HOME", &hf_home), ("HUGGING_FACE_HUB_TOKEN", "hf_old")]);
        assert_eq!(legacy.token.as_deref(), Some("hf_old"));

        let other = home.path().join("elsewhere");
        std::fs::write(&other, "hf_path").expect("token path");
        let named = access(&[
            ("HF_HOME", &hf_home),
            ("HF_TOKEN_PATH", &other.display().to_string()),
        ]);
        assert_eq!(named.token.as_deref(), Some("hf_path"));
        let home_var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
        let home_path = home.path().display().to_string();
        let tilde = access(&[(home_var, &home_path), ("HF_TOKEN_PATH", "~/elsewhere")]);
        assert_eq!(tilde.token.as_deref(), Some("hf_path"));
        let none = access(&[(home_var, &home_path)]);
        assert_eq!(none.token, None, "no ~/.cache/huggingface/token");
        assert!(!format!("{from_var:?}").contains("hf_var"));
    }

    #[test]
    fn the_wait_is_a_minute_unless_the_variable_says_otherwise() {
        assert_eq!(access(&[]).wait, DEFAULT_WAIT);
        assert_eq!(access(&[(WAIT_VAR, " 5 ")]).wait, Duration::from_secs(5));
        assert_eq!(access(&[(WAIT_VAR, "soon")]).wait, DEFAULT_WAIT);
    }
}
