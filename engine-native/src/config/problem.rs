//! What is wrong with a configuration: every problem found, each with where it is.

use std::fmt;

use crate::config::provenance::Source;

/// One problem: the JSON path of the offending value, where that value came from (when it was
/// not the config file), and what is wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigProblem {
    /// Where the value is, e.g. `vaults[1].acl.readPaths[0]`.
    pub path: String,
    /// The environment variable or flag that supplied the value, if one did.
    pub via: Option<Source>,
    /// What is wrong, and what to do about it.
    pub message: String,
}

impl ConfigProblem {
    /// A problem at `path` with `message`, not attributed to a flag or variable.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> ConfigProblem {
        ConfigProblem {
            path: path.into(),
            via: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.via {
            Some(source @ (Source::Env { .. } | Source::Flag { .. })) => {
                write!(f, "{} (from {source}): {}", self.path, self.message)
            }
            _ => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

/// Every problem found while loading a configuration; loading fails when there is any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigErrors(pub Vec<ConfigProblem>);

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.0.len();
        writeln!(
            f,
            "the configuration has {count} problem{}:",
            if count == 1 { "" } else { "s" }
        )?;
        for problem in &self.0 {
            writeln!(f, "  {problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}
