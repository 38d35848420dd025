//! A location inside a JSON document, written the way users read it: `vaults[1].acl.readPaths[0]`.

use std::fmt;

/// One step into a JSON value: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Segment {
    /// A key of an object.
    Key(String),
    /// An index of an array.
    Index(usize),
}

/// A path from the root of a config document to one value; the empty path is the root.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JsonPath(Vec<Segment>);

impl JsonPath {
    /// The root of the document.
    pub fn root() -> JsonPath {
        JsonPath(Vec::new())
    }

    /// Parses a dotted path of keys (`transports.http.port`); every segment is a key.
    pub fn keys(dotted: &str) -> JsonPath {
        JsonPath(
            dotted
                .split('.')
                .map(|key| Segment::Key(key.to_owned()))
                .collect(),
        )
    }

    /// This path extended by the object key `key`.
    pub fn key(&self, key: &str) -> JsonPath {
        let mut segments = self.0.clone();
        segments.push(Segment::Key(key.to_owned()));
        JsonPath(segments)
    }

    /// This path extended by the array index `index`.
    pub fn index(&self, index: usize) -> JsonPath {
        let mut segments = self.0.clone();
        segments.push(Segment::Index(index));
        JsonPath(segments)
    }

    /// The steps of this path, root first.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// Whether `self` equals `other` or lies inside it.
    pub fn starts_with(&self, other: &JsonPath) -> bool {
        self.0.starts_with(&other.0)
    }

    /// This path as an RFC 6901 JSON Pointer (`/vaults/1/acl`), for `serde_json::Value::pointer`.
    pub fn to_pointer(&self) -> String {
        self.0
            .iter()
            .map(|segment| match segment {
                Segment::Key(key) => format!("/{}", key.replace('~', "~0").replace('/', "~1")),
                Segment::Index(index) => format!("/{index}"),
            })
            .collect()
    }

    /// Appends a location written relative to this path (as `AclPolicy::compile` reports
    /// them: `readPaths[2]`, `rules[0].glob`) and returns it as text.
    pub fn join_display(&self, relative: &str) -> String {
        if self.0.is_empty() {
            relative.to_owned()
        } else {
            format!("{self}.{relative}")
        }
    }
}

impl fmt::Display for JsonPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("(root)");
        }
        for (i, segment) in self.0.iter().enumerate() {
            match segment {
                Segment::Key(key) if i == 0 => write!(f, "{key}")?,
                Segment::Key(key) => write!(f, ".{key}")?,
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_keys_and_indexes_and_pointers() {
        let path = JsonPath::root()
            .key("vaults")
            .index(1)
            .key("acl")
            .key("a/b");
        assert_eq!(path.to_string(), "vaults[1].acl.a/b");
        assert_eq!(path.to_pointer(), "/vaults/1/acl/a~1b");
        assert_eq!(JsonPath::root().to_string(), "(root)");
        assert_eq!(
            JsonPath::keys("vaults")
                .index(0)
                .join_display("rules[0].glob"),
            "vaults[0].rules[0].glob"
        );
        assert!(path.starts_with(&JsonPath::keys("vaults")));
    }
}
