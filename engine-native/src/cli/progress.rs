//! [`Progress`]: how a long command shows how far it is on stderr: a progress bar on a
//! terminal, a plain line every few seconds (and at the end) otherwise, so logs and pipes get
//! readable text.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{HumanBytes, ProgressBar, ProgressStyle};

/// How often a non-terminal stderr gets a progress line.
const LOG_EVERY: Duration = Duration::from_secs(2);

/// What is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Things, named e.g. `notes` or `chunks embedded`.
    Count(&'static str),
    /// Bytes, shown as MB.
    Bytes,
}

/// A progress display for one task.
pub struct Progress {
    prefix: String,
    unit: Unit,
    bar: Option<ProgressBar>,
    last_line: Option<Instant>,
    last_done: Option<u64>,
}

impl Progress {
    /// A display labelled `prefix` (e.g. `indexing main`) counting `unit`.
    pub fn new(prefix: impl Into<String>, unit: Unit) -> Progress {
        let prefix = prefix.into();
        let bar = std::io::stderr().is_terminal().then(|| {
            let counts = match unit {
                Unit::Count(name) => format!("{{pos}}/{{len}} {name} {{per_sec}}"),
                Unit::Bytes => "{bytes}/{total_bytes} {bytes_per_sec}".to_owned(),
            };
            let bar = ProgressBar::new(0);
            if let Ok(style) = ProgressStyle::with_template(&format!(
                "{{prefix}} [{{bar:32}}] {counts} eta {{eta}}"
            )) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix(prefix.clone());
            bar
        });
        Progress {
            prefix,
            unit,
            bar,
            last_line: None,
            last_done: None,
        }
    }

    /// `done` of `total` (unknown: `None`) are finished.
    pub fn update(&mut self, done: u64, total: Option<u64>) {
        if let Some(bar) = &self.bar {
            if let Some(total) = total {
                bar.set_length(total);
            }
            bar.set_position(done);
            return;
        }
        let finished = total == Some(done);
        let due = self.last_line.is_none_or(|at| at.elapsed() >= LOG_EVERY);
        if (due || finished) && self.last_done != Some(done) {
            eprintln!("{}: {}", self.prefix, self.amount(done, total));
            self.last_line = Some(Instant::now());
            self.last_done = Some(done);
        }
    }

    /// Removes the bar (a terminal) once the task is over.
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }

    fn amount(&self, done: u64, total: Option<u64>) -> String {
        match self.unit {
            Unit::Count(name) => match total {
                Some(total) => format!("{done}/{total} {name}"),
                None => format!("{done} {name}"),
            },
            Unit::Bytes => match total {
                Some(total) => format!("{} of {}", HumanBytes(done), HumanBytes(total)),
                None => format!("{}", HumanBytes(done)),
            },
        }
    }
}
