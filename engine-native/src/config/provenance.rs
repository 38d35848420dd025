//! Where each effective config value came from: a flag, an environment variable, the config
//! file, a default, or a value derived from another (for `config explain`).

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde_json::Value;

use crate::schema::JsonPath;

/// The origin of one config value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The built-in default.
    Default,
    /// The config file at `file`, at `at` inside it.
    File {
        /// The config file.
        file: PathBuf,
        /// Where in the file.
        at: JsonPath,
    },
    /// An environment variable.
    Env {
        /// The variable's name.
        name: String,
    },
    /// A command-line flag or argument.
    Flag {
        /// The flag as typed, e.g. `--http-port`.
        name: String,
    },
    /// Computed from other values.
    Derived {
        /// How it was computed.
        reason: String,
    },
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Default => f.write_str("default"),
            Source::File { file, at } => write!(f, "file {} at {at}", file.display()),
            Source::Env { name } => write!(f, "env {name}"),
            Source::Flag { name } => write!(f, "flag {name}"),
            Source::Derived { reason } => write!(f, "derived: {reason}"),
        }
    }
}

/// The source of every value set so far, keyed by the path where it was set. A value inside
/// an object or array takes the source of its nearest recorded ancestor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Provenance {
    sources: BTreeMap<JsonPath, Source>,
}

impl Provenance {
    /// Records that the value at `path` (and everything inside it) comes from `source`.
    pub fn set(&mut self, path: JsonPath, source: Source) {
        self.sources
            .retain(|recorded, _| !recorded.starts_with(&path));
        self.sources.insert(path, source);
    }

    /// Records `make_source(leaf)` for every leaf of `value`, which sits at `path`.
    pub fn set_leaves(
        &mut self,
        path: &JsonPath,
        value: &Value,
        make_source: &dyn Fn(&JsonPath) -> Source,
    ) {
        for (leaf, _) in leaves(path, value) {
            let source = make_source(&leaf);
            self.set(leaf, source);
        }
    }

    /// The source of the value at `path`: the one recorded at its nearest ancestor-or-self.
    pub fn source_of(&self, path: &JsonPath) -> Option<&Source> {
        self.sources
            .iter()
            .filter(|(recorded, _)| path.starts_with(recorded))
            .max_by_key(|(recorded, _)| recorded.segments().len())
            .map(|(_, source)| source)
    }

    /// The source recorded exactly at the path written `shown` (as problems name paths, e.g.
    /// `vaults[0].companion.url`), when one is.
    pub fn source_shown_at(&self, shown: &str) -> Option<&Source> {
        self.sources
            .iter()
            .find(|(recorded, _)| recorded.to_string() == shown)
            .map(|(_, source)| source)
    }
}

/// The scalar values and empty containers inside `value` (at `path`), with their paths.
pub fn leaves<'v>(path: &JsonPath, value: &'v Value) -> Vec<(JsonPath, &'v Value)> {
    let mut out = Vec::new();
    collect_leaves(path, value, &mut out);
    out
}

fn collect_leaves<'v>(path: &JsonPath, value: &'v Value, out: &mut Vec<(JsonPath, &'v Value)>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, child) in map {
                collect_leaves(&path.key(key), child, out);
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (index, child) in items.iter().enumerate() {
                collect_leaves(&path.index(index), child, out);
            }
        }
        _ => out.push((path.clone(), value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nearest_recorded_ancestor_wins_and_overrides_clear_descendants() {
        let mut provenance = Provenance::default();
        provenance.set_leaves(&JsonPath::root(), &json!({"a": {"b": 1, "c": 2}}), &|_| {
            Source::Default
        });
        let env = Source::Env { name: "X".into() };
        provenance.set(JsonPath::keys("a"), env.clone());
        assert_eq!(provenance.source_of(&JsonPath::keys("a.b")), Some(&env));
        provenance.set(JsonPath::keys("a.c"), Source::Default);
        assert_eq!(
            provenance.source_of(&JsonPath::keys("a.c")),
            Some(&Source::Default)
        );
        assert_eq!(provenance.source_of(&JsonPath::keys("z")), None);
    }
}
