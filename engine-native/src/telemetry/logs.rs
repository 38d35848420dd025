//! The log lines on stderr (stdout carries MCP on stdio): `RUST_LOG` filters, default
//! `warn,obsidian_tc=info`; human-readable text by default (colours only on a terminal, so
//! log files and the clients that capture a server's stderr get plain text), or one JSON
//! object per line with `--log-format json`.

use std::io::IsTerminal;

use clap::ValueEnum;
use tracing::Subscriber;
use tracing_subscriber::filter::{EnvFilter, FilterExt, LevelFilter, filter_fn};
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::{Layer, fmt};

use crate::telemetry::spans::SPAN_TARGET;

/// The filter when `RUST_LOG` is unset or unreadable.
const DEFAULT_FILTER: &str = "warn,obsidian_tc=info";

/// How log lines are written (`--log-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum LogFormat {
    /// One human-readable line per event: time, level, target, message and fields.
    #[default]
    Text,
    /// One JSON object per line: `timestamp`, `level`, `target`, `message` and the event's
    /// fields at the top level, and the spans it happened in.
    Json,
}

/// The log layer in `format`, filtered by `RUST_LOG`; it never takes the tool-call spans
/// ([`SPAN_TARGET`]), so they neither prefix log lines nor exist when export is off.
pub fn layer<S>(format: LogFormat) -> Box<dyn Layer<S> + Send + Sync>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER))
        .and(
            // The hint keeps `RUST_LOG`'s most verbose level the process-wide maximum.
            filter_fn(|metadata| metadata.target() != SPAN_TARGET)
                .with_max_level_hint(LevelFilter::TRACE),
        );
    let lines = fmt::layer().with_writer(std::io::stderr);
    match format {
        LogFormat::Text => lines
            .with_ansi(std::io::stderr().is_terminal())
            .with_filter(filter)
            .boxed(),
        LogFormat::Json => lines.json().flatten_event(true).with_filter(filter).boxed(),
    }
}
