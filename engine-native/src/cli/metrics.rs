//! `obsidian-tc metrics [VAULT_OR_CONFIG | --config FILE]`: the Prometheus metrics of the
//! configuration's cache database, for a server without an HTTP transport (stdio): the same
//! families `/metrics` shows, built from the event log and the stored index
//! ([`crate::runtime::metrics::from_cache`]). `--url URL [--token TOKEN]` fetches `/metrics`
//! from a running HTTP server instead and prints it as served.

use std::time::Duration;

use reqwest::StatusCode;

use crate::cli::args::MetricsArgs;
use crate::cli::source::{existing_cache_db, load_config_or_exit, open_dispatcher_or_exit};
use crate::cli::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE};
use crate::mcp::http::metrics_route::{METRICS_PATH, METRICS_SCOPE};

/// The environment variable a token for `--url` is read from when `--token` is not given
/// (the static token of `auth.mode: token`).
pub const TOKEN_VAR: &str = "OBSIDIAN_TC_HTTP_TOKEN";

/// How long a fetch from a running server may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(30);

/// Prints the metrics on stdout: exit 0, 1 when the cache or the server could not give them,
/// 2 on bad usage.
pub fn run_metrics(args: MetricsArgs) -> u8 {
    let text = match &args.url {
        Some(url) => {
            let token = args
                .token
                .clone()
                .or_else(|| std::env::var(TOKEN_VAR).ok())
                .filter(|token| !token.trim().is_empty());
            fetch(url, token.as_deref())
        }
        None => match from_cache(&args) {
            Ok(text) => Ok(text),
            Err(code) => return code,
        },
    };
    match text {
        Ok(text) => {
            print!("{text}");
            EXIT_OK
        }
        Err((message, code)) => {
            eprintln!("{message}");
            code
        }
    }
}

/// The metrics of the cache of the configuration `args` names; the exit code after saying
/// why on stderr when there is no cache yet or it cannot be read.
fn from_cache(args: &MetricsArgs) -> Result<String, u8> {
    let mut config = load_config_or_exit(&args.flags)?;
    existing_cache_db(&mut config)?;
    let dispatcher = open_dispatcher_or_exit(config)?;
    dispatcher
        .runtime()
        .cache_metrics_text()
        .map_err(|message| {
            eprintln!("{message}");
            EXIT_FAILURE
        })
}

/// The `/metrics` text of the server at `url`, or what went wrong and the exit code.
fn fetch(url: &str, token: Option<&str>) -> Result<String, (String, u8)> {
    let endpoint = metrics_url(url).map_err(|message| (message, EXIT_USAGE))?;
    let failed = |message: String| (message, EXIT_FAILURE);
    let client = crate::http_client::blocking_builder()
        .timeout(FETCH_TIMEOUT)
        .build()
        .map_err(|error| failed(format!("cannot start an HTTP client: {error}")))?;
    let mut request = client.get(&endpoint);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().map_err(|error| {
        failed(format!(
            "cannot reach {endpoint}: {error}; is `obsidian-tc serve --http` running there?"
        ))
    })?;
    let status = response.status();
    let body = response
        .text()
        .map_err(|error| failed(format!("cannot read the answer of {endpoint}: {error}")))?;
    match status {
        StatusCode::OK => Ok(body),
        StatusCode::UNAUTHORIZED => Err(failed(format!(
            "{endpoint} wants a bearer token{}: pass --token, or set {TOKEN_VAR}",
            if token.is_some() {
                " and refused the one given"
            } else {
                ""
            }
        ))),
        StatusCode::FORBIDDEN => Err(failed(format!(
            "{endpoint} refused the request ({}); a token needs the scope {METRICS_SCOPE} and no \
             vault binding",
            body.trim()
        ))),
        StatusCode::NOT_FOUND => Err(failed(format!(
            "{endpoint} has no metrics: observability.metrics.enabled is off on that server, \
             or it is not obsidian-tc"
        ))),
        other => Err(failed(format!(
            "{endpoint} answered {other}: {}",
            body.trim()
        ))),
    }
}

/// The metrics URL of `url`: a server's base URL gets [`METRICS_PATH`].
fn metrics_url(url: &str) -> Result<String, String> {
    let parsed = reqwest::Url::parse(url).map_err(|error| {
        format!("--url {url:?} is not a URL ({error}); pass e.g. http://127.0.0.1:8787")
    })?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(format!("--url {url:?} must be an http:// or https:// URL"));
    }
    if matches!(parsed.path(), "" | "/") {
        return Ok(format!("{}{METRICS_PATH}", url.trim_end_matches('/')));
    }
    Ok(url.to_owned())
}
