//! Callout headers: `[!type]`, `[!type|metadata]`, an optional fold sign `+`/`-`, then an
//! optional title, at the start of a blockquote's first line.

use alloc::string::{String, ToString};

use super::types::CalloutFold;

/// A parsed callout header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    pub(crate) callout_type: String,
    pub(crate) metadata: Option<String>,
    pub(crate) fold: Option<CalloutFold>,
    pub(crate) title: Option<String>,
    /// Where the title starts (inline content after the header).
    pub(crate) title_start: usize,
}

/// Parses a callout header from `text[at..end]` (a blockquote line's content).
pub(crate) fn header(text: &str, at: usize, end: usize) -> Option<Header> {
    let line = text.get(at..end)?;
    let inner_len = line.strip_prefix("[!")?.find(']')?;
    let inner = &line[2..2 + inner_len];
    let (kind, metadata) = match inner.split_once('|') {
        Some((kind, meta)) => (kind, Some(meta.trim().to_string())),
        None => (inner, None),
    };
    let kind = kind.trim();
    if kind.is_empty() {
        return None;
    }
    let mut rest = 2 + inner_len + 1;
    let fold = match line.as_bytes().get(rest) {
        Some(b'+') => Some(CalloutFold::Expanded),
        Some(b'-') => Some(CalloutFold::Collapsed),
        _ => None,
    };
    rest += usize::from(fold.is_some());
    let title_and_after = line[rest..].trim_start_matches([' ', '\t']);
    let title_start = at + line.len() - title_and_after.len();
    let title = title_and_after.trim_end_matches([' ', '\t']);
    Some(Header {
        callout_type: kind.to_lowercase(),
        metadata,
        fold,
        title: (!title.is_empty()).then(|| title.to_string()),
        title_start,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_fold_title_and_metadata() {
        let h = header("[!NOTE]- Title here ", 0, 20).unwrap();
        assert_eq!(h.callout_type, "note");
        assert_eq!(h.fold, Some(CalloutFold::Collapsed));
        assert_eq!(h.title.as_deref(), Some("Title here"));
        assert_eq!(h.title_start, 9);
        let h = header("[!tip|wide]+", 0, 12).unwrap();
        assert_eq!(
            (h.callout_type.as_str(), h.metadata.as_deref()),
            ("tip", Some("wide"))
        );
        assert_eq!((h.fold, h.title), (Some(CalloutFold::Expanded), None));
    }

    #[test]
    fn not_callouts() {
        assert!(header("[!] x", 0, 5).is_none());
        assert!(header("[note] x", 0, 8).is_none());
        assert!(header("[!note x", 0, 8).is_none());
        assert!(header("x [!note]", 0, 9).is_none());
    }
}
